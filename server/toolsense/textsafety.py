"""Text from files shown safely: every output format and every diagnostic message goes through `escape_controls`.

A tool name, a key, a path or a server's stderr is written by someone else. Printed raw, a newline in it starts
a line of its own (`::error …` is a GitHub Actions workflow command, `::stop-commands::` turns the annotations
off), ESC sequences drive the terminal (erase lines, print a fake "no problems"), and invisible characters (Unicode
tag characters, zero-width characters, bidi overrides, variation selectors) hide or reorder text a reviewer
reads. Each such character is shown as `<U+XXXX>` instead, so the output has one line per diagnostic and shows
exactly what the file holds.
"""

from __future__ import annotations

import io
import re
from typing import TextIO

_UNSAFE = re.compile(
    "["
    "\x00-\x1f\x7f-\x9f"  # C0 and C1 controls, DEL (newline, carriage return, tab, ESC, NEL…)
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"  # soft hyphen, grapheme joiner, fillers, Mongolian
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f"  # zero-width, LRM/RLM, line/paragraph separators, bidi, invisibles
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"  # Hangul filler, variation selectors, BOM, annotations
    "\ud800-\udfff"  # lone surrogates (from JSON `\\ud800`): not even encodable
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"  # format controls in other scripts
    "\U000e0000-\U000e0fff"  # tag characters and variation selectors 17-256
    "]"
)


def _shown(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"


def escape_controls(text: str) -> str:
    """`text` with every control, invisible or bidi character written as `<U+XXXX>` (the rest unchanged)."""
    return _UNSAFE.sub(_shown, text)


class EscapedLines(io.TextIOBase):
    """A stream for messages that quote file text (the CLI's stderr, which GitHub Actions also reads for workflow
    commands): each write is escaped but for a final newline, so a message stays one line whatever it quotes."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self._stream = stream

    def write(self, text: str) -> int:
        body = text[:-1] if text.endswith("\n") else text
        self._stream.write(escape_controls(body) + text[len(body) :])
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()
