"""Full checks of large documents (and reads of large files for indexing) in a worker process.

A full check of a 20 MB file takes seconds of pure Python; on a thread it would hold the interpreter, and every
keystroke of the meantime would wait for it. The engine is position-free (bytes and settings in, findings out),
so the check runs in one long-lived worker process instead (`WorkerPool`: started on first use, restarted after
a crash or a check that overran `WORKER_TIMEOUT_S`), and the server only adopts its result (`adopt`).

The worker keeps its own copy of each document it checked and applies the difference to the new text as one
edit, so its tree is re-parsed incrementally and unchanged units keep their reads and findings (its `UnitCache`).
Unit values cross back only for units the server does not hold yet (by content digest): after a keystroke one
unit's value, not the file's. Related locations in other documents are resolved by the server, which owns them.

During the first check of a large document on the server's check thread, the worker checks the last units of it
(`units_in_worker`: the units travel read, so it neither receives nor parses the file).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import Position, PositionEncoding, Range
from ..engine.catalog import UnitKind
from ..engine.checker import Diagnostic, FileReport, RelatedLocation, UnitCache, check_document
from ..engine.context import CheckContext, ToolInfo, ToolRegistry
from ..engine.filefacts import FileFacts
from ..engine.findings import Finding
from ..engine.unit_rules import run_unit_checks
from ..engine.units import Split, Unit, UnitProblem

if TYPE_CHECKING:
    from ..features.query import UnitIndex  # imported where used: the worker's start-up does without it

log = logging.getLogger(__name__)

WORKER_TIMEOUT_S = 120.0
"""A check that takes longer is given up: the worker is killed (and started again for the next one)."""
KEPT_DOCUMENTS = 4
"""Documents the worker keeps a copy of (for incremental re-parses and cached unit results)."""


@dataclass(frozen=True)
class RegistryDelta:
    """The server's tool registry as the worker needs it: every tool travels once (a 5,000-tool file's are
    megabytes), then only the tools that changed since the previous request (`base`)."""

    base: int | None
    """The request whose registry this one changes; None: `entries` is the whole registry."""
    serial: int
    entries: dict[str, tuple[int, dict[int, ToolInfo]]]
    """Files whose entries changed: how many it has now (0: it left the registry), and the new ones by position
    (all of them when the count changed)."""
    omit: str | None
    """The checked document's own entries, which its check never reads (`ToolRegistry.elsewhere` skips them, and
    its fingerprint ignores them): typing in a large tool file changes them on every keystroke."""
    version: int
    own_changes: int
    """How many of `version`'s changes came from the checked document (for `ToolRegistry.version_excluding`)."""
    samples: dict[str, Any]
    live: dict[str, Any]


def same_registry(delta: RegistryDelta) -> RegistryDelta:
    """A delta that changes nothing after `delta` (for the next of several requests sent together)."""
    return dataclasses.replace(delta, base=delta.serial, entries={})


class StaleRegistry(Exception):
    """The worker lacks entries the server thought it held (it was started again): send them all."""


class MissingText(Exception):
    """The worker does not hold the text a patch applies to (it was started again, or let it go): send it all."""


@dataclass(frozen=True)
class Text:
    """A document's text for the worker: all of it, or the one span that changed since a text it holds."""

    token: tuple[int, int]
    """Names this text: the server document's serial and edit count."""
    length: int
    data: bytes
    base: tuple[int, int] | None = None
    """The text the patch applies to (None: `data` is the whole text)."""
    start: int = 0
    old_end: int = 0


@dataclass(frozen=True)
class CheckRequest:
    uri: str
    text: Text
    encoding: PositionEncoding
    kind_hint: UnitKind | None
    context: CheckContext
    """The check context, its registry left empty (`registry` has it)."""
    registry: RegistryDelta
    have: frozenset[bytes]
    """Digests of the unit values the server already holds for this document."""
    claimed_kind: str | None = None
    """The server's history of the document (`Document.claimed_kind`): the worker's copy may be new."""


class UnitStub(NamedTuple):
    """A unit without its value (the value travels by digest; a tuple pickles fast)."""

    kind: UnitKind
    pointer: Pointer
    dialect: str | None
    start: int
    end: int
    clean: bool
    problem: UnitProblem | None
    origin: Any
    container_dialect: str | None
    digest: bytes


@dataclass(frozen=True)
class CheckResult:
    kind: UnitKind | None
    shape: Any
    diagnostics: list[Diagnostic]
    units: list[UnitStub]
    index: UnitIndex
    values: dict[bytes, Any]
    """Values of the units whose digest the server did not hold."""
    elsewhere: list[tuple[str, Pointer, str]]
    """Related locations in other documents, for the server to place: a diagnostic's related location whose
    range starts at line -1 stands for `elsewhere[character]`."""
    facts: FileFacts
    checked_units: int
    broken: bool = False
    """The text did not parse (`Split.broken`): the server's history of the document stays as it was."""


@dataclass
class _Kept:
    document: Document
    token: tuple[int, int]
    cache: UnitCache = field(default_factory=UnitCache)


@dataclass
class _Held:
    serial: int = -1
    files: dict[str, list[ToolInfo]] = field(default_factory=dict)


# The worker process's own memory (never used in the server process): the documents it checked last, and the
# registry as of the last request.
_kept: OrderedDict[str, _Kept] = OrderedDict()
_held = _Held()


def _registry(delta: RegistryDelta, uri: str) -> ToolRegistry:
    if delta.base is None:
        _held.files = {}
    elif delta.base != _held.serial:
        raise StaleRegistry(delta.base)
    for file, (count, changed) in delta.entries.items():
        held = _held.files.get(file)
        if not count:
            _held.files.pop(file, None)
        elif held is not None and len(held) == count:
            _held.files[file] = [changed.get(i, tool) for i, tool in enumerate(held)]
        elif len(changed) == count:
            _held.files[file] = [changed[i] for i in range(count)]
        else:
            raise StaleRegistry(file)
    _held.serial = delta.serial
    by_uri = {file: entries for file, entries in _held.files.items() if file != delta.omit}
    return ToolRegistry(by_uri, delta.version, delta.samples, delta.live, {uri: delta.own_changes})


@dataclass(frozen=True)
class UnitsRequest:
    """Some units of a document whose first check the server's check thread runs meanwhile: their findings are
    the worker's share of it (see `share.WorkerShare`). The units travel read, with their dialects and their
    own JSON text, so the worker neither receives nor parses the file."""

    context: CheckContext
    """The check's context (with the file's facts), its registry left empty (`registry` has it)."""
    registry: RegistryDelta
    uri: str
    positions: list[int]
    units: list[Unit]


def units_in_worker(request: UnitsRequest) -> list[list[Finding]]:
    """Runs in the worker: every unit check on each unit (the findings, by the request's order)."""
    context = dataclasses.replace(request.context, registry=_registry(request.registry, request.uri))
    return [run_unit_checks(unit, context) for unit in request.units]


def check_in_worker(request: CheckRequest) -> CheckResult:
    """Runs in the worker: check the document's new text, reusing what the last check of it left."""
    context = dataclasses.replace(request.context, registry=_registry(request.registry, request.uri))
    text = request.text
    kept = _kept.pop(request.uri, None)
    if text.base is None:
        kept = _Kept(Document(request.uri, bytearray(text.data), None, request.encoding), text.token)
    elif kept is None or kept.token != text.base or kept.document.encoding != request.encoding:
        raise MissingText(request.uri)
    else:
        kept.document.replace_bytes(text.start, text.old_end, text.data)
        kept.document.reparse()
        kept.token = text.token
        if len(kept.document.data) != text.length:
            raise MissingText(request.uri)  # never expected: the server sends the whole text next time
    _kept[request.uri] = kept
    while len(_kept) > KEPT_DOCUMENTS:
        _kept.popitem(last=False)
    elsewhere: list[tuple[str, Pointer, str]] = []

    def later(uri: str, pointer: Pointer, target: str) -> Range:
        elsewhere.append((uri, pointer, target))
        marker = Position(-1, len(elsewhere) - 1)
        return Range(marker, marker)

    document = kept.document
    document.claimed_kind = request.claimed_kind
    report = check_document(document, context, request.kind_hint, kept.cache, later)
    stubs: list[UnitStub] = []
    values: dict[bytes, Any] = {}
    for unit, digest in zip(report.units, report.digests, strict=True):
        if digest not in request.have:
            values[digest] = unit.value
        stubs.append(
            UnitStub(
                unit.kind,
                unit.pointer,
                unit.dialect,
                unit.start,
                unit.end,
                unit.clean,
                unit.problem,
                unit.origin,
                unit.container_dialect,
                digest,
            )
        )
    from ..features.query import UnitIndex

    index = UnitIndex.from_split(report.split, None, [unit.dialect for unit in report.units])
    return CheckResult(
        report.kind,
        report.split.shape,
        report.diagnostics,
        stubs,
        index,
        values,
        elsewhere,
        report.facts,
        report.checked_units,
        report.split.broken,
    )


def text_for(document: Document, sent: tuple[tuple[int, int], int] | None) -> Text:
    """The document's text for the worker: a patch when the worker holds the text `sent` (its token and length)
    and the edits since are still logged, else all of it."""
    from .documents import touch  # here: the worker imports this module, and `documents` imports the LSP types

    token = (document.serial, document.edit_count)
    length = len(document.data)
    edits = document.edits_since(sent[0][1]) if sent is not None and sent[0][0] == document.serial else None
    if sent is None or edits is None:
        return Text(token, length, bytes(document.data))
    touched: tuple[int, int] | None = None
    for edit in edits:
        touched = touch(touched, edit)
    low, high = touched if touched is not None else (0, 0)
    old_high = high - (length - sent[1])  # what follows the span only moved
    return Text(token, length, bytes(document.data[low:high]), sent[0], low, old_high)


def adopt(
    result: CheckResult,
    values: dict[bytes, Any],
    resolve: Callable[[str, Pointer, str], Range | None],
) -> tuple[FileReport, UnitIndex, dict[bytes, Any]]:
    """In the server: the report, the unit index and the values by digest (the held ones, `values`, and the
    new ones) for a worker's result."""
    known = {stub.digest: result.values.get(stub.digest, values.get(stub.digest)) for stub in result.units}
    units = [
        Unit(
            stub.kind,
            stub.pointer,
            known[stub.digest],
            stub.dialect,
            stub.start,
            stub.end,
            stub.clean,
            stub.problem,
            stub.origin,
            stub.container_dialect,
        )
        for stub in result.units
    ]
    diagnostics = [_placed(d, result.elsewhere, resolve) for d in result.diagnostics]
    report = FileReport(
        result.kind,
        diagnostics,
        units,
        [],
        Split(result.kind, result.shape, [], None, broken=result.broken),
        result.checked_units,
        result.facts,
    )
    index = result.index
    index.values = [unit.value for unit in units]
    return report, index, known


def _placed(
    diagnostic: Diagnostic,
    elsewhere: list[tuple[str, Pointer, str]],
    resolve: Callable[[str, Pointer, str], Range | None],
) -> Diagnostic:
    if not any(r.range.start.line < 0 for r in diagnostic.related):
        return diagnostic
    related: list[RelatedLocation] = []
    for item in diagnostic.related:
        if item.range.start.line < 0:
            found = resolve(*elsewhere[item.range.start.character])
            if found is None:
                continue  # as a check in the server leaves out a location it cannot find
            item = RelatedLocation(item.uri, found, item.message)
        related.append(item)
    return Diagnostic(
        diagnostic.range,
        diagnostic.severity,
        diagnostic.code,
        diagnostic.message,
        diagnostic.finding,
        tuple(related),
        diagnostic.source,
    )


def _start_worker(parent: int) -> None:
    """The worker's first act: keep off the server's protocol stream (stdout, and stdin, which it never reads)
    and leave as soon as the server is gone, so no orphan holds the client's pipes open."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="toolsense-worker-watch", daemon=True).start()


def _ready() -> bool:
    """Submitted first: the worker has imported the engine and the rules once this returns."""
    from ..rules import CATALOG

    return bool(CATALOG.rules)


class WorkerPool:
    """One worker process, started on first use and restarted after a crash."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._warm: concurrent.futures.Future[bool] | None = None
        self.crashes = 0
        self._sent: dict[str, list[ToolInfo]] | None = None
        """What the worker holds of the registry: uri -> the entries as sent (None: nothing known, send it all)."""
        self._serial = 0

    def registry_delta(self, registry: ToolRegistry, uri: str, canonical: str) -> RegistryDelta:
        """The registry for a check of `uri` (`canonical`: its uri in the registry), with only the tools the
        worker does not hold yet."""
        omit = canonical if canonical == uri else None  # else its entries count as another file's (`elsewhere`)
        base, sent = (self._serial, self._sent) if self._sent is not None else (None, {})
        entries: dict[str, tuple[int, dict[int, ToolInfo]]] = {}
        for file, tools in registry.by_uri.items():
            old = sent.get(file)
            if file == omit or old is tools:
                continue
            if old is not None and len(old) == len(tools):
                # The feed keeps the entries of unchanged tools (the same objects): a keystroke sends one tool.
                pairs = enumerate(zip(old, tools, strict=True))
                changed = {i: new for i, (was, new) in pairs if was is not new and was != new}
            else:
                changed = dict(enumerate(tools))
            if changed or old is None:
                entries[file] = (len(tools), changed)
            sent[file] = tools
        for file in [file for file in sent if file not in registry.by_uri]:
            entries[file] = (0, {})
            del sent[file]
        self._serial += 1
        self._sent = sent
        own = registry.changes_by_uri.get(uri, 0)
        return RegistryDelta(
            base, self._serial, entries, omit, registry.version, own, dict(registry.samples), dict(registry.live)
        )

    @property
    def warming(self) -> concurrent.futures.Future[bool] | None:
        """Done when the worker has started and imported the engine (None: not started)."""
        return self._warm

    @property
    def ready(self) -> bool:
        """Started and done importing (a check sent now starts at once)."""
        warm = self._warm
        return warm is not None and warm.done() and not warm.cancelled() and warm.exception() is None

    def start(self) -> None:
        if self._pool is None:
            # spawn, not fork: forking a process that runs threads and an event loop is unsafe.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker, initargs=(os.getpid(),)
            )
            self._warm = self._pool.submit(_ready)

    def submit_if_running(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any] | None:
        """Submit from another thread than the event loop's: never starts or restarts the pool (None when it
        is not running)."""
        pool = self._pool
        if pool is None:
            return None
        try:
            return pool.submit(function, *args)
        except (BrokenProcessPool, RuntimeError):  # broken, or shut down meanwhile: the loop restarts it
            return None

    def submit(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        self.start()
        assert self._pool is not None
        try:
            return self._pool.submit(function, *args)
        except BrokenProcessPool:
            self.restart("the worker process had stopped")
            return self.submit(function, *args)

    def failed(self, error: BaseException) -> str | None:
        """What a job's error means: "resend" (the worker lacked a text or registry entries the server thought
        it held: the next request sends them all), "crashed" (the worker process died; it is started again for
        the next check), or None (the check itself failed)."""
        if isinstance(error, (StaleRegistry, MissingText)):
            self._sent = None
            return "resend"
        if isinstance(error, BrokenProcessPool):
            self.restart("the worker process stopped")
            return "crashed"
        return None

    def restart(self, why: str) -> None:
        self.crashes += 1
        log.error("%s; it is started again for the next check", why)
        self.shutdown(kill=True)

    def pids(self) -> list[int]:
        processes = getattr(self._pool, "_processes", None) or {}  # the executor keeps no public list
        return [pid for pid in processes if isinstance(pid, int)]

    def shutdown(self, kill: bool = False) -> None:
        pool, self._pool, self._warm = self._pool, None, None
        self._sent = None
        if pool is None:
            return
        if kill:
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["CheckRequest", "CheckResult", "UnitsRequest", "WorkerPool", "adopt", "check_in_worker", "units_in_worker"]
