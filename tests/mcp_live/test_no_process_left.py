"""No live MCP server outlives toolsense, however toolsense ends (issue 26, M5): the language server killed
(SIGKILL) or leaving on `exit` while "Check this server's tools" runs, `check --mcp-server` getting SIGTERM, and
the ordinary stop at the time limit. The server (which ignores SIGTERM and SIGHUP) and a helper it started in its
process group are both gone within 10 s."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from livekit import SERVERS
from rawrpc import ServerProcess
from waiting import alive, until

pytest.importorskip("mcp")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="process groups are POSIX")

LEFTOVER_S = 10.0


def _hang_command(pid_file: Path) -> list[str]:
    return [sys.executable, str(SERVERS / "raw_server.py"), "hang", str(pid_file)]


def _started(pid_file: Path) -> list[int]:
    """The server's pid and its helper's, once both run."""

    def both() -> list[int]:
        text = pid_file.read_text() if pid_file.exists() else ""
        return [int(pid) for pid in text.split()] if text.endswith("\n") and len(text.split()) == 2 else []

    return until(both, "the MCP server and its helper", 30)


def _none_left(pids: list[int]) -> None:
    try:
        until(lambda: not any(alive(pid) for pid in pids), "the MCP server and its helper to be gone", LEFTOVER_S)
    finally:
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_sigterm_to_the_cli_leaves_no_server(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    command = ["check", "--mcp-server", shlex.join(_hang_command(pid_file)), "--mcp-timeout", "60"]
    cli = subprocess.Popen(
        [sys.executable, "-m", "toolsense", *command],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        pids = _started(pid_file)
        cli.send_signal(signal.SIGTERM)
        cli.wait(15)
    finally:
        cli.kill()
        cli.wait()
    _none_left(pids)


def test_the_time_limit_stops_the_servers_whole_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    command = ["check", "--mcp-server", shlex.join(_hang_command(pid_file)), "--mcp-timeout", "2", "--format", "json"]
    result = subprocess.run(
        [sys.executable, "-m", "toolsense", *command], cwd=tmp_path, capture_output=True, timeout=60
    )
    assert [d["code"] for d in json.loads(result.stdout)] == ["TS921"]
    _none_left(_started(pid_file))


@pytest.mark.parametrize("ending", ["kill", "exit", "eof"])
def test_the_language_server_ending_mid_check_leaves_no_server(tmp_path: Path, ending: str) -> None:
    pid_file = tmp_path / "pids"
    command = _hang_command(pid_file)
    config = tmp_path / ".vscode" / "mcp.json"
    config.parent.mkdir()
    config.write_text(json.dumps({"servers": {"hang": {"command": command[0], "args": command[1:]}}}))
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"trusted": True})
        uri = server.open(config, config.read_text())
        server.request_async(
            "workspace/executeCommand", {"command": "toolsense.mcp.checkServer", "arguments": [uri, "hang"]}
        )
        pids = _started(pid_file)
        if ending == "kill":
            server.process.kill()
        elif ending == "exit":
            server.notify("exit", None)
        else:
            assert server.process.stdin is not None
            server.process.stdin.close()
        server.process.wait(15)
    finally:
        server.close()
    _none_left(pids)
