#!/usr/bin/env bash
# Installs everything the tests need (skipping what is already there) and runs every test:
# ruff, mypy --strict, pytest (unit, golden, LSP end-to-end, Neovim, real VS Code via code-server).
set -euo pipefail
cd "$(dirname "$0")/.."
export TOOLSENSE_REQUIRE_E2E="${TOOLSENSE_REQUIRE_E2E:-1}"

python3 -m pip install --quiet -e '.[dev]'
bash scripts/install-test-deps.sh

python3 -m ruff check server tests bench
python3 -m ruff format --check server tests bench
python3 -m mypy
python3 -m pytest -q "$@"
