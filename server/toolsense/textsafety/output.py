"""The **output** policy: everything is escaped. Every output format and every diagnostic message the CLI prints
goes through `escape_controls`, which shows each control, invisible or bidi character, legitimate or not.

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

from .invisible import CONTROL_CHARS, INVISIBLE_CHARS

_UNSAFE = re.compile(
    f"[{CONTROL_CHARS}{INVISIBLE_CHARS}"
    # and, escaped in output though TS290's list leaves them out: the interlinear annotation characters and
    # the Egyptian hieroglyph format controls
    "\ufff9-\ufffb\U00013430-\U0001343f]"
)


def _shown(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group()):04X}>"


_LEGACY_COMMAND = "##["
"""The GitHub runner still reads the legacy `##[error]…`, `##[add-mask]…`, `##[stop-commands]…` form anywhere in
a line (not only at its start, as `::error`): shown as `#<U+0023>[`, which it does not read."""

_LINE_COMMAND = re.compile(r"^(\s*)::")
"""`::` after nothing but white space: a workflow command once the runner trims the line's start."""


def escape_controls(text: str) -> str:
    """`text` with every control, invisible or bidi character written as `<U+XXXX>` (the rest unchanged), and
    no legacy workflow command (`##[`)."""
    return _UNSAFE.sub(_shown, text).replace(_LEGACY_COMMAND, "#<U+0023>[")


def escape_line(text: str, terminator: str = "") -> str:
    """A line of a file printed as it is (`check --diff`): `escape_controls` but for its tabs (indentation), a
    `::` at its start (after white space) as `<U+003A>:`, and its line break as a plain newline (a lone CR, which
    would start a line of its own on a terminal or for the runner, is shown as `<U+000D>`; CRLF is kept)."""
    body = "\t".join(escape_controls(part) for part in text.split("\t"))
    body = _LINE_COMMAND.sub(lambda match: f"{match.group(1)}<U+003A>:", body)
    if terminator == "\r":
        return body + "<U+000D>\n"
    return body + terminator


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
