import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyProbe,
  compareVersions,
  defaultPathCandidates,
  expandInterpreterSetting,
  resolveServer,
  type ProbeResult,
  type ResolveOptions,
} from '../src/interpreter';

/** A probe answering from a table; records what it was asked (with ` -I` when isolated). */
function fakeProbe(table: Record<string, ProbeResult>) {
  const asked: string[] = [];
  const probe = async (interpreter: string, options?: { isolated?: boolean }): Promise<ProbeResult> => {
    asked.push(interpreter + (options?.isolated ? ' -I' : ''));
    return table[interpreter] ?? { kind: 'not-found', detail: 'ENOENT' };
  };
  return { probe, asked };
}

const py = (python: string, toolsense?: string): ProbeResult => ({ kind: 'ok', python, ...(toolsense ? { toolsense } : {}) });
const base: Omit<ResolveOptions, 'probe'> = { bundledVersion: '0.2.0', pathCandidates: ['python3', 'python'] };

describe('resolveServer with toolsense.interpreter set', () => {
  it('runs the setting when it has toolsense, even another version than the bundled one', async () => {
    const { probe, asked } = fakeProbe({ '/venv/bin/python': py('3.12.1', '0.1.0'), python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, configured: '/venv/bin/python', pythonExtension: async () => '/other/python', probe });
    assert.deepEqual(
      { kind: r.kind, ...(r.kind === 'run' ? { i: r.interpreter, s: r.source, v: r.version, iso: r.isolated } : {}) },
      { kind: 'run', i: '/venv/bin/python', s: 'setting', v: '0.1.0', iso: false },
    );
    assert.deepEqual(asked, ['/venv/bin/python']);
  });

  it('installs the bundled server with the set Python when it lacks toolsense', async () => {
    const { probe, asked } = fakeProbe({ '/venv/bin/python': py('3.10.4'), python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, configured: '/venv/bin/python', probe });
    assert.equal(r.kind, 'bundle');
    assert.equal(r.kind === 'bundle' && r.python, '/venv/bin/python');
    assert.equal(r.kind === 'bundle' && r.source, 'setting');
    assert.deepEqual(asked, ['/venv/bin/python']);
  });

  it('installs the bundled server when the set Python has a toolsense older than supported', async () => {
    const { probe } = fakeProbe({ '/p': py('3.12.0', '0.0.9') });
    assert.equal((await resolveServer({ ...base, configured: '/p', probe })).kind, 'bundle');
  });

  it('reports a set interpreter that cannot run, without falling back', async () => {
    const { probe, asked } = fakeProbe({ python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, configured: '/nope/python', probe });
    assert.equal(r.kind, 'fail');
    assert.equal(r.kind === 'fail' && r.problem, 'setting');
    assert.match(r.kind === 'fail' ? r.message : '', /\/nope\/python \(from "toolsense\.interpreter"\) cannot be run/);
    assert.deepEqual(asked, ['/nope/python']);
  });

  it('reports a set Python that is too old', async () => {
    const { probe } = fakeProbe({ '/py39': py('3.9.18') });
    const r = await resolveServer({ ...base, configured: '/py39', probe });
    assert.match(r.kind === 'fail' ? r.message : '', /Python 3\.9\.18; toolsense needs Python 3\.10 or newer/);
  });

  it('an empty setting means unset', async () => {
    const { probe, asked } = fakeProbe({ python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, configured: '   ', probe });
    assert.equal(r.kind === 'run' && r.interpreter, 'python3');
    assert.deepEqual(asked, ['python3']);
  });
});

describe('resolveServer without the setting', () => {
  it('runs the private environment when it holds the bundled version, isolated', async () => {
    const { probe, asked } = fakeProbe({ '/storage/venv/bin/python': py('3.11.0', '0.2.0'), python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, privatePython: '/storage/venv/bin/python', probe });
    assert.equal(r.kind === 'run' && r.source, 'bundled');
    assert.equal(r.kind === 'run' && r.isolated, true);
    assert.deepEqual(asked, ['/storage/venv/bin/python -I']);
  });

  it('a broken private environment is installed again', async () => {
    const { probe } = fakeProbe({ '/storage/venv/bin/python': { kind: 'failed', detail: 'exit code 1' }, python3: py('3.11.0') });
    const r = await resolveServer({ ...base, privatePython: '/storage/venv/bin/python', probe });
    assert.equal(r.kind === 'bundle' && r.python, 'python3');
  });

  it('uses an installed toolsense only when it is the bundled version', async () => {
    const { probe, asked } = fakeProbe({ '/proj/.venv/bin/python': py('3.12.0', '0.1.0'), python3: py('3.11.0', '0.2.0') });
    const r = await resolveServer({ ...base, pythonExtension: async () => '/proj/.venv/bin/python', probe });
    assert.equal(r.kind === 'run' && r.interpreter, 'python3');
    assert.equal(r.kind === 'run' && r.source, 'path');
    assert.deepEqual(asked, ['/proj/.venv/bin/python', 'python3']);
  });

  it('otherwise installs the bundled server with the first Python >= 3.10: the Python extension first', async () => {
    const { probe } = fakeProbe({ '/proj/.venv/bin/python': py('3.12.0', '0.1.0'), python3: py('3.11.0') });
    const r = await resolveServer({ ...base, pythonExtension: async () => '/proj/.venv/bin/python', probe });
    assert.equal(r.kind, 'bundle');
    assert.equal(r.kind === 'bundle' && r.python, '/proj/.venv/bin/python');
    assert.equal(r.kind === 'bundle' && r.source, 'python-extension');
  });

  it('skips Pythons older than 3.10 and ones that do not run', async () => {
    const { probe, asked } = fakeProbe({ '/old': py('3.8.10'), python3: { kind: 'failed', detail: 'exit code 2' }, python: py('3.10.0') });
    const r = await resolveServer({ ...base, pythonExtension: async () => '/old', probe });
    assert.equal(r.kind === 'bundle' && r.python, 'python');
    assert.deepEqual(asked, ['/old', 'python3', 'python']);
  });

  it('a failing Python extension lookup is ignored', async () => {
    const { probe } = fakeProbe({ python3: py('3.11.0') });
    const r = await resolveServer({
      ...base,
      pythonExtension: async () => {
        throw new Error('extension broke');
      },
      probe,
    });
    assert.equal(r.kind === 'bundle' && r.python, 'python3');
  });

  it('no Python >= 3.10 anywhere: one message naming what was looked for and the setting', async () => {
    const { probe } = fakeProbe({ python: py('3.9.2') });
    const r = await resolveServer({ ...base, pythonExtension: async () => '/x/python', probe });
    assert.equal(r.kind === 'fail' && r.problem, 'no-python');
    assert.equal(
      r.kind === 'fail' && r.message,
      'No Python 3.10 or newer was found (looked for the Python extension\'s interpreter (/x/python), python3, python on the PATH, and the "toolsense.interpreter" setting is empty). Install Python 3.10+, or set "toolsense.interpreter" to the path of one.',
    );
    assert.equal(r.attempts.length, 3);
  });

  it('looks for python3, python, and py on Windows', () => {
    assert.deepEqual(defaultPathCandidates('linux'), ['python3', 'python']);
    assert.deepEqual(defaultPathCandidates('win32'), ['python3', 'python', 'py']);
  });

  it('a build without a bundled wheel needs an installed toolsense', async () => {
    const { probe } = fakeProbe({ python3: py('3.11.0', '0.1.0') });
    const r = await resolveServer({ probe, pathCandidates: ['python3'] });
    assert.equal(r.kind === 'run' && r.interpreter, 'python3');
    const none = fakeProbe({ python3: py('3.11.0') });
    const r2 = await resolveServer({ probe: none.probe, pathCandidates: ['python3'] });
    assert.equal(r2.kind === 'fail' && r2.problem, 'no-bundle');
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

describe('classifyProbe', () => {
  const out = (o: object) => JSON.stringify(o) + '\n';
  it('reads the Python and toolsense versions', () => {
    assert.deepEqual(classifyProbe({ exitCode: 0, stdout: out({ python: '3.11.7', executable: '/usr/bin/python3', toolsense: '0.1.0', error: null }), stderr: '' }), {
      kind: 'ok',
      python: '3.11.7',
      executable: '/usr/bin/python3',
      toolsense: '0.1.0',
    });
  });
  it('a Python without toolsense', () => {
    const r = classifyProbe({ exitCode: 0, stdout: out({ python: '3.10.1', toolsense: null, error: "ModuleNotFoundError: No module named 'toolsense'" }), stderr: '' });
    assert.deepEqual(r, { kind: 'ok', python: '3.10.1', error: "ModuleNotFoundError: No module named 'toolsense'" });
  });
  it('a toolsense without a usable version counts as none', () => {
    const r = classifyProbe({ exitCode: 0, stdout: out({ python: '3.10.1', toolsense: '', error: null }), stderr: '' });
    assert.equal(r.kind === 'ok' && r.toolsense, undefined);
    assert.match(r.kind === 'ok' ? (r.error ?? '') : '', /no version/);
  });
  it('spawn errors mean not found', () => {
    assert.equal(classifyProbe({ spawnError: 'ENOENT', exitCode: null, stdout: '', stderr: '' }).kind, 'not-found');
    assert.equal(classifyProbe({ exitCode: 127, stdout: '', stderr: 'sh: python3: not found' }).kind, 'not-found');
  });
  it('other failures (Python 2 fails on the probe code, garbage output, timeouts)', () => {
    assert.equal(classifyProbe({ exitCode: 1, stdout: '', stderr: 'SyntaxError: invalid syntax' }).kind, 'failed');
    assert.equal(classifyProbe({ exitCode: 0, stdout: 'None\n', stderr: '' }).kind, 'failed');
    assert.deepEqual(classifyProbe({ timedOut: true, exitCode: null, stdout: '', stderr: '' }), { kind: 'failed', detail: 'timed out' });
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
    assert.equal(compareVersions('3.9.18', '3.10'), -1);
  });
});
