"""What the server remembers about each open document (one `OpenDocument` per uri, on the server instance)."""

from __future__ import annotations

import asyncio
import enum
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


class Phase(enum.Enum):
    """Where a document stands between its text and its diagnostics (the transitions: `lsp/scheduler.py`)."""

    OUTDATED = "outdated"
    """A full check is due and the keystroke fast path may not answer (just opened; settings, the registry or
    the whole text changed; a background result was dropped)."""
    EDITED = "edited"
    """Ranged edits since the last check moved the diagnostics with the text: the fast path may answer."""
    PROVISIONAL = "provisional"
    """The fast path answered the current version; a full check (file-level rules) is still due."""
    CURRENT = "current"
    """The diagnostics are a full check's of the current text and context."""
    FAILED = "failed"
    """The last background check failed: nothing more is tried until the text or the context changes."""
    RUNNING = "running"
    """A full check of the current text and context runs in the background."""
    RUNNING_EDITED = "running-edited"
    """A background check runs for an older version; only ranged edits came since (the fast path may answer)."""
    RUNNING_OUTDATED = "running-outdated"
    """A background check runs, and the settings changed or the text was replaced since."""
    RUNNING_STALE = "running-stale"
    """A background check of the current text runs, and the registry changed since: its result is adopted (its
    positions are right), and another full check follows."""


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
    report, the unit index for cursor queries, and where it stands in the scheduler (`phase`, `timer`, `job`).

    `version` is the client's latest; `checked_version` the one the current diagnostics were computed for.
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
    phase: Phase = Phase.OUTDATED
    moving: MovingDiagnostics = field(default_factory=lambda: MovingDiagnostics([], ""))
    """The current diagnostics, moved with every edit since they were computed (see `diagnostics`)."""
    timer: asyncio.TimerHandle | None = None
    """The pending debounced check, if any."""
    timer_reason: str = ""
    job: asyncio.Future[Any] | None = None
    """A background check of a snapshot of this document, while it runs."""
    crashed_version: int | None = None
    """The version whose check the worker process died on (it is tried once more, not again and again)."""
    worker_text: tuple[tuple[int, int], int] | None = None
    """The text the worker process holds of this document (its token and length), so only changes are sent."""
    unit_values: dict[bytes, Any] = field(default_factory=dict)
    """The units' values by content digest, as of the last background check (a worker sends only new ones)."""
    last_published: tuple[int | None, list[types.Diagnostic]] | None = None
    touched: tuple[int, int] | None = None
    """The bytes edits touched since diagnostics were last published (for the keystroke fast path)."""
    last_edit_at: float = 0.0
    edit_gap_ms: float = 1e9
    """Time between the last two edits: shorter than a check means an edit storm (see `scheduler.delay_ms`)."""
    edit_check_ms: float = 0.0
    """How long the last check after an edit took: the debounce is at least this long (see `scheduler.delay_ms`)."""
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

    @property
    def settled(self) -> bool:
        """False while only the fast path answered (a full check is due)."""
        return self.phase not in (Phase.PROVISIONAL, Phase.RUNNING_EDITED)

    def stale(self) -> bool:
        """Whether a check is still due (after a failed one, none is: it would fail again)."""
        if self.phase is Phase.FAILED:
            return False
        return self.phase is not Phase.CURRENT or self.checked_version != self.version
