/**
 * Feedback for "Check this server's tools": while the server starts the MCP server and lists its tools, a
 * cancellable progress notification, and the entry's lens says "checking…".
 */
import * as vscode from 'vscode';
import { CodeLensRequest, ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';

/** The server's command behind the lens (lsp/mcp_code_lens.py CHECK_COMMAND). */
export const CHECK_COMMAND = 'toolsense.mcp.checkServer';
export const CHECKING_TITLE = '$(sync~spin) checking…';

export class LensProgress {
  /** `uri\0name` of each entry being checked. */
  private readonly checking = new Set<string>();

  constructor(private readonly client: () => LanguageClient | undefined) {}

  private static key(args: readonly unknown[]): string | undefined {
    const [uri, name] = args;
    return typeof uri === 'string' && typeof name === 'string' ? `${uri}\0${name}` : undefined;
  }

  /** The lenses as the server gave them, the entries being checked marked. */
  mark(lenses: vscode.CodeLens[] | null | undefined): vscode.CodeLens[] | null | undefined {
    for (const lens of lenses ?? []) {
      const key = lens.command?.command === CHECK_COMMAND ? LensProgress.key(lens.command.arguments ?? []) : undefined;
      if (key !== undefined && this.checking.has(key) && lens.command) {
        lens.command = { ...lens.command, title: CHECKING_TITLE };
      }
    }
    return lenses;
  }

  private refresh(): void {
    const client = this.client();
    const feature = client?.getFeature(CodeLensRequest.method);
    for (const editor of vscode.window.visibleTextEditors) {
      feature?.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
    }
  }

  /** Run the check with a cancellable notification; cancelling cancels the request (the server stops the server). */
  run(command: string, args: unknown[]): Thenable<unknown> {
    const client = this.client();
    const key = LensProgress.key(args);
    if (client === undefined || key === undefined) {
      return Promise.resolve(undefined);
    }
    const name = String(args[1]);
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `toolsense: starting '${name}' and listing its tools…`, cancellable: true },
      async (_progress, token) => {
        this.checking.add(key);
        this.refresh();
        try {
          return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }, token);
        } catch (error) {
          if (token.isCancellationRequested) {
            return undefined;
          }
          throw error;
        } finally {
          this.checking.delete(key);
          this.refresh();
        }
      },
    );
  }
}
