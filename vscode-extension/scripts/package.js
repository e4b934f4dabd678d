#!/usr/bin/env node
// Builds the platform .vsix: the toolsense wheel and every dependency wheel it needs (bundled/wheels/), so the
// extension sets up its server with `pip install --no-index --find-links` and never reaches the package index.
//   node scripts/package.js                      this machine's platform (PYTHON, default python3, builds it)
//   node scripts/package.js --target win32-x64   another platform
// Either way the .vsix carries the wheels of every supported Python (3.10-3.13, scripts/bundle-wheel.js;
// --pythons 3.12,3.13 names others).
//   node scripts/package.js --universal          any platform: the toolsense wheel only (the first run installs the
//                                                dependencies from the package index)
// Targets: linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64, win32-arm64. The .vsix is
// toolsense-<version>.vsix for this machine's platform (or --universal), toolsense-<target>-<version>.vsix for
// another. --out DIR writes it there (the tests).
// The .vsix carries README.md with its images inlined (dist/README.md, packaged as its readme): VS Code shows an
// extension's README in a webview whose Content-Security-Policy lets images come from https: and data: only
// (microsoft/vscode src/vs/workbench/contrib/extensions/browser/extensionEditor.ts, renderBody, read 2026-12-07),
// so an image file in the package shows broken and one on the web needs the network.
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

const IMAGE_TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif' };
const PACKAGE_README = 'dist/README.md';

/** README.md with each image as a data: URI (PNG, JPEG, GIF: VS Code and vsce refuse SVG data); a relative link,
 * which the extension page cannot follow, is an error. */
function packageReadme(extension) {
  const text = fs.readFileSync(path.join(extension, 'README.md'), 'utf8');
  const inlined = text.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (all, image, title, link) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('#')) {
      return all;
    }
    if (!image) {
      throw new Error(`README.md links to ${link}: the extension page cannot open a relative link, use its https URL`);
    }
    const type = IMAGE_TYPES[path.extname(link).toLowerCase()];
    if (type === undefined) {
      throw new Error(`README.md shows ${link}: only PNG, JPEG and GIF images can be inlined`);
    }
    return `![${title}](data:${type};base64,${fs.readFileSync(path.join(extension, link)).toString('base64')})`;
  });
  fs.mkdirSync(path.join(extension, path.dirname(PACKAGE_README)), { recursive: true });
  fs.writeFileSync(path.join(extension, PACKAGE_README), inlined);
}

const extension = path.resolve(__dirname, '..');
const version = JSON.parse(fs.readFileSync(path.join(extension, 'package.json'), 'utf8')).version;
const native = `${process.platform}-${process.arch}`;
const universal = process.argv.includes('--universal');
const target = option('--target') ?? native;
if (!universal && !(target in PIP_PLATFORMS)) {
  throw new Error(`unknown target ${target}: one of ${Object.keys(PIP_PLATFORMS).join(', ')}`);
}
const env = { ...process.env };
if (target !== native) {
  // Another platform: the wheels are chosen by its tags, the dependencies' markers by its name.
  env.TOOLSENSE_WHEEL_PLATFORM = PIP_PLATFORMS[target].join(',');
  env.TOOLSENSE_WHEEL_TARGET = target;
}
if (option('--pythons')) {
  env.TOOLSENSE_WHEEL_PYTHONS = option('--pythons');
}
const node = process.execPath;
execFileSync(node, [path.join(__dirname, 'bundle-wheel.js'), ...(universal ? [] : ['--wheelhouse'])], { stdio: 'inherit', env, cwd: extension });
packageReadme(extension);
const name = universal || target === native ? `toolsense-${version}.vsix` : `toolsense-${target}-${version}.vsix`;
const out = path.resolve(option('--out') ?? extension, name);
const vsce = path.join(extension, 'node_modules', '@vscode', 'vsce', 'vsce');
// --no-rewrite-relative-links: the README's links are https already and its images are inlined (above).
const args = ['package', '--no-dependencies', '--no-rewrite-relative-links', '--readme-path', PACKAGE_README, '--out', out];
execFileSync(node, [vsce, ...args, ...(universal ? [] : ['--target', target])], { stdio: 'inherit', cwd: extension });
process.stdout.write(`${out}\n`);
