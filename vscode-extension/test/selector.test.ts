import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDocumentSelector, DEFAULT_GLOBS, handledGlobs, normalizeGlob } from '../src/selector';

describe('document selector', () => {
  it('has the thirteen default globs', () => {
    assert.deepEqual(DEFAULT_GLOBS, [
      '**/*.tool.json',
      '**/*.tools.json',
      '**/tools/*.json',
      '**/tools.json',
      '**/*.automation.json',
      '**/automations/*.json',
      '**/*.toolcall.json',
      '**/*.tool-call.json',
      '**/tool_calls/*.json',
      '**/calls/*.json',
      '**/mcp.json',
      '**/.mcp.json',
      '**/claude_desktop_config.json',
    ]);
  });

  it('covers json and jsonc, file and untitled, for every glob', () => {
    const selector = buildDocumentSelector([]);
    assert.equal(selector.length, DEFAULT_GLOBS.length * 4);
    assert.deepEqual(
      selector.filter((f) => f.pattern === '**/*.tool.json'),
      [
        { language: 'json', scheme: 'file', pattern: '**/*.tool.json' },
        { language: 'jsonc', scheme: 'file', pattern: '**/*.tool.json' },
        { language: 'json', scheme: 'untitled', pattern: '**/*.tool.json' },
        { language: 'jsonc', scheme: 'untitled', pattern: '**/*.tool.json' },
      ],
    );
  });

  it('adds user globs, made to match anywhere, without duplicates', () => {
    assert.deepEqual(handledGlobs(['agents/*.json', './defs/**/*.json', '**/*.tool.json', '', 42, '/abs/x.json']).slice(DEFAULT_GLOBS.length), [
      '**/agents/*.json',
      '**/defs/**/*.json',
      '/abs/x.json',
    ]);
  });

  it('normalizes globs', () => {
    assert.equal(normalizeGlob('  '), undefined);
    assert.equal(normalizeGlob('a\\b\\*.json'), '**/a/b/*.json');
    assert.equal(normalizeGlob('C:/x/*.json'), 'C:/x/*.json');
    assert.equal(normalizeGlob('**/x.json'), '**/x.json');
  });
});
