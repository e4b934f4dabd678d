/** Running `<interpreter> -c PROBE_CODE` (Node only, no `vscode`): the real probe for interpreter.ts. */
import { execFile } from 'node:child_process';
import { classifyProbe, PROBE_CODE, type ProbeResult } from './interpreter';

export function probeInterpreter(interpreter: string, options: { cwd?: string; timeoutMs?: number } = {}): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      interpreter,
      ['-c', PROBE_CODE],
      { cwd: options.cwd, timeout: options.timeoutMs ?? 20_000, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const e = error as (NodeJS.ErrnoException & { killed?: boolean; code?: string | number }) | null;
        const spawnError = e && typeof e.code === 'string' ? `${e.code}: ${e.message}` : undefined;
        resolve(
          classifyProbe({
            spawnError,
            timedOut: Boolean(e?.killed),
            exitCode: e ? (typeof e.code === 'number' ? e.code : null) : 0,
            stdout: String(stdout),
            stderr: String(stderr),
          }),
        );
      },
    );
  });
}
