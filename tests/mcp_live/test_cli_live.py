"""`toolsense check --mcp-server/--mcp-url`: real SDK servers (tests/mcp_live/servers), the CLI as a subprocess."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from livekit import SERVERS, json_diagnostics, server_command
from waiting import alive, until

pytest.importorskip("mcp")


def brief(diagnostics: list[dict[str, object]]) -> list[tuple[str, int, str]]:
    return [(str(d["code"]), d["range"]["start"]["line"], str(d["path"])) for d in diagnostics]  # type: ignore[index]


def test_stdio_lists_every_page_writes_a_stable_snapshot_and_checks_it(tmp_path: Path) -> None:
    command = server_command("paged_server.py", "--tools", "5", "--page", "2", "--invalid")
    result = run_cli(["check", "--mcp-server", command, "--snapshot", "snaps", "--format", "json"], cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    snapshot = tmp_path / "snaps" / "paged-demo.tools.json"
    assert "wrote snaps/paged-demo.tools.json (7 tools)" in result.stderr
    data = json.loads(snapshot.read_text())
    assert data["serverInfo"] == {"name": "paged-demo", "version": "1.2.3"}
    names = [tool["name"] for tool in data["tools"]]
    assert names == ["bad name", *(f"get_item_{i}" for i in range(5)), "typo_type"]  # 4 pages, sorted by name
    assert list(data["tools"][1]) == ["name", "description", "inputSchema", "annotations"]
    assert list(data["tools"][1]["inputSchema"]) == ["type", "properties", "required"]
    diagnostics = json_diagnostics(result)
    text = snapshot.read_text()
    lines = text.splitlines()
    errors = {(d["code"], d["range"]["start"]["line"]) for d in diagnostics if d["severity"] == "error"}
    strin = next(i for i, line in enumerate(lines) if '"strin"' in line)
    required_y = next(i for i, line in enumerate(lines) if line.strip() == '"y"')
    assert errors == {("TS214", strin), ("TS212", required_y)}
    assert all(d["path"] == "snaps/paged-demo.tools.json" for d in diagnostics)
    # The same listing writes the same bytes.
    again = run_cli(["check", "--mcp-server", command, "--snapshot", "again"], cwd=tmp_path)
    assert (tmp_path / "again" / "paged-demo.tools.json").read_text() == text, again.stderr


def test_a_committed_snapshot_reports_drift_and_is_not_overwritten(tmp_path: Path) -> None:
    command = server_command("paged_server.py", "--tools", "3")
    first = run_cli(["check", "--mcp-server", command, "--snapshot", "snaps"], cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    path = tmp_path / "snaps" / "paged-demo.tools.json"
    data = json.loads(path.read_text())
    data["tools"][0]["inputSchema"]["properties"]["id"]["type"] = "integer"
    data["tools"].append({"name": "old_tool", "description": "Removed since.", "inputSchema": {"type": "object"}})
    del data["tools"][1]
    committed = json.dumps(data, indent=2) + "\n"
    path.write_text(committed)
    result = run_cli(["check", "--mcp-server", command, "--snapshot", "snaps", "--format", "json"], cwd=tmp_path)
    assert result.returncode == 1
    assert path.read_text() == committed
    drift = {d["code"]: d for d in json_diagnostics(result) if d["code"] in ("TS925", "TS926", "TS927")}
    lines = committed.splitlines()
    assert drift["TS925"]["message"].startswith("The server lists 1 tool this snapshot lacks: 'get_item_1'")
    assert drift["TS925"]["range"]["start"] == {"line": lines.index('  "tools": ['), "character": 2}
    changed_line = next(i for i, line in enumerate(lines) if '"integer"' in line)
    assert drift["TS927"]["range"]["start"]["line"] == changed_line
    assert drift["TS927"]["message"] == (
        'Tool \'get_item_0\' changed: inputSchema.properties.id.type is "string" on the server, "integer" here '
        "(breaking: 1 type changed; run with --update-snapshot to accept)"
    )
    removed_line = next(i for i, line in enumerate(lines) if '"old_tool"' in line)
    assert drift["TS926"]["range"]["start"]["line"] == removed_line
    updated = run_cli(["check", "--mcp-server", command, "--snapshot", "snaps", "--update-snapshot"], cwd=tmp_path)
    assert updated.returncode == 0, updated.stdout
    assert "old_tool" not in path.read_text()


def test_streamable_http_on_loopback(tmp_path: Path) -> None:
    port_file = tmp_path / "port"
    server = subprocess.Popen(
        [
            sys.executable,
            str(SERVERS / "paged_server.py"),
            "http",
            str(port_file),
            "--tools",
            "4",
            "--name",
            "web demo",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        until(port_file.exists, "the HTTP server's port", 60)
        url = f"http://127.0.0.1:{port_file.read_text()}/mcp"
        result = run_cli(["check", "--mcp-url", url, "--snapshot", "snaps", "--format", "json"], cwd=tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
        data = json.loads((tmp_path / "snaps" / "web-demo.tools.json").read_text())
        assert [t["name"] for t in data["tools"]] == [f"get_item_{i}" for i in range(4)]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_an_http_server_that_is_not_there(tmp_path: Path) -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = run_cli(["check", "--mcp-url", f"http://127.0.0.1:{port}/mcp", "--format", "json"], cwd=tmp_path)
    assert result.returncode == 1
    (only,) = json_diagnostics(result)
    assert only["code"] == "TS920" and only["path"] == f"mcp-server:http:127.0.0.1:{port}/mcp"
    assert str(only["message"]).startswith(f"Cannot connect to http://127.0.0.1:{port}/mcp: ")


# --- robustness: one clear diagnostic each, within the time limit, no process left ---------------------------


def _one(result: subprocess.CompletedProcess[str]) -> dict[str, object]:
    diagnostics = json_diagnostics(result)
    assert len(diagnostics) == 1, diagnostics
    return diagnostics[0]


def test_a_hanging_server_is_stopped_even_when_it_ignores_sigterm(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    command = server_command("raw_server.py", "hang-on-list", str(pid_file))
    result = run_cli(["check", "--mcp-server", command, "--mcp-timeout", "4", "--format", "json"], cwd=tmp_path)
    only = _one(result)
    assert only["code"] == "TS921"
    assert only["message"] == "The server did not answer within 4 s (tools/list, page 1)"
    # The CLI returned (run_cli's own limit) and the server that ignores SIGTERM is gone: the shutdown is bounded.
    assert not alive(int(pid_file.read_text()))


def test_a_server_that_crashes_on_start(tmp_path: Path) -> None:
    result = run_cli(
        ["check", "--mcp-server", server_command("misbehave.py", "crash"), "--format", "json"], cwd=tmp_path
    )
    only = _one(result)
    assert only["code"] == "TS920"
    assert only["message"] == (
        "The server exited or closed stdout before answering initialize; its stderr ends with: "
        "'RuntimeError: DATABASE_URL is not set'"
    )


def test_a_command_that_does_not_exist(tmp_path: Path) -> None:
    result = run_cli(["check", "--mcp-server", "no-such-mcp-server-xyz --flag", "--format", "json"], cwd=tmp_path)
    only = _one(result)
    assert only["message"] == "Cannot start the server: command 'no-such-mcp-server-xyz' not found"
    assert only["path"] == "mcp-server:no-such-mcp-server-xyz --flag"


def test_garbage_before_the_protocol_is_a_warning_and_the_tools_are_still_checked(tmp_path: Path) -> None:
    command = server_command("misbehave.py", "garbage")
    result = run_cli(["check", "--mcp-server", command, "--snapshot", "s", "--format", "json"], cwd=tmp_path)
    assert result.returncode == 0
    only = _one(result)
    assert only["code"] == "TS922" and only["severity"] == "warning"
    assert "(first: 'Starting misbehave server v0.0.1 ...')" in str(only["message"])
    assert json.loads((tmp_path / "s" / "misbehave.tools.json").read_text())["tools"][0]["name"] == "echo_text"


def test_only_garbage_and_no_answer(tmp_path: Path) -> None:
    command = server_command("raw_server.py", "noise-only")
    result = run_cli(["check", "--mcp-server", command, "--mcp-timeout", "4", "--format", "json"], cwd=tmp_path)
    only = _one(result)
    assert only["code"] == "TS921"
    assert str(only["message"]).startswith(
        "The server did not answer within 4 s (initialize). The server wrote 2 lines to stdout that are not "
        "JSON-RPC (first: 'Loading plugins...')"
    )


def test_a_server_that_waits_for_input(tmp_path: Path) -> None:
    command = server_command("misbehave.py", "needs-input")
    result = run_cli(["check", "--mcp-server", command, "--mcp-timeout", "4", "--format", "json"], cwd=tmp_path)
    only = _one(result)
    assert only["code"] == "TS921"
    assert "within 4 s (initialize)" in str(only["message"])


def test_ten_thousand_tools(tmp_path: Path) -> None:
    command = server_command("paged_server.py", "--tools", "10000", "--page", "1000", "--name", "huge")
    result = run_cli(
        ["check", "--mcp-server", command, "--snapshot", "s", "--format", "json"], cwd=tmp_path, timeout=300
    )
    assert result.returncode == 0, result.stderr
    limited = [d for d in json_diagnostics(result) if d["code"] == "TS923"]
    assert [d["message"] for d in limited] == [
        "The server lists 10000 tools: more than a model uses well, and more than OpenAI accepts in one request (128)"
    ]
    assert len(json.loads((tmp_path / "s" / "huge.tools.json").read_text())["tools"]) == 10000


def test_env_values_never_reach_the_output(tmp_path: Path) -> None:
    secret = "sk-live-0123456789abcdef"
    # The server prints its token to stderr and exits: the message quotes stderr, with the secret redacted.
    command = server_command("paged_server.py", "--stderr-env", "API_TOKEN", "--exit-after-stderr")
    result = run_cli(
        ["check", "--mcp-server", command, "--mcp-env", f"API_TOKEN={secret}", "--format", "json"], cwd=tmp_path
    )
    assert result.returncode == 1
    assert secret not in result.stdout + result.stderr
    only = _one(result)
    assert str(only["message"]).endswith("its stderr ends with: 'starting with ***'")
