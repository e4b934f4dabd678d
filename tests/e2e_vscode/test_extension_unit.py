"""The VS Code extension's own checks: TypeScript typecheck and its node:test unit tests (`npm test`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
EXTENSION_DIR = REPO / "vscode-extension"


def _extras(path: Path, pattern: str) -> list[str]:
    match = re.search(pattern, path.read_text(encoding="utf-8"))
    assert match, f"no EXTRAS list in {path}"
    return list(json.loads(match.group(1).replace("'", '"')))


def test_the_private_environment_gets_the_mcp_extra_that_the_package_declares() -> None:
    """The bundled server is installed as `<wheel>[mcp]` (src/bundled.ts), the offline wheelhouse downloads the
    same extras (scripts/bundle-wheel.js), and the package declares them, with the MCP SDK in `mcp`."""
    installed = _extras(EXTENSION_DIR / "src" / "bundled.ts", r"const EXTRAS: readonly string\[\] = (\[[^\]]*\])")
    downloaded = _extras(EXTENSION_DIR / "scripts" / "bundle-wheel.js", r"const EXTRAS = (\[[^\]]*\])")
    assert installed == downloaded == ["mcp"]
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert all(extra in declared for extra in installed)
    assert any(re.match(r"mcp\b", requirement) for requirement in declared["mcp"])


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
