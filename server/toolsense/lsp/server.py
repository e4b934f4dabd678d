"""The toolsense language server: a pygls `LanguageServer` subclass holding all state on the instance.

`lsp/app.py` builds it: `create_server()` registers each feature module (`toolsense.lsp.<name>`, each exposing
`register(server)`), imported plainly there, on a fresh server.

What a feature module may use on the server:
- `server.documents[uri]` → `OpenDocument` (`lsp/state.py`): `.document` (a positioned `Document`, None when
  the file is too large for live checking), `.report` (the last `FileReport`: diagnostics with findings and
  fixes), `.version`, `.checked_version`;
- `server.settings`, `server.registry`, `server.encoding`, `server.caps` (what the client supports);
- `server.query(uri, position)` → a `features.CursorQuery` for a position; `server.ensure_checked(od)`;
- `lsp/convert.py` for ranges and positions in the negotiated encoding;
- `server.guard(default)` to wrap a handler so that a failure is logged and answered with `default()`.

The work is done elsewhere: `lsp/documents.py` keeps the documents (text, positions, the disk cache),
`lsp/scheduler.py` decides when and how they are checked (`lsp/registry_feed.py` feeds the tool registry from
them); this module wires them together and reads what the client supports.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import inspect
import logging
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Generator, Iterable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import LanguageServerProtocol, lsp_method

from .. import __version__
from ..document.document import Document
from ..document.lines import Position, PositionEncoding
from ..engine.catalog import UnitKind
from ..engine.context import CheckContext, Fingerprint, ToolRegistry
from ..engine.workspace import uri_to_path
from ..features.providers import CursorQuery
from ..features.query import build_hover_query, build_query
from ..rules import CATALOG
from ..settings import Settings, SettingsProblem
from ..textsafety import escape_controls
from ..usermodels import Loading, ModelRegistry
from .convert import ENCODINGS
from .documents import DocumentStore
from .scheduler import Scheduler
from .state import ClientSupport, OpenDocument
from .transport import StdioTransport

log = logging.getLogger(__name__)

T = TypeVar("T")
MIN_MESSAGE_BYTES = 256 * 1024 * 1024
"""Messages up to this size are always read (a 50 MB file opened is declined with a diagnostic, not dropped)."""


class _Futures(dict[Any, Any]):
    """pygls' table of running handlers' futures, iterated over a copy: cancelling one at shutdown runs its
    done-callback (`ToolsenseProtocol._forget_future`) at once, which takes it out of the table meanwhile."""

    def items(self) -> Any:
        return list(super().items())


class ToolsenseProtocol(LanguageServerProtocol):
    """pygls' protocol without its own copies of documents: toolsense keeps one `Document` per uri (an LSP
    line table and an incrementally re-parsed tree). pygls' `TextDocument` re-splits the whole text on every
    access and splits lines at U+2028, which LSP does not."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_futures = _Futures(self._request_futures)

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls files the future of every handler it runs under the message's id, and takes it out again only
        when it answers a request: a notification's future (and the future of each step of a generator
        handler, such as didChange's) stayed for good — two per keystroke, each pinning the memory around it.
        Each one is taken out when it is done (a request's is taken out first, by the answer)."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(functools.partial(self._forget_future, msg_id))

    def _forget_future(self, msg_id: Any, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

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
        self.registry = ToolRegistry()
        self.settings = Settings()
        self.caps = ClientSupport()
        self.roots: list[Path] = []
        self.models: ModelRegistry | None = None
        self.model_loading: Loading | None = None
        """The latest background load of registered models, for `toolsense/settle`."""
        self.docs = DocumentStore(lambda: self.settings)
        self.scheduler = Scheduler(self, self.docs)
        # What feature modules call, done by the document store and the scheduler.
        self.canonical = self.docs.canonical
        self.client_uri = self.docs.client_uri
        self.is_open = self.docs.is_open
        self.max_bytes = self.docs.max_bytes
        self.kind_hint = self.docs.kind_hint
        self.document_for = self.docs.document_for
        self.resolve_range = self.docs.resolve_range
        self.unit_index = self.docs.unit_index
        self.ensure_checked = self.scheduler.ensure_checked
        self.wait_checked = self.scheduler.wait_checked
        self.recheck_all = self.scheduler.recheck_all
        self.dependents_changed = self.scheduler.dependents_changed
        self.index_executor = self.scheduler.index_executor
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
        self.settings_hooks: list[Callable[[Settings, Settings], None]] = []
        self.workspace_files: dict[str, UnitKind] = {}
        """Files on disk that are ours (tool definitions, automations, tool calls), found by indexing."""
        self.index_generation = 0
        self.exit_code = 0
        self.remote = False
        """Served over TCP (`lsp/tcp.py`): a client that says nothing about trust is not trusted."""

    # --- the transport ----------------------------------------------------------------------------------

    def start_io(
        self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None, first: bytes | None = None
    ) -> None:
        """Serve over stdio with toolsense's own transport (`lsp/transport.py`); the exit code the client earned
        (LSP: 0 after `shutdown`, else 1) is left in `exit_code`. `first`: a message body already read from
        `stdin` (the `initialize` a TCP client authenticated with), handled before the rest."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        transport = StdioTransport(
            self,
            stdin or sys.stdin.buffer,
            stdout or sys.stdout.buffer,
            self.max_message_bytes,
            self.stop_work,
            self.scheduler.message_coming,
            first,
        )

        async def serve() -> int:
            self.scheduler.collector.start()  # full garbage collections only when idle (see `IdleCollector`)
            return await transport.serve()

        try:
            self.exit_code = asyncio.run(serve())
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
            self.scheduler.cancel_timer(od)
        for task in list(self.background):
            if not task.done():
                with contextlib.suppress(RuntimeError):  # its loop has closed
                    task.cancel()
        self.index_generation += 1  # a running indexing loop stops at its next file
        self.scheduler.shutdown()

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
            # Messages quote settings and paths from the workspace: shown escaped, like diagnostics.
            self.window_show_message(types.ShowMessageParams(kind, escape_controls(message)))
        except Exception:
            log.exception("could not show a message")

    # --- documents and checks (what feature modules call; the work is done in `docs` and `scheduler`) -----

    @property
    def documents(self) -> dict[str, OpenDocument]:
        return self.docs.documents

    @property
    def encoding(self) -> PositionEncoding:
        return self.docs.encoding

    @encoding.setter
    def encoding(self, encoding: PositionEncoding) -> None:
        self.docs.encoding = encoding

    @property
    def disk_documents(self) -> OrderedDict[str, tuple[tuple[int, int], Document]]:
        return self.docs.disk_documents

    def open(self, uri: str, text: str, version: int | None, language_id: str) -> OpenDocument:
        return self.docs.open(uri, text, version, language_id)

    def change(
        self, od: OpenDocument, version: int | None, changes: Iterable[types.TextDocumentContentChangeEvent]
    ) -> None:
        self.scheduler.changed(od, self.docs.change(od, version, changes))

    def close(self, uri: str) -> OpenDocument | None:
        return self.docs.close(uri)

    def check(self, od: OpenDocument, reason: str = "edit") -> None:
        self.scheduler.check(od, reason)

    def schedule_check(self, od: OpenDocument, delay_ms: float | None = None, reason: str = "edit") -> None:
        self.scheduler.schedule(od, delay_ms, reason)

    def context_for(self, uri: str, registry: ToolRegistry | None = None) -> CheckContext:
        root = self.roots[0].as_uri() if self.roots else ""
        registry = self.registry if registry is None else registry
        return CheckContext(
            self.settings, registry, uri, self.settings.trusted, self.models, root_uri=root, catalog=CATALOG
        )

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

    def query(self, uri: str, position: types.Position, *, hover: bool = False) -> CursorQuery | None:
        od = self.documents.get(uri)
        if od is None or od.document is None:
            return None
        index = self.docs.unit_index(od)
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
