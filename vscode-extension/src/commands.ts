/**
 * The commands (package.json contributes.commands) and the notifications whose buttons run them: Restart Server,
 * Show Log, Reinstall Bundled Server, Set Interpreter, Trust this folder.
 */
import * as vscode from 'vscode';
import { MessageType } from 'vscode-languageclient/node';

/** What the commands act on. */
export interface CommandHost {
  readonly log: vscode.LogOutputChannel;
  readonly workspaceState: vscode.Memento;
  restart(reason: string, manual?: boolean): Promise<void>;
  reinstall(): Promise<void>;
}

export function registerCommands(host: CommandHost): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('toolsense.restartServer', () => host.restart('command', true)),
    vscode.commands.registerCommand('toolsense.showLog', () => host.log.show(true)),
    vscode.commands.registerCommand('toolsense.reinstallServer', () => host.reinstall()),
  ];
}

/** Anything that keeps the server from starting: the message, with what the user can do about it. */
export async function notifyNotInstalled(host: CommandHost, message: string, problem?: string): Promise<void> {
  const actions = problem === 'install' ? ['Show Log', 'Reinstall', 'Set Interpreter'] : ['Set Interpreter', 'Show Log'];
  const choice = await vscode.window.showErrorMessage(`toolsense: ${message}`, ...actions);
  switch (choice) {
    case 'Reinstall':
      await host.reinstall();
      break;
    case 'Set Interpreter':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'toolsense.interpreter');
      break;
    case 'Show Log':
      host.log.show(true);
      break;
  }
}

/** The running server failed (crashed too often, or did not start). */
export async function notifyError(host: CommandHost, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(`toolsense: ${message}`, 'Restart Server', 'Show Log');
  if (choice === 'Restart Server') {
    await host.restart('after error', true);
  } else if (choice === 'Show Log') {
    host.log.show(true);
  }
}

/** A message from the server; the one about Restricted Mode becomes the client's own, once per folder. */
export function showServerMessage(host: CommandHost, type: MessageType, message: string): void {
  if (!vscode.workspace.isTrusted && /not trusted/i.test(message)) {
    void offerTrust(host);
    return;
  }
  host.log.info(`Server message: ${message}`);
  const show =
    type === MessageType.Error
      ? vscode.window.showErrorMessage
      : type === MessageType.Warning
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  void show(message);
}

async function offerTrust(host: CommandHost): Promise<void> {
  const shown = 'toolsense.trustOffered';
  if (host.workspaceState.get<boolean>(shown)) {
    host.log.info('Restricted Mode: registered models are not imported (said once already).');
    return;
  }
  await host.workspaceState.update(shown, true);
  const choice = await vscode.window.showInformationMessage(
    'toolsense: Restricted Mode: your registered models are not imported; tool calls are checked against input_schema.',
    'Trust this folder',
  );
  if (choice === 'Trust this folder') {
    await vscode.commands.executeCommand('workbench.trust.manage');
  }
}
