/** The real probe against fake interpreters (small shell scripts) and the real python3. Linux/macOS only. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { PROBE_CODE } from '../src/interpreter';
import { probeInterpreter, pythonLaunch } from '../src/probe';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsense-probe-'));
const own = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsense-storage-'));
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(own, { recursive: true, force: true });
});

function fakePython(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

function python3(): string | undefined {
  try {
    const version = execFileSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 11))'], { encoding: 'utf8' });
    return version.trim() === 'True' ? 'python3' : undefined;
  } catch {
    return undefined;
  }
}

describe('pythonLaunch', () => {
  it('starts in the given directory, in safe-path mode, -I only when isolated', () => {
    const l = pythonLaunch(['-m', 'toolsense', 'serve'], { cwd: '/storage', env: { PATH: '/bin' } });
    assert.deepEqual(l.args, ['-m', 'toolsense', 'serve']);
    assert.equal(l.cwd, '/storage');
    assert.deepEqual(l.env, { PATH: '/bin', PYTHONSAFEPATH: '1', PYTHONUNBUFFERED: '1' });
    assert.deepEqual(pythonLaunch(['-m', 'x'], { cwd: '/s', isolated: true }).args, ['-I', '-m', 'x']);
  });
});

describe('probeInterpreter', { skip: process.platform === 'win32' }, () => {
  it('passes -c with the probe code, in the given directory, with PYTHONSAFEPATH', async () => {
    const py = fakePython(
      'echo-args',
      `if [ "$1" = "-c" ] && [ "$PWD" = "${own}" ] && [ "$PYTHONSAFEPATH" = 1 ]; then echo '{"python": "3.11.2", "toolsense": "0.1.0"}'; else exit 3; fi`,
    );
    assert.deepEqual(await probeInterpreter(py, { cwd: own }), { kind: 'ok', python: '3.11.2', toolsense: '0.1.0' });
  });
  it('-I when isolated', async () => {
    const py = fakePython('iso', `[ "$1" = "-I" ] && [ "$2" = "-c" ] && echo '{"python": "3.12.0", "toolsense": null}'`);
    assert.deepEqual(await probeInterpreter(py, { cwd: own, isolated: true }), { kind: 'ok', python: '3.12.0' });
  });
  it('no such interpreter', async () => {
    assert.equal((await probeInterpreter(path.join(dir, 'does-not-exist'), { cwd: own })).kind, 'not-found');
  });
  it('not executable', async () => {
    const file = path.join(dir, 'not-exec');
    fs.writeFileSync(file, 'x', { mode: 0o644 });
    assert.equal((await probeInterpreter(file, { cwd: own })).kind, 'not-found');
  });
  it('timeout', async () => {
    const py = fakePython('slow', 'sleep 5');
    const r = await probeInterpreter(py, { cwd: own, timeoutMs: 200 });
    assert.deepEqual(r, { kind: 'failed', detail: 'timed out' });
  });

  // A repository's toolsense.py must never be what the probe imports: not from the working directory (the
  // extension's own), and not even when that directory held one (safe-path mode, Python >= 3.11).
  it('never imports a toolsense.py from its working directory (real python3 >= 3.11)', { skip: !python3() }, async () => {
    const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsense-planted-'));
    const marker = path.join(planted, 'IMPORTED');
    for (const name of ['toolsense.py', 'json.py']) {
      fs.writeFileSync(path.join(planted, name), `open(${JSON.stringify(marker)}, "w").write(__file__)\n`);
    }
    try {
      const r = await probeInterpreter('python3', { cwd: planted });
      assert.equal(r.kind, 'ok', JSON.stringify(r));
      assert.equal(fs.existsSync(marker), false, 'a planted module was imported');
      // Proof that the plant works: without safe-path mode it is imported.
      try {
        execFileSync('python3', ['-c', PROBE_CODE], { cwd: planted, env: { ...process.env, PYTHONSAFEPATH: '' } });
      } catch {
        // the planted json.py breaks the probe
      }
      assert.equal(fs.existsSync(marker), true);
    } finally {
      fs.rmSync(planted, { recursive: true, force: true });
    }
  });
});
