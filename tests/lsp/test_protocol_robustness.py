"""The stdio transport under a client that breaks the rules: absurd and wrong `Content-Length` headers, requests
whose params do not fit the protocol, requests after `shutdown`, `exit` without `shutdown`, and a client that goes
away while the server is busy. The server stays alive and in step with the stream, answers every request it
reads (an error when it cannot serve it), and ends promptly with the exit code LSP asks for."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from rawrpc import ServerProcess
from toolgen import tools_text

BOUND_S = 60.0
EXIT_BOUND_S = 10.0
"""How long the process may take to end after `exit` or after the client closed its end of stdin."""
TOOL_TEXT = '{"name": "probe", "description": "d", "input_schema": {"type": "object"}}'


def _frame(body: bytes, length: int | None = None) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def _raw(server: ServerProcess, data: bytes) -> None:
    stream = server.process.stdin
    assert stream is not None
    stream.write(data)
    stream.flush()


def _still_answers(server: ServerProcess, folder: Path) -> None:
    """A document opened now gets its hover answered: the server reads the stream in step."""
    uri = server.open(folder / "tools" / "probe.json", TOOL_TEXT)
    position = {"line": 0, "character": 3}
    server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": position}, BOUND_S)


def _exit_code(server: ServerProcess) -> int:
    try:
        return server.process.wait(timeout=EXIT_BOUND_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server was still running {EXIT_BOUND_S} s later")


@pytest.fixture
def server(tmp_path: Path) -> Any:
    (tmp_path / "tools").mkdir()
    process = ServerProcess(tmp_path, log_level="WARNING")
    process.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
    yield process
    process.close()


@pytest.mark.timeout(BOUND_S * 2)
@pytest.mark.parametrize("length", [10**12, 2 * 10**10])
def test_an_absurd_content_length_is_refused_and_skipped(server: ServerProcess, tmp_path: Path, length: int) -> None:
    rss_before = server.rss_kb()
    _raw(server, _frame(b"{}", length))
    _still_answers(server, tmp_path)
    assert server.process.poll() is None
    assert server.rss_kb() < rss_before + 100_000  # nothing near the promised size was allocated
    assert f"refused a message of {length} bytes" in server.stderr_text()


@pytest.mark.timeout(BOUND_S * 2)
def test_a_too_short_content_length_loses_one_message_not_the_stream(server: ServerProcess, tmp_path: Path) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 500, "method": "workspace/symbol", "params": {"query": ""}}).encode()
    _raw(server, _frame(body, len(body) - 10))  # ten bytes spill into where the next header should be
    _still_answers(server, tmp_path)


@pytest.mark.timeout(BOUND_S * 2)
def test_malformed_headers_and_bodies_are_skipped(server: ServerProcess, tmp_path: Path) -> None:
    _raw(server, b"Content-Length: abc\r\n\r\n{}")
    _raw(server, b"Content-Length: -5\r\n\r\n")
    for body in [b"{bad json", b"null", b"[]", b"42", b'"text"', b'{"jsonrpc": "2.0"}', b"\xff\xfe\x00garbage"]:
        _raw(server, _frame(body))
    _still_answers(server, tmp_path)


@pytest.mark.timeout(BOUND_S * 2)
@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": "file:///w/a.json"}, "position": {"line": -1, "character": -5}},
        {"textDocument": {"uri": "file:///w/a.json"}, "position": {"line": 2**40, "character": 0}},
        {"textDocument": {"uri": 5}, "position": {"line": "x", "character": None}},
        {"textDocument": {"uri": "file:///w/a.json"}},
    ],
    ids=["negative", "oversized", "wrong-types", "missing-position"],
)
def test_requests_with_invalid_params_get_invalid_params(
    server: ServerProcess, tmp_path: Path, params: dict[str, Any]
) -> None:
    ident = server.request_async("textDocument/hover", params)
    answer = server.response(ident, BOUND_S)
    assert answer["error"]["code"] == -32602, answer
    _still_answers(server, tmp_path)


@pytest.mark.timeout(BOUND_S * 2)
def test_settle_without_params_answers_null(server: ServerProcess) -> None:
    """JSON-RPC 2.0 lets a request without parameters omit `params` (issue 26: X3); an LSP request that needs
    them is still refused."""
    _raw(server, _frame(b'{"jsonrpc": "2.0", "id": 95, "method": "toolsense/settle"}'))
    assert server.response(95, BOUND_S) == {"jsonrpc": "2.0", "id": 95, "result": None}
    _raw(server, _frame(b'{"jsonrpc": "2.0", "id": 96, "method": "textDocument/hover"}'))
    assert server.response(96, BOUND_S)["error"]["code"] == -32602


@pytest.mark.timeout(BOUND_S * 2)
def test_a_request_that_is_not_json_rpc_2_gets_invalid_request(server: ServerProcess) -> None:
    _raw(server, _frame(b'{"jsonrpc": "1.0", "id": 97, "method": "textDocument/hover"}'))
    assert server.response(97, BOUND_S)["error"]["code"] == -32600


@pytest.mark.timeout(BOUND_S * 2)
def test_after_shutdown_requests_get_invalid_request_and_exit_is_0(server: ServerProcess) -> None:
    assert server.request("shutdown", None, BOUND_S) is None
    hover = {"textDocument": {"uri": "file:///w/a.json"}, "position": {"line": 0, "character": 0}}
    for method, params in [("textDocument/hover", hover), ("shutdown", None)]:
        answer = server.response(server.request_async(method, params), BOUND_S)
        assert answer["error"]["code"] == -32600, answer
    server.notify("exit", None)
    assert _exit_code(server) == 0


@pytest.mark.timeout(BOUND_S * 2)
def test_exit_without_shutdown_is_1(server: ServerProcess) -> None:
    server.notify("exit", None)
    assert _exit_code(server) == 1


@pytest.mark.timeout(BOUND_S * 4)
def test_the_server_ends_soon_after_the_client_leaves_mid_check(tmp_path: Path) -> None:
    """A 5 MB unsaved document is being checked in the background when the client goes: the server does not
    stay to finish it (it did for 20-40 s, and forever when a check was stuck)."""
    (tmp_path / "tools").mkdir()
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        text = tools_text(5_000_000)
        uri = server.open(tmp_path / "tools" / "unsaved.tools.json", text)
        # The document is open once a request about it is answered: its background check has started.
        server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, BOUND_S)
        assert server.process.stdin is not None
        server.process.stdin.close()
        left = time.monotonic()
        assert _exit_code(server) == 0
        assert time.monotonic() - left < EXIT_BOUND_S
    finally:
        server.close()


@pytest.mark.timeout(BOUND_S * 2)
def test_a_utf8_position_inside_a_character_does_not_split_it(tmp_path: Path) -> None:
    """A client that negotiated UTF-8 positions points into the middle of `é`: the edit lands after the character
    (the text stays valid and the client's), so the tool's name reads as the client has it."""
    (tmp_path / "tools").mkdir()
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        capabilities = {"general": {"positionEncodings": ["utf-8"]}, "textDocument": {}}
        result = server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}}, capabilities)
        assert result["capabilities"]["positionEncoding"] == "utf-8"
        text = '{"name": "gét_weather", "description": "d", "input_schema": {"type": "object"}}'
        uri = server.open(tmp_path / "tools" / "utf8.tools.json", text)
        middle = {"line": 0, "character": text.encode().index("é".encode()) + 1}
        server.change(uri, 2, [{"range": {"start": middle, "end": middle}, "text": "x"}])
        symbols = server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, BOUND_S)
        assert "géxt_weather" in json.dumps(symbols, ensure_ascii=False)
    finally:
        server.close()


@pytest.mark.timeout(BOUND_S * 2)
def test_a_normal_run_writes_no_warning_to_stderr_for_a_late_cancel(tmp_path: Path) -> None:
    """Editors show every stderr line as an error: a cancel for a request already answered (routine: the client
    cancels what it no longer needs) leaves stderr empty at the default level."""
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {})
        server.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 4242}})
        server.request("shutdown", None, BOUND_S)
        assert "Cancel notification" not in server.stderr_text()
    finally:
        server.close()
