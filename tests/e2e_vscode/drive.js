#!/usr/bin/env node
// Drives a running code-server (a real VS Code in Chromium) through the toolsense extension's features.
//
// Usage: node drive.js CONFIG.json
// CONFIG (written by test_vscode_e2e.py):
//   url            http://127.0.0.1:PORT/?folder=WORKSPACE
//   workspace      absolute path of the opened folder
//   artifacts      directory for screenshots and results.json
//   chromium       browser executable (default /usr/bin/chromium)
//   diagnostics    {path, expectText}             (a) a file whose toolsense diagnostics must reach Problems
//   completion     {path, line, column, deleteChars, values, choose, expectRegex}
//                                                 (b) cursor after `"type": ` (1-based line/column); the
//                                                     deleteChars characters of the value that follows are
//                                                     deleted, completion must offer `values`,
//                                                     accepting `choose` must make the saved file match expectRegex
//   quickfix       {path, line, column, key, titleRegex, expectRegex}
//                                                 (c) cursor on an unknown key; applying the quick fix whose
//                                                     title matches titleRegex must remove its diagnostic
//   recovery       {pgid, logsDir}                (e) optional: SIGKILL the server process (found in code-server's
//                                                     process group); it must come back, the status item ready again
//                                                     and the log saying it restarted
//   settings       {path, code, settingsFile}     (g) optional: write settingsFile (the workspace's
//                                                     .vscode/settings.json) with toolsense.severity {code: "off"};
//                                                     the problem with that code in `path` must disappear
//                                                     (didChangeConfiguration with the mapped settings)
//   missing        {settingsFile, interpreter}    (f) optional: write settingsFile (the workspace's
//                                                     .vscode/settings.json) pointing toolsense.interpreter at a Python without
//                                                     toolsense; the status item and a notification must say so and
//                                                     give the install command
//   setup          {timeoutMs, logsDir}          (s) optional: the bundled server is set up by itself: the status item
//                                                     and a progress notification say so, the log shows the venv and
//                                                     pip commands, then the status item says the bundled server runs
//   serverProcess  {pgid, workspace}              optional: the server runs isolated (-I) from the private venv, in a
//                                                     working directory outside the workspace
//   explicitInterpreter {settingsFile, interpreter, path, expectText}
//                                                 (f) optional: toolsense.interpreter (workspace settings) pointing at
//                                                     a Python with its own toolsense wins: the status item says so and
//                                                     the diagnostics come back
//   noUi           {path, logsDir}                optional, instead of the above: in a folder without toolsense files,
//                                                     opening `path` (JSON) activates VS Code's JSON support but not
//                                                     toolsense: no status item, no notification
//   noPython       {url, path}                    optional: then opening `url` (a folder with toolsense files, on a
//                                                     machine without Python) shows exactly one toolsense notification
//                                                     naming what was looked for and the setting
//   installFailure {settingsFile, interpreter, logsDir}
//                                                 optional: then toolsense.interpreter names a Python that cannot
//                                                     create environments (no venv module): exactly one new
//                                                     notification says, in two lines, what failed and what to do
//   mcp            {setupTimeoutMs, logsDir, cases: [{config, server, snapshot, tools, problems, summary}]}
//                                                 optional, instead of the above: in a folder whose MCP configuration
//                                                     files name real SDK servers, with workspace trust on: the
//                                                     folder opens in Restricted Mode and is trusted in the
//                                                     Workspace Trust editor, the bundled server set up;
//                                                     then per case: open `config`, click the code lens "Check this
//                                                     server's tools" on entry `server`; `snapshot` must be written
//                                                     (with `tools` tools) and become the active editor, each of
//                                                     `problems` [{severity, message, line, column}] (1-based) must
//                                                     be listed for it, and the entry get the problem `summary`;
//                  drift {config, server, snapshot, suffix, drift, change, acceptTitle, accepted}: then an entry
//                                                     whose committed `snapshot` differs from the server's tools: its
//                                                     check leaves the file as it is, puts `drift` on the entry and a
//                                                     TS927 problem starting with `change` in the snapshot, and offers
//                                                     "Accept these tools" (its whole title `acceptTitle`), whose click
//                                                     writes the snapshot (it then holds `suffix`) and leaves the entry
//                                                     with `accepted` and no TS927 anywhere
//   content        {quiet: {url, path, storageDir, logsDir}, tool: {url, path, tool, hoverLine, hoverColumn, fix: {line,
//                  column, key, titleRegex}}}
//                                                 optional, instead of the above (issue 24): `quiet` is a folder of
//                                                     unrelated JSON (tools/catalog.json): opening `path` starts no
//                                                     environment, shows no status item, no notification, nothing in
//                                                     Problems; then `tool`, a folder whose tool file has an unusual
//                                                     name, on a fresh profile with the package index unreachable:
//                                                     squiggles (time from opening the file), hover, outline (the
//                                                     tool's name) and a quick fix
//   timeoutMs      per wait (default 30000)
//
// Every check runs even if an earlier one failed; the result is one JSON line on stdout, prefixed `RESULT `,
// and artifacts/results.json: {checks: {name: {ok, detail, ms}}, timings: {...}}.
'use strict';

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { chromium } = require('playwright-core');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const TIMEOUT = config.timeoutMs ?? 30_000;
const t0 = Date.now();
const timings = {};
const checks = {};
const mark = (name) => {
  timings[name] = Date.now() - t0;
  log(`${name} at ${(timings[name] / 1000).toFixed(1)} s`);
};
function log(message) {
  process.stderr.write(`[drive ${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${message}\n`);
}

async function check(name, fn) {
  const start = Date.now();
  try {
    const detail = await fn();
    checks[name] = { ok: true, detail: detail ?? '', ms: Date.now() - start };
    log(`PASS ${name}: ${detail ?? ''}`);
  } catch (error) {
    checks[name] = { ok: false, detail: String(error && error.stack ? error.stack : error), ms: Date.now() - start };
    log(`FAIL ${name}: ${error}`);
    await shot(`failed-${name}`);
  }
}

let page;
async function shot(name) {
  if (!page) return undefined;
  const file = path.join(config.artifacts, `${name}.png`);
  try {
    await page.screenshot({ path: file });
    return file;
  } catch (error) {
    log(`screenshot ${name} failed: ${error}`);
    return undefined;
  }
}

async function waitFor(description, predicate, timeout = TIMEOUT, interval = 250) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await predicate();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${description}${last ? ` (last: ${last})` : ''}`);
    }
    await page.waitForTimeout(interval);
  }
}

// ---- VS Code UI helpers ----------------------------------------------------------------------------

const quickInput = () => page.locator('.quick-input-widget').filter({ visible: true });

async function focusEditorArea() {
  // Escape closes widgets; the editor keeps focus when one is open.
  await page.keyboard.press('Escape');
}

async function openFile(relPath) {
  const base = path.basename(relPath);
  for (let attempt = 1; ; attempt++) {
    await focusEditorArea();
    await page.keyboard.press('Control+P');
    const input = quickInput().locator('input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(relPath);
    try {
      const row = quickInput().locator('.monaco-list-row', { hasText: base }).first();
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      await page.keyboard.press('Enter');
      await page
        .locator(`.tabs-container .tab.active[aria-label*="${base}"], .tabs-container .tab.active:has-text("${base}")`)
        .first()
        .waitFor({ state: 'visible', timeout: 10_000 });
      await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw new Error(`could not open ${relPath}: ${error}`);
      log(`opening ${relPath} failed (attempt ${attempt}), retrying: ${error}`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
}

async function activeEditorText() {
  // The editor's accessible textarea holds only part of the text; read the rendered lines instead.
  return page.locator('.editor-instance .monaco-editor .view-lines').first().innerText();
}

async function gotoPosition(line, column) {
  await page.keyboard.press('Control+G');
  const input = quickInput().locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}:${column}`);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await quickInput().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = quickInput().locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  const row = quickInput().locator('.monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Enter');
}

async function save() {
  await page.keyboard.press('Control+S');
  await waitFor('the editor to be saved', async () => (await page.locator('.tabs-container .tab.active.dirty').count()) === 0, 10_000);
}

/** Read rows atomically in the page: the list re-renders while the server publishes, so a count followed by
 * nth(i) reads could wait on rows that are gone. */
function readRows(selector) {
  return page.locator(selector).evaluateAll((rows) =>
    rows
      .filter((r) => r.getClientRects().length > 0)
      .map((r) => `${r.getAttribute('aria-label') ?? ''} || ${(r.innerText || '').replace(/\s+/g, ' ')}`),
  );
}

function problemRows() {
  return readRows('.markers-panel .monaco-list-row');
}

/** Open the Problems panel, filtered to one file (the list is virtual: rows of other files could push the
 * file's rows out of the rendered part once the server has checked the whole workspace). */
async function showProblems(relPath) {
  if (!(await page.locator('.markers-panel').filter({ visible: true }).count())) {
    await runCommand('View: Focus Problems');
    await page.locator('.markers-panel').first().waitFor({ state: 'visible', timeout: 10_000 });
  }
  const filter = page.locator('.panel input[placeholder*="Filter"], .pane-header input[placeholder*="Filter"]').filter({ visible: true }).first();
  await filter.waitFor({ state: 'visible', timeout: 10_000 });
  await filter.fill(relPath ? `**/${relPath}` : '');
  await page.waitForTimeout(300);
}

function statusLabels() {
  return page
    .locator('#workbench\\.parts\\.statusbar [aria-label*="toolsense"]')
    .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));
}

/** pids of `python -m toolsense serve` processes in a process group. */
function serverPids(pgid) {
  const out = execFileSync('ps', ['-ww', '-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 2 && Number(f[1]) === pgid && /toolsense.*\sserve(\s|$)/.test(f.slice(2).join(' ')))
    .map((f) => Number(f[0]));
}

function notificationTexts() {
  return page
    .locator('.notifications-toasts .notification-list-item')
    .evaluateAll((items) => items.filter((i) => i.getClientRects().length > 0).map((i) => (i.innerText || '').replace(/\s+/g, ' ')));
}

function readLogs(logsDir, predicate) {
  if (!fs.existsSync(logsDir)) return '';
  return findFiles(logsDir, (f) => f.endsWith('.log') && predicate(f))
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('\n');
}

function findFiles(dir, predicate, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findFiles(full, predicate, out);
    else if (predicate(full)) out.push(full);
  }
  return out;
}

function readWorkspaceFile(relPath) {
  return fs.readFileSync(path.join(config.workspace, relPath), 'utf8');
}

// ---- no toolsense UI where it has no work; one message without Python ----------------------------------

async function noToolsense() {
  const noUi = config.noUi;
  await check('no-ui', async () => {
    await openFile(noUi.path);
    // Proof that VS Code processed the JSON file's activation events: its own JSON support was activated.
    await waitFor('VS Code to activate its JSON support for the opened file', async () =>
      /_doActivateExtension vscode\.json-language-features/.test(readLogs(noUi.logsDir, () => true)));
    // toolsense activates on JSON too, then looks at the files' first bytes: no dialect's key, nothing starts.
    await waitFor('toolsense to find no work', async () =>
      /No file with tool definitions/.test(readLogs(noUi.logsDir, (f) => f.includes('toolsense'))));
    const activations = readLogs(noUi.logsDir, () => true).match(/_doActivateExtension \S+/g) ?? [];
    const labels = await statusLabels();
    const toasts = (await notificationTexts()).filter((t) => /toolsense/i.test(t));
    await shot('no-ui');
    if (labels.length || toasts.length) {
      throw new Error(`toolsense showed up: status ${JSON.stringify(labels)}, notifications ${JSON.stringify(toasts)}`);
    }
    return `activated: ${JSON.stringify(activations.map((a) => a.split(' ')[1]))}; no toolsense status item or notification`;
  });

  const noPython = config.noPython;
  if (!noPython) return;
  await check('no-python', async () => {
    await page.goto(noPython.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
    const label = await waitFor('the status item to say toolsense cannot run', async () =>
      (await statusLabels()).find((l) => l.includes('toolsense: no Python 3.10+')));
    const toast = await waitFor('the notification', async () => (await notificationTexts()).find((t) => t.includes('No Python 3.10 or newer')));
    for (const expected of ['python3', 'toolsense.interpreter']) {
      if (!toast.includes(expected)) throw new Error(`the notification does not name ${expected}: ${toast}`);
    }
    const toasts = (await notificationTexts()).filter((t) => /toolsense/i.test(t));
    await shot('no-python');
    if (toasts.length !== 1) throw new Error(`expected one toolsense notification, got ${JSON.stringify(toasts)}`);
    // The notification center holds every notification of the window, also the ones no longer shown as toasts.
    await runCommand('Notifications: Show Notifications');
    const center = await waitFor('the notification center', async () => {
      const items = await page
        .locator('.notifications-center .notification-list-item')
        .evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).map((e) => (e.innerText || '').replace(/\s+/g, ' ')));
      return items.length ? items : undefined;
    }, 10_000);
    const ours = center.filter((t) => /toolsense/i.test(t));
    if (ours.length !== 1) throw new Error(`expected one toolsense notification in the notification center, got ${JSON.stringify(center)}`);
    return `status ${JSON.stringify(label)}; notification: ${toast.slice(0, 400)}`;
  });

  const failure = config.installFailure;
  if (!failure) return;
  await check('install-failure', async () => {
    await page.keyboard.press('Escape'); // close the notification center
    fs.mkdirSync(path.dirname(failure.settingsFile), { recursive: true });
    fs.writeFileSync(failure.settingsFile, JSON.stringify({ 'toolsense.interpreter': failure.interpreter }, null, 2));
    const toast = await waitFor('the set-up failure notification', async () =>
      (await notificationTexts()).find((t) => t.includes('Setting up the bundled server failed')), 180_000, 500);
    for (const expected of ['-m venv exited with 1', 'install python3-venv', 'Reinstall']) {
      if (!toast.includes(expected)) throw new Error(`the notification does not say ${JSON.stringify(expected)}: ${toast}`);
    }
    // The set-up's progress notification closes as the failure shows (a set-up from the carried wheels fails fast).
    await waitFor('the progress notification to close', async () =>
      !(await notificationTexts()).some((t) => t.includes('toolsense: setting up the bundled server')), 10_000);
    const toasts = (await notificationTexts()).filter((t) => /toolsense/i.test(t));
    await shot('install-failure');
    if (toasts.length !== 1) throw new Error(`expected one toolsense notification, got ${JSON.stringify(toasts)}`);
    const label = (await statusLabels()).find((l) => l.includes('toolsense'));
    if (label !== 'toolsense: set-up failed') throw new Error(`status item: ${label}`);
    const log = readLogs(failure.logsDir, (f) => f.includes('toolsense'));
    if (!/\$ \S+ -m venv --clear/.test(log)) throw new Error('the venv command is not in the log');
    return `status ${JSON.stringify(label)}; notification: ${toast.slice(0, 600)}`;
  });
}

// ---- MCP configuration files: the "Check this server's tools" code lens --------------------------------

/** A Problems row's accessible label, as VS Code words it: the severity, the exact message and the position. */
function problemLabel(p) {
  return `${p.severity}: ${p.message} at line ${p.line} and character ${p.column}. generated by toolsense`;
}

/** Wait until the Problems panel (filtered to relPath) lists exactly this problem; returns all its rows. */
async function waitForProblem(relPath, problem) {
  const expected = problemLabel(problem);
  let rows = [];
  await showProblems(relPath);
  await waitFor(`the problem "${expected}" in ${relPath}`, async () => {
    rows = await problemRows();
    return rows.some((r) => r.split(' || ')[0] === expected);
  }).catch((error) => {
    throw new Error(`${error}; rows: ${JSON.stringify(rows)}`);
  });
  return rows.filter((r) => r.includes('generated by toolsense'));
}

const LENS_TITLE = "Check this server's tools";

/** Open a file by its workspace-relative path through Quick Open, choosing the row whose name and folder are
 * exactly the file's (`.mcp.json` would otherwise also match `.vscode/mcp.json`). */
async function openExactly(relPath) {
  const base = path.basename(relPath);
  const dir = path.dirname(relPath) === '.' ? '' : path.dirname(relPath);
  for (let attempt = 1; ; attempt++) {
    await focusEditorArea();
    await page.keyboard.press('Control+P');
    const input = quickInput().locator('input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(relPath);
    try {
      const index = await waitFor(`a Quick Open row for ${relPath}`, async () => {
        const rows = await quickInput()
          .locator('.monaco-list-row')
          .evaluateAll((els) =>
            els.map((el) => ({
              name: (el.querySelector('.label-name')?.textContent ?? '').trim(),
              description: (el.querySelector('.label-description')?.textContent ?? '').trim(),
            })),
          );
        const found = rows.findIndex((r) => r.name === base && (r.description === dir || r.description.endsWith(`/${dir}`) || (!dir && r.description === '')));
        return found >= 0 ? found + 1 : undefined;
      }, 10_000);
      await quickInput().locator('.monaco-list-row').nth(index - 1).click();
      await page.locator('.tabs-container .tab.active').filter({ hasText: base }).first().waitFor({ state: 'visible', timeout: 10_000 });
      await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw new Error(`could not open ${relPath}: ${error}`);
      log(`opening ${relPath} failed (attempt ${attempt}), retrying: ${error}`);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
  }
}

/** The aria-labels and texts of the active editor tabs (the file's name is in both). */
function activeTabs() {
  return readRows('.tabs-container .tab.active');
}

async function mcpChecks() {
  const mcp = config.mcp;
  await check('trust', async () => {
    // Workspace trust is on and the folder is new: it opens in Restricted Mode (no lens: the server is told the
    // workspace is untrusted). Trust it in the Workspace Trust editor, as a user would.
    const restricted = page.locator('#workbench\\.parts\\.statusbar').getByText('Restricted Mode');
    await restricted.first().waitFor({ state: 'visible', timeout: 60_000 });
    await shot('restricted-mode');
    // The server starts in Restricted Mode first (its status item shows), so trusting must restart it once; the
    // models it holds back are said once, with a "Trust this folder" button that opens the Workspace Trust editor.
    await waitFor('toolsense to start in Restricted Mode', async () => (await statusLabels()).length > 0, 60_000);
    const toast = await waitFor('the Restricted Mode message', async () =>
      (await notificationTexts()).find((t) => t.includes('Restricted Mode: your registered models are not imported')), mcp.setupTimeoutMs, 500);
    const messages = (await notificationTexts()).filter((t) => t.includes('registered models'));
    if (messages.length !== 1) throw new Error(`expected one message about the models, got ${JSON.stringify(messages)}`);
    await page.locator('.notifications-toasts .notification-list-item').filter({ hasText: 'Restricted Mode' })
      .getByRole('button', { name: 'Trust this folder' }).first().click();
    const editor = page.locator('.workspace-trust-editor').filter({ visible: true });
    await editor.first().waitFor({ state: 'visible', timeout: 20_000 });
    const button = editor.getByRole('button', { name: /^Trust( Folder)?$/ }).first();
    await button.waitFor({ state: 'visible', timeout: 10_000 });
    await button.click();
    await restricted.first().waitFor({ state: 'hidden', timeout: 20_000 });
    await shot('trusted');
    await page.keyboard.press('Control+W'); // close the trust editor
    return `Restricted Mode at start; one message (${toast.slice(0, 160)}); its button opened the Workspace Trust editor; trusted`;
  });

  await check('setup', async () => {
    const label = await waitFor('the bundled server to be set up and ready', async () =>
      (await statusLabels()).find((l) => l.includes('toolsense: ready')), mcp.setupTimeoutMs, 500);
    if (!label.includes('bundled server')) throw new Error(`not the bundled server: ${label}`);
    const log = readLogs(mcp.logsDir, (f) => f.includes('toolsense'));
    if (!/\$ \S+ -I (?:-m pip|\S+\.whl\/pip) install .*bundled\/toolsense-[^ ]+\.whl\[mcp\]/.test(log)) {
      throw new Error(`the log does not show pip installing the wheel with the mcp extra:\n${log.slice(-3000)}`);
    }
    return `status ${JSON.stringify(label)}`;
  });

  await check('trust-restart', async () => {
    // Trusting restarts the server once (not once for the trust and again for the settings it unlocked).
    await page.waitForTimeout(3000);
    const log = readLogs(mcp.logsDir, (f) => f.includes('toolsense'));
    const starts = log.match(/Starting \([^)]*\)/g) ?? [];
    const trusted = starts.filter((s) => s.includes('workspace trusted'));
    if (trusted.length !== 1 || starts.length > 2) throw new Error(`starts: ${JSON.stringify(starts)}`);
    if (/ERR_STREAM_WRITE_AFTER_END/.test(log)) throw new Error('ERR_STREAM_WRITE_AFTER_END in the log');
    return `starts: ${JSON.stringify(starts)}`;
  });

  const progressSeen = {};
  for (const c of mcp.cases) {
    await check(`code-lens ${c.config}`, async () => {
      await openExactly(c.config);
      await page.keyboard.press('Escape');
      // The lens above the server's entry; the server answers code lens requests only in a trusted workspace.
      const lens = page.locator('.editor-instance .codelens-decoration a').filter({ hasText: LENS_TITLE });
      await waitFor(`the code lens "${LENS_TITLE}" in ${c.config}`, async () => (await lens.count()) > 0, 60_000);
      log(`${c.config}: the lens is shown`);
      await shot(`lens-${path.basename(c.config)}`);
      // One lens per server entry (these files have one); VS Code adds its own MCP lenses (Start | More...) to
      // the same line in .vscode/mcp.json.
      const ours = await lens.count();
      if (ours !== 1) {
        const all = await page.locator('.editor-instance .codelens-decoration').allInnerTexts();
        throw new Error(`expected one "${LENS_TITLE}" lens, got ${ours}: ${JSON.stringify(all)}`);
      }
      const started = Date.now();
      await lens.first().click();
      // Feedback while the server is started and listed: the lens says "checking…", a cancellable notification.
      progressSeen[c.config] = await waitFor('progress on the lens or a notification', async () => {
        const lenses = await page.locator('.editor-instance .codelens-decoration').allInnerTexts();
        const toasts = await notificationTexts();
        const seen = [...lenses.filter((t) => t.includes('checking')), ...toasts.filter((t) => t.includes('listing its tools'))];
        return seen.length ? seen : undefined;
      }, 10_000, 50).catch(() => []);

      // The snapshot is written and opened (window/showDocument, focused).
      const snapshotBase = path.basename(c.snapshot);
      const full = path.join(config.workspace, c.snapshot);
      await waitFor(`${c.snapshot} to be written and opened`, async () =>
        fs.existsSync(full) && (await activeTabs()).some((t) => t.includes(snapshotBase)), 90_000).catch(async (error) => {
        const toasts = await notificationTexts();
        const tabs = await activeTabs();
        await showProblems(c.config);
        const rows = await problemRows();
        throw new Error(`${error}; written: ${fs.existsSync(full)}; active tabs ${JSON.stringify(tabs)}; notifications ${JSON.stringify(toasts)}; problems of ${c.config}: ${JSON.stringify(rows)}`);
      });
      const opened = Date.now() - started;
      log(`${c.config}: ${c.snapshot} written and opened`);
      const snapshot = JSON.parse(fs.readFileSync(full, 'utf8'));
      if (!Array.isArray(snapshot.tools) || snapshot.tools.length !== c.tools) {
        throw new Error(`${c.snapshot} lists ${snapshot.tools?.length} tools, expected ${c.tools}`);
      }
      await shot(`snapshot-${path.basename(c.config)}`);

      // Its diagnostics (the ordinary checks of a tools/list file), and the one-line summary on the entry.
      let snapshotRows = [];
      for (const problem of c.problems) snapshotRows = await waitForProblem(c.snapshot, problem);
      log(`${c.config}: the snapshot's problems are listed`);
      await waitForProblem(c.config, c.summary);
      await shot(`summary-${path.basename(c.config)}`);
      return `snapshot opened ${opened} ms after the click; ${snapshotRows.length} of its problem rows shown; entry: ${problemLabel(c.summary)}`;
    });
  }
  await check('lens-progress', async () => {
    if (!Object.values(progressSeen).some((seen) => seen.length)) throw new Error(`no progress seen: ${JSON.stringify(progressSeen)}`);
    return JSON.stringify(progressSeen);
  });
  if (mcp.drift) await driftChecks(mcp.drift);
}

const ACCEPT_TITLE = 'Accept these tools';

/** TS927 rows of the Problems panel, filtered to relPath. */
async function driftRows(relPath) {
  await showProblems(relPath);
  return (await problemRows()).filter((r) => r.includes('TS927'));
}

/** The server's tools changed since the snapshot was committed: "Check this server's tools" writes nothing and
 * shows the drift (on the entry, in the snapshot), "Accept these tools" writes the new snapshot and clears it. */
async function driftChecks(d) {
  const full = path.join(config.workspace, d.snapshot);
  const committed = fs.readFileSync(full, 'utf8');
  const lensIn = (title) => page.locator('.editor-instance .codelens-decoration a').filter({ hasText: title });
  await check('drift', async () => {
    await openExactly(d.config);
    await page.keyboard.press('Escape');
    const lens = lensIn(LENS_TITLE);
    await waitFor(`the code lens "${LENS_TITLE}" in ${d.config}`, async () => (await lens.count()) > 0, 60_000);
    if (await lensIn(ACCEPT_TITLE).count()) throw new Error(`"${ACCEPT_TITLE}" is offered before any check`);
    await lens.first().click();
    // The committed snapshot is opened, not rewritten; the drift is on the entry and in the snapshot.
    const snapshotBase = path.basename(d.snapshot);
    await waitFor(`${d.snapshot} to be opened`, async () => (await activeTabs()).some((t) => t.includes(snapshotBase)), 90_000);
    await waitForProblem(d.config, d.drift);
    log(`${d.config}: the drift is on the entry`);
    let rows = [];
    await waitFor(`the TS927 change in ${d.snapshot}`, async () => {
      rows = await driftRows(d.snapshot);
      return rows.some((r) => r.includes(d.change));
    }).catch((error) => {
      throw new Error(`${error}; TS927 rows: ${JSON.stringify(rows)}`);
    });
    await shot('drift-snapshot');
    if (fs.readFileSync(full, 'utf8') !== committed) throw new Error(`${d.snapshot} was written before it was accepted`);
    // The lens offers the accept action (VS Code asks for the lenses again when the file is shown again): back to
    // the file's tab (named with its folder: another `.mcp.json` is open).
    const tab = page.locator('.tabs-container .tab').filter({ hasText: path.basename(d.config) }).filter({ hasText: path.dirname(d.config) });
    await tab.first().click();
    await waitFor(`${d.config} to be the active editor`, async () =>
      (await activeTabs()).some((t) => t.includes(path.basename(d.config)) && t.includes(path.dirname(d.config))), 10_000);
    await waitFor(`the code lens "${ACCEPT_TITLE}" in ${d.config}`, async () => (await lensIn(ACCEPT_TITLE).count()) === 1, 60_000)
      .catch(async (error) => {
        const all = await page.locator('.editor-instance .codelens-decoration').allInnerTexts();
        throw new Error(`${error}; lenses: ${JSON.stringify(all)}`);
      });
    const acceptShown = (await lensIn(ACCEPT_TITLE).first().innerText()).trim();
    if (d.acceptTitle && acceptShown !== d.acceptTitle) throw new Error(`the accept lens reads ${JSON.stringify(acceptShown)}, expected ${JSON.stringify(d.acceptTitle)}`);
    await shot('drift-lens');
    return `snapshot unchanged; lens: ${acceptShown}; entry: ${problemLabel(d.drift)}; snapshot: ${rows.map((r) => r.split(' || ')[0]).join(' ## ')}`;
  });

  await check('accept', async () => {
    if (!checks.drift?.ok) throw new Error('no drift to accept (the drift check failed)');
    await lensIn(ACCEPT_TITLE).first().click();
    const tools = await waitFor(`${d.snapshot} to hold the new tools`, async () => {
      const text = fs.readFileSync(full, 'utf8');
      return text !== committed && text.includes(d.suffix) ? JSON.parse(text).tools : undefined;
    }, 30_000);
    if (!tools[0]?.description?.includes(d.suffix)) throw new Error(`the first tool's description lacks the new text: ${JSON.stringify(tools[0])}`);
    log(`${d.config}: ${d.snapshot} written with the new tools`);
    // The server asked VS Code to refresh its lenses, so the accept lens goes. Looked for before the Problems panel
    // is opened: VS Code debounces a lens refresh and cancels the pending fetch when the editor loses focus
    // (codelensController: onDidBlurEditorText cancels its scheduler), so a panel opened within that window would
    // keep the old lens until the editor is focused again (issue 29). The server sends a second refresh once its
    // re-checks settle, for clients whose focus moved.
    await waitFor(`the code lens "${ACCEPT_TITLE}" to go`, async () => (await lensIn(ACCEPT_TITLE).count()) === 0, 30_000)
      .catch(async (error) => {
        const all = await page.locator('.editor-instance .codelens-decoration').allInnerTexts();
        throw new Error(`${error}; lenses: ${JSON.stringify(all)}`);
      });
    // The entry says the tools were accepted; no TS927 is left on it or in the snapshot.
    await waitForProblem(d.config, d.accepted);
    let left = [];
    await waitFor(`no TS927 in ${d.config}`, async () => (left = await driftRows(d.config)).length === 0).catch((error) => {
      throw new Error(`${error}; rows: ${JSON.stringify(left)}`);
    });
    await waitFor(`no TS927 in ${d.snapshot}`, async () => (left = await driftRows(d.snapshot)).length === 0).catch((error) => {
      throw new Error(`${error}; rows: ${JSON.stringify(left)}`);
    });
    const remaining = (await problemRows()).filter((r) => r.includes('generated by toolsense')).map((r) => r.split(' || ')[0]);
    await shot('accepted');
    return `${d.snapshot} holds ${JSON.stringify(d.suffix.slice(0, 40))}…; entry: ${problemLabel(d.accepted)}; snapshot problems now: ${remaining.join(' ## ')}`;
  });
}

// ---- content decides (issue 24) ----------------------------------------------------------------------

function outlineRows() {
  return readRows('.outline-pane .monaco-list-row, .outline-tree .monaco-list-row');
}

async function contentChecks() {
  const { quiet, tool } = config.content;
  await check('quiet-folder', async () => {
    await openFile(quiet.path);
    await waitFor('toolsense to find no work', async () =>
      /No file with tool definitions/.test(readLogs(quiet.logsDir, (f) => f.includes('toolsense'))), 30_000);
    await page.waitForTimeout(3000); // anything late would show now
    const labels = await statusLabels();
    const toasts = (await notificationTexts()).filter((t) => /toolsense/i.test(t));
    await showProblems('');
    const problems = (await problemRows()).filter((r) => r.includes('toolsense'));
    const environment = fs.existsSync(path.join(quiet.storageDir, 'venv'));
    await shot('quiet-folder');
    if (labels.length || toasts.length || problems.length || environment) {
      throw new Error(`not quiet: status ${JSON.stringify(labels)}, notifications ${JSON.stringify(toasts)}, problems ${JSON.stringify(problems)}, environment ${environment}`);
    }
    return 'no environment, no status item, no notification, nothing in Problems';
  });

  await check('unusual-name', async () => {
    await page.goto(tool.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
    const opened = Date.now();
    await openFile(tool.path);
    await waitFor('a squiggle in the editor', async () =>
      (await page.locator('.editor-instance .squiggly-error, .editor-instance .squiggly-warning').count()) > 0, 120_000, 100);
    const squiggles = Date.now() - opened;
    timings.squigglesAfterOpenMs = squiggles;
    log(`squiggles ${squiggles} ms after opening ${tool.path}`);
    await shot('unusual-name');
    return `squiggles ${(squiggles / 1000).toFixed(1)} s after opening ${tool.path} on a fresh profile, package index unreachable`;
  });

  await check('hover', async () => {
    await gotoPosition(tool.hoverLine, tool.hoverColumn);
    const hover = page.locator('.monaco-hover').filter({ visible: true });
    const text = await waitFor('a hover', async () => {
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      await page.waitForTimeout(500);
      const t = (await hover.allInnerTexts()).join(' ');
      return /inputSchema|JSON Schema|input/i.test(t) ? t : undefined;
    }, 20_000, 500);
    await page.keyboard.press('Escape');
    return text.replace(/\s+/g, ' ').slice(0, 200);
  });

  await check('outline', async () => {
    await runCommand('Explorer: Focus on Outline View');
    const rows = await waitFor(`the tool ${tool.tool} in the outline`, async () => {
      const r = await outlineRows();
      return r.some((x) => x.includes(tool.tool)) ? r : undefined;
    }, 20_000);
    await shot('outline');
    return JSON.stringify(rows.slice(0, 6));
  });

  await check('quickfix', async () => {
    await openFile(tool.path);
    const fix = tool.fix;
    await gotoPosition(fix.line, fix.column + 1);
    const menu = page.locator('.action-widget').filter({ visible: true });
    const titles = await waitFor('the quick fix menu', async () => {
      await page.keyboard.press('Control+.');
      await page.waitForTimeout(800);
      const t = await menu.locator('.monaco-list-row').allInnerTexts();
      if (t.some((x) => new RegExp(fix.titleRegex, 'i').test(x))) return t;
      await page.keyboard.press('Escape');
      return undefined;
    }, 30_000, 500);
    await menu.locator('.monaco-list-row').filter({ hasText: new RegExp(fix.titleRegex, 'i') }).first().click();
    // The edit lands in the editor a moment after the click: a save pressed before it writes the old text and
    // leaves the tab dirty again, so save until the file on disk has the fix (or the time is up).
    let text = '';
    await waitFor(`the fix of ${fix.key} on disk`, async () => {
      await save();
      text = readWorkspaceFile(tool.path);
      return !text.includes(`"${fix.key}"`);
    }, 15_000, 500).catch((error) => {
      throw new Error(`${error}; the key ${fix.key} is still there:\n${text}`);
    });
    return `applied ${JSON.stringify(titles.find((x) => new RegExp(fix.titleRegex, 'i').test(x)))}`;
  });

  // With the server running, a file that is not ours leaves nothing in Problems once closed (its TS007 note,
  // "not checked", is for while it is open).
  await check('not-ours-closed', async () => {
    await openFile(tool.notOurs);
    await showProblems(tool.notOurs);
    const seen = await waitFor(`the note on ${tool.notOurs} while it is open`, async () => {
      const rows = (await problemRows()).filter((r) => r.includes('toolsense'));
      return rows.length ? rows : undefined;
    }, 30_000).catch(() => []);
    await openFile(tool.notOurs); // the editor focused (the filter box had it)
    await page.keyboard.press('Control+W');
    await showProblems(tool.notOurs);
    let rows = [];
    await waitFor(`nothing of ${tool.notOurs} in Problems after closing it`, async () => {
      rows = (await problemRows()).filter((r) => r.includes('toolsense'));
      return rows.length === 0;
    }, 30_000).catch((error) => {
      throw new Error(`${error}; rows: ${JSON.stringify(rows)}`);
    });
    return `while open: ${JSON.stringify(seen.map((r) => r.split(' || ')[1]))}; after closing: nothing`;
  });
}

// ---- the run ---------------------------------------------------------------------------------------

async function main() {
  fs.mkdirSync(config.artifacts, { recursive: true });
  const browser = await chromium.launch({
    executablePath: config.chromium || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    page.on('pageerror', (error) => log(`page error: ${error}`));
    mark('browser');
    await page.goto(config.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    // The explorer shows the folder once the workbench has connected to the server.
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });
    mark('workbench');

    if (config.noUi) {
      await noToolsense();
      return;
    }
    if (config.mcp) {
      await mcpChecks();
      return;
    }
    if (config.content) {
      await contentChecks();
      return;
    }

    // (s) the bundled server sets itself up: no setting, no Python with toolsense on the machine.
    const setup = config.setup;
    if (setup) {
      await check('setup', async () => {
        await openFile(config.diagnostics.path);
        mark('editor');
        const labels = new Set();
        const toasts = new Set();
        const ready = await waitFor('the bundled server to be set up and ready', async () => {
          for (const l of await statusLabels()) labels.add(l);
          for (const t of await notificationTexts()) if (t.includes('toolsense')) toasts.add(t.slice(0, 200));
          return (await statusLabels()).find((l) => l.includes('toolsense: ready'));
        }, setup.timeoutMs, 200);
        mark('ready');
        const log = readLogs(setup.logsDir, (f) => f.includes('toolsense'));
        const venv = /\$ \S+ -m venv --clear (\S+)/.exec(log);
        const pip = /\$ \S+ -I (?:-m pip|\S+\.whl\/pip) install .*bundled\/toolsense-[^ ]+\.whl/.exec(log);
        if (!venv || !pip) throw new Error(`the log does not show the venv and pip commands:\n${log.slice(-3000)}`);
        if (!ready.includes('bundled server')) throw new Error(`the status item does not say the bundled server runs: ${ready}`);
        if (![...labels].some((l) => l.includes('setting up the bundled server'))) {
          throw new Error(`the status item never said it was setting up (seen: ${JSON.stringify([...labels])})`);
        }
        if (![...toasts].some((t) => t.includes('setting up the bundled server'))) {
          throw new Error(`no progress notification (seen: ${JSON.stringify([...toasts])})`);
        }
        return `ready as ${JSON.stringify(ready)}; venv ${venv[1]}; labels seen ${JSON.stringify([...labels])}; notifications ${JSON.stringify([...toasts])}`;
      });
    }

    // (a) diagnostics of a wrong file reach the Problems panel, with source toolsense.
    const diag = config.diagnostics;
    await check('diagnostics', async () => {
      await openFile(diag.path);
      if (!timings.editor) mark('editor');
      await waitFor('a squiggle in the editor', async () => (await page.locator('.editor-instance .squiggly-error, .editor-instance .squiggly-warning').count()) > 0);
      mark('squiggles');
      await showProblems(diag.path);
      const rows = await waitFor('a toolsense problem in the Problems panel', async () => {
        const r = await problemRows();
        return r.some((row) => row.includes('toolsense') && (!diag.expectText || row.includes(diag.expectText))) ? r : undefined;
      });
      mark('problems');
      const ours = rows.filter((row) => row.includes('toolsense'));
      return `${ours.length} toolsense problem(s): ${ours.slice(0, 3).join(' ## ')}`;
    });

    // Screenshot for the README: squiggles, the hover on the first problem, the Problems panel.
    try {
      if (config.quickfix && config.quickfix.path === diag.path) {
        await gotoPosition(config.quickfix.line, config.quickfix.column + 1);
        await page.keyboard.press('Control+K');
        await page.keyboard.press('Control+I');
        await page.locator('.monaco-hover').filter({ visible: true }).first().waitFor({ timeout: 5_000 });
        await page.waitForTimeout(300);
      }
    } catch (error) {
      log(`no hover for the screenshot: ${error}`);
    }
    await shot('screenshot');
    await page.keyboard.press('Escape');

    // (d) the status item says ready, and which server runs.
    await check('status', async () => {
      const label = await waitFor('the toolsense status item to say ready', async () =>
        (await statusLabels()).find((l) => l.includes('toolsense: ready')));
      if (setup && !label.includes('bundled server')) throw new Error(`not the bundled server: ${label}`);
      const text = await page.locator('#workbench\\.parts\\.statusbar [aria-label*="toolsense: ready"]').first().innerText();
      return `aria-label ${JSON.stringify(label)}, text ${JSON.stringify(text.trim())}`;
    });

    // (b) completion at an enum position offers the enum values; accepting one changes the text.
    const comp = config.completion;
    await check('completion', async () => {
      await openFile(comp.path);
      await gotoPosition(comp.line, comp.column);
      for (let i = 0; i < comp.deleteChars; i++) await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Backspace');
      const widget = page.locator('.editor-widget.suggest-widget.visible');
      let labels = [];
      for (let attempt = 1; attempt <= 4; attempt++) {
        await page.keyboard.press('Control+Space');
        try {
          labels = await waitFor('completion items with the enum values', async () => {
            if (!(await widget.count())) return undefined;
            const seen = (await readRows('.editor-widget.suggest-widget.visible .monaco-list-row')).map((r) => r.split(' || ')[0].trim());
            return comp.values.every((v) => seen.some((s) => s.includes(v))) ? seen : undefined;
          }, 8_000);
          break;
        } catch (error) {
          if (attempt === 4) {
            const rows = await widget.locator('.monaco-list-row').allInnerTexts().catch(() => []);
            throw new Error(`${error}; suggestions shown: ${JSON.stringify(rows)}`);
          }
          await page.keyboard.press('Escape');
          await page.waitForTimeout(1000);
        }
      }
      await shot('completion');
      const row = widget.locator('.monaco-list-row').filter({ hasText: comp.choose }).first();
      await row.click();
      await widget.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
      await save();
      const text = readWorkspaceFile(comp.path);
      if (!new RegExp(comp.expectRegex).test(text)) {
        throw new Error(`after accepting ${comp.choose}, the file does not match /${comp.expectRegex}/:\n${text}`);
      }
      return `offered ${labels.length} items (${labels.slice(0, 8).join(', ')}); accepted ${comp.choose}`;
    });

    // (c) a quick fix removes its diagnostic.
    const fix = config.quickfix;
    await check('quickfix', async () => {
      await openFile(fix.path);
      await showProblems(fix.path);
      await waitFor(`a toolsense problem about ${fix.key}`, async () => (await problemRows()).some((r) => r.includes('toolsense') && r.includes(fix.key)));
      await gotoPosition(fix.line, fix.column + 1);
      const menu = page.locator('.action-widget').filter({ visible: true });
      let titles = [];
      for (let attempt = 1; attempt <= 3; attempt++) {
        await page.keyboard.press('Control+.');
        try {
          titles = await waitFor('the quick fix menu', async () => {
            const t = await menu.locator('.monaco-list-row').allInnerTexts();
            return t.some((x) => new RegExp(fix.titleRegex, 'i').test(x)) ? t : undefined;
          }, 8_000);
          break;
        } catch (error) {
          if (attempt === 3) {
            const shown = await menu.locator('.monaco-list-row').allInnerTexts().catch(() => []);
            throw new Error(`${error}; actions shown: ${JSON.stringify(shown)}`);
          }
          await page.keyboard.press('Escape');
          await page.waitForTimeout(1000);
        }
      }
      await shot('quickfix-menu');
      await menu.locator('.monaco-list-row').filter({ hasText: new RegExp(fix.titleRegex, 'i') }).first().click();
      let rowsAfter = [];
      await waitFor(`the problem about ${fix.key} to disappear`, async () => {
        rowsAfter = await problemRows();
        return !rowsAfter.some((r) => r.includes('toolsense') && r.includes(fix.key));
      }).catch((error) => {
        throw new Error(`${error}; Problems rows: ${JSON.stringify(rowsAfter)}`);
      });
      await save();
      const text = readWorkspaceFile(fix.path);
      if (fix.expectRegex && !new RegExp(fix.expectRegex).test(text)) {
        throw new Error(`after the quick fix the file does not match /${fix.expectRegex}/:\n${text}`);
      }
      return `applied ${JSON.stringify(titles.find((x) => new RegExp(fix.titleRegex, 'i').test(x)))} (menu: ${JSON.stringify(titles)})`;
    });
    // The server runs from the private venv, isolated, outside the workspace.
    const proc = config.serverProcess;
    if (proc) {
      await check('server-process', async () => {
        const pids = await waitFor('a running server process', async () => {
          const p = serverPids(proc.pgid);
          return p.length ? p : undefined;
        }, 10_000);
        const details = [];
        for (const pid of pids) {
          const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
          const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          const rel = path.relative(proc.workspace, cwd);
          if (rel === '' || !rel.startsWith('..')) throw new Error(`server ${pid} runs in ${cwd}, inside the workspace`);
          if (!args.includes('-I')) throw new Error(`server ${pid} is not isolated: ${args.join(' ')}`);
          if (!/globalStorage\/toolsense\.toolsense\/venv\//.test(args[0])) throw new Error(`server ${pid} is not the bundled one: ${args.join(' ')}`);
          details.push(`${pid}: ${args.join(' ')} in ${cwd}`);
        }
        return details.join('; ');
      });
    }

    // (e) recovery: the server is killed; the extension restarts it and says so.
    const rec = config.recovery;
    if (rec) {
      await check('recovery', async () => {
        const before = await waitFor('a running server process', async () => {
          const pids = serverPids(rec.pgid);
          return pids.length ? pids : undefined;
        }, 10_000).catch((error) => {
          const ps = execFileSync('ps', ['-ww', '-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
          throw new Error(`${error}; code-server pgid ${rec.pgid}; processes:\n${ps.split('\n').filter((l) => /toolsense|code-server|entry\.js/.test(l)).join('\n')}`);
        });
        for (const pid of before) process.kill(pid, 'SIGKILL');
        const seen = new Set();
        const after = await waitFor('a new server process and the status item ready', async () => {
          for (const l of await statusLabels()) seen.add(l);
          const pids = serverPids(rec.pgid).filter((p) => !before.includes(p));
          const ready = (await statusLabels()).some((l) => l.includes('toolsense: ready'));
          return pids.length && ready ? pids : undefined;
        }, 30_000, 100);
        const logs = findFiles(rec.logsDir, (f) => f.endsWith('.log') && f.includes('toolsense'));
        const said = logs.some((f) => /stopped unexpectedly; restarting it \(1 of 4/.test(fs.readFileSync(f, 'utf8')));
        if (!said) throw new Error(`no restart message in the toolsense log (${logs.join(', ') || 'no log file'})`);
        return `killed ${before}, restarted as ${after}; status labels seen: ${JSON.stringify([...seen])}`;
      });
    }

    // (g) a settings change reaches the server: turning a rule off removes its problem.
    const set = config.settings;
    if (set) {
      await check('settings', async () => {
        await openFile(set.path);
        await showProblems(set.path);
        await waitFor(`a ${set.code} problem in ${set.path}`, async () => (await problemRows()).some((r) => r.includes(`toolsense(${set.code})`) || r.includes(`toolsense ${set.code}`)));
        fs.mkdirSync(path.dirname(set.settingsFile), { recursive: true });
        fs.writeFileSync(set.settingsFile, JSON.stringify({ 'toolsense.severity': { [set.code]: 'off' } }, null, 2));
        let rows = [];
        await waitFor(`the ${set.code} problem to disappear after "toolsense.severity": {"${set.code}": "off"}`, async () => {
          rows = await problemRows();
          return !rows.some((r) => r.includes(set.code));
        }).catch((error) => {
          throw new Error(`${error}; Problems rows: ${JSON.stringify(rows)}`);
        });
        return `${set.code} gone; remaining rows: ${JSON.stringify(rows.map((r) => r.split(' || ')[1]))}`;
      });
    }

    // (f) an explicit toolsense.interpreter with its own toolsense wins over the bundled server.
    const explicit = config.explicitInterpreter;
    if (explicit) {
      await check('explicit-interpreter', async () => {
        // toolsense.interpreter is machine-overridable: a workspace setting overrides the Remote one.
        let current = {};
        try {
          current = JSON.parse(fs.readFileSync(explicit.settingsFile, 'utf8'));
        } catch {
          // no settings yet
        }
        fs.mkdirSync(path.dirname(explicit.settingsFile), { recursive: true });
        fs.writeFileSync(explicit.settingsFile, JSON.stringify({ ...current, 'toolsense.interpreter': explicit.interpreter }, null, 2));
        const label = await waitFor('the status item to say the server from toolsense.interpreter runs', async () =>
          (await statusLabels()).find((l) => l.includes('toolsense: ready') && l.includes('toolsense.interpreter')), 60_000);
        await openFile(explicit.path);
        await showProblems(explicit.path);
        await waitFor('toolsense problems again', async () => (await problemRows()).some((r) => r.includes('toolsense')));
        await shot('explicit-interpreter');
        return `status ${JSON.stringify(label)}`;
      });
    }
    await shot('final');
  } finally {
    mark('done');
    await browser.close().catch(() => undefined);
  }
}

main()
  .catch((error) => {
    checks.run = { ok: false, detail: String(error && error.stack ? error.stack : error), ms: Date.now() - t0 };
    log(`run failed: ${error}`);
  })
  .finally(() => {
    const result = { checks, timings };
    try {
      fs.writeFileSync(path.join(config.artifacts, 'results.json'), JSON.stringify(result, null, 2));
    } catch {
      // artifacts dir missing: stdout still has it
    }
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  });
