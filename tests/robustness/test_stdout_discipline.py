"""Standard output belongs to toolsense: the report of `check` (json, sarif: machine-read) and the language
server's protocol. A registered model's module that prints at import — through `print()` or straight to file
descriptor 1 — writes to stderr instead. And the CLI's manners: a closed pipe ends it quietly, `--help` says
what the arguments, formats and exit codes are, `--version` reads the installed version."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

import pytest
from checking import EXAMPLES
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess
from waiting import until

from toolsense.cli import app as cli

BOUND_S = 60.0
_CHATTY = textwrap.dedent(
    """
    import os
    print("chatty model module: loaded")
    os.write(1, b"chatty raw write to fd 1\\n")
    from pydantic import BaseModel, ConfigDict


    class WeatherInput(BaseModel):
        model_config = ConfigDict(extra="forbid")
        city: str
    """
)


_GREEDY = "import sys\nsys.stdin.read()  # would swallow the client's messages if stdin were the protocol's\n"


def _chatty_workspace(root: Path, extra: str = "") -> Path:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "required": ["city"],
        "additionalProperties": False,
    }
    write_json(root / "tools" / "weather.tools.json", [tool("get_weather", schema)])
    call = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris", "extra": 1}}
    write_json(root / "calls" / "call.json", call)
    (root / "chatty.py").write_text(_CHATTY + extra, encoding="utf-8")
    (root / "toolsense.toml").write_text('python_path = ["."]\n[models]\nget_weather = "chatty:WeatherInput"\n')
    return root


@pytest.mark.timeout(120)
@pytest.mark.parametrize("output", ["json", "sarif"])
def test_machine_readable_output_stays_valid_when_a_model_prints(tmp_path: Path, output: str) -> None:
    root = _chatty_workspace(tmp_path)
    done = run_cli(["check", ".", "--format", output], root, timeout=BOUND_S)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)  # the whole of stdout is one JSON document
    assert "chatty" not in done.stdout
    assert "chatty model module: loaded" in done.stderr and "chatty raw write to fd 1" in done.stderr
    if output == "json":
        assert [d["code"] for d in report] == ["TS303"]


@pytest.mark.timeout(120)
def test_the_protocol_survives_a_model_that_prints_at_import(tmp_path: Path) -> None:
    root = _chatty_workspace(tmp_path, extra=_GREEDY)
    server = ServerProcess(root, log_level="INFO")
    try:
        server.initialize(root, {"trusted": True, "diagnostics": {"debounce_ms": 0}})
        path = root / "calls" / "call.json"
        uri = server.open(path, path.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 1)
        # The model's module was imported in the server's process (the probe's own output goes nowhere)...
        until(lambda: "chatty raw write to fd 1" in server.stderr_text(), "the model's import", BOUND_S)
        # ...and the session goes on: an edit after the import is checked and published.
        text = path.read_text(encoding="utf-8").replace('"extra"', '"extras"')
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": text}]},
        )
        published = server.wait_diagnostics(uri, BOUND_S, lambda p: p.get("version") == 2)
        assert [d["code"] for d in published["diagnostics"]] == ["TS303"]
        assert "'extras'" in published["diagnostics"][0]["message"]
        assert server.request("shutdown", None, timeout=30) is None
        assert b"chatty" not in bytes(server.raw_stdout)
        assert "chatty model module: loaded" in server.stderr_text()
    finally:
        server.close()


@pytest.mark.timeout(120)
def test_a_closed_pipe_ends_check_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolsense", "check", str(EXAMPLES)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line (`| head -0`)
    err = process.stderr.read().decode()
    assert process.wait(timeout=BOUND_S) == cli.EXIT_BROKEN_PIPE == 141
    assert "Traceback" not in err and "internal error" not in err, err


def test_check_help_explains_paths_formats_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["check", "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "PATHS are files and folders to check" in text
    for line in ["  json    one JSON array", "  sarif   SARIF 2.1.0", "  github  GitHub Actions"]:
        assert line in text
    for code in [
        "  0    no diagnostic",
        "  1    at least one error",
        "  2    usage",
        "  3    toolsense itself",
        "  141",
    ]:
        assert code in text


def test_serve_help_shows_the_log_levels_and_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--log-level {DEBUG,INFO,WARNING,ERROR}" in text
    assert "DEBUG, INFO, WARNING, ERROR (default: WARNING)" in text


def test_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"toolsense {version('toolsense')}\n"
