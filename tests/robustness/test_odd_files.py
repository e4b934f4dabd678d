"""Odd files and buffers: a FIFO named like a tool file, a symlink loop among watched files, tool buffers that no
workspace file backs (an `untitled:` buffer, a file outside the folder, a file never saved). None may hang the CLI
or the server, drop other work, or leave tools behind in the registry once closed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess

BOUND_S = 60.0
CALL_TO_GHOST = {"type": "tool_use", "id": "toolu_1", "name": "ghost_tool", "input": {}}
CLEAN_SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _codes(params: dict[str, Any]) -> set[str]:
    return {d["code"] for d in params["diagnostics"]}


def _after(server: ServerProcess, uri: str, action: Callable[[], None], wanted: Callable[[set[str]], bool]) -> None:
    """Do something, then wait for diagnostics of uri published after it whose codes are as wanted."""
    mark = len(server.received)
    action()

    def published(message: dict[str, Any]) -> bool:
        if message.get("method") != "textDocument/publishDiagnostics" or message["params"]["uri"] != uri:
            return False
        return wanted(_codes(message["params"]))

    server.wait_for(published, BOUND_S, start=mark)


def _workspace_with_fifo(root: Path) -> Path:
    """A FIFO sorted before a real tool file: a blocking read of the FIFO would stall everything after it."""
    workspace = root / "ws"
    (workspace / "tools").mkdir(parents=True)
    os.mkfifo(workspace / "tools" / "a.json")
    write_json(workspace / "tools" / "z.tools.json", [tool("zeta_tool", CLEAN_SCHEMA)])
    write_json(workspace / "calls" / "call.json", {"type": "tool_use", "id": "t1", "name": "zeta_tool", "input": {}})
    return workspace


@pytest.mark.timeout(BOUND_S * 2)
def test_cli_skips_a_fifo_named_like_a_tool_file(tmp_path: Path) -> None:
    workspace = _workspace_with_fifo(tmp_path)
    done = run_cli(["check", "--format", "json", "."], workspace, timeout=BOUND_S)
    assert done.returncode == 0, done.stdout + done.stderr
    assert {Path(d["path"]).name for d in json.loads(done.stdout)} <= {"z.tools.json", "call.json"}
    # Named explicitly, it is reported, not waited on.
    done = run_cli(["check", "--format", "json", "tools/a.json"], workspace, timeout=BOUND_S)
    assert done.returncode in (0, 2), done.stdout + done.stderr


@pytest.mark.timeout(BOUND_S * 3)
def test_server_indexes_past_a_fifo_and_exits_when_the_client_leaves(tmp_path: Path) -> None:
    workspace = _workspace_with_fifo(tmp_path)
    server = ServerProcess(workspace, log_level="WARNING")
    try:
        server.initialize(workspace, {"diagnostics": {"debounce_ms": 0}})
        call = workspace / "calls" / "call.json"
        uri = server.open(call, call.read_text(encoding="utf-8"))
        # The tool file after the FIFO was indexed: the call to it is known (no TS301 unknown tool).
        server.wait_diagnostics(uri, BOUND_S, lambda p: "TS301" not in _codes(p))
        assert server.process.stdin is not None
        server.process.stdin.close()
        assert server.process.wait(timeout=15) == 0
    finally:
        server.close()


@pytest.mark.timeout(BOUND_S * 3)
def test_a_symlink_loop_in_a_watched_files_batch_keeps_the_rest(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "tools").mkdir(parents=True)
    os.symlink("b.json", workspace / "tools" / "a.json")
    os.symlink("a.json", workspace / "tools" / "b.json")
    write_json(workspace / "tools" / "known.tools.json", [tool("known_tool", CLEAN_SCHEMA)])
    server = ServerProcess(workspace, log_level="WARNING")
    try:
        server.initialize(workspace, {"diagnostics": {"debounce_ms": 0}})
        call = workspace / "calls" / "call.json"
        write_json(call, {"type": "tool_use", "id": "t1", "name": "brand_new", "input": {}})
        uri = server.open(call, call.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: "TS301" in _codes(p))  # indexed: the tool is unknown
        write_json(workspace / "tools" / "new.tools.json", [tool("brand_new", CLEAN_SCHEMA)])
        changes = [
            {"uri": (workspace / "tools").as_uri() + "/a.json", "type": 1},
            {"uri": (workspace / "tools" / "new.tools.json").as_uri(), "type": 1},
        ]
        server.notify("workspace/didChangeWatchedFiles", {"changes": changes})
        server.wait_diagnostics(uri, BOUND_S, lambda p: "TS301" not in _codes(p))
    finally:
        server.close()
    assert "Traceback" not in server.stderr_text()


@pytest.mark.timeout(BOUND_S * 3)
@pytest.mark.parametrize("where", ["untitled", "outside", "unsaved"])
def test_closing_a_buffer_no_file_backs_removes_its_tools(tmp_path: Path, where: str) -> None:
    workspace = tmp_path / "ws"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    call = write_json(workspace / "calls" / "call.json", CALL_TO_GHOST)
    write_json(workspace / "tools" / "known.tools.json", [tool("known_tool", CLEAN_SCHEMA)])
    ghost_uri = {
        "untitled": "untitled:Untitled-1",
        "outside": (outside / "ghost.tools.json").as_uri(),
        "unsaved": (workspace / "tools" / "unsaved.tools.json").as_uri(),
    }[where]
    server = ServerProcess(workspace, log_level="WARNING")
    try:
        server.initialize(workspace, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(call, call.read_text(encoding="utf-8"))
        server.wait_diagnostics(uri, BOUND_S, lambda p: "TS301" in _codes(p))  # indexed: the tool is unknown
        ghost = json.dumps(tool("ghost_tool", CLEAN_SCHEMA), indent=2)
        item = {"uri": ghost_uri, "languageId": "json", "version": 1, "text": ghost}
        _after(
            server,
            uri,
            lambda: server.notify("textDocument/didOpen", {"textDocument": item}),
            lambda c: "TS301" not in c,
        )
        # Closed: the call is checked again against the registry without the buffer's tool.
        close = {"textDocument": {"uri": ghost_uri}}
        _after(server, uri, lambda: server.notify("textDocument/didClose", close), lambda c: "TS301" in c)
    finally:
        server.close()
