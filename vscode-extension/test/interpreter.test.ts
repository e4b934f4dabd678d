import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyProbe,
  compareVersions,
  expandInterpreterSetting,
  installCommand,
  resolveInterpreter,
  type ProbeResult,
} from '../src/interpreter';

/** A probe answering from a table; records what it was asked. */
function fakeProbe(table: Record<string, ProbeResult>) {
  const asked: string[] = [];
  const probe = async (interpreter: string): Promise<ProbeResult> => {
    asked.push(interpreter);
    return table[interpreter] ?? { kind: 'not-found', detail: 'ENOENT' };
  };
  return { probe, asked };
}

const ok = (version: string): ProbeResult => ({ kind: 'ok', version });
const noModule: ProbeResult = { kind: 'no-module', detail: "ModuleNotFoundError: No module named 'toolsense'" };

describe('resolveInterpreter', () => {
  it('uses the setting when set, and nothing else', async () => {
    const { probe, asked } = fakeProbe({ '/venv/bin/python': ok('0.1.0'), python3: ok('0.2.0') });
    const r = await resolveInterpreter({ configured: '/venv/bin/python', pythonExtension: async () => '/other/python', probe });
    assert.equal(r.ok, true);
    assert.equal(r.ok && r.interpreter, '/venv/bin/python');
    assert.equal(r.ok && r.source, 'setting');
    assert.deepEqual(asked, ['/venv/bin/python']);
  });

  it('does not fall back when the configured interpreter lacks toolsense', async () => {
    const { probe, asked } = fakeProbe({ '/venv/bin/python': noModule, python3: ok('0.1.0') });
    const r = await resolveInterpreter({ configured: '/venv/bin/python', probe });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.problem, 'no-module');
    assert.equal(!r.ok && r.installCommand, '/venv/bin/python -m pip install toolsense');
    assert.match(!r.ok ? r.message : '', /toolsense\.interpreter/);
    assert.deepEqual(asked, ['/venv/bin/python']);
  });

  it('reports a configured interpreter that does not exist', async () => {
    const { probe } = fakeProbe({});
    const r = await resolveInterpreter({ configured: '/nope/python', probe });
    assert.equal(!r.ok && r.problem, 'not-found');
  });

  it('an empty setting means unset', async () => {
    const { probe, asked } = fakeProbe({ python3: ok('0.1.0') });
    const r = await resolveInterpreter({ configured: '   ', probe });
    assert.equal(r.ok && r.interpreter, 'python3');
    assert.deepEqual(asked, ['python3']);
  });

  it('then the Python extension interpreter', async () => {
    const { probe, asked } = fakeProbe({ '/proj/.venv/bin/python': ok('0.1.3'), python3: ok('0.1.0') });
    const r = await resolveInterpreter({ pythonExtension: async () => '/proj/.venv/bin/python', probe });
    assert.equal(r.ok && r.interpreter, '/proj/.venv/bin/python');
    assert.equal(r.ok && r.source, 'python-extension');
    assert.equal(r.ok && r.version, '0.1.3');
    assert.deepEqual(asked, ['/proj/.venv/bin/python']);
  });

  it('then python3, then python', async () => {
    const a = fakeProbe({ python3: ok('0.1.0'), python: ok('0.1.0') });
    const r1 = await resolveInterpreter({ pythonExtension: async () => undefined, probe: a.probe });
    assert.equal(r1.ok && r1.interpreter, 'python3');
    assert.equal(r1.ok && r1.source, 'path');

    const b = fakeProbe({ python: ok('0.1.0') });
    const r2 = await resolveInterpreter({ probe: b.probe });
    assert.equal(r2.ok && r2.interpreter, 'python');
    assert.deepEqual(b.asked, ['python3', 'python']);
  });

  it('a failing Python extension lookup is ignored', async () => {
    const { probe } = fakeProbe({ python3: ok('0.1.0') });
    const r = await resolveInterpreter({
      pythonExtension: async () => {
        throw new Error('extension broke');
      },
      probe,
    });
    assert.equal(r.ok && r.interpreter, 'python3');
  });

  it('falls through candidates without toolsense, but reports the first runnable one', async () => {
    const { probe } = fakeProbe({ '/proj/.venv/bin/python': noModule, python3: noModule });
    const r = await resolveInterpreter({ pythonExtension: async () => '/proj/.venv/bin/python', probe });
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.interpreter, '/proj/.venv/bin/python');
      assert.equal(r.problem, 'no-module');
      assert.equal(r.installCommand, '/proj/.venv/bin/python -m pip install toolsense');
      assert.match(r.message, /Python extension/);
      assert.equal(r.attempts.length, 3);
    }
  });

  it('a later candidate with toolsense wins over an earlier one without', async () => {
    const { probe } = fakeProbe({ '/proj/.venv/bin/python': noModule, python3: ok('0.1.0') });
    const r = await resolveInterpreter({ pythonExtension: async () => '/proj/.venv/bin/python', probe });
    assert.equal(r.ok && r.interpreter, 'python3');
    assert.equal(r.attempts.length, 2);
  });

  it('rejects a too-old toolsense with an upgrade command', async () => {
    const { probe } = fakeProbe({ python3: ok('0.0.9') });
    const r = await resolveInterpreter({ probe, pathCandidates: ['python3'] });
    assert.equal(!r.ok && r.problem, 'too-old');
    assert.equal(!r.ok && r.installCommand, 'python3 -m pip install --upgrade toolsense');
    assert.match(!r.ok ? r.message : '', /0\.0\.9.*0\.1\.0/);
  });

  it('a toolsense without __version__ counts as too old', async () => {
    const { probe } = fakeProbe({ python3: { kind: 'no-version', detail: 'AttributeError' } });
    const r = await resolveInterpreter({ probe, pathCandidates: ['python3'] });
    assert.equal(!r.ok && r.problem, 'too-old');
  });

  it('says so when no Python exists at all', async () => {
    const { probe } = fakeProbe({});
    const r = await resolveInterpreter({ probe });
    assert.equal(!r.ok && r.problem, 'none');
    assert.match(!r.ok ? r.message : '', /No Python interpreter found \(tried python3, python\)/);
  });

  it('honours minVersion', async () => {
    const { probe } = fakeProbe({ python3: ok('0.1.0') });
    const r = await resolveInterpreter({ probe, minVersion: '0.2', pathCandidates: ['python3'] });
    assert.equal(!r.ok && r.problem, 'too-old');
  });
});

describe('expandInterpreterSetting', () => {
  it('expands ${workspaceFolder} and ~', () => {
    assert.equal(expandInterpreterSetting('${workspaceFolder}/.venv/bin/python', '/w', '/h'), '/w/.venv/bin/python');
    assert.equal(expandInterpreterSetting('~/py/bin/python', '/w', '/h'), '/h/py/bin/python');
    assert.equal(expandInterpreterSetting(' python3.12 ', '/w', '/h'), 'python3.12');
    assert.equal(expandInterpreterSetting('', '/w', '/h'), undefined);
    assert.equal(expandInterpreterSetting(undefined, '/w', '/h'), undefined);
  });
});

describe('installCommand', () => {
  it('quotes paths with spaces', () => {
    assert.equal(installCommand('/My Envs/bin/python'), '"/My Envs/bin/python" -m pip install toolsense');
    assert.equal(installCommand('C:\\Python\\python.exe'), 'C:\\Python\\python.exe -m pip install toolsense');
  });
});

describe('classifyProbe', () => {
  it('reads the version', () => {
    assert.deepEqual(classifyProbe({ exitCode: 0, stdout: '0.1.0\n', stderr: '' }), ok('0.1.0'));
  });
  it('spawn errors mean not found', () => {
    assert.equal(classifyProbe({ spawnError: 'ENOENT', exitCode: null, stdout: '', stderr: '' }).kind, 'not-found');
  });
  it('ModuleNotFoundError means no module', () => {
    const stderr = "Traceback (most recent call last):\n  File \"<string>\", line 1\nModuleNotFoundError: No module named 'toolsense'\n";
    assert.equal(classifyProbe({ exitCode: 1, stdout: '', stderr }).kind, 'no-module');
  });
  it('a missing __version__ means no version', () => {
    const stderr = "AttributeError: module 'toolsense' has no attribute '__version__'";
    assert.equal(classifyProbe({ exitCode: 1, stdout: '', stderr }).kind, 'no-version');
  });
  it('garbage output means no version', () => {
    assert.equal(classifyProbe({ exitCode: 0, stdout: 'None\n', stderr: '' }).kind, 'no-version');
  });
  it('other failures', () => {
    assert.equal(classifyProbe({ exitCode: 1, stdout: '', stderr: 'ImportError: numpy' }).kind, 'failed');
    assert.equal(classifyProbe({ timedOut: true, exitCode: null, stdout: '', stderr: '' }).kind, 'failed');
  });
});

describe('compareVersions', () => {
  it('orders releases and pre-releases', () => {
    assert.equal(compareVersions('0.1.0', '0.1.0'), 0);
    assert.equal(compareVersions('0.1', '0.1.0'), 0);
    assert.equal(compareVersions('0.2.0', '0.1.9'), 1);
    assert.equal(compareVersions('0.1.10', '0.1.9'), 1);
    assert.equal(compareVersions('0.0.9', '0.1.0'), -1);
    assert.equal(compareVersions('0.1.0rc1', '0.1.0'), -1);
    assert.equal(compareVersions('0.1.0.dev3', '0.1.0'), -1);
    assert.equal(compareVersions('0.1.0.post1', '0.1.0'), 0);
    assert.equal(compareVersions('0.1.0+local', '0.1.0'), 0);
    assert.equal(compareVersions('1.0.0', '0.99'), 1);
  });
});
