"""How a file is laid out, read so inserted text looks like its neighbours: lines, line endings, the
indentation step, the spacing around `:` and `,`."""

from __future__ import annotations

import itertools
import re
from collections import Counter

from tree_sitter import Node

from ..document.document import Document
from ..document.jsontree import pairs

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def line_start(document: Document, offset: int) -> int:
    return int(document.lines.starts[document.lines.line_of(offset)])


def line_content_end(document: Document, offset: int) -> int:
    """End of the line's content (before its terminator) for the line holding offset."""
    return document.lines.line_span(document.data, document.lines.line_of(offset))[1]


def next_line_start(document: Document, offset: int) -> int:
    """Start of the line after the one holding offset (the end of the text on the last line)."""
    line = document.lines.line_of(offset)
    if line + 1 < document.lines.line_count:
        return int(document.lines.starts[line + 1])
    return len(document.data)


def line_indent(document: Document, offset: int) -> str:
    start = line_start(document, offset)
    end = start
    data = document.data
    while end < len(data) and data[end] in b" \t":
        end += 1
    return data[start:end].decode("ascii")


def only_blanks(raw: bytes | bytearray) -> bool:
    return raw.strip(b" \t") == b""


def blank_or_line_comment(raw: bytes | bytearray) -> bool:
    """Only spaces/tabs, possibly followed by a `//` comment (which then belongs to the member before it)."""
    rest = raw.lstrip(b" \t")
    return rest == b"" or rest.startswith(b"//")


def same_line(document: Document, a: int, b: int) -> bool:
    return document.lines.line_of(a) == document.lines.line_of(b)


def detect_eol(document: Document, near: int | None = None) -> str:
    """The line ending of the line at `near` (else the file's first one; `\\n` for a one-line file)."""
    data = document.data
    if near is not None:
        line = document.lines.line_of(near)
        if line + 1 < document.lines.line_count:
            content_end = document.lines.line_span(data, line)[1]
            return data[content_end : int(document.lines.starts[line + 1])].decode("ascii")
    match = _LINE_BREAK.search(data, 0, min(len(data), 1 << 20))
    return match.group().decode("ascii") if match else "\n"


def detect_indent_unit(document: Document) -> str:
    """The file's indentation step: a tab, or the most common increase in leading spaces (default two)."""
    sample = bytes(document.data[: 1 << 16])
    lines = [line for line in _LINE_BREAK.split(sample) if line.strip()]
    tabs = sum(1 for line in lines if line.startswith(b"\t"))
    spaces = sum(1 for line in lines if line.startswith(b" "))
    if tabs > spaces:
        return "\t"
    steps: Counter[int] = Counter()
    previous = 0
    for line in lines:
        width = len(line) - len(line.lstrip(b" "))
        if width > previous:
            steps[width - previous] += 1
        previous = width
    if not steps:
        return "  "
    step = min(steps.most_common(1)[0][0], 8)
    return " " * step


def reindent(document: Document, at: int, text: str) -> str:
    """A multi-line replacement value: its later lines indented like the line it starts on, file line endings."""
    if "\n" not in text and "\r" not in text:
        return text
    lines = re.split(r"\r\n|\r|\n", text)
    indent = line_indent(document, at)
    eol = detect_eol(document, at)
    return eol.join([lines[0], *(indent + line if line else line for line in lines[1:])])


def colon_style(document: Document, obj: Node) -> str:
    """How the file writes `key: value` (`": "` or `":"`), from the object's members or its own pair."""
    candidates = list(pairs(obj))[:3]
    if obj.parent is not None and obj.parent.type == "pair":
        candidates.append(obj.parent)
    for pair in candidates:
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is None or value is None:
            continue
        between = bytes(document.data[key.end_byte : value.start_byte])
        if b"\n" not in between and b"\r" not in between and b"/" not in between and between.strip() == b":":
            return between.decode("ascii")
    return ": "


def comma_style(document: Document, items: list[Node], colon: str) -> str:
    for first, second in itertools.pairwise(items):
        between = bytes(document.data[first.end_byte : second.start_byte])
        if b"\n" not in between and b"\r" not in between and between.strip() == b",":
            return between.lstrip(b" \t").decode("ascii")
    return ", " if colon.endswith(" ") else ","


def expand_empty(document: Document, obj: Node) -> bool:
    """Whether `{}` becomes a multi-line object: yes when what holds it is laid out on several lines."""
    parent = obj.parent
    holder = parent.parent if parent is not None and parent.type == "pair" else parent
    if holder is None or holder.type == "document":
        return True
    return not same_line(document, holder.start_byte, max(holder.end_byte - 1, holder.start_byte))
