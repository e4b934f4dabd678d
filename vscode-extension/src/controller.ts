/**
 * The server's lifecycle: start, stop and restart, one at a time (a queue), the status item that shows it, and
 * the settings it is sent. The pieces it drives: src/environment.ts (which Python, the bundled server's set-up),
 * src/client.ts (the language client), src/commands.ts (commands and notifications).
 */
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, State, type LanguageClient, type MessageType } from 'vscode-languageclient/node';

import { createClient, type ClientHost } from './client';
import { notifyError, notifyNotInstalled, registerCommands, showServerMessage, type CommandHost } from './commands';
import { type WorkHost } from './contentActivation';
import { Environment, errorMessage, type EnvironmentHost } from './environment';
import { LensProgress } from './lensProgress';
import { RestartPolicy } from './restartPolicy';
import { buildServerSettings, explicitValue, needsRestart, SECTION, SERVER_SETTING_KEYS, type SettingsObject } from './settings';
import { presentStatus, type ServerStatus } from './status';

export class Controller implements vscode.Disposable, WorkHost, EnvironmentHost, ClientHost, CommandHost {
  readonly log: vscode.LogOutputChannel;
  readonly policy = new RestartPolicy(4, 3 * 60 * 1000);
  readonly disposables: vscode.Disposable[] = [];
  readonly lensProgress = new LensProgress(() => this.client);
  client: LanguageClient | undefined;
  status: ServerStatus = { state: 'starting' };
  stopping = false;
  /** Set once a file with work was seen (or a command asked): from then on the server runs. */
  wanted = false;
  private readonly item: vscode.StatusBarItem;
  private readonly environment: Environment;
  /** Serializes start/stop/restart. */
  private queue: Promise<void> = Promise.resolve();
  /** The workspace's trust when the server last started: trust granted later means one restart. */
  private trustedAtStart: boolean | undefined;

  constructor(
    storageDir: string,
    extensionDir: string,
    readonly workspaceState: vscode.Memento,
  ) {
    this.environment = new Environment(this, storageDir, extensionDir);
    this.log = vscode.window.createOutputChannel('toolsense', { log: true });
    this.item = vscode.window.createStatusBarItem('toolsense.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'toolsense';
    this.item.command = 'toolsense.showLog';
    this.setStatus({ state: 'starting' });

    this.disposables.push(
      this.log,
      this.item,
      ...registerCommands(this),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (this.wanted && this.trustedAtStart === false) {
          this.log.info('Workspace trusted: restarting the server with the workspace settings.');
          void this.restart('workspace trusted', true);
        }
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

  profiles(): readonly string[] {
    return vscode.workspace.getConfiguration(SECTION).get<string[]>('profiles') ?? [];
  }

  private onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration(SECTION)) {
      return;
    }
    if (this.status.state === 'ready' && e.affectsConfiguration(`${SECTION}.profiles`)) {
      this.setStatus({ ...this.status, profiles: this.profiles() });
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

  async reinstall(): Promise<void> {
    if (!this.environment.wheel) {
      void vscode.window.showErrorMessage('toolsense: this build of the extension carries no bundled server.');
      return;
    }
    this.log.info('Reinstalling the bundled server.');
    await this.stop();
    this.environment.removeBundled();
    await this.restart('reinstall', true);
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
    const running = await this.environment.findServer();
    if (running === undefined) {
      return;
    }
    this.setStatus({ state: 'starting', detail: running.interpreter });
    const client = createClient(this, running, this.environment.storageDir);
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      if (this.client !== client) {
        return;
      }
      const message = `The server (${running.interpreter} -m toolsense serve) failed to start: ${errorMessage(error)}`;
      this.log.error(message);
      if (this.status.state !== 'restarting') {
        this.setStatus({ state: 'error', message });
        void this.notifyError(message);
      }
    }
  }

  // ---- UI -----------------------------------------------------------------------------------------

  /** One notification and the status item, for anything that keeps the server from starting. */
  fail(message: string, problem?: string): void {
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
    void notifyNotInstalled(this, message, problem);
  }

  notifyError(message: string): Promise<void> {
    return notifyError(this, message);
  }

  showServerMessage(type: MessageType, message: string): void {
    showServerMessage(this, type, message);
  }

  setStatus(status: ServerStatus): void {
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
}
