"""What the server remembers about each open document (one `OpenDocument` per uri, on the server instance)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from ..document.document import Document
from ..document.lines import LineTable, Position, PositionEncoding, Range
from ..engine.catalog import UnitKind
from ..engine.checker import FileReport, UnitCache
from ..engine.context import ToolInfo
from ..features.query import UnitIndex
from .incremental import MovingDiagnostics


class RawText:
    """Text too large for live checking: bytes and a line table kept current under edits, no tree, no parse."""

    def __init__(self, data: bytearray, encoding: PositionEncoding) -> None:
        self.data = data
        self.lines = LineTable(data)
        self.encoding: PositionEncoding = encoding

    def apply_change(self, text: str, range_: Range | None) -> None:
        encoded = text.encode("utf-8", "surrogatepass")
        if range_ is None:
            self.data = bytearray(encoded)
            self.lines = LineTable(self.data)
            return
        start = self.lines.offset_at(self.data, range_.start, self.encoding)
        end = max(self.lines.offset_at(self.data, range_.end, self.encoding), start)
        self.lines.replace(self.data, start, end, encoded)
        self.data[start:end] = encoded

    def position_at(self, offset: int) -> Position:
        return self.lines.position_at(self.data, offset, self.encoding)


@dataclass(frozen=True)
class ToolMemo:
    """The registry entries of an open tool file, per unit, with the unit values (by identity) they came from."""

    uri: str
    values: list[Any]
    dialects: list[str | None]
    infos: list[list[ToolInfo]]


@dataclass
class OpenDocument:
    """One open document: its text (a positioned `Document`, or `RawText` when too large), the last check's
    report, the unit index for cursor queries, and the per-document debounce timer.

    `version` is the client's latest; `checked_version` the one the current diagnostics were computed for.
    `dirty` is set when something outside the text changed (settings, the registry) since the last check.
    """

    uri: str
    version: int | None
    language_id: str
    kind_hint: UnitKind | None
    document: Document | None
    raw: RawText | None = None
    cache: UnitCache = field(default_factory=UnitCache)
    index: UnitIndex | None = None
    report: FileReport | None = None
    checked_version: int | None = None
    serial: int = 0
    dirty: bool = True
    moving: MovingDiagnostics = field(default_factory=lambda: MovingDiagnostics([], ""))
    """The current diagnostics, moved with every edit since they were computed (see `diagnostics`)."""
    timer: asyncio.TimerHandle | None = None
    last_published: tuple[int | None, list[types.Diagnostic]] | None = None
    touched: tuple[int, int] | None = None
    """The bytes edits touched since diagnostics were last published (for the keystroke fast path)."""
    fast_ok: bool = False
    """Whether `diagnostics` were kept in step with every edit since the last full check (see `incremental`)."""
    settled: bool = True
    """False after a fast check: a full check (file-level rules) is still due."""
    inflight: asyncio.Future[Any] | None = None
    """A background check of a snapshot of this document, while it runs."""
    rerun: bool = False
    last_edit_at: float = 0.0
    edit_gap_ms: float = 1e9
    """Time between the last two edits: shorter than a check means an edit storm (see `schedule_check`)."""
    edit_check_ms: float = 0.0
    """How long the last check after an edit took: the debounce is at least this long (see `schedule_check`)."""
    tool_memo: ToolMemo = field(default_factory=lambda: ToolMemo("", [], [], []))
    """Registry entries per unit as of the last check, so a keystroke rebuilds only the changed unit's."""
    defines_tools: bool = False

    @property
    def diagnostics(self) -> list[types.Diagnostic]:
        """The last check's diagnostics, positions moved with the edits made since (the fast path's `shift`)."""
        return self.moving.current()

    @diagnostics.setter
    def diagnostics(self, diagnostics: list[types.Diagnostic]) -> None:
        self.moving = MovingDiagnostics(diagnostics, self.uri)

    @property
    def too_large(self) -> bool:
        return self.document is None

    @property
    def data(self) -> bytearray:
        if self.document is not None:
            return self.document.data
        assert self.raw is not None
        return self.raw.data

    @property
    def result_id(self) -> str:
        return f"{self.checked_version}:{self.serial}"

    def stale(self) -> bool:
        return self.dirty or not self.settled or self.checked_version != self.version
