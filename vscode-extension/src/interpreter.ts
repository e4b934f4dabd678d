/**
 * Finding a Python interpreter that has toolsense.
 *
 * Order: the `toolsense.interpreter` setting if set (used as is, no fallback: the user asked for it);
 * otherwise the interpreter selected in the Python extension (when installed), then `python3`, then
 * `python` — the first of those with a recent enough toolsense wins. When none qualifies, the result names
 * the interpreter the user would expect (the first one that runs) and how to install toolsense into it.
 *
 * Pure module: the probe (which runs the interpreter) and the Python-extension lookup are injected, so the
 * logic is unit-tested without processes or VS Code (test/interpreter.test.ts).
 */

export const MIN_TOOLSENSE_VERSION = '0.1.0';

/** `<interpreter> -c PROBE_CODE` prints toolsense's version. */
export const PROBE_CODE = 'import toolsense, sys; print(toolsense.__version__)';

export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export type ProbeResult =
  | { kind: 'ok'; version: string }
  /** The interpreter itself could not be run (no such file, not executable). */
  | { kind: 'not-found'; detail: string }
  /** It runs, but `import toolsense` fails. */
  | { kind: 'no-module'; detail: string }
  /** toolsense is importable but has no usable `__version__` (a broken or very old install). */
  | { kind: 'no-version'; detail: string }
  /** Anything else (timeout, crash). */
  | { kind: 'failed'; detail: string };

export type Probe = (interpreter: string) => Promise<ProbeResult>;

export interface Attempt {
  interpreter: string;
  source: InterpreterSource;
  result: ProbeResult;
}

export type Problem = 'not-found' | 'no-module' | 'too-old' | 'failed' | 'none';

export type Resolution =
  | { ok: true; interpreter: string; source: InterpreterSource; version: string; attempts: Attempt[] }
  | {
      ok: false;
      /** The interpreter the message is about (undefined when no interpreter was found at all). */
      interpreter?: string;
      source?: InterpreterSource;
      problem: Problem;
      /** One sentence for a notification. */
      message: string;
      /** Shell command that fixes it, when there is one. */
      installCommand?: string;
      attempts: Attempt[];
    };

export interface ResolveOptions {
  /** Value of `toolsense.interpreter` (raw; `${workspaceFolder}`, `~` are expanded here). */
  configured?: string;
  workspaceFolder?: string;
  home?: string;
  /** The Python extension's selected interpreter, or undefined (extension absent or nothing selected). */
  pythonExtension?: () => Promise<string | undefined>;
  probe: Probe;
  minVersion?: string;
  /** Commands tried last, in order. */
  pathCandidates?: readonly string[];
}

export async function resolveInterpreter(options: ResolveOptions): Promise<Resolution> {
  const minVersion = options.minVersion ?? MIN_TOOLSENSE_VERSION;
  const attempts: Attempt[] = [];

  const configured = expandInterpreterSetting(options.configured, options.workspaceFolder, options.home);
  if (configured !== undefined) {
    const result = await options.probe(configured);
    attempts.push({ interpreter: configured, source: 'setting', result });
    return judge(configured, 'setting', result, minVersion, attempts);
  }

  const candidates: { interpreter: string; source: InterpreterSource }[] = [];
  if (options.pythonExtension) {
    let fromExtension: string | undefined;
    try {
      fromExtension = await options.pythonExtension();
    } catch {
      fromExtension = undefined;
    }
    if (fromExtension && fromExtension.trim() !== '') {
      candidates.push({ interpreter: fromExtension.trim(), source: 'python-extension' });
    }
  }
  for (const command of options.pathCandidates ?? ['python3', 'python']) {
    if (!candidates.some((c) => c.interpreter === command)) {
      candidates.push({ interpreter: command, source: 'path' });
    }
  }

  let firstRunnable: Resolution | undefined;
  for (const candidate of candidates) {
    const result = await options.probe(candidate.interpreter);
    attempts.push({ ...candidate, result });
    const judged = judge(candidate.interpreter, candidate.source, result, minVersion, attempts);
    if (judged.ok) {
      return judged;
    }
    if (firstRunnable === undefined && result.kind !== 'not-found') {
      firstRunnable = judged;
    }
  }
  if (firstRunnable !== undefined && !firstRunnable.ok) {
    return { ...firstRunnable, attempts };
  }
  return {
    ok: false,
    problem: 'none',
    message:
      'No Python interpreter found (tried ' +
      candidates.map((c) => c.interpreter).join(', ') +
      '). Install Python 3.10+ and toolsense, or set "toolsense.interpreter".',
    installCommand: installCommand('python3'),
    attempts,
  };
}

function judge(
  interpreter: string,
  source: InterpreterSource,
  result: ProbeResult,
  minVersion: string,
  attempts: Attempt[],
): Resolution {
  const from = source === 'setting' ? ' (from "toolsense.interpreter")' : source === 'python-extension' ? ' (selected in the Python extension)' : '';
  switch (result.kind) {
    case 'ok':
      if (compareVersions(result.version, minVersion) >= 0) {
        return { ok: true, interpreter, source, version: result.version, attempts };
      }
      return {
        ok: false,
        interpreter,
        source,
        problem: 'too-old',
        message: `toolsense ${result.version} in ${interpreter}${from} is too old; version ${minVersion} or newer is needed.`,
        installCommand: installCommand(interpreter, true),
        attempts,
      };
    case 'no-version':
      return {
        ok: false,
        interpreter,
        source,
        problem: 'too-old',
        message: `The toolsense in ${interpreter}${from} reports no version; version ${minVersion} or newer is needed.`,
        installCommand: installCommand(interpreter, true),
        attempts,
      };
    case 'no-module':
      return {
        ok: false,
        interpreter,
        source,
        problem: 'no-module',
        message: `toolsense is not installed in ${interpreter}${from}.`,
        installCommand: installCommand(interpreter),
        attempts,
      };
    case 'not-found':
      return {
        ok: false,
        interpreter,
        source,
        problem: 'not-found',
        message: `The Python interpreter ${interpreter}${from} cannot be run: ${result.detail}`,
        attempts,
      };
    case 'failed':
      return {
        ok: false,
        interpreter,
        source,
        problem: 'failed',
        message: `Checking toolsense in ${interpreter}${from} failed: ${result.detail}`,
        installCommand: installCommand(interpreter, true),
        attempts,
      };
  }
}

/** `${workspaceFolder}` and a leading `~` expanded; empty means unset. */
export function expandInterpreterSetting(
  value: string | undefined,
  workspaceFolder: string | undefined,
  home: string | undefined,
): string | undefined {
  if (value === undefined) {
    return undefined;
  }
  let v = value.trim();
  if (v === '') {
    return undefined;
  }
  if (workspaceFolder !== undefined) {
    v = v.split('${workspaceFolder}').join(workspaceFolder);
  }
  if (home !== undefined && (v === '~' || v.startsWith('~/') || v.startsWith('~\\'))) {
    v = home + v.slice(1);
  }
  return v;
}

/** Shell-quoted when needed. */
export function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./\\-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

export function installCommand(interpreter: string, upgrade = false): string {
  return `${quoteArg(interpreter)} -m pip install ${upgrade ? '--upgrade ' : ''}toolsense`;
}

/**
 * Interpret one run of `<interpreter> -c PROBE_CODE`.
 * @param spawnError the error code when the process could not start (e.g. ENOENT, EACCES)
 */
export function classifyProbe(run: {
  spawnError?: string;
  timedOut?: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}): ProbeResult {
  if (run.spawnError !== undefined) {
    return { kind: 'not-found', detail: run.spawnError };
  }
  if (run.timedOut) {
    return { kind: 'failed', detail: 'timed out' };
  }
  const stderr = run.stderr.trim();
  if (run.exitCode === 0) {
    const version = run.stdout.trim().split(/\r?\n/).pop()?.trim() ?? '';
    if (/^\d+(\.\d+)*/.test(version)) {
      return { kind: 'ok', version };
    }
    return { kind: 'no-version', detail: `unexpected version output: ${JSON.stringify(version)}` };
  }
  const lastLine = stderr.split(/\r?\n/).pop() ?? '';
  if (/No module named ['"]?toolsense\b/.test(stderr)) {
    return { kind: 'no-module', detail: lastLine };
  }
  if (/AttributeError.*__version__/.test(stderr)) {
    return { kind: 'no-version', detail: lastLine };
  }
  // A shell reporting a missing command (e.g. when run through a wrapper script).
  if (run.exitCode === 127) {
    return { kind: 'not-found', detail: lastLine || 'command not found' };
  }
  return { kind: 'failed', detail: `exit code ${run.exitCode}: ${lastLine}` };
}

/**
 * Compare PEP 440-ish versions on their release numbers, then pre-releases before the release:
 * 0.1.0rc1 < 0.1.0 < 0.1.0.post1 ~ 0.1.0 (post and local parts are ignored).
 */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  const n = Math.max(pa.release.length, pb.release.length);
  for (let i = 0; i < n; i++) {
    const d = (pa.release[i] ?? 0) - (pb.release[i] ?? 0);
    if (d !== 0) {
      return d < 0 ? -1 : 1;
    }
  }
  if (pa.pre !== pb.pre) {
    return pa.pre ? -1 : 1;
  }
  return 0;
}

function parseVersion(v: string): { release: number[]; pre: boolean } {
  const m = /^\s*v?(\d+(?:\.\d+)*)(.*)$/i.exec(v);
  if (!m) {
    return { release: [0], pre: true };
  }
  const release = m[1].split('.').map((x) => Number.parseInt(x, 10));
  const rest = m[2].toLowerCase();
  const pre = /^[-_.]?(a|alpha|b|beta|rc|c|pre|preview|dev)\d*/.test(rest);
  return { release, pre };
}
