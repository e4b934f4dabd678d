"""Recovery, CLI side: the exit code and the message tell "your files have errors" (1) from "toolsense itself
failed" (3) and from a usage / configuration error (2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from hostile import tool, write_json

from toolsense.cli import app as cli
from toolsense.engine.context import CheckContext
from toolsense.engine.findings import Finding
from toolsense.engine.units import Unit
from toolsense.engine.workspace import Workspace
from toolsense.rules import CATALOG

CLEAN = tool("get_weather", {"type": "object", "properties": {}, "additionalProperties": False})
INTERNAL = "this is a bug in toolsense, not in your files"


def _workspace(root: Path, with_error: bool = False) -> Path:
    value = dict(CLEAN)
    if with_error:
        value["descripton"] = value.pop("description")  # a misspelt known key: the tool loses its description
    write_json(root / "tools" / "weather.json", [value])
    return root


@pytest.mark.timeout(60)
def test_clean_files_exit_0_and_errors_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _workspace(tmp_path / "clean")
    assert cli.main(["check", str(tmp_path / "clean")]) == cli.EXIT_OK
    assert "no problems" in capsys.readouterr().out
    _workspace(tmp_path / "broken", with_error=True)
    assert cli.main(["check", str(tmp_path / "broken")]) == cli.EXIT_FINDINGS
    captured = capsys.readouterr()
    assert "1 error" in captured.out and "TS101" in captured.out
    assert INTERNAL not in captured.err


@pytest.mark.timeout(60)
def test_usage_and_configuration_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        cli.main(["check", "--no-such-option"])
    assert raised.value.code == cli.EXIT_USAGE
    assert cli.main(["check", str(tmp_path / "missing")]) == cli.EXIT_USAGE
    assert "no such file or directory" in capsys.readouterr().err
    root = _workspace(tmp_path / "ws")
    (root / "toolsense.toml").write_text("[diagnostics]\ndebounce_ms = 'soon'\n", encoding="utf-8")
    assert cli.main(["check", str(root)]) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert "invalid configuration" in err and "debounce_ms" in err and INTERNAL not in err
    (root / "toolsense.toml").write_text("this is [ not toml\n", encoding="utf-8")
    assert cli.main(["check", str(root)]) == cli.EXIT_USAGE
    assert "invalid TOML" in capsys.readouterr().err


@pytest.mark.timeout(60)
def test_a_failure_outside_the_rules_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(tmp_path, with_error=True)

    def broken(self: Workspace) -> None:
        raise RuntimeError("simulated failure inside toolsense")

    monkeypatch.setattr(Workspace, "check_all", broken)
    assert cli.main(["check", str(root)]) == cli.EXIT_INTERNAL
    captured = capsys.readouterr()
    assert INTERNAL in captured.err and "simulated failure inside toolsense" in captured.err
    assert "TS101" not in captured.out


@pytest.mark.timeout(60)
def test_a_rule_that_crashes_is_reported_and_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _workspace(tmp_path, with_error=True)

    def crashing_rule(unit: Unit, ctx: CheckContext) -> list[Finding]:
        raise ValueError("simulated rule bug")

    checks = dict(CATALOG.unit_checks)
    checks["tool"] = [*checks["tool"], crashing_rule]
    monkeypatch.setattr(CATALOG, "unit_checks", checks)
    assert cli.main(["check", "--format", "json", str(root)]) == cli.EXIT_INTERNAL
    captured = capsys.readouterr()
    codes = [d["code"] for d in json.loads(captured.out)]
    assert "TS900" in codes and "TS101" in codes  # the other rules still ran and reported
    assert INTERNAL in captured.err


@pytest.mark.timeout(120)
def test_exit_codes_of_the_process(tmp_path: Path) -> None:
    root = _workspace(tmp_path, with_error=True)
    assert run_cli(["check", "."], root, timeout=60).returncode == 1
    assert run_cli(["check", "--format", "xml", "."], root, timeout=60).returncode == 2
    script = (
        "import sys\n"
        "from toolsense.engine.workspace import Workspace\n"
        "def boom(self):\n"
        "    raise MemoryError('simulated')\n"
        "Workspace.check_all = boom\n"
        "from toolsense.cli import main\n"
        "sys.exit(main(['check', '.']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 3, done.stderr
    assert INTERNAL in done.stderr
