"""What a command imports is behaviour: `toolsense --version`, `--help` and `rules` must not load the engine's
heavy dependencies, and `check` of a small file no numpy (a small line table is a list). Each runs in a fresh
interpreter and reports `sys.modules`; no timing is asserted (bench/startup.py measures it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"
HEAVY = ("numpy", "pydantic", "jsonschema", "tree_sitter", "pygls", "lsprotocol", "regex", "multiprocessing")

_PROBE = """
import contextlib, io, json, sys
from toolsense.cli.app import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as stop:
        status = stop.code
print(json.dumps({"status": status, "modules": sorted(sys.modules)}))
"""


def _imported(args: list[str], cwd: Path) -> tuple[object, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        cwd=cwd,
        env={"PYTHONPATH": str(SERVER), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["status"], {name.split(".")[0] for name in report["modules"]} | set(report["modules"])


def test_importing_the_cli_loads_no_engine_dependency(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, toolsense.cli.app; print(' '.join(sorted(sys.modules)))"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(SERVER), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    loaded = set(done.stdout.split())
    assert sorted(loaded & {*HEAVY, "importlib.metadata", "toolsense.rules", "toolsense.settings"}) == []


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["rules"], ["check", "--help"]])
def test_quick_commands_load_no_engine_dependency(args: list[str], tmp_path: Path) -> None:
    status, loaded = _imported(args, tmp_path)
    assert status == 0
    assert sorted(loaded & {*HEAVY, "toolsense.rules", "toolsense.settings", "toolsense.engine.checker"}) == []


def test_check_of_a_small_file_loads_no_numpy(tmp_path: Path) -> None:
    (tmp_path / "weather.tools.json").write_text(
        json.dumps([{"name": "get weather", "description": "x", "input_schema": {"type": "object"}}], indent=2),
        encoding="utf-8",
    )
    status, loaded = _imported(["check", "weather.tools.json"], tmp_path)
    assert status == 1  # the name has a space: an error, placed in the file (a line table was built)
    assert "numpy" not in loaded
    assert "multiprocessing" not in loaded  # one small file: no process pool
    assert "regex" not in loaded  # no pattern RE2 cannot run
