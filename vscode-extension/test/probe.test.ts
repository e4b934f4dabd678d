/** The real probe against fake interpreters (small shell scripts). Linux/macOS only. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { probeInterpreter } from '../src/probe';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsense-probe-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function fakePython(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('probeInterpreter', { skip: process.platform === 'win32' }, () => {
  it('passes -c with the version probe', async () => {
    const py = fakePython('echo-args', 'if [ "$1" = "-c" ] && [ "$2" = "import toolsense, sys; print(toolsense.__version__)" ]; then echo 0.1.0; else exit 3; fi');
    assert.deepEqual(await probeInterpreter(py), { kind: 'ok', version: '0.1.0' });
  });
  it('missing module', async () => {
    const py = fakePython('nomod', `echo "ModuleNotFoundError: No module named 'toolsense'" >&2; exit 1`);
    assert.equal((await probeInterpreter(py)).kind, 'no-module');
  });
  it('no such interpreter', async () => {
    assert.equal((await probeInterpreter(path.join(dir, 'does-not-exist'))).kind, 'not-found');
  });
  it('not executable', async () => {
    const file = path.join(dir, 'not-exec');
    fs.writeFileSync(file, 'x', { mode: 0o644 });
    assert.equal((await probeInterpreter(file)).kind, 'not-found');
  });
  it('timeout', async () => {
    const py = fakePython('slow', 'sleep 5');
    const r = await probeInterpreter(py, { timeoutMs: 200 });
    assert.deepEqual(r, { kind: 'failed', detail: 'timed out' });
  });
});
