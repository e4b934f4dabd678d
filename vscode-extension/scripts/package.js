#!/usr/bin/env node
// Builds the platform .vsix: the toolsense wheel and every dependency wheel it needs (bundled/wheels/), so the
// extension sets up its server with `pip install --no-index --find-links` and never reaches the package index.
//   node scripts/package.js                      this machine's platform, for this machine's python3 (PYTHON)
//   node scripts/package.js --target win32-x64 --pythons 3.10,3.11,3.12,3.13
//                                                another platform, for the Python versions its users may have
// Targets: linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64, win32-arm64. The .vsix is
// toolsense-<version>.vsix for this machine's platform, toolsense-<target>-<version>.vsix for another.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PIP_PLATFORMS = {
  'linux-x64': ['manylinux2014_x86_64', 'manylinux_2_28_x86_64', 'musllinux_1_2_x86_64'],
  'linux-arm64': ['manylinux2014_aarch64', 'manylinux_2_28_aarch64'],
  'darwin-x64': ['macosx_10_13_x86_64', 'macosx_11_0_universal2'],
  'darwin-arm64': ['macosx_11_0_arm64', 'macosx_11_0_universal2'],
  'win32-x64': ['win_amd64'],
  'win32-arm64': ['win_arm64'],
};

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const extension = path.resolve(__dirname, '..');
const version = JSON.parse(fs.readFileSync(path.join(extension, 'package.json'), 'utf8')).version;
const native = `${process.platform}-${process.arch}`;
const target = option('--target') ?? native;
if (!(target in PIP_PLATFORMS)) {
  throw new Error(`unknown target ${target}: one of ${Object.keys(PIP_PLATFORMS).join(', ')}`);
}
const env = { ...process.env };
if (target !== native || option('--pythons')) {
  // Another platform: pip cannot ask its Python, so the wheels are chosen by tags.
  env.TOOLSENSE_WHEEL_PLATFORM = PIP_PLATFORMS[target].join(',');
  env.TOOLSENSE_WHEEL_PYTHONS = option('--pythons') ?? '3.10,3.11,3.12,3.13';
}
const node = process.execPath;
execFileSync(node, [path.join(__dirname, 'bundle-wheel.js'), '--wheelhouse'], { stdio: 'inherit', env, cwd: extension });
const out = target === native ? `toolsense-${version}.vsix` : `toolsense-${target}-${version}.vsix`;
const vsce = path.join(extension, 'node_modules', '@vscode', 'vsce', 'vsce');
// Relative links stay relative: the README's screenshot is the one packaged in the .vsix (shown offline).
execFileSync(node, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--target', target, '--out', out], {
  stdio: 'inherit',
  cwd: extension,
});
process.stdout.write(`${out}\n`);
