"""Diagnostics that move with the text: between two checks, every edit shifts the positions of the diagnostics
already published, so the keystroke fast path (`scheduler`) replaces only those of the unit it re-checked and
keeps the others where their text went.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from lsprotocol import types

from ..document.lines import PositionEncoding


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


__all__ = ["MovingDiagnostics"]
