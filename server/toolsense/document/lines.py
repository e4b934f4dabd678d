"""An LSP line table over UTF-8 bytes.

Lines end only at `\\n`, `\\r\\n` and `\\r` (LSP's rule); U+2028, `\\f` and `\\x85` are ordinary characters here,
unlike `str.splitlines`. Line starts are byte offsets in a numpy array so that an edit shifts the tail in one
vectorised step instead of a Python loop over hundreds of thousands of lines. A small table is a plain list (the
same offsets), so a command that places a few diagnostics in a small file does not import numpy.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PositionEncoding = Literal["utf-8", "utf-16", "utf-32"]

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_VECTOR_BYTES = 1 << 16
"""Text from this size on gets a numpy table; smaller text a list of line starts..."""
_VECTOR_LINES = 4096
"""...until an edit makes it this long: then shifting the tail after each edit would cost a Python loop."""


@dataclass(frozen=True, order=True)
class Position:
    """Zero-based line and character, the character counted in the negotiated encoding."""

    line: int
    character: int


@dataclass(frozen=True)
class Range:
    start: Position
    end: Position

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


def _line_starts(data: bytes | bytearray | memoryview, base: int = 0) -> list[int]:
    return [base + match.end() for match in _LINE_BREAK.finditer(data)]


def _all_line_starts(data: bytes | bytearray) -> npt.NDArray[np.int64]:
    """Every line start of data, vectorised: after each `\\n`, and after each `\\r` not followed by `\\n`."""
    import numpy as np

    size = len(data)
    if size == 0:
        return np.zeros(1, dtype=np.int64)
    raw = np.frombuffer(bytes(data) if isinstance(data, bytearray) else data, dtype=np.uint8)
    after_lf = np.flatnonzero(raw == 0x0A) + 1
    cr = np.flatnonzero(raw == 0x0D)
    lone = cr[(cr + 1 >= size) | (raw[np.minimum(cr + 1, size - 1)] != 0x0A)]
    starts = np.concatenate((np.zeros(1, dtype=np.int64), after_lf.astype(np.int64), lone.astype(np.int64) + 1))
    starts.sort(kind="stable")
    return starts


def _units(text: str, encoding: PositionEncoding) -> int:
    """Length of text in the given encoding's code units."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class LineTable:
    """Byte offsets of line starts, kept up to date under edits."""

    def __init__(self, data: bytes | bytearray) -> None:
        self.starts: list[int] | npt.NDArray[np.int64] = (
            _all_line_starts(data) if len(data) >= _VECTOR_BYTES else [0, *_line_starts(data)]
        )

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        starts = self.starts
        if isinstance(starts, list):
            return bisect.bisect_right(starts, offset) - 1
        import numpy as np

        return int(np.searchsorted(starts, offset, side="right")) - 1

    def line_span(self, data: bytes | bytearray, line: int) -> tuple[int, int]:
        """Byte span of the line's content, without its terminator."""
        start = int(self.starts[line])
        if line + 1 >= self.line_count:
            return start, len(data)
        end = int(self.starts[line + 1])
        if data[end - 1] == 0x0A:
            end -= 1
        if end > start and data[end - 1] == 0x0D:
            end -= 1
        return start, end

    def replace(self, old_data: bytes | bytearray, start: int, end: int, new_text: bytes) -> None:
        """Update the table for old_data[start:end] = new_text (old_data is the text before the edit)."""
        starts = self.starts
        if isinstance(starts, list) and len(starts) >= _VECTOR_LINES:
            import numpy as np

            starts = self.starts = np.array(starts, dtype=np.int64)
        delta = len(new_text) - (end - start)
        first = max(self.line_of(start) - 1, 0)
        last = self.line_of(end) + 2
        window_start = int(starts[first])
        has_tail = last < len(starts)
        window_end = int(starts[last]) if has_tail else len(old_data)
        window = bytes(old_data[window_start:start]) + new_text + bytes(old_data[end:window_end])
        middle = [window_start, *_line_starts(window, window_start)]
        if has_tail:
            limit = window_end + delta
            middle = [s for s in middle if s < limit]
        if isinstance(starts, list):
            tail = [s + delta for s in starts[last:]] if has_tail else []
            self.starts = [*starts[:first], *middle, *tail]
            return
        import numpy as np

        shifted = starts[last:] + delta if has_tail else starts[:0]
        self.starts = np.concatenate((starts[:first], np.array(middle, dtype=np.int64), shifted))

    def offset_at(self, data: bytes | bytearray, position: Position, encoding: PositionEncoding) -> int:
        """Byte offset of an LSP position; out-of-range positions are clamped as LSP asks."""
        if position.line < 0:
            return 0
        if position.line >= self.line_count:
            return len(data)
        start, end = self.line_span(data, position.line)
        character = max(position.character, 0)
        chunk = bytes(data[start:end])
        if chunk.isascii():
            return start + min(character, end - start)
        if encoding == "utf-8":
            offset = start + min(character, end - start)
            while offset < end and data[offset] & 0xC0 == 0x80:
                # Inside a multi-byte character: to its end, as a UTF-16 position inside a surrogate pair goes
                # (an edit never splits a character, so the text stays the client's).
                offset += 1
            return offset
        text = chunk.decode("utf-8", "replace")
        units = 0
        consumed = 0
        for ch in text:
            if units >= character:
                break
            units += 2 if encoding == "utf-16" and ord(ch) > 0xFFFF else 1
            consumed += len(ch.encode("utf-8", "surrogatepass"))
        return start + min(consumed, end - start)

    def position_at(self, data: bytes | bytearray, offset: int, encoding: PositionEncoding) -> Position:
        offset = min(max(offset, 0), len(data))
        return self._position(data, offset, self.line_of(offset), encoding)

    def positions_at(self, data: bytes | bytearray, offsets: list[int], encoding: PositionEncoding) -> list[Position]:
        """Many positions at once: one vectorised line lookup (a check places thousands of diagnostics)."""
        if not offsets:
            return []
        if isinstance(self.starts, list):
            return [self.position_at(data, offset, encoding) for offset in offsets]
        import numpy as np

        clamped = np.clip(np.asarray(offsets, dtype=np.int64), 0, len(data))
        lines = np.searchsorted(self.starts, clamped, side="right") - 1
        return [
            self._position(data, offset, line, encoding)
            for offset, line in zip(clamped.tolist(), lines.tolist(), strict=True)
        ]

    def _position(self, data: bytes | bytearray, offset: int, line: int, encoding: PositionEncoding) -> Position:
        start = int(self.starts[line])
        if offset > start and data[offset - 1] == 0x0D:
            # Between the \r and the \n of a CRLF: no LSP position is there; use the end of the line's text.
            offset -= 1
        chunk = bytes(data[start:offset])
        if chunk.isascii() or encoding == "utf-8":
            return Position(line, len(chunk))
        return Position(line, _units(chunk.decode("utf-8", "replace"), encoding))
