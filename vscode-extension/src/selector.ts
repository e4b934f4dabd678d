/**
 * Which documents the client hands to the server: every JSON, JSONC and JSON Lines document on disk or unsaved, and
 * the MCP configurations written in TOML (Codex's `.codex/config.toml`).
 *
 * Content decides what is ours, in the server (a folder or name glob from the settings only lowers its bar): it
 * answers nothing, cheaply, for the rest. Pure module, unit-tested in test/selector.test.ts.
 */
import { LANGUAGES, TOML_PATTERNS } from './activation';

export const SCHEMES = ['file', 'untitled'] as const;

export interface DocumentFilter {
  language?: string;
  scheme: string;
  pattern?: string;
}

/** One filter per language x scheme, and one per TOML MCP configuration on disk (by its path: VS Code has no TOML
 * language of its own). */
export function buildDocumentSelector(): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const scheme of SCHEMES) {
    for (const language of LANGUAGES) {
      filters.push({ language, scheme });
    }
  }
  for (const pattern of TOML_PATTERNS) {
    filters.push({ scheme: 'file', pattern });
  }
  return filters;
}
