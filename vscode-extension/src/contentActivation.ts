/**
 * Activation by content: VS Code activates the extension on any JSON (package.json's activationEvents), but
 * Python starts only once some file has work — the workspace's files (within budgets, src/activation.ts), else the
 * next JSON document opened or saved with a dialect's keys. A folder glob alone never starts it.
 */
import * as vscode from 'vscode';

import { FILE_GLOB, FILE_BUDGET, HEAD_BYTES, LANGUAGES, headHasWork, isTomlConfig, scanFiles } from './activation';
import { SECTION } from './settings';

/** What the watch needs of the controller: whether the server is wanted already, and a way to start it. */
export interface WorkHost {
  readonly wanted: boolean;
  readonly log: vscode.LogOutputChannel;
  readonly disposables: vscode.Disposable[];
  restart(reason: string): Promise<void>;
}

export async function watchForWork(host: WorkHost): Promise<void> {
  const watchers: vscode.Disposable[] = [];
  const begin = (why: string) => {
    if (host.wanted) return;
    watchers.forEach((w) => w.dispose());
    void host.restart(why);
  };
  const look = (document: vscode.TextDocument) => {
    const ours = (LANGUAGES as readonly string[]).includes(document.languageId) || isTomlConfig(document.uri.path);
    if (ours && document.uri.scheme !== 'output') {
      const head = document.getText().slice(0, HEAD_BYTES);
      if (headHasWork(document.uri.path, head)) begin(`${vscode.workspace.asRelativePath(document.uri)} has work`);
    }
  };
  watchers.push(vscode.workspace.onDidOpenTextDocument(look), vscode.workspace.onDidSaveTextDocument(look));
  host.disposables.push(...watchers);
  vscode.workspace.textDocuments.forEach(look);
  if (host.wanted) return;
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
  } else if (!host.wanted) {
    host.log.info(`No file with tool definitions, tool calls or automations among ${result.read} JSON files (${spent} ms${result.budget ? `, ${result.budget} budget reached` : ''}): the server starts when one is opened.`);
  }
}
