/**
 * The environment the server runs in: which Python (the setting, then the Python extension's choice, then the
 * PATH; src/interpreter.ts decides), and, for the bundled server, the private environment set up from the wheels
 * the .vsix carries on first use (src/bundled.ts: no package index needed).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

import {
  commandLine,
  failureMessage,
  findBundledWheel,
  installSteps,
  readyPython,
  removeEnvironment,
  runStep,
  venvDir,
  venvPython,
  withInstallLock,
  writeMarker,
  type BundledWheel,
} from './bundled';
import { compareVersions, resolveServer, type Resolution } from './interpreter';
import { probeInterpreter } from './probe';
import { SECTION } from './settings';
import { type ServerStatus } from './status';

const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The server that runs, once one is found. */
export interface Running {
  interpreter: string;
  version: string;
  origin: 'bundled' | 'setting' | 'python-extension' | 'path';
  /** Run with `-I` (the private environment: nothing from the user's environment variables or folder). */
  isolated: boolean;
}

/** Minimal shape of the Python extension's public API (`ms-python.python` exports). */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string } | undefined;
    resolveEnvironment(
      env: { id: string; path: string } | string,
    ): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
}

/** What the environment needs of the controller. */
export interface EnvironmentHost {
  readonly log: vscode.LogOutputChannel;
  readonly disposables: vscode.Disposable[];
  setStatus(status: ServerStatus): void;
  /** Tell the user (notification and status item) why the server cannot start. */
  fail(message: string, problem?: string): void;
  restart(reason: string, manual?: boolean): Promise<void>;
}

export class Environment {
  /** The bundled wheel, or undefined in a build without one (then only an installed toolsense can run). */
  readonly wheel: BundledWheel | undefined;
  private pythonApiHooked = false;

  constructor(
    private readonly host: EnvironmentHost,
    /** The extension's global storage: the working directory of every Python it starts, and the private venv. */
    readonly storageDir: string,
    extensionDir: string,
  ) {
    this.wheel = findBundledWheel(extensionDir);
  }

  /** The server to run, the bundled one set up first when it is the one; undefined after telling the user why
   * none can run. */
  async findServer(): Promise<Running | undefined> {
    const log = this.host.log;
    fs.mkdirSync(this.storageDir, { recursive: true });
    const folder = workspaceFolder();
    const workspacePath = folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
    const configured = vscode.workspace.getConfiguration(SECTION).get<string>('interpreter');
    const wheel = this.wheel;
    const probe = (interpreter: string, options?: { isolated?: boolean }) =>
      probeInterpreter(interpreter, { cwd: this.storageDir, isolated: options?.isolated });

    let resolution: Resolution = await resolveServer({
      configured,
      workspaceFolder: workspacePath,
      home: os.homedir(),
      pythonExtension: () => this.pythonExtensionInterpreter(),
      probe,
      bundledVersion: wheel?.version,
      privatePython: wheel ? readyPython(this.storageDir, wheel) : undefined,
    });
    this.logAttempts(resolution);
    if (resolution.kind === 'bundle' && wheel) {
      const installed = await this.installBundled(resolution.python, wheel);
      if (!installed) {
        return undefined;
      }
      const python = venvPython(venvDir(this.storageDir));
      const result = await probe(python, { isolated: true });
      if (result.kind !== 'ok' || !result.toolsense || compareVersions(result.toolsense, wheel.version) !== 0) {
        const message = `The bundled server was installed into ${venvDir(this.storageDir)}, but it does not run (${result.kind === 'ok' ? (result.error ?? 'no version') : result.detail}). See the log, then run "toolsense: Reinstall Bundled Server".`;
        this.host.fail(message, 'install');
        return undefined;
      }
      resolution = { kind: 'run', interpreter: python, source: 'bundled', version: result.toolsense, isolated: true, attempts: resolution.attempts };
    }
    if (resolution.kind === 'fail') {
      this.host.fail(resolution.message, resolution.problem);
      return undefined;
    }
    if (resolution.kind !== 'run') {
      return undefined;
    }
    const { interpreter, version, source, isolated } = resolution;
    if (source !== 'bundled' && wheel && compareVersions(version, wheel.version) !== 0) {
      log.warn(`Running toolsense ${version} from ${interpreter} (${source}); the extension bundles ${wheel.version}. Clear "toolsense.interpreter" to run the bundled one.`);
    }
    log.info(`Using ${interpreter} (toolsense ${version}, ${source === 'bundled' ? 'bundled server' : source}).`);
    return { interpreter, version, origin: source, isolated };
  }

  /** Remove the private environment (the next start sets it up again). */
  removeBundled(): void {
    try {
      removeEnvironment(this.storageDir);
    } catch (error) {
      this.host.log.error(`Removing ${venvDir(this.storageDir)} failed: ${errorMessage(error)}`);
    }
  }

  private async pythonExtensionInterpreter(): Promise<string | undefined> {
    const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (!extension) {
      return undefined;
    }
    const api = extension.isActive ? extension.exports : await withTimeout(extension.activate(), 15_000);
    const environments = api?.environments;
    if (!environments) {
      return undefined;
    }
    if (!this.pythonApiHooked && environments.onDidChangeActiveEnvironmentPath) {
      this.pythonApiHooked = true;
      this.host.disposables.push(
        environments.onDidChangeActiveEnvironmentPath(() => {
          if (!vscode.workspace.getConfiguration(SECTION).get<string>('interpreter')?.trim()) {
            this.host.log.info('The Python extension selected another interpreter: restarting the server.');
            void this.host.restart('python interpreter changed', true);
          }
        }),
      );
    }
    const envPath = environments.getActiveEnvironmentPath(workspaceFolder()?.uri);
    if (!envPath) {
      return undefined;
    }
    const resolved = await withTimeout(environments.resolveEnvironment(envPath), 10_000);
    const interpreter = resolved?.executable?.uri?.fsPath ?? envPath.path;
    if (!vscode.workspace.isTrusted && insideWorkspace(interpreter)) {
      // A Python inside an untrusted folder is the folder's code: never run it.
      this.host.log.warn(`Ignoring the Python extension's interpreter ${interpreter}: it is inside the untrusted workspace.`);
      return undefined;
    }
    return interpreter;
  }

  private logAttempts(resolution: Resolution): void {
    for (const attempt of resolution.attempts) {
      const r = attempt.result;
      this.host.log.info(
        `Interpreter ${attempt.interpreter} (${attempt.source}): ${
          r.kind === 'ok'
            ? `Python ${r.python}${r.executable ? ` at ${r.executable}` : ''}, ${r.toolsense ? `toolsense ${r.toolsense}` : `no toolsense${r.error ? ` (${r.error})` : ''}`}`
            : `${r.kind} — ${r.detail}`
        }`,
      );
    }
  }

  /** Create the private environment from `python` and install the bundled wheel; false (after telling the user) on failure. */
  private async installBundled(python: string, wheel: BundledWheel): Promise<boolean> {
    const { log } = this.host;
    this.host.setStatus({ state: 'installing', detail: `toolsense ${wheel.version} with ${python}` });
    const title = `toolsense: setting up the bundled server ${wheel.version}`;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: false },
      async (progress) =>
        withInstallLock(this.storageDir, async () => {
          if (readyPython(this.storageDir, wheel)) {
            log.info('Another window installed the bundled server meanwhile.');
            return true;
          }
          log.info(`Installing the bundled server ${wheel.file} into ${venvDir(this.storageDir)}, with ${python}.`);
          removeEnvironment(this.storageDir);
          for (const step of installSteps(python, this.storageDir, wheel)) {
            progress.report({ message: step.title });
            this.host.setStatus({ state: 'installing', detail: step.title });
            log.info(`$ ${commandLine(step)}`);
            const started = Date.now();
            const result = await runStep(step, this.storageDir, (line) => log.info(`  ${line}`));
            log.info(`  (${result.ok ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
            if (!result.ok) {
              removeEnvironment(this.storageDir);
              this.host.fail(failureMessage(step, result), 'install');
              return false;
            }
          }
          writeMarker(this.storageDir, wheel, python);
          log.info('The bundled server is installed.');
          return true;
        }),
    );
  }
}

function workspaceFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function insideWorkspace(file: string): boolean {
  const resolved = path.resolve(file);
  return (vscode.workspace.workspaceFolders ?? []).some((f) => {
    if (f.uri.scheme !== 'file') return false;
    const relative = path.relative(f.uri.fsPath, resolved);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function withTimeout<T>(promise: Thenable<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([Promise.resolve(promise), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
