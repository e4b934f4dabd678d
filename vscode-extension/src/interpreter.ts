/**
 * Which toolsense server to run, and with which Python.
 *
 * The extension ships a toolsense wheel (bundled/). Decision, in order:
 * 1. `toolsense.interpreter` set: that Python runs the server if it has toolsense (any version the extension
 *    supports: the user's explicit choice wins over the bundled version); if it has none, the bundled wheel is
 *    installed into a private environment made from that Python. A setting that cannot be run is reported, never
 *    silently replaced.
 * 2. Otherwise the private environment, when it already holds the bundled version.
 * 3. Otherwise the first of the Python extension's interpreter, `python3`, `python`, `py` that already has exactly
 *    the bundled version runs it; if none has, the first of them that is Python >= 3.10 becomes the base of the
 *    private environment.
 * 4. No Python >= 3.10 anywhere: one message naming what was looked for and the setting to use.
 *
 * Pure module: probes are injected, so the logic is unit-tested without processes or VS Code
 * (test/interpreter.test.ts).
 */

export const MIN_TOOLSENSE_VERSION = '0.1.0';
export const MIN_PYTHON_VERSION = '3.10';

/**
 * `<python> -c PROBE_CODE` prints one JSON line: the Python version and toolsense's version (null when it cannot
 * be imported, with the error). Run with a working directory of the extension's own and safe-path mode, so a
 * repository's `toolsense.py` is never what gets imported.
 */
export const PROBE_CODE = [
  'import json, sys',
  'r = {"python": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable, "toolsense": None, "error": None}',
  'try:',
  '    import toolsense',
  '    r["toolsense"] = str(getattr(toolsense, "__version__", ""))',
  'except Exception as e:',
  '    r["error"] = "%s: %s" % (type(e).__name__, e)',
  'print(json.dumps(r))',
].join('\n');

export type InterpreterSource = 'setting' | 'python-extension' | 'path' | 'bundled';

export type ProbeResult =
  /** The interpreter runs; `toolsense` is its toolsense version, undefined when not importable. */
  | { kind: 'ok'; python: string; executable?: string; toolsense?: string; error?: string }
  /** The interpreter itself could not be run (no such file, not executable). */
  | { kind: 'not-found'; detail: string }
  /** Anything else (timeout, crash, unexpected output). */
  | { kind: 'failed'; detail: string };

export type Probe = (interpreter: string, options?: { isolated?: boolean }) => Promise<ProbeResult>;

export interface Attempt {
  interpreter: string;
  source: InterpreterSource;
  result: ProbeResult;
}

export type Resolution =
  /** Run `<interpreter> [-I] -m toolsense serve`. */
  | {
      kind: 'run';
      interpreter: string;
      source: InterpreterSource;
      version: string;
      /** `-I`: the private environment needs nothing from the user's environment variables or user site. */
      isolated: boolean;
      attempts: Attempt[];
    }
  /** Create (or refresh) the private environment from `python`, install the bundled wheel, then run it. */
  | { kind: 'bundle'; python: string; source: InterpreterSource; pythonVersion: string; attempts: Attempt[] }
  | {
      kind: 'fail';
      problem: 'setting' | 'no-python' | 'no-bundle';
      /** One sentence for a notification. */
      message: string;
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
  /** Version of the wheel shipped with the extension; undefined when this build carries none. */
  bundledVersion?: string;
  /** The private environment's Python when it is installed and up to date with the bundled wheel. */
  privatePython?: string;
  /** Commands tried after the Python extension, in order. */
  pathCandidates?: readonly string[];
  minVersion?: string;
}

export function defaultPathCandidates(platform: string = process.platform): string[] {
  return platform === 'win32' ? ['python3', 'python', 'py'] : ['python3', 'python'];
}

export async function resolveServer(options: ResolveOptions): Promise<Resolution> {
  const minVersion = options.minVersion ?? MIN_TOOLSENSE_VERSION;
  const bundled = options.bundledVersion;
  const attempts: Attempt[] = [];

  const configured = expandInterpreterSetting(options.configured, options.workspaceFolder, options.home);
  if (configured !== undefined) {
    const result = await options.probe(configured);
    attempts.push({ interpreter: configured, source: 'setting', result });
    const where = `${configured} (from "toolsense.interpreter")`;
    if (result.kind !== 'ok') {
      return {
        kind: 'fail',
        problem: 'setting',
        message: `The Python interpreter ${where} cannot be run: ${result.detail}. Correct the setting, or clear it to use the bundled server.`,
        attempts,
      };
    }
    if (compareVersions(result.python, MIN_PYTHON_VERSION) < 0) {
      return {
        kind: 'fail',
        problem: 'setting',
        message: `${where} is Python ${result.python}; toolsense needs Python ${MIN_PYTHON_VERSION} or newer. Correct the setting, or clear it.`,
        attempts,
      };
    }
    if (result.toolsense && compareVersions(result.toolsense, minVersion) >= 0) {
      return { kind: 'run', interpreter: configured, source: 'setting', version: result.toolsense, isolated: false, attempts };
    }
    if (bundled !== undefined) {
      return { kind: 'bundle', python: configured, source: 'setting', pythonVersion: result.python, attempts };
    }
    return {
      kind: 'fail',
      problem: 'no-bundle',
      message: `toolsense ${minVersion} or newer is not installed in ${where}, and this build of the extension carries no server. Install toolsense into it (\`${quoteArg(configured)} -m pip install <toolsense wheel or checkout>\`).`,
      attempts,
    };
  }

  if (options.privatePython !== undefined && bundled !== undefined) {
    const result = await options.probe(options.privatePython, { isolated: true });
    attempts.push({ interpreter: options.privatePython, source: 'bundled', result });
    if (result.kind === 'ok' && result.toolsense && compareVersions(result.toolsense, bundled) === 0) {
      return { kind: 'run', interpreter: options.privatePython, source: 'bundled', version: result.toolsense, isolated: true, attempts };
    }
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
  for (const command of options.pathCandidates ?? defaultPathCandidates()) {
    if (!candidates.some((c) => c.interpreter === command)) {
      candidates.push({ interpreter: command, source: 'path' });
    }
  }

  let base: { interpreter: string; source: InterpreterSource; python: string } | undefined;
  for (const candidate of candidates) {
    const result = await options.probe(candidate.interpreter);
    attempts.push({ ...candidate, result });
    if (result.kind !== 'ok' || compareVersions(result.python, MIN_PYTHON_VERSION) < 0) {
      continue;
    }
    const has = result.toolsense;
    // Without an explicit setting, an installed toolsense is used only when it is the bundled version (or, in a
    // build without a bundled wheel, any supported version).
    if (has && (bundled !== undefined ? compareVersions(has, bundled) === 0 : compareVersions(has, minVersion) >= 0)) {
      return { kind: 'run', interpreter: candidate.interpreter, source: candidate.source, version: has, isolated: false, attempts };
    }
    base ??= { interpreter: candidate.interpreter, source: candidate.source, python: result.python };
  }
  if (base !== undefined && bundled !== undefined) {
    return { kind: 'bundle', python: base.interpreter, source: base.source, pythonVersion: base.python, attempts };
  }
  if (base !== undefined) {
    return {
      kind: 'fail',
      problem: 'no-bundle',
      message: `toolsense ${minVersion} or newer is not installed in ${base.interpreter}, and this build of the extension carries no server. Install toolsense, or set "toolsense.interpreter" to a Python that has it.`,
      attempts,
    };
  }
  const looked = candidates.map((c) => (c.source === 'python-extension' ? `the Python extension's interpreter (${c.interpreter})` : c.interpreter));
  return {
    kind: 'fail',
    problem: 'no-python',
    message:
      `No Python ${MIN_PYTHON_VERSION} or newer was found (looked for ${looked.join(', ')} on the PATH, and the "toolsense.interpreter" setting is empty). ` +
      `Install Python ${MIN_PYTHON_VERSION}+, or set "toolsense.interpreter" to the path of one.`,
    attempts,
  };
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

/** Shell-quoted when needed (for commands shown in the log). */
export function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./\\-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
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
  const lastLine = run.stderr.trim().split(/\r?\n/).pop() ?? '';
  if (run.exitCode === 0) {
    const line = run.stdout.trim().split(/\r?\n/).pop()?.trim() ?? '';
    try {
      const r = JSON.parse(line) as { python?: unknown; executable?: unknown; toolsense?: unknown; error?: unknown };
      if (typeof r.python === 'string' && /^\d+\.\d+/.test(r.python)) {
        const toolsense = typeof r.toolsense === 'string' && /^\d+(\.\d+)*/.test(r.toolsense) ? r.toolsense : undefined;
        const error =
          typeof r.error === 'string' ? r.error : toolsense === undefined && r.toolsense !== null ? `toolsense reports no version (${JSON.stringify(r.toolsense)})` : undefined;
        return {
          kind: 'ok',
          python: r.python,
          ...(typeof r.executable === 'string' && r.executable ? { executable: r.executable } : {}),
          ...(toolsense !== undefined ? { toolsense } : {}),
          ...(error !== undefined ? { error } : {}),
        };
      }
    } catch {
      // fall through
    }
    return { kind: 'failed', detail: `unexpected output: ${JSON.stringify(line.slice(0, 200))}` };
  }
  // A shell reporting a missing command (e.g. when run through a wrapper script).
  if (run.exitCode === 127) {
    return { kind: 'not-found', detail: lastLine || 'command not found' };
  }
  // Python 2 and other non-Python programs end up here too.
  return { kind: 'failed', detail: `exit code ${run.exitCode}${lastLine ? `: ${lastLine}` : ''}` };
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
