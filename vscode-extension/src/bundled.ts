/**
 * The toolsense wheel shipped in the .vsix (bundled/) and the private environment it is installed into
 * (the extension's global storage). Node only, no `vscode`: unit-tested in test/bundled.test.ts.
 *
 * Layout of the storage directory:
 *   venv/                       python -m venv; the server runs as venv/bin/python -I -m toolsense serve
 *   venv/toolsense-bundled.json written last: which wheel and extras are installed (a missing or different one
 *                               means reinstall)
 *   install.lock/               held while installing (two windows share the storage)
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { quoteArg } from './interpreter';
import { pythonLaunch } from './probe';

export interface BundledWheel {
  path: string;
  file: string;
  version: string;
  size: number;
  /** A directory of dependency wheels (platform-specific .vsix): installed with --no-index from there. */
  wheelhouse?: string;
  /** pip's own wheel in the wheelhouse: pip runs from it (`python pip.whl/pip install`), so the environment is made
   * without pip (`venv --without-pip` takes a fraction of a second; ensurepip takes many). */
  pip?: string;
}

const WHEEL = /^toolsense-([0-9][^-]*)-py3-none-any\.whl$/;
export const MARKER = 'toolsense-bundled.json';
/** The wheel's extras the private environment gets: `mcp` (the MCP SDK) runs "Check this server's tools". */
export const EXTRAS: readonly string[] = ['mcp'];

export function findBundledWheel(extensionDir: string): BundledWheel | undefined {
  const dir = path.join(extensionDir, 'bundled');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const file = names.filter((n) => WHEEL.test(n)).sort().pop();
  if (file === undefined) {
    return undefined;
  }
  const full = path.join(dir, file);
  const wheelhouse = path.join(dir, 'wheels');
  const houseFiles = fs.existsSync(wheelhouse) ? fs.readdirSync(wheelhouse) : [];
  const hasWheelhouse = houseFiles.some((n) => n.endsWith('.whl'));
  const pip = houseFiles.filter((n) => /^pip-[0-9][^-]*-py3-none-any\.whl$/.test(n)).sort().pop();
  return {
    path: full,
    file,
    version: WHEEL.exec(file)![1],
    size: fs.statSync(full).size,
    ...(hasWheelhouse ? { wheelhouse } : {}),
    ...(hasWheelhouse && pip ? { pip: path.join(wheelhouse, pip) } : {}),
  };
}

export function venvDir(storageDir: string): string {
  return path.join(storageDir, 'venv');
}

export function venvPython(venv: string, platform: string = process.platform): string {
  return platform === 'win32' ? path.join(venv, 'Scripts', 'python.exe') : path.join(venv, 'bin', 'python');
}

interface Marker {
  wheel: string;
  size: number;
  version: string;
  extras: string[];
  basePython: string;
  installedAt: string;
}

/**
 * The private environment's Python when it holds exactly this wheel with every one of EXTRAS; undefined when it
 * must be (re)installed (an environment set up by an older extension, without an extra, is set up again).
 */
export function readyPython(storageDir: string, wheel: BundledWheel): string | undefined {
  const venv = venvDir(storageDir);
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(venv, MARKER), 'utf8')) as Partial<Marker>;
    const extras = Array.isArray(marker.extras) ? marker.extras : [];
    if (
      marker.wheel === wheel.file &&
      marker.size === wheel.size &&
      EXTRAS.every((extra) => extras.includes(extra)) &&
      fs.existsSync(venvPython(venv))
    ) {
      return venvPython(venv);
    }
  } catch {
    // no marker: not installed (or interrupted)
  }
  return undefined;
}

export interface Step {
  title: string;
  /** What the step runs, in a few words for the failure message (the full command line goes to the log). */
  tool: string;
  command: string;
  args: string[];
  isolated: boolean;
}

/** What pip installs: the bundled wheel's file with EXTRAS (`…/toolsense-0.1.0-py3-none-any.whl[mcp]`). */
export function requirement(wheel: BundledWheel): string {
  return EXTRAS.length ? `${wheel.path}[${EXTRAS.join(',')}]` : wheel.path;
}

/** The commands that install `wheel` (with EXTRAS) into a fresh private environment made from `basePython`. */
export function installSteps(basePython: string, storageDir: string, wheel: BundledWheel): Step[] {
  const venv = venvDir(storageDir);
  const fromWheel = wheel.wheelhouse !== undefined && wheel.pip !== undefined;
  const pip = [...(fromWheel ? [`${wheel.pip}/pip`] : ['-m', 'pip']), 'install', '--disable-pip-version-check', '--no-input'];
  if (wheel.wheelhouse) {
    // Every wheel is here: no index, and no byte-compiling of whole packages (the server's first start compiles
    // the modules it imports).
    pip.push('--no-compile', '--no-index', '--find-links', wheel.wheelhouse);
  }
  return [
    {
      title: `creating a private Python environment with ${basePython}`,
      tool: `${basePython} -m venv`,
      command: basePython,
      args: ['-m', 'venv', '--clear', ...(fromWheel ? ['--without-pip'] : []), venv],
      // Not -I for the user's Python: a `py` launcher or a pyenv shim may rely on its environment variables.
      isolated: false,
    },
    {
      title: `installing toolsense ${wheel.version} and its dependencies${wheel.wheelhouse ? ' (from the bundled wheels)' : ' (from the Python package index)'}`,
      tool: 'pip install',
      command: venvPython(venv),
      args: [...pip, requirement(wheel)],
      isolated: true,
    },
  ];
}

export function writeMarker(storageDir: string, wheel: BundledWheel, basePython: string): void {
  const marker: Marker = {
    wheel: wheel.file,
    size: wheel.size,
    version: wheel.version,
    extras: [...EXTRAS],
    basePython,
    installedAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(venvDir(storageDir), MARKER), JSON.stringify(marker, null, 2));
}

export function removeEnvironment(storageDir: string): void {
  fs.rmSync(venvDir(storageDir), { recursive: true, force: true });
}

export function commandLine(step: Step): string {
  return [step.command, ...(step.isolated ? ['-I'] : []), ...step.args].map(quoteArg).join(' ');
}

export interface StepResult {
  ok: boolean;
  exitCode: number | null;
  /** The last lines of output (stdout and stderr interleaved). */
  tail: string[];
  spawnError?: string;
}

/** Run one step with the storage directory as working directory; every output line goes to `log`. */
export function runStep(step: Step, storageDir: string, log: (line: string) => void, timeoutMs = 15 * 60_000): Promise<StepResult> {
  const launch = pythonLaunch(step.args, { cwd: storageDir, isolated: step.isolated });
  return new Promise((resolve) => {
    const tail: string[] = [];
    const keep = (chunk: Buffer | string) => {
      for (const line of String(chunk).split(/\r?\n/)) {
        if (line.trim() === '') continue;
        log(line);
        tail.push(line);
        if (tail.length > 30) tail.shift();
      }
    };
    let child;
    try {
      child = spawn(step.command, launch.args, { cwd: launch.cwd, env: launch.env, windowsHide: true });
    } catch (error) {
      resolve({ ok: false, exitCode: null, tail, spawnError: String(error) });
      return;
    }
    const timer = setTimeout(() => child.kill(), timeoutMs);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, exitCode: null, tail, spawnError: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, exitCode: code, tail });
    });
  });
}

/** What to tell the user when a step failed, in two lines: what failed (with pip's own last error), and what to
 * do. The buttons (Show Log, Reinstall, Set Interpreter) and the log say the rest. */
export function failureMessage(step: Step, result: StepResult): string {
  const output = result.tail.join('\n');
  const last = result.spawnError ?? [...result.tail].reverse().find((l) => /error/i.test(l)) ?? result.tail[result.tail.length - 1] ?? '';
  const what = `Setting up the bundled server failed: ${step.tool} ${result.exitCode === null ? 'could not run' : `exited with ${result.exitCode}`}${last ? ` (${last.trim().slice(0, 160)})` : ''}.`;
  let todo: string;
  if (/ensurepip|No module named venv|python3?-venv/i.test(output)) {
    todo = 'This Python cannot create environments: install python3-venv (`sudo apt install python3-venv`), then Reinstall.';
  } else if (
    /No matching distribution|Could not find a version|NewConnectionError|Failed to establish|Temporary failure in name resolution|ProxyError|SSLError|timed out|Network is unreachable|connection/i.test(
      output,
    )
  ) {
    todo = 'The package index could not be reached: use the platform .vsix (it carries every wheel) or a Python with toolsense.';
  } else {
    todo = 'See the log, then Reinstall or set toolsense.interpreter.';
  }
  return `${what}\n${todo}`;
}

/**
 * A lock directory shared by all windows: only one installs, the others wait for it. A lock older than
 * `staleMs` is from a crashed window and is taken over.
 */
export async function withInstallLock<T>(
  storageDir: string,
  body: () => Promise<T>,
  options: { waitMs?: number; staleMs?: number; pollMs?: number } = {},
): Promise<T> {
  const lock = path.join(storageDir, 'install.lock');
  const deadline = Date.now() + (options.waitMs ?? 15 * 60_000);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lock).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > (options.staleMs ?? 20 * 60_000) || Date.now() > deadline) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, options.pollMs ?? 1000));
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
