"""LSP positions computed independently of toolsense's line table, the reference the tests compare against:
lines end at \\r\\n, \\r or \\n only, columns count UTF-16 code units."""

from __future__ import annotations

import re

_LSP_LINE = re.compile(r"\r\n|\r|\n")


def lsp_position(text: str, index: int) -> tuple[int, int]:
    """Line and UTF-16 character of a str index."""
    line, line_start = 0, 0
    for match in _LSP_LINE.finditer(text, 0, index):
        line, line_start = line + 1, match.end()
    return line, utf16_len(text[line_start:index])


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def locate(text: str, needle: str, occurrence: int = 0) -> int:
    """The str index of the occurrence-th `needle` in text."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    return index


def span(text: str, needle: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    """The range (start line, start char, end line, end char) of the occurrence-th `needle` in text."""
    start = locate(text, needle, occurrence)
    return (*lsp_position(text, start), *lsp_position(text, start + len(needle)))


def line_of(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, character) of the first character of the occurrence-th `needle`."""
    return lsp_position(text, locate(text, needle, occurrence))
