/**
 * toolsense for VS Code: runs the toolsense server it ships (installed on first use into a private environment
 * in the extension's global storage) or the user's own (`toolsense.interpreter`), over stdio; forwards settings
 * and shows what the server is doing. All checking happens in the server; nothing here knows what a tool
 * definition is.
 *
 * One module per concern, as Microsoft's extension templates split them:
 *   extension.ts         activate / deactivate (this file)
 *   contentActivation.ts when the server starts: once a file has a dialect's keys (src/activation.ts decides)
 *   controller.ts        the server's lifecycle (start, stop, restart, one at a time), the status item, settings
 *   environment.ts       which Python runs the server, and the bundled server's first-run set-up
 *   client.ts            the language client: its options, middleware, crash handling and state
 *   commands.ts          the commands and the notifications whose buttons run them
 */
import * as vscode from 'vscode';

import { watchForWork } from './contentActivation';
import { Controller } from './controller';

let controller: Controller | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = new Controller(context.globalStorageUri.fsPath, context.extensionPath, context.workspaceState);
  controller = started;
  context.subscriptions.push(started);
  // Python starts only where a file has a dialect's keys: decided from first bytes, in the background.
  void watchForWork(started);
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
