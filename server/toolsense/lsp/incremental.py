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
from typing import TYPE_CHECKING

import attrs
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


def _moved(
    position: types.Position, start: types.Position, end: types.Position, lines: int, tail: int
) -> types.Position:
    """Where a position goes when [start, end) is replaced by text of `lines` line breaks whose last line is
    `tail` units long (the whole text, when it has no line break)."""
    if (position.line, position.character) <= (start.line, start.character):
        return position
    if (position.line, position.character) < (end.line, end.character):
        return start  # inside the replaced text: to its start
    if position.line == end.line:
        character = (tail if lines else start.character + tail) + position.character - end.character
        return types.Position(start.line + lines, character)
    return types.Position(position.line + lines - (end.line - start.line), position.character)


def shift(
    diagnostics: list[types.Diagnostic],
    uri: str,
    edit: types.Range,
    text: str,
    encoding: PositionEncoding,
    before: bytes = b"",
    after: bytes = b"",
) -> list[types.Diagnostic]:
    """The diagnostics of a document after one incremental change, positions moved with the text.

    `before` and `after` are the bytes just before and just after the replaced range (in the text before the
    edit): a `\r` and a `\n` that the edit brings together count as one line break, not two.
    """
    start, end = edit.start, edit.end
    if after == b"\n" and (text.endswith("\r") or (not text and before == b"\r")):
        # The inserted (or, after a deletion, the preceding) \r and the \n after the range become one CRLF:
        # the same lines as when that \n was replaced too.
        end = types.Position(end.line + 1, 0)
    if text.startswith("\n") and before == b"\r":
        # A lone \r and the inserted \n become one CRLF: that \n adds no line.
        text = text[1:]
    breaks = _line_breaks(text)
    lines = len(breaks)
    tail = _units(text[breaks[-1] :] if breaks else text, encoding)

    def move(range_: types.Range) -> types.Range:
        return types.Range(_moved(range_.start, start, end, lines, tail), _moved(range_.end, start, end, lines, tail))

    moved = []
    for diagnostic in diagnostics:
        related = diagnostic.related_information
        if related:
            related = [
                attrs.evolve(r, location=types.Location(r.location.uri, move(r.location.range)))
                if r.location.uri == uri
                else r
                for r in related
            ]
        moved.append(attrs.evolve(diagnostic, range=move(diagnostic.range), related_information=related))
    return moved


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
    if document.root.has_error:
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


__all__ = ["SETTLE_MS", "fast_check", "shift"]
