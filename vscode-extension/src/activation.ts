/**
 * Whether a workspace has work for toolsense, decided from files' first bytes before any Python starts.
 *
 * The keys come from claimKeys.json, generated from the server's claiming (server/toolsense/engine/claim_keys.py;
 * a test checks it is current): a file none of whose first bytes hold one of them is never claimed, so a folder of
 * unrelated JSON (a `tools/catalog.json` of software tools) starts nothing. Node only, no `vscode`: unit-tested in
 * test/activation.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import claimKeys from './claimKeys.json';

/** How much of each file is read: keys of a first unit sit near the start of even a large file. */
export const HEAD_BYTES = 32 * 1024;
/** At most this many files are looked at, for at most this long, before the answer is "no work". */
export const FILE_BUDGET = 1000;
export const TIME_BUDGET_MS = 1500;
/** The file kinds the client hands to the server. */
export const LANGUAGES = ['json', 'jsonc', 'jsonl'] as const;
/** MCP configurations written in TOML (Codex's `.codex/config.toml`), handed to the server by their path: VS Code
 * has no TOML language of its own, so their language id says nothing. */
export const TOML_PATTERNS: readonly string[] = claimKeys.mcpToml.folders.flatMap((folder) =>
  claimKeys.mcpToml.files.map((file) => `**/${folder}/${file}`),
);
export const FILE_GLOB = `{**/*.json,**/*.jsonc,**/*.jsonl,${TOML_PATTERNS.join(',')}}`;

function alternatives(words: readonly string[]): string {
  return words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

const UNIT_KEY = new RegExp(`"(?:${alternatives(claimKeys.keys)})"\\s*:`);
const UNIT_TYPE = new RegExp(`"type"\\s*:\\s*"(?:${alternatives(claimKeys.types)})"`);
const MCP_SERVERS = new RegExp(`"(?:${alternatives(claimKeys.mcpConfig.keys)})"\\s*:\\s*\\{`);
const MCP_FILES: ReadonlySet<string> = new Set(claimKeys.mcpConfig.files);
const MCP_TOML_TABLE = new RegExp(`^[ \\t]*(?:\\[[ \\t]*)?(?:${alternatives(claimKeys.mcpToml.tables)})[ \\t]*[.=\\]]`, 'm');

/** True when `file` is where a client keeps an MCP configuration written in TOML (`.codex/config.toml`). */
export function isTomlConfig(file: string): boolean {
  const parts = file.replace(/\\/g, '/').split('/');
  return (
    claimKeys.mcpToml.files.includes(parts[parts.length - 1]) &&
    claimKeys.mcpToml.folders.some((folder) => {
      const want = folder.split('/');
      return parts.slice(-1 - want.length, -1).join('/') === want.join('/');
    })
  );
}

/** True when `head` (a file's first bytes, as text) holds a key that can make the file at `file` ours. */
export function headHasWork(file: string, head: string): boolean {
  if (isTomlConfig(file)) {
    return MCP_TOML_TABLE.test(head);
  }
  if (UNIT_KEY.test(head) || UNIT_TYPE.test(head)) {
    return true;
  }
  return MCP_FILES.has(path.basename(file)) && MCP_SERVERS.test(head);
}

export function readHead(file: string, bytes = HEAD_BYTES): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = fs.readSync(fd, buffer, 0, bytes, 0);
    return buffer.toString('utf8', 0, read);
  } finally {
    fs.closeSync(fd);
  }
}

export interface ScanResult {
  /** The first file with work, or undefined. */
  found?: string;
  /** How many files were read. */
  read: number;
  /** Why the scan stopped early without an answer ('files' or 'time'), if it did. */
  budget?: 'files' | 'time';
}

/** Look at `files` in order, within the file and time budgets; an unreadable file is skipped. */
export function scanFiles(
  files: readonly string[],
  options: { fileBudget?: number; timeBudgetMs?: number; now?: () => number; read?: (file: string) => string } = {},
): ScanResult {
  const now = options.now ?? Date.now;
  const read = options.read ?? ((file: string) => readHead(file));
  const deadline = now() + (options.timeBudgetMs ?? TIME_BUDGET_MS);
  const budget = options.fileBudget ?? FILE_BUDGET;
  let count = 0;
  for (const file of files) {
    if (count >= budget) return { read: count, budget: 'files' };
    if (now() > deadline) return { read: count, budget: 'time' };
    count += 1;
    let head: string;
    try {
      head = read(file);
    } catch {
      continue;
    }
    if (headHasWork(file, head)) return { found: file, read: count };
  }
  return { read: count };
}
