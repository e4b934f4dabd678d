import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildServerSettings,
  CLIENT_ONLY_SETTING_KEYS,
  explicitValue,
  needsRestart,
  SERVER_SETTING_KEYS,
  type ServerSettingKey,
} from '../src/settings';

const reader = (values: Partial<Record<string, unknown>>) => (key: ServerSettingKey) => values[key];

describe('buildServerSettings', () => {
  it('maps dotted VS Code keys to the nested [tool.toolsense] shape', () => {
    const settings = buildServerSettings(
      reader({
        'diagnostics.debounce_ms': 250,
        'files.tool_definitions': ['**/defs/*.json'],
        'files.exclude': ['**/build/**'],
        'limits.max_file_mb': 8,
        'description.max_length': 512,
        profiles: ['openai-strict', 'mcp'],
        severity: { 'some-rule': 'off' },
        models: { get_weather: 'app.tools:WeatherInput' },
        python_path: ['src'],
        registry: 'registry.json',
        samples: { get_weather: 'samples/weather.json' },
      }),
      true,
    );
    assert.deepEqual(settings, {
      diagnostics: { debounce_ms: 250 },
      files: { tool_definitions: ['**/defs/*.json'], exclude: ['**/build/**'] },
      limits: { max_file_mb: 8 },
      description: { max_length: 512 },
      profiles: ['openai-strict', 'mcp'],
      severity: { 'some-rule': 'off' },
      models: { get_weather: 'app.tools:WeatherInput' },
      python_path: ['src'],
      registry: 'registry.json',
      samples: { get_weather: 'samples/weather.json' },
      trusted: true,
    });
  });

  it('the example from the contract: toolsense.diagnostics.debounce_ms', () => {
    assert.deepEqual(buildServerSettings(reader({ 'diagnostics.debounce_ms': 0 }), false), {
      diagnostics: { debounce_ms: 0 },
      trusted: false,
    });
  });

  it('sends only what the user set, plus the trusted flag', () => {
    assert.deepEqual(buildServerSettings(reader({}), true), { trusted: true });
    assert.deepEqual(buildServerSettings(reader({ registry: null }), false), { trusted: false });
  });

  it('never sends the client-only settings', () => {
    const everything: Record<string, unknown> = { interpreter: '/usr/bin/python3', 'trace.server': 'verbose', trace: { server: 'verbose' } };
    for (const key of SERVER_SETTING_KEYS) {
      everything[key] = 1;
    }
    const settings = buildServerSettings((key) => everything[key], true);
    assert.equal('interpreter' in settings, false);
    assert.equal('trace' in settings, false);
    for (const key of CLIENT_ONLY_SETTING_KEYS) {
      assert.equal((SERVER_SETTING_KEYS as readonly string[]).includes(key), false);
    }
  });

  it('returns plain copies, not the objects it was given', () => {
    const models = Object.freeze({ a: 'm:A' });
    const settings = buildServerSettings(reader({ models }), true);
    assert.deepEqual(settings.models, { a: 'm:A' });
    assert.notEqual(settings.models, models);
    (settings.models as Record<string, string>).b = 'm:B'; // not frozen
  });
});

describe('explicitValue', () => {
  it('is undefined when only the default exists', () => {
    assert.equal(explicitValue({ defaultValue: 100 } as never, 100), undefined);
    assert.equal(explicitValue(undefined, 100), undefined);
  });
  it('is the effective value when set at any scope', () => {
    assert.equal(explicitValue({ globalValue: 5 }, 5), 5);
    assert.equal(explicitValue({ workspaceValue: 7 }, 7), 7);
    assert.equal(explicitValue({ workspaceFolderValue: 9 }, 9), 9);
    assert.equal(explicitValue({ globalValue: 5, workspaceValue: 7 }, 7), 7);
  });
});

describe('needsRestart', () => {
  it('restarts for the interpreter and file globs only', () => {
    const affects = (changed: string[]) => (section: string) =>
      changed.some((c) => c === section || c.startsWith(`${section}.`));
    assert.equal(needsRestart(affects(['toolsense.interpreter'])), true);
    assert.equal(needsRestart(affects(['toolsense.files.tool_calls'])), true);
    assert.equal(needsRestart(affects(['toolsense.diagnostics.debounce_ms'])), false);
    assert.equal(needsRestart(affects(['toolsense.files.exclude'])), false);
    assert.equal(needsRestart(affects(['toolsense.trace.server'])), false);
  });
});
