/**
 * Which documents the client hands to the server.
 *
 * The same default globs as the server's settings (toolsense/settings.py), plus the user's extra globs from
 * `toolsense.files.*`. Pure module, unit-tested in test/selector.test.ts.
 */

export const DEFAULT_TOOL_GLOBS = ['**/*.tool.json', '**/*.tools.json', '**/tools/*.json', '**/tools.json'];
export const DEFAULT_AUTOMATION_GLOBS = ['**/*.automation.json', '**/automations/*.json'];
export const DEFAULT_TOOL_CALL_GLOBS = [
  '**/*.toolcall.json',
  '**/*.tool-call.json',
  '**/tool_calls/*.json',
  '**/calls/*.json',
];
/** MCP client configurations (VS Code's `.vscode/mcp.json`, Cursor's `mcp.json`, Claude Code's `.mcp.json`, Claude
 * Desktop's): the server checks their entries and offers "Check this server's tools" on each. */
export const DEFAULT_MCP_CONFIG_GLOBS = ['**/mcp.json', '**/.mcp.json', '**/claude_desktop_config.json'];
export const DEFAULT_GLOBS = [
  ...DEFAULT_TOOL_GLOBS,
  ...DEFAULT_AUTOMATION_GLOBS,
  ...DEFAULT_TOOL_CALL_GLOBS,
  ...DEFAULT_MCP_CONFIG_GLOBS,
];

export const LANGUAGES = ['json', 'jsonc'] as const;
export const SCHEMES = ['file', 'untitled'] as const;

export interface DocumentFilter {
  language: string;
  scheme: string;
  pattern: string;
}

/**
 * A glob from settings, made to match an absolute path the way the same glob in toolsense.toml matches a
 * workspace-relative one: `tools/*.json` becomes `**\/tools/*.json`. Absolute globs and globs that already
 * start with `**` are kept. Backslashes (Windows users) become slashes.
 */
export function normalizeGlob(glob: string): string | undefined {
  let g = glob.trim().replace(/\\/g, '/');
  if (g === '') {
    return undefined;
  }
  if (g.startsWith('./')) {
    g = g.slice(2);
  }
  if (g.startsWith('**') || g.startsWith('/') || /^[A-Za-z]:\//.test(g)) {
    return g;
  }
  return `**/${g}`;
}

/** Default globs first, then the user's, without duplicates. */
export function handledGlobs(userGlobs: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const glob of [...DEFAULT_GLOBS, ...userGlobs]) {
    if (typeof glob !== 'string') {
      continue;
    }
    const normalized = normalizeGlob(glob);
    if (normalized !== undefined && !out.includes(normalized)) {
      out.push(normalized);
    }
  }
  return out;
}

/** One filter per language x scheme x glob. */
export function buildDocumentSelector(userGlobs: readonly unknown[]): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const pattern of handledGlobs(userGlobs)) {
    for (const scheme of SCHEMES) {
      for (const language of LANGUAGES) {
        filters.push({ language, scheme, pattern });
      }
    }
  }
  return filters;
}
