import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headHasWork, scanFiles } from '../src/activation';

describe('work from first bytes', () => {
  it('finds a tool under any name', () => {
    assert.equal(headHasWork('/w/mcp-tools.json', '[{"name": "find", "inputSchema": {"type": "object"}}]'), true);
    assert.equal(headHasWork('/w/functions.json', '{"functions": [{"name": "f", "parameters" : {}}]}'), true);
    assert.equal(headHasWork('/w/log.jsonl', '{"type": "tool_use", "name": "f", "input": {}}\n'), true);
    assert.equal(headHasWork('/w/flow.json', '{"trigger_type": "cron"}'), true);
  });

  it('finds nothing in unrelated JSON, also under a tools folder', () => {
    const catalog = '{"tools": [{"name": "ripgrep", "url": "https://example.org", "license": "MIT"}]}';
    assert.equal(headHasWork('/w/tools/catalog.json', catalog), false);
    assert.equal(headHasWork('/w/package.json', '{"name": "demo", "version": "1.0.0", "type": "module"}'), false);
    // a key's name as a value is no key
    assert.equal(headHasWork('/w/words.json', '["input_schema", "parameters"]'), false);
  });

  it('takes an MCP configuration by its name and servers key only', () => {
    assert.equal(headHasWork('/w/.vscode/mcp.json', '{"servers": {"x": {"command": "y"}}}'), true);
    assert.equal(headHasWork('/w/.mcp.json', '{"mcpServers": {}}'), true);
    assert.equal(headHasWork('/w/hosts.json', '{"servers": {"x": {}}}'), false);
  });

  it("takes Codex's config.toml by its folder and an mcp_servers table only", () => {
    assert.equal(headHasWork('/home/me/.codex/config.toml', 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "x"\n'), true);
    assert.equal(headHasWork('/w/.codex/config.toml', 'mcp_servers.docs.command = "x"\n'), true);
    assert.equal(headHasWork('/w/.codex/config.toml', 'model = "o3"\n[profiles.fast]\n'), false);
    assert.equal(headHasWork('/w/config.toml', '[mcp_servers.docs]\ncommand = "x"\n'), false);
  });
});

describe('scan budget', () => {
  const texts: Record<string, string> = { a: '{}', b: '{"x": 1}', c: '{"input_schema": {}}' };
  it('stops at the first file with work', () => {
    assert.deepEqual(scanFiles(['a', 'b', 'c', 'd'], { read: (f) => texts[f] ?? '' }), { found: 'c', read: 3 });
  });
  it('gives up after the file budget', () => {
    assert.deepEqual(scanFiles(['a', 'b', 'c'], { read: (f) => texts[f], fileBudget: 2 }), { read: 2, budget: 'files' });
  });
  it('gives up after the time budget', () => {
    let clock = 0;
    const result = scanFiles(['a', 'b', 'c'], { read: (f) => texts[f], timeBudgetMs: 10, now: () => (clock += 6) });
    assert.equal(result.budget, 'time');
    assert.equal(result.found, undefined);
  });
  it('skips a file it cannot read', () => {
    const read = (f: string) => {
      if (f === 'a') throw new Error('EACCES');
      return texts[f];
    };
    assert.deepEqual(scanFiles(['a', 'c'], { read }), { found: 'c', read: 2 });
  });
});
