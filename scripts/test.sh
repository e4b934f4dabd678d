#!/usr/bin/env bash
# Installs everything the tests need (skipping what is already there) and runs every test:
# ruff, mypy --strict, pytest (unit, golden, LSP end-to-end, Neovim, real VS Code via code-server).
# Python packages go into the project's own virtual environment (.venv, made here when missing), never into the
# interpreter that runs this script: a pyenv or system Python that is not marked externally managed stays as it was.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  cat <<'USAGE'
usage: scripts/test.sh [pytest args]        install what the tests need, then run them all (what CI runs)
       scripts/test.sh --stress N [args]    the LSP and robustness tests N times in a row while busy processes
                                            load every core (a test that passes only on an idle machine fails);
                                            `--stress 3 tests/e2e_vscode` adds the real-VS-Code tests to each round
       scripts/test.sh --setup-only         install what the tests need and stop
       scripts/test.sh --help               this help; installs nothing

What it installs, each step skipped when already done:
  .venv/             a virtual environment made with the first python3 on PATH (TOOLSENSE_TEST_VENV names
                     another folder); toolsense editable with its dev extras from PyPI (about 120 packages,
                     500 MB, 1-2 minutes the first time). Nothing is installed into python3 itself.
  Debian packages    neovim, git, chromium, libkrb5-dev (as root or with sudo; only when missing)
  ~/.cache/toolsense-e2e   Node 24 and code-server from the npm registry (~500 MB), for the real-VS-Code tests
  node_modules       the extension's toolchain (vscode-extension/) and playwright-core (tests/e2e_vscode/)
Then: ruff check, ruff format --check, mypy --strict, pytest.
USAGE
}

# The project's own environment: made once, then every python3 below is its interpreter.
use_project_venv() {
  local venv="${TOOLSENSE_TEST_VENV:-.venv}"
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || { echo "python3 -m venv failed: on Debian/Ubuntu install python3-venv (apt-get install python3-venv)" >&2; exit 1; }
  fi
  # shellcheck disable=SC1091
  . "$venv/bin/activate"
  [ "$(command -v python3)" = "$PWD/$venv/bin/python3" ] || [ "$(command -v python3)" = "$venv/bin/python3" ] || {
    echo "the virtual environment $venv did not activate (python3 is $(command -v python3))" >&2
    exit 1
  }
}

install_python_deps() {
  python3 -m pip install --quiet -e '.[dev]'
}

case "${1:-}" in
  -h | --help)
    usage
    exit 0
    ;;
  --setup-only)
    use_project_venv
    install_python_deps
    bash scripts/install-test-deps.sh
    exit 0
    ;;
esac

if [[ "${1:-}" == "--stress" ]]; then
  rounds="${2:?usage: scripts/test.sh --stress N [pytest args]}"
  shift 2
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "--stress needs a positive count, got '$rounds'" >&2; exit 2; }
  use_project_venv
  stress_tests=(
    tests/lsp
    tests/robustness
    tests/cli/test_exit_codes.py
    tests/models/test_user_code.py
    tests/models/test_probe_orphans.py
    tests/settings/test_config_trust.py
    tests/settings/test_extension_trust.py
  )
  load_pids=()
  stop_load() {
    for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${load_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  }
  trap stop_load EXIT INT TERM
  cores=$(nproc)
  for _ in $(seq "$cores"); do
    python3 -c 'while True: pass' &
    load_pids+=("$!")
  done
  echo "stress: $rounds round(s) of ${stress_tests[*]} with $cores busy process(es) loading every core"
  for round in $(seq "$rounds"); do
    started=$SECONDS
    if ! python3 -m pytest -q -p no:cacheprovider "${stress_tests[@]}" "$@"; then
      echo "stress: round $round of $rounds FAILED after $((SECONDS - started)) s" >&2
      exit 1
    fi
    echo "stress: round $round of $rounds passed in $((SECONDS - started)) s"
  done
  echo "stress: all $rounds round(s) passed"
  exit 0
fi

export TOOLSENSE_REQUIRE_E2E="${TOOLSENSE_REQUIRE_E2E:-1}"

use_project_venv
install_python_deps
bash scripts/install-test-deps.sh

python3 -m ruff check server tests bench
python3 -m ruff format --check server tests bench
python3 -m mypy
python3 -m pytest -q "$@"
