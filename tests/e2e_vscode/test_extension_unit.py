"""The VS Code extension's own checks: TypeScript typecheck and its node:test unit tests (`npm test`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

EXTENSION_DIR = Path(__file__).resolve().parents[2] / "vscode-extension"


def test_extension_typecheck_and_unit_tests() -> None:
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("TOOLSENSE_REQUIRE_E2E", "").strip() not in ("", "0"):
            pytest.fail("npm is needed for the VS Code extension's tests")
        pytest.skip("npm is needed for the VS Code extension's tests")
    if not (EXTENSION_DIR / "node_modules" / ".bin" / "tsc").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=EXTENSION_DIR, check=True, timeout=600)
    run = subprocess.run([npm, "test"], cwd=EXTENSION_DIR, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "ℹ fail 0" in run.stdout
