"""Full checks in the worker process: the same diagnostics as a check in the server, a result for an older text
never published, a crashed worker reported and started again.

Every document counts as large here (`worker_bytes = 0`), so its full checks go to the worker once it is up.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from typing import Any

import pytest
from lsprotocol import types
from waiting import until_async

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document
from toolsense.lsp.app import create_server
from toolsense.lsp.convert import to_lsp_diagnostic
from toolsense.lsp.server import ToolsenseServer
from toolsense.lsp.state import OpenDocument, Phase

ROOT = "file:///w/tools"
TOOL = '{{"name": "{name}", "input_schema": {{"type": "object", "properties": {{"p": {{"type": "strin"}}}}}}}}'


def _tools(*names: str) -> str:
    return "[\n" + ",\n".join(TOOL.format(name=name) for name in names) + "\n]\n"


def _rows(diagnostics: list[types.Diagnostic]) -> list[tuple[Any, ...]]:
    return [
        (
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
            d.code,
            d.message,
            d.severity,
            [
                (r.location.uri, r.location.range.start.line, r.location.range.start.character, r.message)
                for r in d.related_information or []
            ],
        )
        for d in diagnostics
    ]


def _in_server(server: ToolsenseServer, od: OpenDocument) -> list[types.Diagnostic]:
    """What a full check in this process says about the document's current text."""
    assert od.document is not None
    document = Document.from_text(od.uri, od.document.text, encoding=server.encoding)
    report = check_document(document, server.context_for(od.uri), od.kind_hint, UnitCache(), server.resolve_range)
    return [to_lsp_diagnostic(d, True, server.client_uri) for d in report.diagnostics]


async def _server_with_worker() -> tuple[ToolsenseServer, list[types.PublishDiagnosticsParams]]:
    server = create_server()
    published: list[types.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign,assignment]
    server.caps.related_information = True
    server.scheduler.worker_bytes = 0
    server.scheduler.worker.start()
    await until_async(lambda: server.scheduler.worker.ready, "the worker process to start", timeout=120)
    return server, published


async def _checked_in_worker(server: ToolsenseServer, od: OpenDocument) -> None:
    server.check(od, "open")
    assert od.job is not None and od.worker_text is not None, "the check did not go to the worker"
    await server.wait_checked(od)


def test_a_worker_check_gives_the_diagnostics_of_a_check_in_the_server() -> None:
    """Unit and file findings, a related location in the same file and one in another open document."""

    async def run() -> None:
        server, published = await _server_with_worker()
        try:
            # another tool of the same name (a verbatim copy would be no ambiguity: TS203 is for different tools)
            elsewhere = _tools("shared", "elsewhere").replace('"strin"', '"integer"')
            other = server.open(f"{ROOT}/other.tools.json", elsewhere, 1, "json")
            server.check(other, "request")
            od = server.open(f"{ROOT}/main.tools.json", _tools("shared", "twice", "twice", "ok"), 1, "json")
            await _checked_in_worker(server, od)
            expected = _in_server(server, od)
            assert [d.code for d in expected if d.code in ("TS202", "TS203")] == ["TS203", "TS202", "TS202"]
            across = [r for d in expected if d.code == "TS203" for r in d.related_information or []]
            assert [(r.location.uri, r.location.range.start.line) for r in across] == [(other.uri, 1)]
            assert _rows(od.diagnostics) == _rows(expected)
            assert published[-1].uri == od.uri and published[-1].version == 1
            assert _rows(published[-1].diagnostics) == _rows(expected)
            # A keystroke, then the settle check: the worker applies the changed span to the text it holds.
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(4, 10), types.Position(4, 12)), text="twice"
            )
            server.change(od, 2, [change])
            await _checked_in_worker(server, od)
            assert [d.range.start.line for d in od.diagnostics if d.code == "TS202"] == [2, 3, 4]
            assert _rows(od.diagnostics) == _rows(_in_server(server, od))
            assert published[-1].version == 2
        finally:
            server.stop_work()

    asyncio.run(run())


def test_a_worker_result_for_an_older_text_is_dropped() -> None:
    async def run() -> None:
        server, published = await _server_with_worker()
        try:
            od = server.open(f"{ROOT}/stale.tools.json", _tools("a", "b"), 1, "json")
            server.check(od, "open")
            assert od.job is not None and od.worker_text is not None
            # The text changes while the worker checks version 1: its result must never be published.
            server.change(od, 2, [types.TextDocumentContentChangeWholeDocument(text=_tools("a", "a", "b"))])
            assert od.phase is Phase.RUNNING_OUTDATED
            await server.wait_checked(od)
            assert [p.version for p in published] == [2]
            assert od.checked_version == 2 and od.phase is Phase.CURRENT
            assert _rows(published[-1].diagnostics) == _rows(_in_server(server, od))
            assert [d.range.start.line for d in od.diagnostics if d.code == "TS202"] == [1, 2]
        finally:
            server.stop_work()

    asyncio.run(run())


def test_a_crashed_worker_is_reported_and_started_again(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        server, published = await _server_with_worker()
        worker = server.scheduler.worker
        try:
            od = server.open(f"{ROOT}/crash.tools.json", _tools("a", "b"), 1, "json")
            (pid,) = worker.pids()
            # The worker is busy when the check is sent, so it dies before it could answer (a check of two tools
            # would otherwise race the kill).
            busy = worker.submit(time.sleep, 60)
            await until_async(busy.running, "the worker to take the first request")
            server.check(od, "open")
            assert od.job is not None and od.worker_text is not None
            os.kill(pid, signal.SIGKILL)  # dies with the check in hand
            await server.wait_checked(od)
            assert worker.crashes == 1
            assert "the worker process stopped" in caplog.text
            # The check was tried again (on the check thread while the new worker starts): version 1 published.
            assert [p.version for p in published] == [1]
            assert _rows(od.diagnostics) == _rows(_in_server(server, od))
            await until_async(lambda: worker.ready, "the worker process to start again", timeout=120)
            assert worker.pids() and worker.pids() != [pid]
            server.change(od, 2, [types.TextDocumentContentChangeWholeDocument(text=_tools("a", "c"))])
            await _checked_in_worker(server, od)
            assert [p.version for p in published] == [1, 2]
            assert _rows(od.diagnostics) == _rows(_in_server(server, od))
        finally:
            server.stop_work()

    with caplog.at_level(logging.ERROR, logger="toolsense"):
        asyncio.run(run())


def test_the_worker_judges_a_broken_text_by_the_documents_history() -> None:
    """A file of ours half typed keeps its syntax errors in the worker too: the server sends the document's
    history (the worker's copy may be new), and a clean check there brings it back."""

    async def run() -> None:
        server, _ = await _server_with_worker()
        try:
            # notes/ is no folder glob and .json no file-name glob: only the history can say it is ours
            od = server.open(f"{ROOT}/notes/tools.json", _tools("a", "b"), 1, "json")
            await _checked_in_worker(server, od)
            assert od.document is not None and od.document.claimed_kind == "tool"
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(3, 0), types.Position(3, 0)), text='{"name": "c", "input_schema": '
            )
            server.change(od, 2, [change])
            await _checked_in_worker(server, od)
            assert "TS001" in {d.code for d in od.diagnostics}
            stranger = server.open(f"{ROOT}/notes/chat.json", "User: hi\n" + _tools("a"), 1, "json")
            await _checked_in_worker(server, stranger)
            assert [d.code for d in stranger.diagnostics] == ["TS007"]
        finally:
            server.stop_work()

    asyncio.run(run())
