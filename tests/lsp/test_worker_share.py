"""The first check of a large document on both cores: the check thread checks the first units while the worker
checks the last ones (`share.WorkerShare`). The diagnostics are exactly those of one check in the server,
whether the worker's findings arrive, arrive late, or never (it crashed)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from lsprotocol import types
from waiting import until, until_async

from toolsense.document.document import Document
from toolsense.engine.checker import FileReport, UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Finding
from toolsense.lsp.app import create_server
from toolsense.lsp.convert import to_lsp_diagnostic
from toolsense.lsp.server import ToolsenseServer
from toolsense.lsp.share import SHARE, SHARE_MIN_UNITS, WorkerShare
from toolsense.lsp.worker import WorkerPool
from toolsense.rules import CATALOG
from toolsense.settings import Settings

URI = "file:///w/share.tools.json"
COUNT = 2 * SHARE_MIN_UNITS


def _tool(index: int) -> str:
    """Tools with findings of several families, in both halves; two pairs of duplicate names across them."""
    name = "dup" if index in (3, COUNT - 5) else "again" if index in (COUNT // 2 - 1, COUNT // 2 + 1) else f"t{index}"
    kind = ("strin", "string", "object", "integr")[index % 4]
    extra = ', "required": ["missing"]' if index % 5 == 0 else ""
    described = "" if index % 7 == 0 else ', "description": "Looks something up."'
    example = ', "input_examples": [{"p": 1}]' if index % 6 == 0 else ""
    return (
        f'{{"name": "{name}"{described}, "input_schema": {{"type": "object", '
        f'"properties": {{"p": {{"type": "{kind}"}}}}{extra}}}{example}}}'
    )


TEXT = "[\n" + ",\n".join(_tool(i) for i in range(COUNT)) + "\n]\n"


def _context() -> CheckContext:
    return CheckContext(Settings(), ToolRegistry(), URI, catalog=CATALOG)


def _alone() -> FileReport:
    return check_document(Document(URI, bytearray(TEXT.encode())), _context(), None, UnitCache())


class _Share(WorkerShare):
    """Waits for the worker's findings of each unit it was sent (a real check never waits), and counts them."""

    def __init__(self, pool: WorkerPool) -> None:
        super().__init__(pool, pool.registry_delta(ToolRegistry(), URI, URI), URI)
        self.used: list[int] = []
        self.failures: list[BaseException] = []
        self.on_failure = self.failures.append

    def findings(self, position: int) -> list[Finding] | None:
        sent = self.sent.get(position)
        if sent is not None:
            future = sent[0]
            until(future.done, "the worker's findings", timeout=120)
        found = super().findings(position)
        if found is not None:
            self.used.append(position)
        return found


@pytest.fixture
def pool() -> Any:
    workers = WorkerPool()
    workers.start()
    until(lambda: workers.ready, "the worker process to start", timeout=120)
    yield workers
    workers.shutdown(kill=True)


def test_a_split_check_gives_the_diagnostics_of_one_check(pool: WorkerPool) -> None:
    share = _Share(pool)
    report = check_document(Document(URI, bytearray(TEXT.encode())), _context(), None, UnitCache(), shared=share)
    expected = _alone()
    start = COUNT - int(COUNT * SHARE)
    assert sorted(share.used) == list(range(start, COUNT)), "the worker checked its share"
    assert share.failures == []
    codes = {d.code for d in expected.diagnostics}
    assert {"TS202", "TS212", "TS214", "TS232", "TS240"} <= codes, codes
    # Unit findings from both processes, file findings (duplicate names across the halves), in order.
    assert report.diagnostics == expected.diagnostics
    duplicates = [d.range.start.line for d in report.diagnostics if d.code == "TS202"]
    assert duplicates == [4, COUNT // 2, COUNT // 2 + 2, COUNT - 4]


def test_a_worker_crash_mid_split_still_gives_every_diagnostic(pool: WorkerPool) -> None:
    (pid,) = pool.pids()
    busy = pool.submit(time.sleep, 60)  # the worker holds this while the share's requests wait behind it
    until(busy.running, "the worker to take the first request")
    share = _Share(pool)
    original_offer = share.offer

    def offer_then_crash(units: Any, ctx: CheckContext) -> None:
        original_offer(units, ctx)
        os.kill(pid, signal.SIGKILL)

    share.offer = offer_then_crash  # type: ignore[method-assign]
    report = check_document(Document(URI, bytearray(TEXT.encode())), _context(), None, UnitCache(), shared=share)
    assert share.used == []
    assert len(share.failures) == 1 and isinstance(share.failures[0], BrokenProcessPool)
    assert report.diagnostics == _alone().diagnostics


def _observed_server() -> tuple[ToolsenseServer, list[types.PublishDiagnosticsParams], list[BaseException]]:
    """A server that sends every full check of a document to the worker's side (`worker_bytes` 0), with what
    it publishes and the worker's failures recorded (the real ones still handled)."""
    server = create_server()
    published: list[types.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign,assignment]
    server.scheduler.worker_bytes = 0
    failures: list[BaseException] = []
    failed = server.scheduler.worker.failed

    def record(error: BaseException) -> str | None:
        failures.append(error)
        return failed(error)

    server.scheduler.worker.failed = record  # type: ignore[method-assign]
    return server, published, failures


def test_the_first_check_of_a_large_file_is_shared_and_the_worker_then_checks_it_alone() -> None:
    """The server's first check runs on the check thread with the worker's share (the worker is still
    starting); the registry the share sent is the one the next check, in the worker, builds on."""

    async def run() -> None:
        server, published, failures = _observed_server()
        scheduler = server.scheduler
        try:
            od = server.open(URI, TEXT, 1, "json")
            server.check(od, "open")
            assert od.job is not None and od.worker_text is None, "the first check runs on the check thread"
            await server.wait_checked(od)
            expected = [to_lsp_diagnostic(d, False, server.client_uri) for d in _alone().diagnostics]
            assert [p.version for p in published] == [1]
            assert published[-1].diagnostics == expected
            await until_async(lambda: scheduler.worker.ready, "the worker process to start", timeout=120)
            server.change(od, 2, [types.TextDocumentContentChangeWholeDocument(text=TEXT.replace('"t7"', '"t8"'))])
            server.check(od, "open")
            assert od.job is not None and od.worker_text is not None, "the next check runs in the worker"
            await server.wait_checked(od)
            assert [p.version for p in published] == [1, 2]
            assert failures == [], "the worker held the registry the share sent"
            lines = [d.range.start.line for d in published[-1].diagnostics if d.code == "TS202"]
            assert lines == [4, 8, 9, COUNT // 2, COUNT // 2 + 2, COUNT - 4]
        finally:
            server.stop_work()

    asyncio.run(run())


def test_a_message_larger_than_a_large_document_starts_the_worker_before_it_is_read() -> None:
    """The transport announces each frame's length before its body; one over `worker_bytes` (a large file's
    didOpen) starts the worker, so its start-up overlaps reading and decoding the message."""
    server = create_server()
    scheduler = server.scheduler
    try:
        scheduler.message_coming(scheduler.worker_bytes)
        assert scheduler.worker.warming is None, "a message no larger than worker_bytes starts nothing"
        scheduler.message_coming(scheduler.worker_bytes + 1)
        assert scheduler.worker.warming is not None
        until(lambda: scheduler.worker.ready, "the worker process to start", timeout=120)
    finally:
        server.stop_work()


def test_after_the_shared_first_check_the_worker_keeps_the_text_so_a_breaking_edit_travels_as_a_patch() -> None:
    """Once the worker is up it gets the text the first check read (and checks it once): the check after an
    edit that breaks the JSON sends the worker only the edit, and publishes what a fresh check of the new text
    says."""

    async def run() -> None:
        server, published, failures = _observed_server()
        scheduler = server.scheduler
        sent: list[Any] = []
        submit = scheduler.worker.submit

        def record(function: Any, *args: Any) -> Any:
            sent.extend(args)
            return submit(function, *args)

        scheduler.worker.submit = record  # type: ignore[method-assign]
        try:
            od = server.open(URI, TEXT, 1, "json")
            server.check(od, "open")
            assert od.job is not None and od.worker_text is None, "the first check runs on the check thread"
            await server.wait_checked(od)
            await until_async(lambda: od.worker_text is not None, "the worker to be handed the text", timeout=120)
            assert [request.text.base for request in sent] == [None], "the whole text, once"
            line = TEXT.splitlines()[8]
            column = line.index('"t7"') + 2
            broken = types.Range(types.Position(8, column), types.Position(8, column))
            server.change(od, 2, [types.TextDocumentContentChangePartial(range=broken, text='"')])
            server.check(od, "open")
            assert od.job is not None
            await server.wait_checked(od)
            assert len(sent) == 2 and sent[1].text.base is not None, "the edit alone"
            assert len(sent[1].text.data) < 100
            assert failures == []
            new_text = od.document.text if od.document is not None else ""
            fresh = check_document(Document(URI, bytearray(new_text.encode())), _context(), None, UnitCache())
            assert any(d.code == "TS001" for d in fresh.diagnostics), "the edit broke the JSON"
            expected = [to_lsp_diagnostic(d, False, server.client_uri) for d in fresh.diagnostics]
            assert published[-1].version == 2
            assert published[-1].diagnostics == expected
        finally:
            server.stop_work()

    asyncio.run(run())
