/**
 * What the status item shows in each state. Pure (no `vscode`), unit-tested in test/status.test.ts;
 * controller.ts applies it to a StatusBarItem.
 */

export type ServerStatus =
  | { state: 'starting'; detail?: string }
  | { state: 'installing'; detail: string }
  | {
      state: 'ready';
      version?: string;
      interpreter?: string;
      /** Which server runs: the one shipped with the extension, or the user's. */
      origin?: 'bundled' | 'setting' | 'python-extension' | 'path';
      crashes?: number;
      /** `toolsense.profiles`: the opt-in reviews not among them are named, with what they would check. */
      profiles?: readonly string[];
    }
  | { state: 'restarting'; crashes: number; maxRestarts: number }
  | { state: 'stopped' }
  /** The server cannot start: `reason` in a few words (status bar), `message` in full (tooltip). */
  | { state: 'cannot-start'; reason: string; message: string }
  | { state: 'error'; message: string };

export interface StatusPresentation {
  /** Status bar text (with `$(icon)` codicons). */
  text: string;
  /** Screen-reader label; also what the e2e test reads. */
  label: string;
  /** Markdown tooltip. */
  tooltip: string;
  background?: 'warning' | 'error';
}

const NAME = 'toolsense';

/** The opt-in profiles whose rules a default setup never runs, and what they would find (the server's
 * `rules/configs/config_security.py` TS941, `rules/tools/mcp_profiles.py`). Named in the ready tooltip while they
 * are off, so a user with `npx -y` in an MCP configuration learns which profile checks it. */
export const OPT_IN_PROFILES = [
  {
    profile: 'mcp-security',
    checks: 'packages run unpinned in MCP configurations (TS941: `npx -y pkg`, `pkg@latest`, `uvx pkg`) and the security review of MCP tools',
  },
  {
    profile: 'mcp-quality',
    checks: 'the quality review of MCP tools (descriptions, parameter descriptions, naming, annotations)',
  },
] as const;

const ORIGIN = {
  bundled: 'bundled server',
  setting: 'server from "toolsense.interpreter"',
  'python-extension': "server from the Python extension's interpreter",
  path: 'server installed in the Python on the PATH',
} as const;

export function presentStatus(status: ServerStatus): StatusPresentation {
  const click = '\n\nClick to show the log.';
  switch (status.state) {
    case 'starting':
      return {
        text: `$(loading~spin) ${NAME}`,
        label: `${NAME}: starting`,
        tooltip: `**${NAME}**: starting${status.detail ? ` — ${escapeMd(status.detail)}` : ''}…${click}`,
      };
    case 'installing':
      return {
        text: `$(sync~spin) ${NAME}: setting up`,
        label: `${NAME}: setting up the bundled server`,
        tooltip: `**${NAME}**: setting up the bundled server — ${escapeMd(status.detail)}…${click}`,
      };
    case 'ready': {
      const origin = status.origin ? ORIGIN[status.origin] : undefined;
      const lines = [`**${NAME}${status.version ? ` ${escapeMd(status.version)}` : ''}**: ready${origin ? ` — ${origin}` : ''}`];
      if (status.interpreter) {
        lines.push(`Python: \`${status.interpreter}\``);
      }
      if (status.crashes) {
        lines.push(`The server was restarted after ${plural(status.crashes, 'crash', 'crashes')} in the last 3 minutes.`);
      }
      const off = OPT_IN_PROFILES.filter((p) => status.profiles !== undefined && !status.profiles.includes(p.profile));
      if (off.length > 0) {
        lines.push(
          'Not checked by default (opt-in profiles, add to `toolsense.profiles` or `profiles` in toolsense.toml):\n' +
            off.map((p) => `- **${p.profile}**: ${p.checks}`).join('\n'),
        );
      }
      return {
        text: `$(check) ${NAME}`,
        label: `${NAME}: ready${origin ? ` — ${origin}${status.version ? ` ${status.version}` : ''}` : ''}`,
        tooltip: lines.join('\n\n') + click,
      };
    }
    case 'restarting':
      return {
        text: `$(sync~spin) ${NAME}: restarting`,
        label: `${NAME}: restarting after a crash`,
        tooltip: `**${NAME}**: the server stopped unexpectedly; restarting (${status.crashes} of ${status.maxRestarts} restarts allowed in 3 minutes).${click}`,
        background: 'warning',
      };
    case 'stopped':
      return {
        text: `$(circle-slash) ${NAME}: stopped`,
        label: `${NAME}: stopped`,
        tooltip: `**${NAME}**: the server is stopped. Run **toolsense: Restart Server** to start it.${click}`,
        background: 'warning',
      };
    case 'cannot-start':
      return {
        text: `$(error) ${NAME}: ${status.reason}`,
        label: `${NAME}: ${status.reason}`,
        tooltip: `**${NAME}**: ${escapeMd(status.message)}${click}`,
        background: 'error',
      };
    case 'error':
      return {
        text: `$(error) ${NAME}`,
        label: `${NAME}: error`,
        tooltip: `**${NAME}**: ${escapeMd(status.message)}${click}`,
        background: 'error',
      };
  }
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function escapeMd(s: string): string {
  return s.replace(/([\\`*_{}[\]<>#|])/g, '\\$1');
}
