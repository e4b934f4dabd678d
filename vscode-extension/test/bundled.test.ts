import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  commandLine,
  EXTRAS,
  failureMessage,
  findBundledWheel,
  installSteps,
  readyPython,
  MARKER,
  venvDir,
  venvPython,
  withInstallLock,
  writeMarker,
} from '../src/bundled';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsense-bundled-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function extensionWith(files: string[]): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'ext-'));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), 'wheel bytes');
  }
  return dir;
}

describe('findBundledWheel', () => {
  it('finds the toolsense wheel and its version', () => {
    const dir = extensionWith(['bundled/toolsense-0.1.0-py3-none-any.whl', 'bundled/README']);
    const w = findBundledWheel(dir);
    assert.equal(w?.version, '0.1.0');
    assert.equal(w?.file, 'toolsense-0.1.0-py3-none-any.whl');
    assert.equal(w?.size, 11);
    assert.equal(w?.wheelhouse, undefined);
  });
  it('a platform build carries a wheelhouse of dependencies', () => {
    const dir = extensionWith(['bundled/toolsense-0.2.0rc1-py3-none-any.whl', 'bundled/wheels/numpy-2.0-cp311-manylinux.whl']);
    assert.equal(findBundledWheel(dir)?.wheelhouse, path.join(dir, 'bundled', 'wheels'));
  });
  it('none in a build without one', () => {
    assert.equal(findBundledWheel(extensionWith([])), undefined);
  });
});

describe('the private environment', () => {
  it('is ready only with the marker of the same wheel', () => {
    const storage = fs.mkdtempSync(path.join(tmp, 'storage-'));
    const ext = extensionWith(['bundled/toolsense-0.1.0-py3-none-any.whl']);
    const wheel = findBundledWheel(ext)!;
    assert.equal(readyPython(storage, wheel), undefined);
    fs.mkdirSync(path.dirname(venvPython(venvDir(storage))), { recursive: true });
    fs.writeFileSync(venvPython(venvDir(storage)), '');
    assert.equal(readyPython(storage, wheel), undefined, 'no marker: an interrupted install');
    writeMarker(storage, wheel, '/usr/bin/python3');
    assert.equal(readyPython(storage, wheel), venvPython(venvDir(storage)));
    const other = findBundledWheel(extensionWith(['bundled/toolsense-0.2.0-py3-none-any.whl']))!;
    assert.equal(readyPython(storage, other), undefined, 'a new extension version reinstalls');
  });

  it('an environment set up without the MCP extra (an older extension) is set up again', () => {
    const storage = fs.mkdtempSync(path.join(tmp, 'storage-'));
    const wheel = findBundledWheel(extensionWith(['bundled/toolsense-0.1.0-py3-none-any.whl']))!;
    fs.mkdirSync(path.dirname(venvPython(venvDir(storage))), { recursive: true });
    fs.writeFileSync(venvPython(venvDir(storage)), '');
    const marker = path.join(venvDir(storage), MARKER);
    // The marker an extension without extras wrote: same wheel, same size, no `extras`.
    const old = { wheel: wheel.file, size: wheel.size, version: '0.1.0', basePython: '/usr/bin/python3', installedAt: '2026-01-01T00:00:00.000Z' };
    fs.writeFileSync(marker, JSON.stringify(old));
    assert.equal(readyPython(storage, wheel), undefined, 'no extras recorded');
    fs.writeFileSync(marker, JSON.stringify({ ...old, extras: [] }));
    assert.equal(readyPython(storage, wheel), undefined, 'without mcp');
    writeMarker(storage, wheel, '/usr/bin/python3');
    assert.deepEqual(JSON.parse(fs.readFileSync(marker, 'utf8')).extras, ['mcp']);
    assert.equal(readyPython(storage, wheel), venvPython(venvDir(storage)));
  });

  it('is installed with venv, then pip -I from the bundled wheel with the MCP extra', () => {
    assert.deepEqual(EXTRAS, ['mcp']);
    const wheel = { path: '/ext/bundled/toolsense-0.1.0-py3-none-any.whl', file: 'toolsense-0.1.0-py3-none-any.whl', version: '0.1.0', size: 1 };
    const steps = installSteps('python3', '/storage', wheel);
    assert.deepEqual(steps.map(commandLine), [
      'python3 -m venv --clear /storage/venv',
      `${venvPython('/storage/venv')} -I -m pip install --disable-pip-version-check --no-input "/ext/bundled/toolsense-0.1.0-py3-none-any.whl[mcp]"`,
    ]);
    assert.equal(steps[1].args[steps[1].args.length - 1], '/ext/bundled/toolsense-0.1.0-py3-none-any.whl[mcp]');
    const offline = installSteps('python3', '/storage', { ...wheel, wheelhouse: '/ext/bundled/wheels' });
    assert.match(commandLine(offline[1]), /--no-compile --no-index --find-links \/ext\/bundled\/wheels "\/ext\/bundled\/toolsense-0\.1\.0-py3-none-any\.whl\[mcp\]"$/);
  });

  it('with pip in the wheelhouse: an environment without pip, and pip run from its wheel', () => {
    const wheel = {
      path: '/ext/bundled/toolsense-0.1.0-py3-none-any.whl',
      file: 'toolsense-0.1.0-py3-none-any.whl',
      version: '0.1.0',
      size: 1,
      wheelhouse: '/ext/bundled/wheels',
      pip: '/ext/bundled/wheels/pip-26.3-py3-none-any.whl',
    };
    assert.deepEqual(installSteps('python3', '/storage', wheel).map(commandLine), [
      'python3 -m venv --clear --without-pip /storage/venv',
      `${venvPython('/storage/venv')} -I /ext/bundled/wheels/pip-26.3-py3-none-any.whl/pip install --disable-pip-version-check --no-input --no-compile --no-index --find-links /ext/bundled/wheels "/ext/bundled/toolsense-0.1.0-py3-none-any.whl[mcp]"`,
    ]);
  });
});

describe('failureMessage', () => {
  const wheel = { path: '/w.whl', file: 'toolsense-0.1.0-py3-none-any.whl', version: '0.1.0', size: 1 };
  const [venv, pip] = installSteps('/usr/bin/python3', '/s', wheel);
  it('a Python without venv support: what failed and what to install', () => {
    const m = failureMessage(venv, {
      ok: false,
      exitCode: 1,
      tail: ['The virtual environment was not created successfully because ensurepip is not', 'available.  On Debian/Ubuntu systems, you need to install the python3-venv'],
    });
    assert.match(m, /^Setting up the bundled server failed: \/usr\/bin\/python3 -m venv exited with 1 \(/);
    assert.match(m, /sudo apt install python3-venv/);
    assert.equal(m.split('\n').length, 2);
  });
  it('offline: the index could not be reached', () => {
    const m = failureMessage(pip, {
      ok: false,
      exitCode: 1,
      tail: ["WARNING: Retrying ... NewConnectionError('Failed to establish a new connection')", 'ERROR: No matching distribution found for pydantic<3,>=2.10'],
    });
    assert.equal(m, 'Setting up the bundled server failed: pip install exited with 1 (ERROR: No matching distribution found for pydantic<3,>=2.10).\nThe package index could not be reached: use the platform .vsix (it carries every wheel) or a Python with toolsense.');
  });
  it('a command that could not start', () => {
    assert.match(failureMessage(venv, { ok: false, exitCode: null, tail: [], spawnError: 'spawn ENOENT' }), /could not run \(spawn ENOENT\)/);
  });
});

describe('withInstallLock', () => {
  it('runs one installer at a time', async () => {
    const storage = fs.mkdtempSync(path.join(tmp, 'lock-'));
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = withInstallLock(storage, async () => {
      order.push('first in');
      await gate;
      order.push('first out');
    }, { pollMs: 10 });
    const second = withInstallLock(storage, async () => {
      order.push('second');
    }, { pollMs: 10 });
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(order, ['first in']);
    release();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['first in', 'first out', 'second']);
    assert.equal(fs.existsSync(path.join(storage, 'install.lock')), false);
  });
  it('takes over a stale lock', async () => {
    const storage = fs.mkdtempSync(path.join(tmp, 'stale-'));
    fs.mkdirSync(path.join(storage, 'install.lock'));
    assert.equal(await withInstallLock(storage, async () => 'ran', { staleMs: 0, pollMs: 10 }), 'ran');
  });
});
