/**
 * toolsense for VS Code: finds a Python with toolsense, runs `python -m toolsense serve` over stdio, forwards
 * settings, and shows what the server is doing. All checking happens in the server; nothing here knows
 * what a tool definition is.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

import { resolveInterpreter, type Resolution } from './interpreter';
import { probeInterpreter } from './probe';
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
  controller = new Controller();
  context.subscriptions.push(controller);
  // Do not block activation on the interpreter probe and the server start.
  void controller.restart('activation');
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
  private resolution: Resolution | undefined;
  private status: ServerStatus = { state: 'starting' };
  /** Serializes start/stop/restart. */
  private queue: Promise<void> = Promise.resolve();
  private stopping = false;
  private pythonApiHooked = false;

  constructor() {
    this.log = vscode.window.createOutputChannel('toolsense', { log: true });
    this.item = vscode.window.createStatusBarItem('toolsense.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'toolsense';
    this.item.command = 'toolsense.showLog';
    this.setStatus({ state: 'starting' });
    this.item.show();

    this.disposables.push(
      this.log,
      this.item,
      vscode.commands.registerCommand('toolsense.restartServer', () => this.restart('command', true)),
      vscode.commands.registerCommand('toolsense.showLog', () => this.log.show(true)),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.log.info('Workspace trusted: restarting the server with the workspace settings.');
        void this.restart('workspace trusted', true);
      }),
    );
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

  private userGlobs(): unknown[] {
    const config = vscode.workspace.getConfiguration(SECTION);
    const globs: unknown[] = [];
    for (const key of ['files.tool_definitions', 'files.automations', 'files.tool_calls']) {
      const value = config.get<unknown>(key);
      if (Array.isArray(value)) {
        globs.push(...value);
      }
    }
    return globs;
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) {
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
    return resolved?.executable?.uri?.fsPath ?? envPath.path;
  }

  // ---- lifecycle ----------------------------------------------------------------------------------

  restart(reason: string, manual = false): Promise<void> {
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
    this.setStatus({ state: 'starting', detail: 'looking for Python' });
    this.log.info(`Starting (${reason}).`);
    const folder = this.workspaceFolder();
    const cwd = folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
    const configured = vscode.workspace.getConfiguration(SECTION).get<string>('interpreter');

    const resolution = await resolveInterpreter({
      configured,
      workspaceFolder: cwd,
      home: os.homedir(),
      pythonExtension: () => this.pythonExtensionInterpreter(),
      probe: (interpreter) => probeInterpreter(interpreter, { cwd }),
    });
    this.resolution = resolution;
    for (const attempt of resolution.attempts) {
      const r = attempt.result;
      this.log.info(
        `Interpreter ${attempt.interpreter} (${attempt.source}): ${r.kind === 'ok' ? `toolsense ${r.version}` : `${r.kind} — ${r.detail}`}`,
      );
    }
    if (!resolution.ok) {
      this.log.error(resolution.message + (resolution.installCommand ? ` Install with: ${resolution.installCommand}` : ''));
      this.setStatus({ state: 'not-installed', message: resolution.message, installCommand: resolution.installCommand });
      void this.notifyNotInstalled(resolution);
      return;
    }

    this.log.info(`Using ${resolution.interpreter} (toolsense ${resolution.version}, ${resolution.source}).`);
    this.setStatus({ state: 'starting', detail: resolution.interpreter });
    const serverOptions: ServerOptions = {
      command: resolution.interpreter,
      args: ['-m', 'toolsense', 'serve'],
      options: { cwd, env: { ...process.env, PYTHONUNBUFFERED: '1' } },
    };
    const client = new LanguageClient('toolsense', 'toolsense', serverOptions, this.clientOptions());
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return;
      }
      this.onClientState(client, newState);
    });
    try {
      await client.start();
    } catch (error) {
      if (this.client !== client) {
        return;
      }
      const message = `The server (${resolution.interpreter} -m toolsense serve) failed to start: ${errorMessage(error)}`;
      this.log.error(message);
      if (this.status.state !== 'restarting') {
        this.setStatus({ state: 'error', message });
        void this.notifyError(message);
      }
    }
  }

  private clientOptions(): LanguageClientOptions {
    return {
      documentSelector: buildDocumentSelector(this.userGlobs()),
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
    const resolution = this.resolution;
    switch (state) {
      case State.Running: {
        const info = client.initializeResult?.serverInfo;
        const version = info?.version ?? (resolution?.ok ? resolution.version : undefined);
        const interpreter = resolution?.ok ? resolution.interpreter : undefined;
        this.log.info(`Server ready${info ? ` (${info.name} ${info.version ?? ''})` : ''}.`);
        this.setStatus({ state: 'ready', version, interpreter, crashes: this.policy.recentCrashes() });
        break;
      }
      case State.Starting:
        if (this.status.state !== 'restarting') {
          this.setStatus({ state: 'starting', detail: resolution?.ok ? resolution.interpreter : undefined });
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

  private async notifyNotInstalled(resolution: Extract<Resolution, { ok: false }>): Promise<void> {
    const actions: string[] = [];
    if (resolution.installCommand) {
      actions.push('Install in Terminal', 'Copy Command');
    }
    actions.push('Set Interpreter', 'Show Log');
    const text =
      `toolsense: ${resolution.message}` +
      (resolution.installCommand
        ? ` Install it with \`${resolution.installCommand}\` (or \`pip install -e <path to a toolsense checkout>\`), then restart the server.`
        : '');
    const choice = await vscode.window.showErrorMessage(text, ...actions);
    switch (choice) {
      case 'Install in Terminal': {
        const terminal = vscode.window.createTerminal('toolsense: install');
        terminal.show();
        terminal.sendText(resolution.installCommand ?? '');
        const next = await vscode.window.showInformationMessage(
          'toolsense: when the install has finished, restart the server.',
          'Restart Server',
        );
        if (next === 'Restart Server') {
          await this.restart('after install', true);
        }
        break;
      }
      case 'Copy Command':
        await vscode.env.clipboard.writeText(resolution.installCommand ?? '');
        break;
      case 'Set Interpreter':
        await vscode.commands.executeCommand('workbench.action.openSettings', 'toolsense.interpreter');
        break;
      case 'Show Log':
        this.log.show(true);
        break;
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
