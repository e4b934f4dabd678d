/**
 * VS Code settings -> the object the server understands.
 *
 * The server reads a nested object that mirrors `[tool.toolsense]` in pyproject.toml / toolsense.toml,
 * with the same snake_case keys. VS Code settings are flat and dotted (`toolsense.diagnostics.debounce_ms`),
 * so the mapping is a table: every server setting is listed once, and anything not listed (the client-only
 * settings `interpreter` and `trace.server`) never reaches the server, whose settings model rejects unknown
 * keys.
 *
 * Only values the user actually set are sent. Defaults stay the server's business, so a value in the
 * project's toolsense.toml is not overridden by a default that merely appears in VS Code's settings UI.
 *
 * Pure module: no `vscode` import, unit-tested in test/settings.test.ts.
 */

/** Dotted keys, relative to the `toolsense.` section, that are forwarded to the server. */
export const SERVER_SETTING_KEYS = [
  'files.tool_definitions',
  'files.automations',
  'files.tool_calls',
  'files.exclude',
  'diagnostics.debounce_ms',
  'limits.max_file_mb',
  'description.max_length',
  'mcp.protocol_version',
  'profiles',
  'targets',
  'severity',
  'models',
  'python_path',
  'registry',
  'samples',
] as const;

export type ServerSettingKey = (typeof SERVER_SETTING_KEYS)[number];

/** Settings that configure the client only; never sent to the server. */
export const CLIENT_ONLY_SETTING_KEYS = ['interpreter', 'trace.server'] as const;

/**
 * Settings whose workspace value could make the server import or run user code, or lift a bound that keeps it
 * answering (`limits.*`); VS Code ignores their workspace values in untrusted workspaces (package.json
 * `capabilities.untrustedWorkspaces`).
 */
export const RESTRICTED_SETTING_KEYS = ['interpreter', 'models', 'python_path', 'limits.max_file_mb'] as const;

/** Configuration section of every setting of the extension. */
export const SECTION = 'toolsense';

export type SettingsObject = { [key: string]: unknown };

/**
 * Build the server's settings object.
 *
 * @param read returns the user's value for a key relative to `toolsense.` (e.g. `diagnostics.debounce_ms`),
 *   or `undefined` when the user did not set it.
 * @param trusted whether the workspace is trusted; always included as `trusted`.
 */
export function buildServerSettings(read: (key: ServerSettingKey) => unknown, trusted: boolean): SettingsObject {
  const result: SettingsObject = {};
  for (const key of SERVER_SETTING_KEYS) {
    const value = read(key);
    if (value === undefined || value === null) {
      continue;
    }
    setPath(result, key.split('.'), cloneJson(value));
  }
  result.trusted = trusted;
  return result;
}

function setPath(target: SettingsObject, path: string[], value: unknown): void {
  let node = target;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as SettingsObject;
    } else {
      const created: SettingsObject = {};
      node[part] = created;
      node = created;
    }
  }
  node[path[path.length - 1]] = value;
}

/** VS Code hands out frozen proxies for configuration objects; send plain JSON copies. */
function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(cloneJson);
  }
  if (typeof value === 'object' && value !== null) {
    const out: SettingsObject = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = cloneJson(v);
    }
    return out;
  }
  return value;
}

/** The value a user set at any scope, from a `WorkspaceConfiguration.inspect()` result; undefined if none. */
export function explicitValue<T>(
  inspected:
    | {
        globalValue?: T;
        workspaceValue?: T;
        workspaceFolderValue?: T;
        globalLanguageValue?: T;
        workspaceLanguageValue?: T;
        workspaceFolderLanguageValue?: T;
      }
    | undefined,
  effective: T | undefined,
): T | undefined {
  if (!inspected) {
    return undefined;
  }
  const set =
    inspected.globalValue !== undefined ||
    inspected.workspaceValue !== undefined ||
    inspected.workspaceFolderValue !== undefined ||
    inspected.globalLanguageValue !== undefined ||
    inspected.workspaceLanguageValue !== undefined ||
    inspected.workspaceFolderLanguageValue !== undefined;
  // `effective` (from get()) already applies scope precedence and, in untrusted workspaces, drops
  // workspace values of restricted settings.
  return set ? effective : undefined;
}

/** Whether a configuration change needs a new server process (rather than a didChangeConfiguration). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  // The interpreter picks the process; the file globs are part of the client's document selector.
  return (
    affects(`${SECTION}.interpreter`) ||
    affects(`${SECTION}.files.tool_definitions`) ||
    affects(`${SECTION}.files.automations`) ||
    affects(`${SECTION}.files.tool_calls`)
  );
}
