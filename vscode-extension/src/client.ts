/**
 * The language client: `<python> -m toolsense serve` over stdio, with the settings it is given, the middleware
 * that adapts VS Code's own JSON support and the server's answers, crash handling (src/restartPolicy.ts) and the
 * status the client's state shows.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  MessageType,
  RevealOutputChannelOn,
  ShowMessageNotification,
  State,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

import { literalsOfferedByJson, withoutDoubles } from './completionDedupe';
import { type Running } from './environment';
import { CHECK_COMMAND, type LensProgress } from './lensProgress';
import { pythonLaunch } from './probe';
import { type RestartPolicy } from './restartPolicy';
import { buildDocumentSelector } from './selector';
import { SECTION, type SettingsObject } from './settings';
import { type ServerStatus } from './status';

/** What the client needs of the controller. */
export interface ClientHost {
  readonly log: vscode.LogOutputChannel;
  readonly policy: RestartPolicy;
  readonly lensProgress: LensProgress;
  /** The server is being stopped on purpose (a close is no crash). */
  readonly stopping: boolean;
  readonly status: ServerStatus;
  /** The client the controller holds now: events of an older one are dropped. */
  readonly client: LanguageClient | undefined;
  setStatus(status: ServerStatus): void;
  serverSettings(scope?: vscode.Uri): SettingsObject;
  /** `toolsense.profiles` as VS Code has it (the status tooltip names the opt-in ones that are off). */
  profiles(): readonly string[];
  notifyError(message: string): Promise<void>;
  /** A message from the server (`window/showMessage`). */
  showServerMessage(type: MessageType, message: string): void;
}

/** A client for `running`, wired to the host; not started. */
export function createClient(host: ClientHost, running: Running, cwd: string): LanguageClient {
  const launch = pythonLaunch(['-m', 'toolsense', 'serve'], { cwd, isolated: running.isolated });
  host.log.info(`$ ${[running.interpreter, ...launch.args].join(' ')}   (in ${launch.cwd})`);
  const serverOptions: ServerOptions = {
    command: running.interpreter,
    args: launch.args,
    options: { cwd: launch.cwd, env: launch.env },
  };
  const client = new LanguageClient('toolsense', 'toolsense', serverOptions, clientOptions(host));
  client.onDidChangeState(({ newState }) => {
    if (host.client !== client) {
      return;
    }
    onClientState(host, client, running, newState);
  });
  // The server's messages, except the one about trust: that is the client's, once, with its button.
  client.onNotification(ShowMessageNotification.type, (params) => host.showServerMessage(params.type, params.message));
  return client;
}

function clientOptions(host: ClientHost): LanguageClientOptions {
  return {
    documentSelector: buildDocumentSelector(),
    outputChannel: host.log,
    traceOutputChannel: host.log,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: () => {
      const settings = host.serverSettings();
      host.log.info(`initializationOptions: ${JSON.stringify(settings)}`);
      return settings;
    },
    markdown: { isTrusted: false, supportHtml: false },
    errorHandler: {
      error: (_error, _message, count) => ({
        action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
      }),
      closed: () => {
        if (host.stopping) {
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const decision = host.policy.onCrash();
        if (decision.restart) {
          const message = `The server stopped unexpectedly; restarting it (${decision.crashes} of ${decision.maxRestarts} restarts allowed in 3 minutes).`;
          host.log.warn(message);
          host.setStatus({ state: 'restarting', crashes: decision.crashes, maxRestarts: decision.maxRestarts });
          return { action: CloseAction.Restart, handled: true, message };
        }
        const message = `The server stopped unexpectedly ${decision.crashes} times in 3 minutes and will not be restarted. See the log, then run "toolsense: Restart Server".`;
        host.log.error(message);
        host.setStatus({ state: 'error', message });
        void host.notifyError(message);
        return { action: CloseAction.DoNotRestart, handled: true, message };
      },
    },
    middleware: {
      // VS Code's JSON support folds JSON and JSONC itself: only JSON Lines gets the server's folding.
      provideFoldingRanges: (document, context, token, next) =>
        document.languageId === 'jsonl' ? next(document, context, token) : null,
      provideCodeLenses: async (document, token, next) => host.lensProgress.mark(await next(document, token)),
      provideCompletionItem: async (document, position, context, token, next) => {
        const result = await next(document, position, context, token);
        if (!result || document.languageId === 'jsonl') return result;
        const offered = literalsOfferedByJson(document.getText(), document.offsetAt(position));
        return Array.isArray(result)
          ? withoutDoubles(result, offered)
          : new vscode.CompletionList(withoutDoubles(result.items, offered), result.isIncomplete);
      },
      executeCommand: (command, args, next) =>
        command === CHECK_COMMAND ? host.lensProgress.run(command, args) : next(command, args),
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
              answers[index] = host.serverSettings(scope);
            } else if (section.startsWith(`${SECTION}.`)) {
              const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
              let node: unknown = host.serverSettings(scope);
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
        // Settings are pushed by the controller on a configuration change with the mapped object; do not let
        // the library send its own (`{settings: null}`) if the server registers for the notification.
        didChangeConfiguration: async () => undefined,
      },
    },
  };
}

function onClientState(host: ClientHost, client: LanguageClient, running: Running, state: State): void {
  switch (state) {
    case State.Running: {
      const info = client.initializeResult?.serverInfo;
      const version = info?.version ?? running.version;
      host.log.info(`Server ready${info ? ` (${info.name} ${info.version ?? ''})` : ''}.`);
      host.setStatus({
        state: 'ready',
        version,
        interpreter: running.interpreter,
        origin: running.origin,
        crashes: host.policy.recentCrashes(),
        profiles: host.profiles(),
      });
      break;
    }
    case State.Starting:
      if (host.status.state !== 'restarting') {
        host.setStatus({ state: 'starting', detail: running.interpreter });
      }
      break;
    case State.Stopped:
      if (!host.stopping && host.status.state !== 'restarting' && host.status.state !== 'error') {
        host.setStatus({ state: 'stopped' });
      }
      break;
  }
}
