import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presentStatus } from '../src/status';

describe('status item', () => {
  it('says ready, with the version and interpreter in the tooltip', () => {
    const p = presentStatus({ state: 'ready', version: '0.1.0', interpreter: '/venv/bin/python' });
    assert.equal(p.text, '$(check) toolsense');
    assert.equal(p.label, 'toolsense: ready');
    assert.match(p.tooltip, /0\.1\.0/);
    assert.match(p.tooltip, /\/venv\/bin\/python/);
    assert.equal(p.background, undefined);
  });

  it('says which server runs', () => {
    const bundled = presentStatus({ state: 'ready', version: '0.1.0', interpreter: '/s/venv/bin/python', origin: 'bundled' });
    assert.equal(bundled.label, 'toolsense: ready — bundled server 0.1.0');
    assert.match(bundled.tooltip, /ready — bundled server/);
    const own = presentStatus({ state: 'ready', version: '0.0.9', interpreter: '/v/bin/python', origin: 'setting' });
    assert.equal(own.label, 'toolsense: ready — server from "toolsense.interpreter" 0.0.9');
  });

  it('shows the bundled server being set up', () => {
    const p = presentStatus({ state: 'installing', detail: 'installing toolsense 0.1.0' });
    assert.equal(p.label, 'toolsense: setting up the bundled server');
    assert.match(p.text, /setting up/);
  });

  it('mentions crash restarts', () => {
    assert.match(presentStatus({ state: 'ready', crashes: 2 }).tooltip, /restarted after 2 crashes/);
    const p = presentStatus({ state: 'restarting', crashes: 1, maxRestarts: 4 });
    assert.match(p.text, /restarting/);
    assert.match(p.tooltip, /1 of 4/);
    assert.equal(p.background, 'warning');
  });

  it('says why the server cannot start, in full in the tooltip', () => {
    const p = presentStatus({ state: 'cannot-start', reason: 'no Python 3.10+', message: 'No Python 3.10 or newer was found (looked for python3).' });
    assert.equal(p.text, '$(error) toolsense: no Python 3.10+');
    assert.equal(p.label, 'toolsense: no Python 3.10+');
    assert.match(p.tooltip, /looked for python3/);
    assert.equal(p.background, 'error');
  });

  it('escapes markdown in messages', () => {
    assert.match(presentStatus({ state: 'error', message: 'a*b' }).tooltip, /a\\\*b/);
  });

  it('names the opt-in profile that would check unpinned packages (TS941) while it is off', () => {
    const plain = presentStatus({ state: 'ready', version: '0.1.0', profiles: [] }).tooltip;
    assert.match(plain, /\*\*mcp-security\*\*: packages run unpinned in MCP configurations \(TS941: `npx -y pkg`/);
    assert.match(plain, /add to `toolsense\.profiles`/);
    assert.match(plain, /\*\*mcp-quality\*\*/);
    const secured = presentStatus({ state: 'ready', version: '0.1.0', profiles: ['openai', 'mcp-security'] }).tooltip;
    assert.doesNotMatch(secured, /mcp-security/);
    assert.match(secured, /\*\*mcp-quality\*\*/);
    const both = presentStatus({ state: 'ready', profiles: ['mcp-security', 'mcp-quality'] }).tooltip;
    assert.doesNotMatch(both, /Not checked by default/);
    assert.doesNotMatch(presentStatus({ state: 'ready' }).tooltip, /Not checked by default/);
  });
});
