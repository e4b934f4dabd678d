"""The toolsense language server: a pygls `LanguageServer` subclass holding all state on the instance.

`create_server()` builds a fresh server and registers each feature module listed in `FEATURE_MODULES`
(`toolsense.lsp.<name>`, each exposing `register(server)`); a module that does not exist is skipped, so a
feature written elsewhere (e.g. `code_actions`) plugs in by existing.

What a feature module may use on the server:
- `server.documents[uri]` → `OpenDocument` (`lsp/state.py`): `.document` (a positioned `Document`, None when
  the file is too large for live checking), `.report` (the last `FileReport`: diagnostics with findings and
  fixes), `.version`, `.checked_version`;
- `server.settings`, `server.registry`, `server.encoding`, `server.caps` (what the client supports);
- `server.query(uri, position)` → a `features.CursorQuery` for a position; `server.ensure_checked(od)`;
- `lsp/convert.py` for ranges and positions in the negotiated encoding;
- `server.guard(default)` to wrap a handler so that a failure is logged and answered with `default()`.

Checks run on the event loop, one document at a time, so a check always sees one version of the text and its
result is published with that version: results for an older version are never published.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import importlib
import inspect
import itertools
import logging
import re
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Generator, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar, cast

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method

from .. import __version__
from ..document.document import ByteEdit, Document
from ..document.jsontree import Pointer
from ..document.lines import Position, PositionEncoding, Range
from ..engine.catalog import UnitKind
from ..engine.checker import Diagnostic, FileReport, check_document
from ..engine.context import CheckContext, Fingerprint, ToolRegistry
from ..engine.findings import Severity, Target
from ..engine.placement import place
from ..engine.units import kind_from_path, root_value
from ..engine.workspace import path_to_uri, read_regular_file, too_large_message, tool_infos, uri_to_path
from ..features.providers import CursorQuery
from ..features.query import UnitIndex, build_hover_query, build_query, index_for
from ..rules import CATALOG
from ..settings import Settings, SettingsProblem
from ..usermodels import Loading, ModelRegistry
from . import incremental
from .convert import ENCODINGS, to_lsp_diagnostic
from .state import OpenDocument, RawText, ToolMemo
from .transport import StdioTransport, hard_exit

log = logging.getLogger(__name__)

FEATURE_MODULES = (
    "sync",
    "configuration",
    "diagnostics",
    "indexing",
    "completion",
    "hover",
    "symbols",
    "folding",
    "definition",
    "code_actions",
    "models",
    "settle",
    "mcp_code_lens",
    "mcp_check_command",
)
"""Modules of `toolsense.lsp` that register handlers; each exposes `register(server)`. Missing ones are skipped."""

T = TypeVar("T")
_DISK_CACHE_SIZE = 4
_MAX_RELATED_FILE_BYTES = 64 * 1024 * 1024
MIN_MESSAGE_BYTES = 256 * 1024 * 1024
"""Messages up to this size are always read (a 50 MB file opened is declined with a diagnostic, not dropped)."""
BACKGROUND_CHECK_BYTES = 1_000_000
"""Full checks of documents larger than this run off the event loop (see `_expensive`)."""
REGISTRY_SETTLE_MS = 250
"""Documents that depend on a changed tool are checked again this long after the last change at the earliest."""
_MAX_ADAPTIVE_DEBOUNCE_MS = 1000.0
"""The debounce after an edit is at least the last keystroke check's duration, up to this (hardening)."""


@dataclass
class ClientSupport:
    """What the client said it supports, read once at `initialize`."""

    snippets: bool = False
    markdown_completion: bool = False
    markdown_hover: bool = False
    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    related_information: bool = False
    work_done_progress: bool = False
    watched_files_dynamic: bool = False
    configuration: bool = False
    hierarchical_symbols: bool = False
    line_folding_only: bool = False
    folding_limit: int | None = None


class ToolsenseProtocol(LanguageServerProtocol):
    """pygls' protocol without its own copies of documents: toolsense keeps one `Document` per uri (an LSP
    line table and an incrementally re-parsed tree). pygls' `TextDocument` re-splits the whole text on every
    access and splits lines at U+2028, which LSP does not."""

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Generator[Any, Any, None]:
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class ToolsenseServer(LanguageServer):
    """All state lives here: open documents, the tool registry, settings, what the client supports."""

    def __init__(self) -> None:
        super().__init__(
            "toolsense",
            __version__,
            protocol_cls=ToolsenseProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.documents: dict[str, OpenDocument] = {}
        self.registry = ToolRegistry()
        self.settings = Settings()
        self.encoding: PositionEncoding = "utf-16"
        self.caps = ClientSupport()
        self.roots: list[Path] = []
        self.models: ModelRegistry | None = None
        self.model_loading: Loading | None = None
        """The latest background load of registered models, for `toolsense/settle`."""
        self._registry_copy: tuple[int, ToolRegistry] | None = None
        self.check_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolsense-check")
        """Expensive checks of large documents run here, one at a time (see `_check_in_background`)."""
        self.index_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolsense-index")
        """Background indexing gets its own thread: pygls reads stdin through its default pool."""
        self.disk_documents: OrderedDict[str, tuple[tuple[int, int], Document]] = OrderedDict()
        self.disk_reports: dict[str, tuple[tuple[int, int, Fingerprint], str, list[types.Diagnostic]]] = {}
        """Workspace-pull results of files that are not open, with the key they were computed for."""
        self.background: set[asyncio.Task[Any]] = set()
        self.refresh_pending = False
        self.indexed: asyncio.Event | None = None
        # Settings sources, merged in this order (later wins): config file, client options.
        self.config_path: Path | None = None
        self.file_options: dict[str, Any] = {}
        self.client_options: dict[str, Any] = {}
        self.init_options: dict[str, Any] = {}
        self.client_source = "initializationOptions"
        self.pending_problems: list[SettingsProblem] = []
        self.shown_problems: set[str] = set()
        self.feature_modules: list[str] = []
        # Hooks other feature modules add at registration: run after `initialized`, and on settings changes.
        self.startup_hooks: list[Callable[[], Awaitable[None]]] = []
        self.started = False
        """True once `initialized` has been handled and the startup hooks spawned."""
        self.handlers_running = 0
        """Guarded async handlers under way (a configuration change pulling settings, a pull request...)."""
        """True once `initialized` has been handled and the startup hooks spawned."""
        self.settings_hooks: list[Callable[[Settings, Settings], None]] = []
        self.workspace_files: dict[str, UnitKind] = {}
        """Files on disk that are ours (tool definitions, automations, tool calls), found by indexing."""
        self.index_generation = 0
        self.open_canonical: dict[str, str] = {}
        """Canonical uri -> client uri of each open document."""
        self._canonical: dict[str, str] = {}
        self.exit_code = 0

    # --- the transport ----------------------------------------------------------------------------------

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio with toolsense's own transport (`lsp/transport.py`); the exit code the client earned
        (LSP: 0 after `shutdown`, else 1) is left in `exit_code`."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        transport = StdioTransport(
            self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, self.max_message_bytes, self.stop_work
        )
        try:
            self.exit_code = asyncio.run(transport.serve())
        except BrokenPipeError:
            log.error("the connection to the client is lost")
            self.exit_code = 1
        finally:
            self.stop_work()

    def max_message_bytes(self) -> int:
        """The largest message read: a document at the size limit, JSON-escaped, with room to spare."""
        return max(MIN_MESSAGE_BYTES, 8 * self.max_bytes())

    def stop_work(self) -> None:
        """The client is gone: no more checks or indexing (a check thread already busy finishes or is cut off
        by the transport's watchdog)."""
        if self._stop_event is not None:
            self._stop_event.set()
        for od in self.documents.values():
            if od.timer is not None:
                od.timer.cancel()
                od.timer = None
        for task in list(self.background):
            if not task.done():
                with contextlib.suppress(RuntimeError):  # its loop has closed
                    task.cancel()
        self.index_generation += 1  # a running indexing loop stops at its next file
        self.check_executor.shutdown(wait=False, cancel_futures=True)
        self.index_executor.shutdown(wait=False, cancel_futures=True)

    # --- small utilities ------------------------------------------------------------------------------

    def guard(self, default: Callable[[], T]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Wrap a handler: an exception is logged and answered with `default()`; cancellation passes through."""

        def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
            if inspect.iscoroutinefunction(function):

                @functools.wraps(function)
                async def run_async(*args: Any) -> Any:
                    self.handlers_running += 1
                    try:
                        return await function(*args)
                    except Exception:
                        log.exception("%s failed", function.__name__)
                        return default()
                    finally:
                        self.handlers_running -= 1

                return run_async

            @functools.wraps(function)
            def run(*args: Any) -> Any:
                try:
                    return function(*args)
                except Exception:
                    log.exception("%s failed", function.__name__)
                    return default()

            return run

        return wrap

    def spawn(self, coroutine: Awaitable[Any], name: str) -> None:
        """Run a background coroutine, keep a reference to it, and log (never raise) its failure."""

        async def runner() -> None:
            try:
                await coroutine
            except asyncio.CancelledError:
                pass
            except Exception:
                log.exception("background task %s failed", name)

        task = asyncio.ensure_future(runner())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def show(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        try:
            self.window_show_message(types.ShowMessageParams(kind, message))
        except Exception:
            log.exception("could not show a message")

    # --- documents --------------------------------------------------------------------------------------

    def canonical(self, uri: str) -> str:
        """The uri indexing uses for a file (resolved path), so an open file and its copy on disk are one."""
        found = self._canonical.get(uri)
        if found is None:
            path = uri_to_path(uri)
            try:
                found = path_to_uri(path) if path is not None else uri
            except (OSError, RuntimeError, ValueError):
                found = uri
            self._canonical[uri] = found
        return found

    def client_uri(self, canonical_uri: str) -> str:
        """The uri the client opened a file under (for locations we send), else the canonical one."""
        return self.open_canonical.get(canonical_uri, canonical_uri)

    def is_open(self, canonical_uri: str) -> bool:
        return canonical_uri in self.open_canonical

    def max_bytes(self) -> int:
        return int(self.settings.limits.max_file_mb * 1_000_000)

    def kind_hint(self, uri: str) -> UnitKind | None:
        path = uri_to_path(uri)
        return kind_from_path(str(path) if path is not None else uri.split(":", 1)[-1], self.settings)

    def open(self, uri: str, text: str, version: int | None, language_id: str) -> OpenDocument:
        data = bytearray(text.encode("utf-8", "surrogatepass"))
        od = OpenDocument(uri, version, language_id, self.kind_hint(uri), None)
        self._set_text(od, data)
        self.documents[uri] = od
        self.open_canonical[self.canonical(uri)] = uri
        return od

    def _set_text(self, od: OpenDocument, data: bytearray) -> None:
        """Choose between a full `Document` and plain `RawText` by size."""
        if len(data) > self.max_bytes():
            od.document, od.raw, od.index = None, RawText(data, self.encoding), None
        else:
            od.document = Document(od.uri, data, od.version, self.encoding)
            od.raw, od.index = None, None
        od.cache.units.clear()
        od.cache.content.clear()

    def change(
        self, od: OpenDocument, version: int | None, changes: Iterable[types.TextDocumentContentChangeEvent]
    ) -> None:
        for change in changes:
            range_ = None
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                range_ = Range(Position(start.line, start.character), Position(end.line, end.character))
            if od.document is not None:
                seen = od.document.edit_count
                moved: tuple[types.Range, bytes, bytes] | None = None
                if range_ is not None and od.fast_ok:
                    moved = _replaced(od.document, range_)
                od.document.apply_change(change.text, range_)
                edits = od.document.edits_since(seen)
                if range_ is None or edits is None:
                    od.index = None  # rebuilt from the tree when next asked
                    od.fast_ok = False
                    continue
                if od.index is not None:
                    for edit in edits:
                        od.index.shift(edit)
                if od.fast_ok and moved is not None:
                    od.moving.shift(moved[0], change.text, self.encoding, *moved[1:])
                for edit in edits:
                    od.touched = _touch(od.touched, edit)
            else:
                assert od.raw is not None
                od.raw.apply_change(change.text, range_)
        od.version = version
        now = time.perf_counter()
        od.edit_gap_ms = (now - od.last_edit_at) * 1000
        od.last_edit_at = now
        if od.document is not None:
            od.document.version = version
        size = len(od.data)
        if (od.document is None) != (size > self.max_bytes()):
            self._set_text(od, od.data)

    def close(self, uri: str) -> OpenDocument | None:
        od = self.documents.pop(uri, None)
        self.open_canonical.pop(self.canonical(uri), None)
        if od is not None and od.timer is not None:
            od.timer.cancel()
        return od

    # --- checking ---------------------------------------------------------------------------------------

    def context_for(self, uri: str) -> CheckContext:
        root = self.roots[0].as_uri() if self.roots else ""
        return CheckContext(
            self.settings, self.registry, uri, self.settings.trusted, self.models, root_uri=root, catalog=CATALOG
        )

    def schedule_check(self, od: OpenDocument, delay_ms: int | None = None, reason: str = "edit") -> None:
        """Check after the debounce delay; a newer change restarts the wait."""
        if reason == "registry" and od.timer is not None:
            return  # a check is due anyway: other files' changes never postpone it (they could, forever)
        if od.timer is not None:
            od.timer.cancel()
        delay: float = self.settings.diagnostics.debounce_ms if delay_ms is None else delay_ms
        if delay_ms is None and od.edit_gap_ms < od.edit_check_ms:
            # Edits arrive faster than a check takes (an edit storm on a large file): wait at least as long as
            # the last keystroke check took (bounded), so the burst is checked once rather than once per edit
            # while requests queue behind the checks. Ordinary typing keeps the configured debounce.
            delay = max(delay, min(od.edit_check_ms, _MAX_ADAPTIVE_DEBOUNCE_MS))
        loop = asyncio.get_event_loop()
        od.timer = loop.call_later(delay / 1000, self._timer_fired, od.uri, reason)

    def _timer_fired(self, uri: str, reason: str) -> None:
        od = self.documents.get(uri)
        if od is None:
            return
        od.timer = None
        try:
            self.check(od, reason)
        except Exception:
            log.exception("checking %s failed", uri)

    def ensure_checked(self, od: OpenDocument) -> None:
        """Bring the document's diagnostics up to date now (a code action). While a background check of the
        document runs, the last report stays (use `wait_checked` to wait for it)."""
        if od.stale() and od.inflight is None:
            if od.timer is not None:
                od.timer.cancel()
                od.timer = None
            self.check(od, "request")

    async def wait_checked(self, od: OpenDocument) -> None:
        """Like `ensure_checked`, but waits for background checks (a pull request)."""
        while od.uri in self.documents:
            if od.inflight is not None:
                await asyncio.shield(od.inflight)
                continue
            if not od.stale():
                return
            if od.timer is not None:
                od.timer.cancel()
                od.timer = None
            self.check(od, "pull")

    def _expensive(self, od: OpenDocument, reason: str) -> bool:
        """A full check of a large document: it walks every unit (and may check them all, the first time or
        after a settings or registry change), so it runs off the event loop — requests never queue behind it.
        Keystrokes on large documents take the fast path (`incremental`) and publish at once. An explicit
        request (a code action wanting the current report) checks in place."""
        return len(od.data) > BACKGROUND_CHECK_BYTES and reason != "request"

    def check(self, od: OpenDocument, reason: str = "edit") -> None:
        """Check the current text, remember the report, feed the registry, publish (push clients)."""
        if reason == "edit" and od.touched is not None:
            started = time.perf_counter()
            if incremental.fast_check(self, od):
                od.touched = None
                od.settled = False
                self._checked(od, reason, started)
                delay = max(self.settings.diagnostics.debounce_ms, incremental.SETTLE_MS)
                self.schedule_check(od, delay, "settle")
                return
        if od.inflight is not None:
            od.rerun = True  # a background check of an older text is running: check again when it is done
            return
        started = time.perf_counter()
        if od.document is None:
            od.report = None
            od.diagnostics = [self._too_large(od)]
        elif self._expensive(od, reason):
            since_edit_ms = (time.perf_counter() - od.last_edit_at) * 1000
            if reason in ("edit", "settle") and since_edit_ms < incremental.SETTLE_MS:
                # Still typing (the fast path could not answer this one): a full check of a large file now
                # would be outdated at once, and its thread would slow every message of the burst.
                self.schedule_check(od, incremental.SETTLE_MS, reason)
                return
            self._check_in_background(od, reason)
            return
        else:
            report = check_document(od.document, self.context_for(od.uri), od.kind_hint, od.cache, self.resolve_range)
            related = self.caps.related_information
            diagnostics = [to_lsp_diagnostic(d, related, self.client_uri) for d in report.diagnostics]
            self._adopt(od, report, diagnostics)
        self._checked(od, reason, started)

    def _registry_snapshot(self) -> ToolRegistry:
        """A copy of the registry for a background check (the event loop keeps changing the original)."""
        registry = self.registry
        cached = self._registry_copy
        if cached is None or cached[0] != registry.version:
            copy = dataclasses.replace(
                registry, by_uri=dict(registry.by_uri), changes_by_uri=dict(registry.changes_by_uri)
            )
            cached = self._registry_copy = (registry.version, copy)
        return cached[1]

    def _checked(self, od: OpenDocument, reason: str, started: float) -> None:
        od.checked_version = od.version
        od.serial += 1
        if reason == "edit":
            od.edit_check_ms = (time.perf_counter() - started) * 1000
        if not self.caps.pull_diagnostics:
            self.publish(od)
        elif reason not in ("request", "pull"):
            self.request_refresh()

    def _adopt(self, od: OpenDocument, report: FileReport, diagnostics: list[types.Diagnostic]) -> None:
        od.report = report
        od.dirty = False
        od.diagnostics = diagnostics
        od.touched = None
        od.fast_ok = True
        od.settled = True
        self._refresh_index(od)
        self._feed_registry(od)

    def _check_in_background(self, od: OpenDocument, reason: str) -> None:
        """Check a snapshot on the check thread; requests are answered meanwhile (on the live document). The
        result is used only if the text did not change in the meantime; otherwise the document is checked again."""
        assert od.document is not None
        snapshot = od.document.snapshot()
        version = od.version
        registry = self._registry_snapshot()
        root = self.roots[0].as_uri() if self.roots else ""
        context = CheckContext(
            self.settings, registry, od.uri, self.settings.trusted, self.models, root_uri=root, catalog=CATALOG
        )
        related = self.caps.related_information
        kind_hint, cache = od.kind_hint, od.cache
        od.dirty = False  # set again by anything that changes while the check runs
        started = time.perf_counter()
        loop = asyncio.get_event_loop()

        async def resolve_on_loop(uri: str, pointer: Pointer, target: str) -> Range | None:
            return self.resolve_range(uri, pointer, target)

        def resolve(uri: str, pointer: Pointer, target: str) -> Range | None:
            # Other documents are read on the event loop, which owns them (it is never blocked on this thread).
            return asyncio.run_coroutine_threadsafe(resolve_on_loop(uri, pointer, target), loop).result(30)

        def work() -> tuple[FileReport, list[types.Diagnostic]]:
            report = check_document(snapshot, context, kind_hint, cache, resolve)
            return report, [to_lsp_diagnostic(d, related, self.client_uri) for d in report.diagnostics]

        future = loop.run_in_executor(self.check_executor, work)
        od.inflight = future

        def done(finished: asyncio.Future[tuple[FileReport, list[types.Diagnostic]]]) -> None:
            od.inflight = None
            if self.documents.get(od.uri) is not od:
                return
            try:
                report, diagnostics = finished.result()
            except Exception:
                log.exception("checking %s failed", od.uri)
                return
            if od.version == version and od.document is not None:
                od.document.checked_edit_count = snapshot.edit_count
                self._adopt(od, report, diagnostics)
                self._checked(od, reason, started)
            else:
                od.dirty = True  # the result is for an older text: never published
            if od.rerun or od.stale():
                od.rerun = False
                self.schedule_check(od, incremental.SETTLE_MS if reason in ("edit", "settle") else 0, reason)

        future.add_done_callback(done)

    def _too_large(self, od: OpenDocument) -> types.Diagnostic:
        size = len(od.data)
        limit = self.max_bytes()
        message = too_large_message(size, limit)
        diagnostic = Diagnostic(Range(Position(0, 0), Position(0, 0)), Severity.WARNING, "TS003", message)
        return to_lsp_diagnostic(diagnostic, False)

    def publish(self, od: OpenDocument) -> None:
        published = (od.checked_version, od.diagnostics)
        if od.last_published is not None and od.last_published == published:
            return  # a settle check that found what the fast check already said
        od.last_published = published
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(od.uri, od.diagnostics, od.checked_version)
        )

    def request_refresh(self) -> None:
        """Ask a pull client to pull again (coalesced: one request per loop turn)."""
        if not self.caps.diagnostic_refresh or self.refresh_pending:
            return
        self.refresh_pending = True

        def send() -> None:
            self.refresh_pending = False
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:
                log.exception("workspace/diagnostic/refresh failed")

        asyncio.get_event_loop().call_soon(send)

    def _refresh_index(self, od: OpenDocument) -> None:
        """The unit index follows the last good split; a broken tree keeps the shifted earlier index."""
        assert od.document is not None and od.report is not None
        report = od.report
        spans = report.split.spans
        keep_old = od.index is not None and od.document.has_error and len(spans) < len(od.index.starts)
        if not keep_old:
            od.index = UnitIndex.from_split(
                report.split, [u.value for u in report.units], [u.dialect for u in report.units]
            )

    def _feed_registry(self, od: OpenDocument) -> None:
        """An open tool file is the registry's source for its uri; dependents are re-checked on change.

        Runs after every keystroke check, so only units whose value object changed (a cached unit keeps its
        value object) get new registry entries; the rest are reused as they are.
        """
        assert od.report is not None
        report = od.report
        if report.kind != "tool" and not od.defines_tools:
            return
        units = report.units if report.kind == "tool" else []
        uri = self.canonical(od.uri)
        memo = od.tool_memo
        if len(memo.values) == len(units) and memo.uri == uri:
            per_unit = list(memo.infos)
            changed = [
                i
                for i, (unit, value, dialect) in enumerate(zip(units, memo.values, memo.dialects, strict=True))
                if unit.value is not value or unit.dialect != dialect
            ]
            for i in changed:
                per_unit[i] = tool_infos(uri, [units[i]])
        else:
            per_unit = [tool_infos(uri, [unit]) for unit in units]
        od.tool_memo = ToolMemo(uri, [u.value for u in units], [u.dialect for u in units], per_unit)
        infos = list(itertools.chain.from_iterable(per_unit))
        od.defines_tools = bool(infos)
        if not infos and uri not in self.registry.by_uri:
            return  # nothing before, nothing now: not a change (else two such files re-check each other forever)
        if self.registry.set_file(uri, infos):
            self.dependents_changed(origin=od.uri)

    def dependents_changed(self, origin: str | None = None) -> None:
        """The registry changed: every other open document may read it; check them again (debounced)."""
        for uri, other in self.documents.items():
            if uri == origin:
                continue
            other.dirty = True
            # Typing in a tool file changes the registry on every keystroke: let dependents settle first.
            delay = max(self.settings.diagnostics.debounce_ms, REGISTRY_SETTLE_MS)
            self.schedule_check(other, delay, reason="registry")

    def recheck_all(self, reason: str = "settings") -> None:
        for od in self.documents.values():
            od.dirty = True
            self.schedule_check(od, 0, reason)

    # --- positions and other documents --------------------------------------------------------------------

    def document_for(self, uri: str) -> Document | None:
        """An open document, or a read-only copy of a file on disk (cached by modification time)."""
        od = self.documents.get(uri) or self.documents.get(self.open_canonical.get(uri, ""))
        if od is not None:
            return od.document
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        cached = self.disk_documents.get(uri)
        stamp = (stat.st_mtime_ns, stat.st_size)  # a float mtime misses rewrites within its resolution
        if cached is not None and cached[0] == stamp:
            self.disk_documents.move_to_end(uri)
            return cached[1]
        try:
            data = read_regular_file(path, min(self.max_bytes(), _MAX_RELATED_FILE_BYTES))
        except OSError:
            return None  # gone, unreadable, too large, or a FIFO (which would block the event loop)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        document = Document(uri, bytearray(data), None, self.encoding)
        self.disk_documents[uri] = (stamp, document)
        while len(self.disk_documents) > _DISK_CACHE_SIZE:
            self.disk_documents.popitem(last=False)
        return document

    def resolve_range(self, uri: str, pointer: Pointer, target: str) -> Range | None:
        """Where a pointer is in any document (open or on disk): for related information and definitions."""
        document = self.document_for(uri)
        if document is None:
            return None
        root = root_value(document.outline)
        if root is None:
            return None
        return place(document, root, pointer, cast(Target, target), None)

    def unit_index(self, od: OpenDocument) -> UnitIndex | None:
        if od.document is None:
            return None
        if od.index is None:
            od.index = index_for(od.document, od.kind_hint)
        return od.index

    def query(self, uri: str, position: types.Position, *, hover: bool = False) -> CursorQuery | None:
        od = self.documents.get(uri)
        if od is None or od.document is None:
            return None
        index = self.unit_index(od)
        assert index is not None
        offset = od.document.offset_at(Position(position.line, position.character))
        if hover:
            query = build_hover_query(od.document, index, offset, self.registry, self.settings)
        else:
            query = build_query(od.document, index, offset, self.registry, self.settings, snippets=self.caps.snippets)
        return dataclasses.replace(query, models=self.models if self.settings.trusted else None)

    # --- capabilities -----------------------------------------------------------------------------------

    def read_client_capabilities(self, capabilities: types.ClientCapabilities) -> None:
        text = capabilities.text_document
        workspace = capabilities.workspace
        window = capabilities.window
        caps = ClientSupport()
        if text is not None:
            completion = text.completion
            item = completion.completion_item if completion is not None else None
            if item is not None:
                caps.snippets = bool(item.snippet_support)
                caps.markdown_completion = types.MarkupKind.Markdown in (item.documentation_format or [])
            if text.hover is not None:
                caps.markdown_hover = types.MarkupKind.Markdown in (text.hover.content_format or [])
            caps.pull_diagnostics = text.diagnostic is not None
            if text.publish_diagnostics is not None:
                caps.related_information = bool(text.publish_diagnostics.related_information)
            if text.document_symbol is not None:
                caps.hierarchical_symbols = bool(text.document_symbol.hierarchical_document_symbol_support)
            if text.folding_range is not None:
                caps.line_folding_only = bool(text.folding_range.line_folding_only)
                caps.folding_limit = text.folding_range.range_limit
        if workspace is not None:
            caps.configuration = bool(workspace.configuration)
            watched = workspace.did_change_watched_files
            caps.watched_files_dynamic = bool(watched is not None and watched.dynamic_registration)
            if workspace.diagnostics is not None:
                caps.diagnostic_refresh = bool(workspace.diagnostics.refresh_support)
        if window is not None:
            caps.work_done_progress = bool(window.work_done_progress)
        self.caps = caps
        self.encoding = ENCODINGS.get(str(self.workspace.position_encoding), "utf-16")

    def set_roots(self, params: types.InitializeParams) -> None:
        roots: list[Path] = []
        for folder in params.workspace_folders or []:
            path = uri_to_path(folder.uri)
            if path is not None:
                roots.append(path)
        if not roots and params.root_uri:
            path = uri_to_path(params.root_uri)
            if path is not None:
                roots.append(path)
        if not roots and params.root_path:
            roots.append(Path(params.root_path))
        self.roots = roots


def _replaced(document: Document, range_: Range) -> tuple[types.Range, bytes, bytes]:
    """The range an LSP change replaces as the document reads it (clamped, never reversed), with the byte just
    before and just after it (they tell whether a \\r and a \\n are brought together)."""
    low = document.offset_at(range_.start)
    high = max(document.offset_at(range_.end), low)
    start, end = document.position_at(low), document.position_at(high)
    data = document.data
    lsp_range = types.Range(types.Position(start.line, start.character), types.Position(end.line, end.character))
    return lsp_range, bytes(data[low - 1 : low]) if low else b"", bytes(data[high : high + 1])


def _touch(touched: tuple[int, int] | None, edit: ByteEdit) -> tuple[int, int]:
    """The byte span edits have touched so far, carried through one more edit."""
    if touched is None:
        return edit.start, edit.new_end
    low, high = touched
    if high >= edit.old_end:
        high += edit.new_end - edit.old_end
    elif high > edit.start:
        high = edit.new_end
    return min(low, edit.start), max(high, edit.new_end)


def _load_feature(server: ToolsenseServer, name: str) -> None:
    module_name = f"{__package__}.{name}"
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        if error.name == module_name:
            log.info("feature module %s is not present; skipped", module_name)
            return
        log.exception("feature module %s failed to import", module_name)
        return
    except Exception:
        log.exception("feature module %s failed to import", module_name)
        return
    register = getattr(module, "register", None)
    if register is None:
        log.warning("feature module %s has no register(server)", module_name)
        return
    try:
        register(server)
    except Exception:
        log.exception("feature module %s failed to register", module_name)
        return
    server.feature_modules.append(name)


def create_server() -> ToolsenseServer:
    """A fresh server with every present feature module registered."""
    server = ToolsenseServer()
    for name in FEATURE_MODULES:
        _load_feature(server, name)
    return server


_METHOD_LIKE = re.compile(r"[A-Za-z_$][\w$]*(?:/[\w$]+)*")


class NoMessageBodies(logging.Filter):
    """pygls logs whole JSON-RPC messages (the file text of didOpen/didChange, hover and completion contents,
    diagnostics, initialization options) at INFO and DEBUG. Its records keep their wording but lose every
    argument that is not a number or a method name, so file contents never reach the log (see SECURITY.md)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("pygls") and isinstance(record.args, tuple) and record.args:
            record.args = tuple(_loggable(arg) for arg in record.args)
        elif record.name.startswith("pygls") and record.args:
            record.args = ()  # a mapping argument: the format is logged as it is, without it
        return True


def _loggable(arg: object) -> object:
    if isinstance(arg, (int, float)) or arg is None:
        return arg
    if isinstance(arg, str) and len(arg) <= 64 and _METHOD_LIKE.fullmatch(arg):
        return arg
    return f"<{type(arg).__name__}, not logged>"


def run(
    tcp: str | None, log_level: str = "WARNING", stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """`toolsense serve`: stdio by default (`stdin`/`stdout`: the protocol's own streams, kept apart from the
    process's by the CLI), `--tcp HOST:PORT` for debugging. Logs go to stderr, without message bodies
    (`NoMessageBodies`)."""
    logging.basicConfig(
        level=getattr(logging, log_level.upper(), logging.WARNING),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(NoMessageBodies())
    server = create_server()
    if tcp:
        host, _, port = tcp.rpartition(":")
        if not port.isdigit():
            sys.stderr.write(f"toolsense: --tcp expects HOST:PORT, got {tcp!r}\n")
            return 2
        server.start_tcp(host or "127.0.0.1", int(port))
        return 0
    server.start_io(stdin, stdout)
    # The stdin reader is a daemon thread blocked in a read: a normal interpreter shutdown would wait for check
    # threads still busy and then abort on the reader's lock. Everything worth keeping is flushed: leave now.
    hard_exit(server.exit_code)
    return server.exit_code
