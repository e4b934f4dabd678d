"""Start-up and shutdown, capabilities per client, position encodings, TCP, and staying up: failing handlers,
documents nobody opened, a 20 MB file, hopelessly broken text."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from lspkit import SERVER, Session, encoding_capabilities, find, span
from lsprotocol import types
from samples import WEATHER_TOOLS
from waiting import until

from toolsense.lsp.app import FEATURES, create_server


async def test_capabilities_for_vscode(session: Session) -> None:
    result = await session.start("vscode")
    caps = result.capabilities
    assert caps.position_encoding == types.PositionEncodingKind.Utf16
    assert caps.completion_provider is not None
    assert list(caps.completion_provider.trigger_characters or []) == ['"', ":"]
    assert caps.hover_provider and caps.document_symbol_provider and caps.folding_range_provider
    assert caps.definition_provider and caps.references_provider
    assert isinstance(caps.diagnostic_provider, types.DiagnosticOptions)
    assert caps.diagnostic_provider.workspace_diagnostics is True
    sync = caps.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert result.server_info is not None and result.server_info.name == "toolsense"


async def test_neovim_gets_utf16_without_asking(session: Session) -> None:
    result = await session.start("neovim")
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf16


WIDE = '[{"name": "😀é", "input_schema": {"type": "object"}, "bogus": 1}]\n'


async def _bogus_range(session: Session, encoding: str) -> tuple[str | None, types.Range]:
    result = await session.start(encoding_capabilities(encoding))
    uri = session.open("tools/wide.tools.json", WIDE)
    diagnostics = await session.diagnostics(uri, 1)
    unknown = next(d for d in diagnostics if d.code == "TS101")
    return result.capabilities.position_encoding, unknown.range


async def test_utf8_positions_when_the_client_prefers_them(session: Session) -> None:
    encoding, range_ = await _bogus_range(session, types.PositionEncodingKind.Utf8)
    assert encoding == types.PositionEncodingKind.Utf8
    start = len(WIDE[: WIDE.index('"bogus"')].encode("utf-8"))
    assert range_ == types.Range(types.Position(0, start), types.Position(0, start + 7))


async def test_utf32_positions_when_the_client_prefers_them(session: Session) -> None:
    encoding, range_ = await _bogus_range(session, types.PositionEncodingKind.Utf32)
    assert encoding == types.PositionEncodingKind.Utf32
    start = WIDE.index('"bogus"')
    assert range_ == types.Range(types.Position(0, start), types.Position(0, start + 7))


async def test_utf16_positions_count_surrogate_pairs(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("tools/wide.tools.json", WIDE)
    diagnostics = await session.diagnostics(uri, 1)
    unknown = next(d for d in diagnostics if d.code == "TS101")
    assert unknown.range == span(WIDE, '"bogus"')
    assert unknown.range.start.character == WIDE.index('"bogus"') + 1  # 😀 is two UTF-16 units


async def test_line_separator_and_crlf_do_not_move_lines(session: Session) -> None:
    text = WEATHER_TOOLS.replace("Weather for a city.", "Weather\u2028for a city.").replace("\n", "\r\n")
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    diagnostics = await session.diagnostics(uri, 1)
    unknown = next(d for d in diagnostics if d.code == "TS101")
    assert unknown.range == span(text, '"bogus"')
    # An edit after the U+2028 on its line lands where the client means it.
    line, character = find(text, "for a city")
    version = session.change(uri, ((line, character, line, character), "X"))
    await session.diagnostics(uri, version)
    hover = await session.hover(uri, *find(text, '"input_schema"', 3))
    assert hover is not None and hover.range == span(text, '"input_schema"')


async def test_shutdown_and_exit(session: Session) -> None:
    await session.start("neovim")
    await session.client.shutdown_async(None)
    session.client.exit(None)
    server = session.client._server
    assert server is not None
    assert await asyncio.wait_for(server.wait(), 10) == 0
    session.client.capabilities = None  # already shut down: the fixture must not do it again


async def test_requests_for_documents_nobody_opened(session: Session) -> None:
    await session.start("neovim")
    uri = session.uri("never-opened.tools.json")
    assert await session.completion(uri, 0, 0) == []
    assert await session.hover(uri, 0, 0) is None
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is None
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(3, uri),
            [types.TextDocumentContentChangeWholeDocument(text="[]")],
        )
    )
    assert await session.hover(uri, 0, 0) is None  # still alive


def _big_tools(target_bytes: int) -> str:
    pad = "Looks up records for the account. " * 120
    tools = []
    index = 0
    size = 2
    while size < target_bytes:
        tool = json.dumps(
            {
                "name": f"tool_{index:05d}",
                "description": pad,
                "input_schema": {
                    "type": "object",
                    "properties": {"mode": {"type": "string", "enum": ["fast", "slow"], "description": "Speed"}},
                    "additionalProperties": False,
                },
                "input_examples": [{"mode": "fast"}],
            },
            indent=2,
        )
        tools.append(tool)
        size += len(tool) + 2
        index += 1
    return "[\n" + ",\n".join(tools) + "\n]\n"


async def test_a_20_mb_document_keeps_the_server_answering(session: Session) -> None:
    """Above the default size limit (10 MB) when the user raises it: checked in the background, answering."""
    text = _big_tools(20_000_000)
    await session.start("neovim", {"limits": {"max_file_mb": 32}})
    uri = session.open("tools/huge.tools.json", text)
    # Requests are answered on the live document while the first check runs in the background.
    middle = text.count('"name": "tool_') // 2
    line, character = find(text, '"mode": "fast"', len('"mode": "f'), occurrence=middle)
    items = await asyncio.wait_for(session.completion(uri, line, character), 120)
    assert [item.label for item in items] == ['"fast"', '"slow"']
    hover = await asyncio.wait_for(session.hover(uri, *find(text, '"description"', 2)), 120)
    assert hover is not None
    diagnostics = await session.diagnostics(uri, 1, timeout=600)
    assert all(d.code != "TS003" for d in diagnostics)
    # A keystroke in the middle is checked incrementally.
    version = session.change(uri, ((line, character - 1, line, character - 1), "x"))
    diagnostics = await session.diagnostics(uri, version, timeout=120)
    assert any(d.range.start.line == line for d in diagnostics)


async def test_hopelessly_broken_documents(session: Session) -> None:
    await session.start("neovim")
    soup = ('{"a": [1, {"b": "c", ]]] }}} :::: ,,, "unterminated\n' * 20_000) + "[" * 50_000
    uri = session.open("tools/soup.tools.json", soup)
    diagnostics = await session.diagnostics(uri, 1, timeout=300)
    assert 0 < len(diagnostics) <= 200
    assert await session.completion(uri, 100, 5) is not None
    await session.hover(uri, 3, 3)  # answered (with or without text): the server is up
    folds = await session.client.text_document_folding_range_async(
        types.FoldingRangeParams(types.TextDocumentIdentifier(uri))
    )
    assert folds is not None
    deep = "[" * 200_000 + "]" * 200_000
    uri = session.open("tools/deep.tools.json", deep)
    diagnostics = await session.diagnostics(uri, 1, timeout=300)
    assert await session.completion(uri, 0, 100_000) is not None
    symbols = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
    )
    assert symbols is not None


def test_a_failing_handler_answers_empty_and_is_logged(monkeypatch: object, caplog: object) -> None:
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    server = create_server()
    assert server.feature_modules == [module.__name__.rpartition(".")[2] for module in FEATURES]
    from toolsense.lsp import completion as completion_module

    def broken(*_: object) -> object:
        raise RuntimeError("provider exploded")

    monkeypatch.setattr(server, "query", broken)
    handler = server.protocol.fm.features[types.TEXT_DOCUMENT_COMPLETION]
    params = types.CompletionParams(types.TextDocumentIdentifier("file:///x.json"), types.Position(0, 0))
    assert asyncio.run(handler(params)) is None
    hover = server.protocol.fm.features[types.TEXT_DOCUMENT_HOVER]
    assert (
        asyncio.run(hover(types.HoverParams(types.TextDocumentIdentifier("file:///x.json"), types.Position(0, 0))))
        is None
    )
    assert completion_module.TRIGGER_CHARACTERS == ['"', ":"]


def test_serve_over_tcp(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = "a-token-the-client-knows-0123"
    environment = {**os.environ, "TOOLSENSE_TCP_TOKEN": token}
    process = subprocess.Popen([*SERVER, "--tcp", f"127.0.0.1:{port}"], stderr=subprocess.PIPE, env=environment)
    try:

        def connect() -> socket.socket | None:
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=10)
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stderr.read().decode() if process.stderr else "exited") from None
                return None

        connection = until(connect, "the server listening on its TCP port")
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "capabilities": {}, "initializationOptions": {"tcpToken": token}},
            }
        ).encode()
        connection.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data = b""
        while b"\r\n\r\n" not in data:
            data += connection.recv(65536)
        header, _, rest = data.partition(b"\r\n\r\n")
        fields = dict(line.split(b":", 1) for line in header.split(b"\r\n"))
        length = int(fields[b"Content-Length"])
        while len(rest) < length:
            rest += connection.recv(65536)
        answer = json.loads(rest[:length])
        assert answer["id"] == 1
        assert answer["result"]["serverInfo"]["name"] == "toolsense"
        connection.close()
    finally:
        process.kill()
        process.wait()


def test_bad_tcp_address() -> None:
    done = subprocess.run([*SERVER, "--tcp", "nowhere"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "HOST:PORT" in done.stderr
    assert sys.executable
