#!/usr/bin/env node
// Builds the toolsense wheel from this repository into bundled/, where the .vsix carries it.
//   node scripts/bundle-wheel.js [--wheelhouse] [--out DIR]
// PYTHON (default python3) runs `python -m build --wheel` (pip install build). The wheel's version must equal
// package.json's: the extension and the server are released together. --out puts it elsewhere than bundled/ (the
// tests build one in a temporary folder).
// --wheelhouse also downloads every dependency wheel (with the extras the extension installs, src/bundled.ts EXTRAS:
// the MCP SDK for "Check this server's tools", and pip itself) into bundled/wheels/, for every Python the package
// supports (SUPPORTED_PYTHONS, pyproject.toml's classifiers; TOOLSENSE_WHEEL_PYTHONS, comma-separated, names others):
// the private environment is made with the user's Python, whichever it is, and pip takes its wheels from there with no
// package index. scripts/wheelhouse.py does the downloading: pip evaluates dependency markers for the Python that
// runs it, not the target (tomli for 3.10, colorama on Windows), and it completes what pip leaves out.
// TOOLSENSE_WHEEL_PLATFORM (comma-separated pip tags) and TOOLSENSE_WHEEL_TARGET (linux-x64, win32-x64, …) select
// another platform (scripts/package.js --target sets them).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const extension = path.resolve(__dirname, '..');
const repo = path.resolve(extension, '..');
const outOption = process.argv.indexOf('--out');
const out = outOption >= 0 ? path.resolve(process.argv[outOption + 1]) : path.join(extension, 'bundled');
const python = process.env.PYTHON || 'python3';
// Keep in step with EXTRAS in src/bundled.ts (a test checks that they agree).
const EXTRAS = ['mcp'];
// Keep in step with pyproject.toml's `Programming Language :: Python :: 3.x` classifiers (a test checks that they agree).
const SUPPORTED_PYTHONS = ['3.10', '3.11', '3.12', '3.13'];
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
  const pythons = (process.env.TOOLSENSE_WHEEL_PYTHONS || SUPPORTED_PYTHONS.join(',')).split(',').map((v) => v.trim()).filter(Boolean);
  const args = [path.join(__dirname, 'wheelhouse.py'), '--dest', path.join(out, 'wheels'), '--pythons', pythons.join(',')];
  if (process.env.TOOLSENSE_WHEEL_TARGET) {
    args.push('--target', process.env.TOOLSENSE_WHEEL_TARGET);
  }
  // A comma-separated list of pip platform tags (any of them may match a wheel).
  for (const tag of (process.env.TOOLSENSE_WHEEL_PLATFORM || '').split(',').map((t) => t.trim()).filter(Boolean)) {
    args.push('--platform', tag);
  }
  // pip itself too: the extension runs pip from its wheel in an environment made without pip (fast).
  execFileSync(python, [...args, `${path.join(out, wheels[0])}[${EXTRAS.join(',')}]`, 'pip'], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.rmSync(path.join(out, 'wheels', wheels[0]), { force: true });
}
process.stdout.write(`bundled/${wheels[0]}\n`);
