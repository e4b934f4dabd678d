/**
 * Which documents the client hands to the server: every JSON, JSONC and JSON Lines document on disk or unsaved.
 *
 * Content decides what is ours, in the server (a folder or name glob from the settings only lowers its bar): it
 * answers nothing, cheaply, for the rest. Pure module, unit-tested in test/selector.test.ts.
 */
import { LANGUAGES } from './activation';

export const SCHEMES = ['file', 'untitled'] as const;

export interface DocumentFilter {
  language: string;
  scheme: string;
}

/** One filter per language x scheme. */
export function buildDocumentSelector(): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const scheme of SCHEMES) {
    for (const language of LANGUAGES) {
      filters.push({ language, scheme });
    }
  }
  return filters;
}
