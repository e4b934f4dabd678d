/**
 * toolsense for VS Code: runs the toolsense server it ships (installed on first use into a private environment
 * in the extension's global storage) or the user's own (`toolsense.interpreter`), over stdio; forwards settings
 * and shows what the server is doing. All checking happens in the server; nothing here knows what a tool
 * definition is.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  ShowMessageNotification,
  MessageType,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

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
import { FILE_GLOB, LANGUAGES, headHasWork, HEAD_BYTES, FILE_BUDGET, isTomlConfig, scanFiles } from './activation';
import { compareVersions, resolveServer, type Resolution } from './interpreter';
import { literalsOfferedByJson, withoutDoubles } from './completionDedupe';
import { CHECK_COMMAND, LensProgress } from './lensProgress';
import { pythonLaunch, probeInterpreter } from './probe';
import { RestartPolicy } from './restartPolicy';
import { buildDocumentSelector } from './selector';
import {
  buildServerSettings,
  explicitValue,
  needsRestart,
  SECTION,
  SERVER_SETTING_KEYS,
  type SettingsObject,
} from './settings';
import { presentStatus, type ServerStatus } from './status';

const PYTHON_EXTENSION_ID = 'ms-python.python';

let controller: Controller | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = new Controller(context.globalStorageUri.fsPath, context.extensionPath, context.workspaceState);
  controller = started;
  context.subscriptions.push(started);
  // Python starts only where a file has a dialect's keys: decided from first bytes, in the background.
  void started.startWhenThereIsWork();
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
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

class Controller implements vscode.Disposable {
  private readonly log: vscode.LogOutputChannel;
  private readonly item: vscode.StatusBarItem;
  private readonly policy = new RestartPolicy(4, 3 * 60 * 1000);
  private readonly disposables: vscode.Disposable[] = [];
  private client: LanguageClient | undefined;
  /** What runs: set once a server is started. */
  private running: { interpreter: string; version: string; origin: 'bundled' | 'setting' | 'python-extension' | 'path' } | undefined;
  private status: ServerStatus = { state: 'starting' };
  /** Serializes start/stop/restart. */
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;
  private pythonApiHooked = false;
  /** Set once a file with work was seen (or a command asked): from then on the server runs. */
  private wanted = false;
  /** The workspace's trust when the server last started: trust granted later means one restart. */
  private trustedAtStart: boolean | undefined;
  private readonly lensProgress = new LensProgress(() => this.client);

  /** The bundled wheel, or undefined in a build without one (then only an installed toolsense can run). */
  private readonly wheel: BundledWheel | undefined;

  constructor(
    /** The extension's own directory: the working directory of every Python it starts, and the private venv. */
    private readonly storageDir: string,
    extensionDir: string,
    private readonly workspaceState: vscode.Memento,
  ) {
    this.wheel = findBundledWheel(extensionDir);
    this.log = vscode.window.createOutputChannel('toolsense', { log: true });
    this.item = vscode.window.createStatusBarItem('toolsense.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'toolsense';
    this.item.command = 'toolsense.showLog';
    this.setStatus({ state: 'starting' });

    this.disposables.push(
      this.log,
      this.item,
      vscode.commands.registerCommand('toolsense.restartServer', () => this.restart('command', true)),
      vscode.commands.registerCommand('toolsense.showLog', () => this.log.show(true)),
      vscode.commands.registerCommand('toolsense.reinstallServer', () => this.reinstall()),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (this.wanted && this.trustedAtStart === false) {
          this.log.info('Workspace trusted: restarting the server with the workspace settings.');
          void this.restart('workspace trusted', true);
        }
      }),
    );
  }

  // ---- activation by content ----------------------------------------------------------------------

  /** Start the server once some file has work: the workspace's files (within budgets), else the next JSON
   * document opened or saved with a dialect's keys. A folder glob alone never starts it. */
  async startWhenThereIsWork(): Promise<void> {
    const watchers: vscode.Disposable[] = [];
    const begin = (why: string) => {
      if (this.wanted) return;
      watchers.forEach((w) => w.dispose());
      void this.restart(why);
    };
    const look = (document: vscode.TextDocument) => {
      const ours = (LANGUAGES as readonly string[]).includes(document.languageId) || isTomlConfig(document.uri.path);
      if (ours && document.uri.scheme !== 'output') {
        const head = document.getText().slice(0, HEAD_BYTES);
        if (headHasWork(document.uri.path, head)) begin(`${vscode.workspace.asRelativePath(document.uri)} has work`);
      }
    };
    watchers.push(vscode.workspace.onDidOpenTextDocument(look), vscode.workspace.onDidSaveTextDocument(look));
    this.disposables.push(...watchers);
    vscode.workspace.textDocuments.forEach(look);
    if (this.wanted) return;
    const started = Date.now();
    const config = await vscode.workspace.findFiles('**/toolsense.toml', undefined, 1);
    if (config.length > 0) {
      begin('toolsense.toml');
      return;
    }
    const excludes = vscode.workspace.getConfiguration(SECTION).get<string[]>('files.exclude') ?? [];
    const files = await vscode.workspace.findFiles(FILE_GLOB, excludes.length ? `{${excludes.join(',')}}` : undefined, FILE_BUDGET);
    const paths = files.filter((u) => u.scheme === 'file').map((u) => u.fsPath);
    const result = scanFiles(paths);
    const spent = Date.now() - started;
    if (result.found !== undefined) {
      begin(`${vscode.workspace.asRelativePath(result.found)} has work`);
    } else if (!this.wanted) {
      this.log.info(`No file with tool definitions, tool calls or automations among ${result.read} JSON files (${spent} ms${result.budget ? `, ${result.budget} budget reached` : ''}): the server starts when one is opened.`);
    }
  }

  dispose(): void {
    void this.stop();
    for (const d of this.disposables) {
      d.dispose();
    }
  }

  // ---- settings -----------------------------------------------------------------------------------

  /** The object sent as initializationOptions and in didChangeConfiguration. */
  serverSettings(scope?: vscode.Uri): SettingsObject {
    const config = vscode.workspace.getConfiguration(SECTION, scope);
    return buildServerSettings((key) => explicitValue(config.inspect(key), config.get(key)), vscode.workspace.isTrusted);
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) {
      return;
    }
    if (this.trustedAtStart === false && vscode.workspace.isTrusted) {
      return; // the settings Restricted Mode held back now apply: onDidGrantWorkspaceTrust restarts once
    }
    if (!this.wanted) {
      return;
    }
    if (needsRestart((s) => e.affectsConfiguration(s))) {
      this.log.info('Interpreter or file globs changed: restarting the server.');
      void this.restart('settings changed', true);
      return;
    }
    if (SERVER_SETTING_KEYS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) {
      void this.pushSettings();
    }
    // toolsense.trace.server is applied by vscode-languageclient itself.
  }

  private async pushSettings(): Promise<void> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      return; // the next start sends them as initializationOptions
    }
    const settings = this.serverSettings();
    this.log.info(`Sending settings: ${JSON.stringify(settings)}`);
    try {
      await client.sendNotification(DidChangeConfigurationNotification.type, { settings });
    } catch (error) {
      this.log.error(`Sending settings failed: ${String(error)}`);
    }
  }

  // ---- interpreter --------------------------------------------------------------------------------

  private workspaceFolder(): vscode.WorkspaceFolder | undefined {
    return vscode.workspace.workspaceFolders?.[0];
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
      this.disposables.push(
        environments.onDidChangeActiveEnvironmentPath(() => {
          if (!vscode.workspace.getConfiguration(SECTION).get<string>('interpreter')?.trim()) {
            this.log.info('The Python extension selected another interpreter: restarting the server.');
            void this.restart('python interpreter changed', true);
          }
        }),
      );
    }
    const envPath = environments.getActiveEnvironmentPath(this.workspaceFolder()?.uri);
    if (!envPath) {
      return undefined;
    }
    const resolved = await withTimeout(environments.resolveEnvironment(envPath), 10_000);
    const interpreter = resolved?.executable?.uri?.fsPath ?? envPath.path;
    if (!vscode.workspace.isTrusted && insideWorkspace(interpreter)) {
      // A Python inside an untrusted folder is the folder's code: never run it.
      this.log.warn(`Ignoring the Python extension's interpreter ${interpreter}: it is inside the untrusted workspace.`);
      return undefined;
    }
    return interpreter;
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  restart(reason: string, manual = false): Promise<void> {
    this.wanted = true;
    this.queue = this.queue
      .then(async () => {
        if (manual) {
          this.policy.reset();
        }
        await this.stopNow();
        await this.startNow(reason);
      })
      .catch((error) => {
        this.log.error(`Restart failed: ${String(error)}`);
      });
    return this.queue;
  }

  stop(): Promise<void> {
    this.queue = this.queue.then(() => this.stopNow()).catch(() => undefined);
    return this.queue;
  }

  private async stopNow(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) {
      return;
    }
    this.stopping = true;
    try {
      if (client.isRunning() || client.state === State.Starting) {
        await client.stop(3000);
      }
    } catch (error) {
      this.log.warn(`Stopping the server: ${String(error)}`);
    } finally {
      try {
        await client.dispose(1000);
      } catch {
        // already stopped
      }
      this.stopping = false;
    }
  }

  private async startNow(reason: string): Promise<void> {
    this.item.show();
    this.trustedAtStart = vscode.workspace.isTrusted;
    this.setStatus({ state: 'starting', detail: 'looking for Python' });
    this.log.info(`Starting (${reason}).`);
    this.running = undefined;
    fs.mkdirSync(this.storageDir, { recursive: true });
    const folder = this.workspaceFolder();
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
        return;
      }
      const python = venvPython(venvDir(this.storageDir));
      const result = await probe(python, { isolated: true });
      if (result.kind !== 'ok' || !result.toolsense || compareVersions(result.toolsense, wheel.version) !== 0) {
        const message = `The bundled server was installed into ${venvDir(this.storageDir)}, but it does not run (${result.kind === 'ok' ? (result.error ?? 'no version') : result.detail}). See the log, then run "toolsense: Reinstall Bundled Server".`;
        this.fail(message, 'install');
        return;
      }
      resolution = { kind: 'run', interpreter: python, source: 'bundled', version: result.toolsense, isolated: true, attempts: resolution.attempts };
    }
    if (resolution.kind === 'fail') {
      this.fail(resolution.message, resolution.problem);
      return;
    }
    if (resolution.kind !== 'run') {
      return;
    }

    const { interpreter, version, source, isolated } = resolution;
    this.running = { interpreter, version, origin: source };
    if (source !== 'bundled' && wheel && compareVersions(version, wheel.version) !== 0) {
      this.log.warn(`Running toolsense ${version} from ${interpreter} (${source}); the extension bundles ${wheel.version}. Clear "toolsense.interpreter" to run the bundled one.`);
    }
    this.log.info(`Using ${interpreter} (toolsense ${version}, ${source === 'bundled' ? 'bundled server' : source}).`);
    this.setStatus({ state: 'starting', detail: interpreter });
    const launch = pythonLaunch(['-m', 'toolsense', 'serve'], { cwd: this.storageDir, isolated });
    this.log.info(`$ ${[interpreter, ...launch.args].join(' ')}   (in ${launch.cwd})`);
    const serverOptions: ServerOptions = {
      command: interpreter,
      args: launch.args,
      options: { cwd: launch.cwd, env: launch.env },
    };
    const client = new LanguageClient('toolsense', 'toolsense', serverOptions, this.clientOptions());
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return;
      }
      this.onClientState(client, newState);
    });
    // The server's messages, except the one about trust: that is the client's, once, with its button.
    client.onNotification(ShowMessageNotification.type, (params) => this.showServerMessage(params.type, params.message));
    try {
      await client.start();
    } catch (error) {
      if (this.client !== client) {
        return;
      }
      const message = `The server (${interpreter} -m toolsense serve) failed to start: ${errorMessage(error)}`;
      this.log.error(message);
      if (this.status.state !== 'restarting') {
        this.setStatus({ state: 'error', message });
        void this.notifyError(message);
      }
    }
  }

  private logAttempts(resolution: Resolution): void {
    for (const attempt of resolution.attempts) {
      const r = attempt.result;
      this.log.info(
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
    this.setStatus({ state: 'installing', detail: `toolsense ${wheel.version} with ${python}` });
    const title = `toolsense: setting up the bundled server ${wheel.version}`;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: false },
      async (progress) =>
        withInstallLock(this.storageDir, async () => {
          if (readyPython(this.storageDir, wheel)) {
            this.log.info('Another window installed the bundled server meanwhile.');
            return true;
          }
          this.log.info(`Installing the bundled server ${wheel.file} into ${venvDir(this.storageDir)}, with ${python}.`);
          removeEnvironment(this.storageDir);
          for (const step of installSteps(python, this.storageDir, wheel)) {
            progress.report({ message: step.title });
            this.setStatus({ state: 'installing', detail: step.title });
            this.log.info(`$ ${commandLine(step)}`);
            const started = Date.now();
            const result = await runStep(step, this.storageDir, (line) => this.log.info(`  ${line}`));
            this.log.info(`  (${result.ok ? 'done' : 'failed'} in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
            if (!result.ok) {
              removeEnvironment(this.storageDir);
              this.fail(failureMessage(step, result), 'install');
              return false;
            }
          }
          writeMarker(this.storageDir, wheel, python);
          this.log.info('The bundled server is installed.');
          return true;
        }),
    );
  }

  private async reinstall(): Promise<void> {
    if (!this.wheel) {
      void vscode.window.showErrorMessage('toolsense: this build of the extension carries no bundled server.');
      return;
    }
    this.log.info('Reinstalling the bundled server.');
    await this.stop();
    try {
      removeEnvironment(this.storageDir);
    } catch (error) {
      this.log.error(`Removing ${venvDir(this.storageDir)} failed: ${errorMessage(error)}`);
    }
    await this.restart('reinstall', true);
  }

  /** One notification and the status item, for anything that keeps the server from starting. */
  private fail(message: string, problem?: string): void {
    this.log.error(message);
    const reason =
      problem === 'no-python'
        ? 'no Python 3.10+'
        : problem === 'install'
          ? 'set-up failed'
          : problem === 'setting'
            ? 'check toolsense.interpreter'
            : 'not installed';
    this.setStatus({ state: 'cannot-start', reason, message });
    void this.notifyNotInstalled(message, problem);
  }

  private clientOptions(): LanguageClientOptions {
    return {
      documentSelector: buildDocumentSelector(),
      outputChannel: this.log,
      traceOutputChannel: this.log,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: () => {
        const settings = this.serverSettings();
        this.log.info(`initializationOptions: ${JSON.stringify(settings)}`);
        return settings;
      },
      markdown: { isTrusted: false, supportHtml: false },
      errorHandler: {
        error: (_error, _message, count) => ({
          action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        }),
        closed: () => {
          if (this.stopping) {
            return { action: CloseAction.DoNotRestart, handled: true };
          }
          const decision = this.policy.onCrash();
          if (decision.restart) {
            const message = `The server stopped unexpectedly; restarting it (${decision.crashes} of ${decision.maxRestarts} restarts allowed in 3 minutes).`;
            this.log.warn(message);
            this.setStatus({ state: 'restarting', crashes: decision.crashes, maxRestarts: decision.maxRestarts });
            return { action: CloseAction.Restart, handled: true, message };
          }
          const message = `The server stopped unexpectedly ${decision.crashes} times in 3 minutes and will not be restarted. See the log, then run "toolsense: Restart Server".`;
          this.log.error(message);
          this.setStatus({ state: 'error', message });
          void this.notifyError(message);
          return { action: CloseAction.DoNotRestart, handled: true, message };
        },
      },
      middleware: {
        // VS Code's JSON support folds JSON and JSONC itself: only JSON Lines gets the server's folding.
        provideFoldingRanges: (document, context, token, next) =>
          document.languageId === 'jsonl' ? next(document, context, token) : null,
        provideCodeLenses: async (document, token, next) => this.lensProgress.mark(await next(document, token)),
        provideCompletionItem: async (document, position, context, token, next) => {
          const result = await next(document, position, context, token);
          if (!result || document.languageId === 'jsonl') return result;
          const offered = literalsOfferedByJson(document.getText(), document.offsetAt(position));
          return Array.isArray(result)
            ? withoutDoubles(result, offered)
            : new vscode.CompletionList(withoutDoubles(result.items, offered), result.isIncomplete);
        },
        executeCommand: (command, args, next) =>
          command === CHECK_COMMAND ? this.lensProgress.run(command, args) : next(command, args),
        workspace: {
          // The server may pull settings with workspace/configuration: answer with the same mapped
          // object that is pushed, never VS Code's raw section (which holds client-only keys).
          configuration: async (params, token, next) => {
            const answers: unknown[] = [];
            const passThrough: number[] = [];
            params.items.forEach((item, index) => {
              const section = item.section ?? '';
              if (section === SECTION || section === '') {
                const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
                answers[index] = this.serverSettings(scope);
              } else if (section.startsWith(`${SECTION}.`)) {
                const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
                let node: unknown = this.serverSettings(scope);
                for (const part of section.slice(SECTION.length + 1).split('.')) {
                  node = typeof node === 'object' && node !== null ? (node as SettingsObject)[part] : undefined;
                }
                answers[index] = node ?? null;
              } else {
                passThrough.push(index);
              }
            });
            if (passThrough.length > 0) {
              const rest = await next({ items: passThrough.map((i) => params.items[i]) }, token);
              if (Array.isArray(rest)) {
                passThrough.forEach((i, j) => {
                  answers[i] = rest[j];
                });
              }
            }
            return answers;
          },
          // Settings are pushed by onConfigurationChanged with the mapped object; do not let the
          // library send its own (`{settings: null}`) if the server registers for the notification.
          didChangeConfiguration: async () => undefined,
        },
      },
    };
  }

  private onClientState(client: LanguageClient, state: State): void {
    const running = this.running;
    switch (state) {
      case State.Running: {
        const info = client.initializeResult?.serverInfo;
        const version = info?.version ?? running?.version;
        this.log.info(`Server ready${info ? ` (${info.name} ${info.version ?? ''})` : ''}.`);
        this.setStatus({
          state: 'ready',
          version,
          interpreter: running?.interpreter,
          origin: running?.origin,
          crashes: this.policy.recentCrashes(),
        });
        break;
      }
      case State.Starting:
        if (this.status.state !== 'restarting') {
          this.setStatus({ state: 'starting', detail: running?.interpreter });
        }
        break;
      case State.Stopped:
        if (!this.stopping && this.status.state !== 'restarting' && this.status.state !== 'error') {
          this.setStatus({ state: 'stopped' });
        }
        break;
    }
  }

  // ---- UI -----------------------------------------------------------------------------------------

  private setStatus(status: ServerStatus): void {
    this.status = status;
    const p = presentStatus(status);
    this.item.text = p.text;
    this.item.accessibilityInformation = { label: p.label, role: 'button' };
    const tooltip = new vscode.MarkdownString(p.tooltip);
    tooltip.supportThemeIcons = true;
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      p.background === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : p.background === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  private async notifyNotInstalled(message: string, problem?: string): Promise<void> {
    const actions = problem === 'install' ? ['Show Log', 'Reinstall', 'Set Interpreter'] : ['Set Interpreter', 'Show Log'];
    const choice = await vscode.window.showErrorMessage(`toolsense: ${message}`, ...actions);
    switch (choice) {
      case 'Reinstall':
        await this.reinstall();
        break;
      case 'Set Interpreter':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'toolsense.interpreter');
        break;
      case 'Show Log':
        this.log.show(true);
        break;
    }
  }

  /** A message from the server; the one about Restricted Mode becomes the client's own, once per folder. */
  private showServerMessage(type: MessageType, message: string): void {
    if (!vscode.workspace.isTrusted && /not trusted/i.test(message)) {
      void this.offerTrust();
      return;
    }
    this.log.info(`Server message: ${message}`);
    const show =
      type === MessageType.Error
        ? vscode.window.showErrorMessage
        : type === MessageType.Warning
          ? vscode.window.showWarningMessage
          : vscode.window.showInformationMessage;
    void show(message);
  }

  private async offerTrust(): Promise<void> {
    const shown = 'toolsense.trustOffered';
    if (this.workspaceState.get<boolean>(shown)) {
      this.log.info('Restricted Mode: registered models are not imported (said once already).');
      return;
    }
    await this.workspaceState.update(shown, true);
    const choice = await vscode.window.showInformationMessage(
      'toolsense: Restricted Mode: your registered models are not imported; tool calls are checked against input_schema.',
      'Trust this folder',
    );
    if (choice === 'Trust this folder') {
      await vscode.commands.executeCommand('workbench.trust.manage');
    }
  }

  private async notifyError(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(`toolsense: ${message}`, 'Restart Server', 'Show Log');
    if (choice === 'Restart Server') {
      await this.restart('after error', true);
    } else if (choice === 'Show Log') {
      this.log.show(true);
    }
  }
}

function insideWorkspace(file: string): boolean {
  const resolved = path.resolve(file);
  return (vscode.workspace.workspaceFolders ?? []).some((f) => {
    if (f.uri.scheme !== 'file') return false;
    const relative = path.relative(f.uri.fsPath, resolved);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

function errorMessage(error: unknown): string {
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
