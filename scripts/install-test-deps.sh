#!/usr/bin/env bash
# System packages and editors for the client tests; each step is skipped when already present.
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
# git: the pre-commit hook tests make temporary repositories.
command -v git >/dev/null 2>&1 || need_apt+=(git)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if [ -f scripts/install-vscode-e2e.sh ]; then
  bash scripts/install-vscode-e2e.sh
fi
# The VS Code extension's toolchain (TypeScript, esbuild, vsce, ovsx), pinned by its package-lock.json; again when a
# tool the lock file names is missing (a node_modules from before ovsx was added).
if command -v npm >/dev/null 2>&1 && { [ ! -x vscode-extension/node_modules/.bin/vsce ] || [ ! -x vscode-extension/node_modules/.bin/ovsx ]; }; then
  (cd vscode-extension && npm ci --silent --no-audit --no-fund)
fi
