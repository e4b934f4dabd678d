#!/usr/bin/env bash
# Installs everything the tests need (skipping what is already there) and runs every test:
# ruff, mypy --strict, pytest (unit, golden, LSP end-to-end, Neovim, real VS Code via code-server).
set -euo pipefail
cd "$(dirname "$0")/.."
export TOOLSENSE_REQUIRE_E2E="${TOOLSENSE_REQUIRE_E2E:-1}"

# Debian/Ubuntu's python3 refuses pip installs outside a venv (PEP 668): use .venv there (made once).
if [ -z "${VIRTUAL_ENV:-}" ] && python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))'; then
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv || { echo "python3 -m venv failed: on Debian/Ubuntu install python3-venv (apt-get install python3-venv)" >&2; exit 1; }
  fi
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi
python3 -m pip install --quiet -e '.[dev]'
bash scripts/install-test-deps.sh

python3 -m ruff check server tests bench
python3 -m ruff format --check server tests bench
python3 -m mypy
python3 -m pytest -q "$@"
