/** package.json and the TypeScript tables must agree. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { CLIENT_ONLY_SETTING_KEYS, RESTRICTED_SETTING_KEYS, SERVER_SETTING_KEYS } from '../src/settings';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
const properties: Record<string, { title?: string; description?: string; markdownDescription?: string; type?: unknown }> =
  pkg.contributes.configuration.properties;

describe('package.json', () => {
  it('declares exactly the server settings plus the client-only ones', () => {
    const declared = Object.keys(properties).map((k) => k.replace(/^toolsense\./, '')).sort();
    assert.deepEqual(declared, [...SERVER_SETTING_KEYS, ...CLIENT_ONLY_SETTING_KEYS].sort());
  });

  it('describes and types every setting', () => {
    for (const [key, schema] of Object.entries(properties)) {
      assert.ok(schema.markdownDescription, `${key} has no markdownDescription`);
      assert.ok(schema.type, `${key} has no type`);
    }
  });

  it('titles every setting, so the settings editor never shows its snake_case key', () => {
    // VS Code's settings editor shows a setting's `title` when it has one, else words made from its key
    // (microsoft/vscode src/vs/workbench/contrib/preferences/browser/settingsTreeModels.ts, initLabels and
    // settingKeyToDisplayFormat, read 2026-12-07): `files.tool_definitions` would read "Files: Tool_definitions".
    const titles = Object.entries(properties).map(([key, schema]) => [key, schema.title ?? ''] as const);
    for (const [key, title] of titles) {
      assert.match(title, /^[A-Z][A-Za-z ()]+$/, `${key}: title ${JSON.stringify(title)}`);
    }
    assert.equal(new Set(titles.map(([, title]) => title)).size, titles.length, 'titles are unique');
  });

  it('names MCP configurations, server.json and the security rules in its description', () => {
    for (const words of ['MCP client configurations', "server.json", 'security rules']) {
      assert.ok(pkg.description.includes(words), words);
    }
    assert.ok(fs.existsSync(path.join(__dirname, '..', '..', pkg.icon)), 'the icon exists');
    assert.match(fs.readFileSync(path.join(__dirname, '..', '..', '.vscodeignore'), 'utf8'), new RegExp(`^!${pkg.icon}$`, 'm'));
  });

  it('restricts the code-running settings in untrusted workspaces', () => {
    const untrusted = pkg.capabilities.untrustedWorkspaces;
    assert.equal(untrusted.supported, 'limited');
    assert.deepEqual(untrusted.restrictedConfigurations, RESTRICTED_SETTING_KEYS.map((k) => `toolsense.${k}`));
  });

  it('activates on JSON documents and folders (content then decides whether Python starts, src/activation.ts)', () => {
    const events: string[] = pkg.activationEvents;
    assert.deepEqual(events, [
      'onLanguage:json',
      'onLanguage:jsonc',
      'onLanguage:jsonl',
      'workspaceContains:**/toolsense.toml',
      'workspaceContains:**/*.json',
      'workspaceContains:**/*.jsonl',
    ]);
  });

  it('ships the bundled server wheel in the .vsix', () => {
    const ignore = fs.readFileSync(path.join(__dirname, '..', '..', '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!bundled\/\*\.whl$/m);
    assert.match(ignore, /^!bundled\/wheels\/\*\.whl$/m);
    assert.match(pkg.scripts.package, /node scripts\/package\.js/);
  });

  it('contributes the commands', () => {
    const commands = pkg.contributes.commands.map((c: { command: string; category: string; title: string }) => `${c.category}: ${c.title} (${c.command})`);
    assert.deepEqual(commands, [
      'toolsense: Restart Server (toolsense.restartServer)',
      'toolsense: Show Log (toolsense.showLog)',
      'toolsense: Reinstall Bundled Server (toolsense.reinstallServer)',
    ]);
  });

  it('has the trace enum', () => {
    assert.deepEqual((properties['toolsense.trace.server'] as { enum: string[] }).enum, ['off', 'messages', 'verbose']);
  });

  it('pins every dependency', () => {
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      assert.match(String(version), /^\d+\.\d+\.\d+$/, `${name}@${version} is not pinned`);
    }
  });
});
