/** Running `<interpreter> -c PROBE_CODE` (Node only, no `vscode`): the real probe for interpreter.ts. */
import { execFile } from 'node:child_process';
import { classifyProbe, PROBE_CODE, type ProbeResult } from './interpreter';

/**
 * How every Python process of the extension is started so that the opened folder is never on its import path:
 * the working directory is the extension's own storage (Python puts the working directory, or '' meaning it,
 * first on sys.path for `-c` and `-m`), and PYTHONSAFEPATH=1 (Python >= 3.11; the same as `-P`) drops that entry
 * altogether. A repository's `toolsense.py` or `numpy.py` is therefore never imported by the probe or the server.
 * `isolated` adds `-I` (also ignores PYTHON* variables and the user site) for the private environment, which
 * needs neither.
 */
export function pythonLaunch(
  args: readonly string[],
  options: { cwd: string; isolated?: boolean; env?: NodeJS.ProcessEnv },
): { args: string[]; cwd: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), PYTHONSAFEPATH: '1', PYTHONUNBUFFERED: '1' };
  return { args: [...(options.isolated ? ['-I'] : []), ...args], cwd: options.cwd, env };
}

export function probeInterpreter(
  interpreter: string,
  options: { cwd: string; isolated?: boolean; timeoutMs?: number; env?: NodeJS.ProcessEnv },
): Promise<ProbeResult> {
  const launch = pythonLaunch(['-c', PROBE_CODE], options);
  return new Promise((resolve) => {
    execFile(
      interpreter,
      launch.args,
      { cwd: launch.cwd, env: launch.env, timeout: options.timeoutMs ?? 20_000, windowsHide: true, encoding: 'utf8' },
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
