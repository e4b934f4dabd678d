"""When documents are checked, and how: debounce, the keystroke fast path, settle checks, background checks.

Each open document is in one `Phase`, moved only by events (`phases.py`: the transition table and the one
debounce formula).

Full checks of documents over `worker_bytes` run in the background: in the worker process (`worker.py`) once
it is up, on the check thread before that (and while user models, which live in this process, are registered).
The first check of such a document on the check thread uses both cores: the worker checks the last units
meanwhile (`WorkerShare`; the user waits for this one). Small documents are checked in place: sending them would
cost more than checking them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from lsprotocol import types

from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import Range
from ..engine.checker import FileReport, RelatedResolver, SharedFindings, check_document
from ..engine.context import CheckContext, ToolRegistry
from ..engine.unit_check import check_units
from ..features.query import UnitIndex
from ..settings import Settings
from ..usermodels import ModelRegistry
from .collector import IdleCollector
from .convert import to_lsp_diagnostic
from .documents import DocumentStore
from .phases import RUNNING_PHASES, SETTLE_MS, Event, advance, delay_ms
from .registry_feed import RegistryFeed
from .share import WorkerShare, on_loop
from .state import ClientSupport, OpenDocument, Phase
from .worker import (
    WORKER_TIMEOUT_S,
    CheckRequest,
    CheckResult,
    WorkerPool,
    adopt,
    check_in_worker,
    text_for,
)

log = logging.getLogger(__name__)
_T = TypeVar("_T")

BACKGROUND_CHECK_BYTES = 1_000_000
"""Full checks of documents larger than this run off the event loop (see `Scheduler.expensive`), and files
larger than this are read for indexing in the worker process."""


class CheckHost(Protocol):
    """What the scheduler reads from the server it works for."""

    settings: Settings
    caps: ClientSupport
    registry: ToolRegistry
    models: ModelRegistry | None

    def show(self, message: str) -> None: ...

    def context_for(self, uri: str, registry: ToolRegistry | None = None) -> CheckContext: ...

    def publish(self, od: OpenDocument) -> None: ...

    def request_refresh(self) -> None: ...


class Scheduler:
    """Runs every check of an open document: the one place `lsp/` calls the engine for them."""

    def __init__(self, host: CheckHost, docs: DocumentStore) -> None:
        self.host = host
        self.docs = docs
        self.feed = RegistryFeed(lambda: host.registry, docs.canonical, self.dependents_changed)
        self._registry_copy: tuple[int, ToolRegistry] | None = None
        self.check_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolsense-check")
        """Expensive checks run here while the worker process is not up yet (see `_start_background`)."""
        self.index_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolsense-index")
        """Background indexing gets its own thread: pygls reads stdin through its default pool."""
        self.worker = WorkerPool()
        self.worker_bytes = BACKGROUND_CHECK_BYTES
        """Documents and files larger than this are checked and read off the event loop (see `expensive`)."""
        self.collector = IdleCollector(busy=lambda: any(od.job is not None for od in docs.documents.values()))
        self.stopped = False

    # --- events from the outside ------------------------------------------------------------------------

    def changed(self, od: OpenDocument, traced: bool) -> None:
        """The text changed (`traced`: by ranged edits the diagnostics followed)."""
        self.collector.last_activity = time.monotonic()
        advance(od, Event.EDIT if traced else Event.INVALIDATE)

    def dependents_changed(self, origin: str | None = None) -> None:
        """The registry changed: every other open document may read it; check them again (debounced)."""
        for uri, other in self.docs.documents.items():
            if uri != origin:
                advance(other, Event.CONTEXT)
                self.schedule(other, reason="registry")

    def recheck_all(self, reason: str = "settings") -> None:
        for od in self.docs.documents.values():
            advance(od, Event.INVALIDATE)
            self.schedule(od, reason=reason)

    # --- timers -------------------------------------------------------------------------------------------

    def schedule(self, od: OpenDocument, delay: float | None = None, reason: str = "edit") -> None:
        """Check after the delay for `reason` (`delay_ms`, unless given); a newer change restarts the wait."""
        if reason == "registry" and od.timer is not None:
            return  # a check is due anyway: other files' changes never postpone it (they could, forever)
        self.cancel_timer(od)
        wait = delay_ms(reason, od, self.host.settings.diagnostics.debounce_ms) if delay is None else delay
        od.timer = asyncio.get_event_loop().call_later(wait / 1000, self._fire, od.uri, reason)
        od.timer_reason = reason

    def cancel_timer(self, od: OpenDocument) -> None:
        if od.timer is not None:
            od.timer.cancel()
            od.timer = None

    def _fire(self, uri: str, reason: str) -> None:
        od = self.docs.documents.get(uri)
        if od is None:
            return
        od.timer = None
        try:
            self.check(od, reason)
        except Exception:
            log.exception("checking %s failed", uri)
        self.collector.last_activity = time.monotonic()  # a check is activity: idle is counted from its end

    def ensure_checked(self, od: OpenDocument) -> None:
        """Bring the document's diagnostics up to date now (a code action). While a background check of the
        document runs, the last report stays (use `wait_checked` to wait for it)."""
        if od.stale() and od.job is None:
            self.cancel_timer(od)
            self.check(od, "request")

    async def wait_checked(self, od: OpenDocument) -> None:
        """Like `ensure_checked`, but waits for background checks (a pull request)."""
        while od.uri in self.docs.documents:
            if od.job is not None:
                await asyncio.wait([od.job])  # its failure is handled where it ends (`_finish`), not here
                continue
            if not od.stale():
                return
            self.cancel_timer(od)
            self.check(od, "pull")

    # --- checking -----------------------------------------------------------------------------------------

    def expensive(self, od: OpenDocument, reason: str) -> bool:
        """A full check of a large document: it walks every unit (and may check them all, the first time or
        after a settings or registry change), so it runs off the event loop — requests never queue behind it.
        Keystrokes on large documents take the fast path and publish at once. An explicit request (a code
        action wanting the current report) checks in place."""
        return len(od.data) > self.worker_bytes and reason != "request"

    def check(self, od: OpenDocument, reason: str = "edit") -> None:
        """Check the current text, remember the report, feed the registry, publish (push clients)."""
        if reason == "edit" and self._fast_check(od):
            return
        if od.job is not None:
            return  # a background check runs: when it ends, the phase says whether to check again
        started = time.perf_counter()
        if od.document is None:
            od.report = None
            od.diagnostics = [self.docs.too_large(od)]
            advance(od, Event.CHECKED)
        elif self.expensive(od, reason):
            since_edit_ms = (time.perf_counter() - od.last_edit_at) * 1000
            if reason in ("edit", "settle") and since_edit_ms < SETTLE_MS:
                # Still typing (the fast path could not answer this one): a full check of a large file now
                # would be outdated at once, and its thread would slow every message of the burst.
                self.schedule(od, reason="settle")
                return
            self._start_background(od, reason)
            return
        else:
            report = self._engine(od.document, self.host.context_for(od.uri), od, self.docs.resolve_range)
            self._adopt(od, report, self._lsp(report))
            advance(od, Event.CHECKED)
        self._checked(od, reason, started)

    def _engine(
        self,
        document: Document,
        context: CheckContext,
        od: OpenDocument,
        resolver: RelatedResolver,
        shared: SharedFindings | None = None,
    ) -> FileReport:
        return check_document(document, context, od.kind_hint, od.cache, resolver, shared=shared)

    def _lsp(self, report: FileReport) -> list[types.Diagnostic]:
        related = self.host.caps.related_information
        return [to_lsp_diagnostic(d, related, self.docs.client_uri) for d in report.diagnostics]

    def _fast_check(self, od: OpenDocument) -> bool:
        """The keystroke fast path: check only the unit the edits since the last publish touched, publish at
        once, and leave file-level findings to a settle check; False when the full check must run."""
        if self.host.caps.pull_diagnostics or od.phase not in (Phase.EDITED, Phase.RUNNING_EDITED):
            return False
        found = self.docs.touched_unit(od)
        if found is None:
            return False
        started = time.perf_counter()
        position, piece = found
        assert od.document is not None and od.report is not None and od.index is not None
        # A unit below the root sees what the file says about it (its MCP version, a request body) as a full check does.
        facts = od.report.facts if piece.pointer else None
        context = self.host.context_for(od.uri)
        results = check_units(od.document, [piece], context, facts, self.docs.resolve_range)
        if results is None:
            return False
        result = results[0]
        self.docs.place_unit(od, piece, result.diagnostics, self.host.caps.related_information)
        od.index.values[position] = result.unit.value
        self.feed.feed_unit(od, position, result.unit)
        od.touched = None
        advance(od, Event.FAST)
        self._checked(od, "edit", started)
        self.schedule(od, reason="settle")
        return True

    def _checked(self, od: OpenDocument, reason: str, started: float) -> None:
        od.checked_version = od.version
        od.serial += 1
        if reason == "edit":
            od.edit_check_ms = (time.perf_counter() - started) * 1000
        if not self.host.caps.pull_diagnostics:
            self.host.publish(od)
        elif reason not in ("request", "pull"):
            self.host.request_refresh()

    def _adopt(
        self, od: OpenDocument, report: FileReport, diagnostics: list[types.Diagnostic], index: UnitIndex | None = None
    ) -> None:
        od.report = report
        od.diagnostics = diagnostics
        od.touched = None
        if od.document is not None and not report.split.broken:  # a check made elsewhere brings the history back
            od.document.claimed_kind = report.kind
        self.docs.refresh_index(od, index)
        self.feed.feed(od)

    # --- background checks ----------------------------------------------------------------------------------

    def _registry_snapshot(self) -> ToolRegistry:
        """A copy of the registry for a background check (the event loop keeps changing the original)."""
        registry = self.host.registry
        cached = self._registry_copy
        if cached is None or cached[0] != registry.version:
            copy = dataclasses.replace(
                registry, by_uri=dict(registry.by_uri), changes_by_uri=dict(registry.changes_by_uri)
            )
            cached = self._registry_copy = (registry.version, copy)
        return cached[1]

    def _start_background(self, od: OpenDocument, reason: str) -> None:
        """Check a snapshot off the event loop — in the worker process once it is up (and no user models, which
        live in this process, are registered), else on the check thread — while requests are answered on the
        live document. The result is used only if the text did not change in the meantime (`done`)."""
        assert od.document is not None
        version = od.version
        started = time.perf_counter()
        loop = asyncio.get_event_loop()
        in_worker = self.host.models is None and self.worker.ready
        deadline: asyncio.TimerHandle | None = None
        if in_worker:
            future = self._check_in_worker(od)
            deadline = loop.call_later(WORKER_TIMEOUT_S, self._overran, future)
            od.job = asyncio.wrap_future(future)
        else:
            context = self.host.context_for(od.uri, self._registry_snapshot())
            snapshot = od.document.snapshot()
            shared = self._share(od, loop)
            od.job = loop.run_in_executor(self.check_executor, self._thread_check, od, snapshot, context, loop, shared)
        advance(od, Event.STARTED)

        def done(finished: asyncio.Future[Any]) -> None:
            od.job = None
            if deadline is not None:
                deadline.cancel()
            if self.stopped or self.docs.documents.get(od.uri) is not od:
                return
            try:
                self._finish(od, finished, version, reason, started)
            except Exception:
                log.exception("adopting the check of %s failed", od.uri)
                if od.phase in RUNNING_PHASES:
                    advance(od, Event.FAILED)
            self.collector.last_activity = time.monotonic()
            if od.phase not in (Phase.CURRENT, Phase.FAILED):
                self.schedule(od, reason="settle" if reason in ("edit", "settle") else reason)

        od.job.add_done_callback(done)

    def _finish(
        self, od: OpenDocument, finished: asyncio.Future[Any], version: int | None, reason: str, started: float
    ) -> None:
        """A background check ended: adopt its result if it is for the current text (else drop it)."""
        if self.host.models is None:
            # The worker takes the next one (starting it costs a second or two of CPU: not during the first).
            self.worker.start()
        try:
            outcome = finished.result()
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            advance(od, Event.DROPPED)  # the worker was started again (another check overran): check again
            return
        except Exception as error:
            self._failed(od, error)
            return
        if isinstance(outcome, CheckResult):
            report, index, od.unit_values = adopt(outcome, od.unit_values, self.docs.resolve_range)
        else:
            report, index, od.unit_values = outcome
        if od.version == version and od.document is not None:
            self._adopt(od, report, self._lsp(report), index)
            advance(od, Event.FINISHED)
            self._checked(od, reason, started)
            if not isinstance(outcome, CheckResult):
                self._prime_worker(od)
        else:
            advance(od, Event.DROPPED)  # the result is for an older text: never published

    def _check_in_worker(self, od: OpenDocument) -> concurrent.futures.Future[CheckResult]:
        """Send the worker a check of the document: the text as a patch of what it holds (`od.worker_text`), the
        registry entries it lacks, and the unit values the server holds already (not sent back)."""
        assert od.document is not None
        context = self.host.context_for(od.uri, ToolRegistry())
        registry = self.worker.registry_delta(self.host.registry, od.uri, self.docs.canonical(od.uri))
        text = text_for(od.document, od.worker_text)
        od.worker_text = (text.token, text.length)
        have, history = frozenset(od.unit_values), od.document.claimed_kind
        request = CheckRequest(od.uri, text, self.docs.encoding, od.kind_hint, context, registry, have, history)
        return self.worker.submit(check_in_worker, request)

    def _prime_worker(self, od: OpenDocument) -> None:
        """After the first check of a large document ran here (shared with the worker), the worker gets the text
        and checks it once, off the user's way: its copy is outlined and its unit cache full, so the next check
        there travels as a patch (a keystroke that breaks the JSON: 3.5 s in a 22 MB file before, when the whole
        broken text was sent, parsed by tree-sitter and every unit checked again)."""
        if od.document is None or len(od.data) <= self.worker_bytes or od.worker_text is not None:
            return
        if self.stopped or self.host.models is not None or self.docs.documents.get(od.uri) is not od:
            return
        loop = asyncio.get_running_loop()
        if not self.worker.ready:
            warming = self.worker.warming
            if warming is not None and not warming.done():  # still starting: once it is up
                warming.add_done_callback(lambda _: on_loop(loop, self._prime_worker, od))
            return
        future = self._check_in_worker(od)  # the whole text (none sent yet); no value comes back

        def ended(finished: concurrent.futures.Future[CheckResult]) -> None:
            if not finished.cancelled() and (error := finished.exception()) is not None:
                on_loop(loop, self._prime_failed, od, error)

        future.add_done_callback(ended)

    def _prime_failed(self, od: OpenDocument, error: BaseException) -> None:
        """On the event loop: the worker did not keep the text (it crashed, or lacked registry entries): the next
        check sends everything again."""
        od.worker_text = None
        self.worker.failed(error)

    def _share(self, od: OpenDocument, loop: asyncio.AbstractEventLoop) -> WorkerShare | None:
        """The first check of a large document (nothing cached: every unit's rules run) uses both cores: the
        worker checks the last units while the check thread checks from the first, and the thread takes over the
        worker's units one by one for as long as their findings have not arrived (so a slow, busy or crashed
        worker costs nothing but the units sent). None when the check runs alone: a check since the open left
        findings, or user models (which live in this process) are registered."""
        if self.host.models is not None or od.cache.units or od.document is None:
            return None
        self.worker.start()  # if a file read for indexing has not started it yet
        registry = self.worker.registry_delta(self.host.registry, od.uri, self.docs.canonical(od.uri))
        share = WorkerShare(self.worker, registry, od.uri)

        def failed(error: BaseException) -> None:
            on_loop(loop, self._share_failed, od, error)

        share.on_failure = failed
        return share

    def _share_failed(self, od: OpenDocument, error: BaseException) -> None:
        """On the event loop: the worker's share failed (it crashed, or lacked the registry entries it was
        thought to hold). The check did not wait for it; a crashed worker is started again for the next one."""
        if self.stopped:
            return
        if self.worker.failed(error) is None:
            log.error("the worker's share of checking %s failed", od.uri, exc_info=error)

    def _thread_check(
        self,
        od: OpenDocument,
        snapshot: Document,
        context: CheckContext,
        loop: asyncio.AbstractEventLoop,
        shared: WorkerShare | None = None,
    ) -> tuple[FileReport, UnitIndex | None, dict[bytes, Any]]:
        """A full check of a snapshot on the check thread, with the units' values by digest for the worker."""

        async def resolveon_loop(uri: str, pointer: Pointer, target: str) -> Range | None:
            return self.docs.resolve_range(uri, pointer, target)

        def resolve(uri: str, pointer: Pointer, target: str) -> Range | None:
            # Other documents are read on the event loop, which owns them (it is never blocked on this thread).
            return asyncio.run_coroutine_threadsafe(resolveon_loop(uri, pointer, target), loop).result(30)

        try:
            report = self._engine(snapshot, context, od, resolve, shared)
        finally:
            if shared is not None:
                shared.close(context)
        values = dict(zip(report.digests, (unit.value for unit in report.units), strict=True))
        return report, None, values

    def _overran(self, future: concurrent.futures.Future[Any]) -> None:
        if not future.done():
            self.worker.restart(f"a check ran longer than {WORKER_TIMEOUT_S:.0f} s")

    def _failed(self, od: OpenDocument, error: BaseException) -> None:
        """A background check failed: after a crash the worker is started again and the check tried once more."""
        od.worker_text = None  # send the whole text next time
        meaning = self.worker.failed(error)
        if meaning == "resend" or (meaning == "crashed" and od.crashed_version != od.version):
            od.crashed_version = od.version if meaning == "crashed" else od.crashed_version
            advance(od, Event.DROPPED)
            return
        if meaning == "crashed":
            self.host.show(f"toolsense: checking {od.uri} stopped the worker process twice; it is not tried again")
        else:
            log.error("checking %s failed", od.uri, exc_info=error)
        advance(od, Event.FAILED)

    def message_coming(self, length: int) -> None:
        """A message of `length` bytes is being read. One larger than `worker_bytes` carries a large document
        (`didOpen`, or a whole-text change), whose first check the worker will share: it starts now, while the
        message is read and decoded (~0.3 s at 22 MB), instead of when the check begins, so its start-up (~0.5 s
        of CPU, on the other core) is over when the units are handed out."""
        if length > self.worker_bytes and not self.stopped:
            self.worker.start()

    async def worker_free(self) -> None:
        """Until the worker is up and no open document is being checked: large files are read for indexing after
        that, so a check the user waits for (the first check of a file opened as the server starts, whose share
        goes to the worker) is not queued behind them, and a file opened meanwhile need not be read at all."""
        self.worker.start()
        warming = self.worker.warming
        if warming is not None:
            with contextlib.suppress(Exception):
                await asyncio.wrap_future(warming)
        await self.open_checks_done()

    async def open_checks_done(self) -> None:
        """Until no open document is being checked off the event loop: indexing wants the same interpreter, and
        the user waits for the open document's diagnostics, not for the index."""
        while pending := [od.job for od in self.docs.documents.values() if od.job is not None and not od.job.done()]:
            await asyncio.wait(pending)

    async def read_file(self, function: Callable[..., _T], path: Path, *args: Any) -> _T:
        """Run `function(path, *args)` (reading a file for indexing) off the event loop: in the worker process
        for a large file, on the indexing thread otherwise."""
        loop = asyncio.get_running_loop()
        try:
            large = path.stat().st_size > self.worker_bytes
        except OSError:
            large = False
        if large:
            await self.worker_free()
            try:
                return await asyncio.wrap_future(self.worker.submit(function, path, *args))
            except Exception as error:
                if self.worker.failed(error) is None:
                    raise
        return await loop.run_in_executor(self.index_executor, function, path, *args)

    def shutdown(self) -> None:
        self.stopped = True
        self.collector.stop()
        self.check_executor.shutdown(wait=False, cancel_futures=True)
        self.index_executor.shutdown(wait=False, cancel_futures=True)
        self.worker.shutdown(kill=True)  # what it is doing is for a client that is gone


__all__ = ["Scheduler"]
