#!/usr/bin/env node
// Builds the toolsense wheel from this repository into bundled/, where the .vsix carries it.
//   node scripts/bundle-wheel.js [--wheelhouse]
// PYTHON (default python3) runs `python -m build --wheel` (pip install build). The wheel's version must equal
// package.json's: the extension and the server are released together.
// --wheelhouse also downloads every dependency wheel (with the extras the extension installs, src/bundled.ts EXTRAS:
// the MCP SDK for "Check this server's tools") for this machine's platform and Python into
// bundled/wheels/ (a platform-specific .vsix, installed with no package index at all); TOOLSENSE_WHEEL_PLATFORM (comma-separated tags) and
// TOOLSENSE_WHEEL_PYTHONS (a comma-separated list: one download per Python) select other platforms and Pythons (pip
// download --platform/--python-version): the private environment is made with the user's Python, whichever it is.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const extension = path.resolve(__dirname, '..');
const repo = path.resolve(extension, '..');
const out = path.join(extension, 'bundled');
const python = process.env.PYTHON || 'python3';
// Keep in step with EXTRAS in src/bundled.ts (a test checks that they agree).
const EXTRAS = ['mcp'];
const version = JSON.parse(fs.readFileSync(path.join(extension, 'package.json'), 'utf8')).version;

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
execFileSync(python, ['-m', 'build', '--wheel', '--outdir', out, repo], { stdio: ['ignore', 'ignore', 'inherit'] });
const wheels = fs.readdirSync(out).filter((n) => /^toolsense-.*-py3-none-any\.whl$/.test(n));
if (wheels.length !== 1) {
  throw new Error(`expected one toolsense wheel in ${out}, found ${JSON.stringify(wheels)}`);
}
const wheelVersion = /^toolsense-([^-]+)-/.exec(wheels[0])[1];
if (wheelVersion !== version) {
  throw new Error(`the wheel is toolsense ${wheelVersion} but package.json says ${version}: release them together`);
}
if (process.argv.includes('--wheelhouse')) {
  const base = ['-m', 'pip', 'download', '--disable-pip-version-check', '--only-binary=:all:', '--dest', path.join(out, 'wheels')];
  // A comma-separated list of pip platform tags (any of them may match a wheel).
  for (const tag of (process.env.TOOLSENSE_WHEEL_PLATFORM || '').split(',').map((t) => t.trim()).filter(Boolean)) {
    base.push('--platform', tag);
  }
  const versions = (process.env.TOOLSENSE_WHEEL_PYTHONS || '').split(',').map((v) => v.trim()).filter(Boolean);
  for (const version of versions.length ? versions : [undefined]) {
    const args = version ? [...base, '--python-version', version] : base;
    // pip itself too: the extension runs pip from its wheel in an environment made without pip (fast).
    execFileSync(python, [...args, `${path.join(out, wheels[0])}[${EXTRAS.join(',')}]`, 'pip'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  fs.rmSync(path.join(out, 'wheels', wheels[0]), { force: true });
}
process.stdout.write(`bundled/${wheels[0]}\n`);
