"""`toolsense serve --tcp` (issue 26, X5): a client must present the token the server printed, a client that says
nothing about trust is untrusted (so it cannot make the server run an MCP entry's command), and the connection
uses the hardened framing of stdio."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TIMEOUT_S = 30.0


class TcpClient:
    """A raw JSON-RPC client over one TCP connection; requests from the server are answered with null."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
        self.stream = self.sock.makefile("rb")

    def send(self, message: dict[str, Any], length: int | None = None) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.sock.sendall(b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body)

    def answer(self, ident: int) -> dict[str, Any] | None:
        """The response to request `ident`; None when the server closed the connection first."""
        while True:
            length = None
            while True:
                line = self.stream.readline()
                if not line:
                    return None
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            assert length is not None
            message: dict[str, Any] = json.loads(self.stream.read(length))
            if message.get("id") == ident and "method" not in message:
                return message
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})

    def initialize(self, root: Path, options: dict[str, Any]) -> dict[str, Any] | None:
        capabilities: dict[str, Any] = {}
        params = {"processId": None, "rootUri": root.as_uri(), "capabilities": capabilities}
        self.send({"id": 1, "method": "initialize", "params": {**params, "initializationOptions": options}})
        return self.answer(1)

    def close(self) -> None:
        self.stream.close()
        self.sock.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[int, str]]:
    """`toolsense serve --tcp 127.0.0.1:0`: the port it bound and the token it printed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "toolsense", "serve", "--tcp", "127.0.0.1:0"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        found = re.match(
            r"toolsense: listening on 127\.0\.0\.1:(\d+); clients send initializationOptions\.tcpToken = (\S+)$", line
        )
        assert found, line
        yield int(found.group(1)), found.group(2)
    finally:
        process.kill()
        process.wait()


def _command_config(marker: Path) -> dict[str, Any]:
    script = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')"
    return {"servers": {"x": {"command": sys.executable, "args": ["-c", script]}}}


def _open_and_run(client: TcpClient, root: Path, marker: Path) -> dict[str, Any] | None:
    """A document with no file behind it, named like an MCP configuration, and the check command on it."""
    uri = (root / ".vscode" / "mcp.json").as_uri()
    document = {"uri": uri, "languageId": "json", "version": 1, "text": json.dumps(_command_config(marker))}
    client.send({"method": "initialized", "params": {}})
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
    client.send(
        {
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "toolsense.mcp.checkServer", "arguments": [uri, "x"]},
        }
    )
    return client.answer(2)


def test_a_client_without_the_token_is_refused_and_runs_nothing(served: tuple[int, str], tmp_path: Path) -> None:
    port, token = served
    marker = tmp_path / "ran"
    wrong = token[:-1] + ("y" if token.endswith("x") else "x")
    for options in ({}, {"tcpToken": wrong, "trusted": True}):
        client = TcpClient(port)
        try:
            refused = client.initialize(tmp_path, options)
            assert refused is not None and refused["error"] == {
                "code": -32600,
                "message": "not authenticated: send initializationOptions.tcpToken",
            }
            with pytest.raises(OSError):  # the server closed the connection
                for _ in range(50):
                    _open_and_run(client, tmp_path, marker)
        finally:
            client.close()
    assert not marker.exists()


def test_an_authenticated_client_is_untrusted_unless_it_says_so(served: tuple[int, str], tmp_path: Path) -> None:
    port, token = served
    marker = tmp_path / "ran"
    client = TcpClient(port)
    try:
        assert client.initialize(tmp_path, {"tcpToken": token}) is not None
        answer = _open_and_run(client, tmp_path, marker)
        assert answer is not None and answer["result"] == {"refused": "untrusted"}
        # The hardened framing: an absurd length is skipped, and the server still answers in step.
        client.send({"method": "x"}, length=10**12)
        client.send({"id": 3, "method": "textDocument/hover", "params": {"textDocument": {"uri": "file:///x.json"}}})
        assert client.answer(3) == {
            "jsonrpc": "2.0",
            "id": 3,
            "error": {"code": -32602, "message": "Invalid params for textDocument/hover"},
        }
    finally:
        client.close()
    assert not marker.exists()


def test_an_authenticated_client_that_is_trusted_can_check_a_server(served: tuple[int, str], tmp_path: Path) -> None:
    port, token = served
    marker = tmp_path / "ran"
    client = TcpClient(port)
    try:
        assert client.initialize(tmp_path, {"tcpToken": token, "trusted": True}) is not None
        answer = _open_and_run(client, tmp_path, marker)
        assert answer is not None and "error" in answer["result"]  # it ran, and exited without answering
    finally:
        client.close()
    assert marker.read_text() == "ran"


def test_a_slow_or_endless_handshake_does_not_keep_the_editor_waiting(served: tuple[int, str], tmp_path: Path) -> None:
    # One connection trickles a byte a second, another sends header lines without end (the third campaign,
    # F11): the accept loop was serial and the timeout was per read, so the editor was never answered.
    port, token = served
    answered = threading.Event()
    connected = [threading.Event(), threading.Event()]

    def trickle() -> None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"X")
            connected[0].set()
            while not answered.wait(1.0):
                slow.sendall(b"X")

    def flood() -> None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)) as endless:
            endless.sendall(b"X-Header: padding\r\n")
            connected[1].set()
            while not answered.is_set():
                endless.sendall(b"X-Header: padding\r\n" * 512)

    threads = [threading.Thread(target=work, daemon=True) for work in (trickle, flood)]
    for thread in threads:
        thread.start()
    assert all(event.wait(TIMEOUT_S) for event in connected)  # both are there before the editor
    client = TcpClient(port)
    try:
        first = client.initialize(tmp_path, {"tcpToken": token})
        answered.set()
        assert first is not None and "capabilities" in first["result"]
    finally:
        answered.set()
        client.close()
    for thread in threads:
        thread.join(TIMEOUT_S)
