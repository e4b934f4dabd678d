import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDocumentSelector } from '../src/selector';

describe('document selector', () => {
  it('covers json, jsonc and jsonl, on disk and unsaved, whatever the name, and Codex\'s config.toml', () => {
    assert.deepEqual(buildDocumentSelector(), [
      { language: 'json', scheme: 'file' },
      { language: 'jsonc', scheme: 'file' },
      { language: 'jsonl', scheme: 'file' },
      { language: 'json', scheme: 'untitled' },
      { language: 'jsonc', scheme: 'untitled' },
      { language: 'jsonl', scheme: 'untitled' },
      { scheme: 'file', pattern: '**/.codex/config.toml' },
    ]);
  });
});
