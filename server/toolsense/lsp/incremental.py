"""The keystroke fast path: re-check only the unit an edit touched and publish at once, O(unit) not O(file).

A full check (`engine.checker.check_document`) reuses cached unit results, but still walks every unit of the
file several times in Python (split, reads, dialects, placement, file-level rules): at 5,000 tools that is far
more than a keystroke may cost. So, for a push client, when every edit since the last publish lies inside one
unit of a file without syntax errors, the server:

1. checks that unit alone — its text as a document of its own, with the same context (settings, registry,
   dialect) — and moves its diagnostics to where the unit is;
2. keeps every other diagnostic, whose positions were moved with each edit as it arrived (`shift`);
3. publishes the result for the current version, and schedules a full check ("settle") once typing pauses,
   which brings file-level findings (duplicate names across units, tool counts) up to date.

The unit-level diagnostics published this way are those a full check gives (tests compare them); findings that
look across units lag behind by the settle delay. Pull clients, files with syntax errors and edits spanning
units take the full check.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np
import numpy.typing as npt
from lsprotocol import types

from ..document.document import Document
from ..document.lines import Position, PositionEncoding
from ..engine.checker import UnitCache, check_document
from ..engine.units import Unit
from ..engine.workspace import tool_infos
from .convert import to_lsp_diagnostic

if TYPE_CHECKING:
    from .server import ToolsenseServer
    from .state import OpenDocument

log = logging.getLogger(__name__)

SETTLE_MS = 300
"""The full check follows the last fast check after at least this long (or the debounce, if longer)."""
MAX_FAST_UNIT_BYTES = 256 * 1024
"""A unit larger than this is not worth a separate document: the full check reuses the others' results."""


def _units(text: str, encoding: PositionEncoding) -> int:
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _line_breaks(text: str) -> list[int]:
    """Offsets (in characters) just after each LSP line break in text."""
    breaks = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\r":
            i += 2 if text[i + 1 : i + 2] == "\n" else 1
            breaks.append(i)
            continue
        if char == "\n":
            breaks.append(i + 1)
        i += 1
    return breaks


class MovingDiagnostics:
    """A document's diagnostics, kept in step with its edits between checks.

    Every position (ranges and same-document related locations) lives in two numpy arrays; an edit moves them
    all in a few vectorised steps, whatever their number, and the `Diagnostic` objects are rebuilt only when
    read (`current()`), once for a burst of edits, and only those that moved. A file with 60,000 diagnostics
    thus costs each keystroke a millisecond instead of seconds of object copies.
    """

    def __init__(self, diagnostics: list[types.Diagnostic], uri: str) -> None:
        self._diagnostics = diagnostics
        self._uri = uri
        self._lines: npt.NDArray[np.int64] | None = None
        self._chars: npt.NDArray[np.int64] | None = None
        self._moved = False

    def current(self) -> list[types.Diagnostic]:
        if self._moved:
            self._diagnostics = self._rebuild()
            self._moved = False
        return self._diagnostics

    def _positions(self) -> list[types.Position]:
        """Every position, in a fixed order: each diagnostic's range, then its related locations in this file."""
        out: list[types.Position] = []
        uri = self._uri
        for diagnostic in self._diagnostics:
            out += (diagnostic.range.start, diagnostic.range.end)
            for related in diagnostic.related_information or ():
                if related.location.uri == uri:
                    out += (related.location.range.start, related.location.range.end)
        return out

    def shift(
        self,
        edit: types.Range,
        text: str,
        encoding: PositionEncoding,
        before: bytes = b"",
        after: bytes = b"",
    ) -> None:
        """Move every position for one incremental change.

        `before` and `after` are the bytes just before and just after the replaced range (in the text before the
        edit): a `\r` and a `\n` that the edit brings together count as one line break, not two.
        """
        if not self._diagnostics:
            return
        if self._lines is None or self._chars is None:
            positions = self._positions()
            self._lines = np.fromiter((p.line for p in positions), dtype=np.int64, count=len(positions))
            self._chars = np.fromiter((p.character for p in positions), dtype=np.int64, count=len(positions))
        start_line, start_char = edit.start.line, edit.start.character
        end_line, end_char = edit.end.line, edit.end.character
        if after == b"\n" and (text.endswith("\r") or (not text and before == b"\r")):
            # The inserted (or, after a deletion, the preceding) \r and the \n after the range become one CRLF:
            # the same lines as when that \n was replaced too.
            end_line, end_char = end_line + 1, 0
        if text.startswith("\n") and before == b"\r":
            # A lone \r and the inserted \n become one CRLF: that \n adds no line.
            text = text[1:]
        breaks = _line_breaks(text)
        added = len(breaks)
        tail = _units(text[breaks[-1] :] if breaks else text, encoding)
        lines, chars = self._lines, self._chars
        after_start = (lines > start_line) | ((lines == start_line) & (chars > start_char))
        before_end = (lines < end_line) | ((lines == end_line) & (chars < end_char))
        inside = after_start & before_end
        on_end_line = after_start & ~before_end & (lines == end_line)
        below = after_start & ~before_end & (lines > end_line)
        if not (inside.any() or on_end_line.any() or below.any()):
            return
        first_char = tail if added else start_char + tail
        new_lines = np.where(inside, start_line, lines)
        new_lines = np.where(on_end_line, start_line + added, new_lines)
        new_lines = np.where(below, lines + added - (end_line - start_line), new_lines)
        new_chars = np.where(inside, start_char, chars)
        new_chars = np.where(on_end_line, first_char + chars - end_char, new_chars)
        self._lines, self._chars = new_lines, new_chars
        self._moved = True

    def _rebuild(self) -> list[types.Diagnostic]:
        """Diagnostic objects for the moved positions (the unmoved ones are reused as they are)."""
        assert self._lines is not None and self._chars is not None
        lines, chars = self._lines.tolist(), self._chars.tolist()
        uri = self._uri
        out: list[types.Diagnostic] = []
        at = 0

        def range_at(old: types.Range) -> types.Range:
            nonlocal at
            a_line, a_char, b_line, b_char = lines[at], chars[at], lines[at + 1], chars[at + 1]
            at += 2
            if (a_line, a_char, b_line, b_char) == (
                old.start.line,
                old.start.character,
                old.end.line,
                old.end.character,
            ):
                return old
            return types.Range(_position(a_line, a_char), _position(b_line, b_char))

        for diagnostic in self._diagnostics:
            range_ = range_at(diagnostic.range)
            related = diagnostic.related_information
            new_related = related
            if related:
                new_related = []
                for item in related:
                    if item.location.uri == uri:
                        moved_range = range_at(item.location.range)
                        if moved_range is not item.location.range:
                            item = _replace(item, location=types.Location(uri, moved_range))
                    new_related.append(item)
                if all(a is b for a, b in zip(new_related, related, strict=True)):
                    new_related = related
            if range_ is diagnostic.range and new_related is related:
                out.append(diagnostic)
            else:
                out.append(_replace(diagnostic, range=range_, related_information=new_related))
        return out


def _position(line: int, character: int) -> types.Position:
    """A Position without attrs' validators (non-negative by construction: they are moved valid positions)."""
    position = object.__new__(types.Position)
    object.__setattr__(position, "line", line)
    object.__setattr__(position, "character", character)
    return position


_T = TypeVar("_T")


def _replace(value: _T, **changes: Any) -> _T:
    """A shallow copy of an lsprotocol object with some fields replaced, without re-running its validators
    (`attrs.evolve` does, and costs ~50x more: a keystroke may move tens of thousands of diagnostics)."""
    copy = object.__new__(type(value))
    for field in type(value).__attrs_attrs__:  # type: ignore[attr-defined]
        object.__setattr__(copy, field.name, changes.get(field.name, getattr(value, field.name)))
    return copy


def fast_check(server: ToolsenseServer, od: OpenDocument) -> bool:
    """Check only the unit the edits since the last publish touched; False when the full check must run."""
    document = od.document
    index = od.index
    touched = od.touched
    if (
        server.caps.pull_diagnostics
        or document is None
        or index is None
        or touched is None
        or od.report is None
        or od.dirty
        or not od.fast_ok
        or od.report.kind is None
        or len(index.ends) != len(index.starts)
    ):
        return False
    if document.has_error:
        return False
    position = index.find(touched[0])
    if position < 0:
        return False
    start, end = index.starts[position], index.ends[position]
    if not (start < touched[0] and touched[1] <= end) or end - start > MAX_FAST_UNIT_BYTES:
        return False
    unit_text = bytes(document.data[start:end])
    unit_document = Document(od.uri, bytearray(unit_text), od.version, server.encoding)
    if unit_document.root.has_error:
        return False
    kind = od.report.kind
    units = od.report.units
    if position >= len(units) or units[position].origin != "file" or units[position].kind != kind:
        return False  # a unit its container explains (a request's, a map's, a record's): it is not checked alone
    dialect = index.dialects[position]
    # A unit below the root sees what the file says about it (its MCP version, a request body) as a full check does.
    facts = od.report.facts if index.pointers[position] else None
    context = server.context_for(od.uri)
    report = check_document(unit_document, context, kind, UnitCache(), server.resolve_range, facts)
    if len(report.units) != 1 or report.units[0].dialect != dialect:
        return False  # e.g. a unit of no telling dialect, which takes the file's dominant one: full check
    unit = report.units[0]
    base = document.position_at(start)
    related = server.caps.related_information
    fresh = [_placed(to_lsp_diagnostic(d, related, server.client_uri), od.uri, base) for d in report.diagnostics]
    unit_range = types.Range(_lsp(base), _lsp(document.position_at(end)))
    merged = [d for d in od.diagnostics if not _inside(d.range, unit_range)] + fresh
    merged.sort(key=lambda d: (d.range.start.line, d.range.start.character, str(d.code)))
    od.diagnostics = merged
    index.values[position] = unit.value
    _feed_unit(server, od, position, dataclasses.replace(unit, pointer=index.pointers[position]))
    return True


def _lsp(position: Position) -> types.Position:
    return types.Position(position.line, position.character)


def _inside(range_: types.Range, outer: types.Range) -> bool:
    start = (range_.start.line, range_.start.character)
    end = (range_.end.line, range_.end.character)
    return (outer.start.line, outer.start.character) <= start and end <= (outer.end.line, outer.end.character)


def _placed(diagnostic: types.Diagnostic, uri: str, base: Position) -> types.Diagnostic:
    """A diagnostic of the unit's own document, moved to where the unit starts in the file."""
    line, character = base.line, base.character

    def move(position: types.Position) -> types.Position:
        return types.Position(position.line + line, position.character + (character if position.line == 0 else 0))

    def move_range(range_: types.Range) -> types.Range:
        return types.Range(move(range_.start), move(range_.end))

    related = diagnostic.related_information
    if related:
        related = [
            attrs.evolve(r, location=types.Location(r.location.uri, move_range(r.location.range)))
            if r.location.uri == uri
            else r
            for r in related
        ]
    return attrs.evolve(diagnostic, range=move_range(diagnostic.range), related_information=related)


def _feed_unit(server: ToolsenseServer, od: OpenDocument, position: int, unit: Unit) -> None:
    """The registry entries of the re-checked unit (the others' are unchanged)."""
    memo = od.tool_memo
    if od.report is None or od.report.kind != "tool" or position >= len(memo.infos):
        return
    uri = server.canonical(od.uri)
    infos = tool_infos(uri, [unit])
    if infos == memo.infos[position]:
        return
    memo.infos[position] = infos
    memo.values[position] = unit.value
    flat = [info for entries in memo.infos for info in entries]
    if server.registry.set_file(uri, flat):
        server.dependents_changed(origin=od.uri)


__all__ = ["SETTLE_MS", "MovingDiagnostics", "fast_check"]
