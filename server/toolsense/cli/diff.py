"""`toolsense check --diff`: a unified diff of what `--fix` would write."""

from __future__ import annotations

import bisect
import difflib
import itertools
import re
from collections.abc import Sequence

from ..fixes import TextEdit
from ..textsafety import escape_line

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def unified_diff(old: bytes, new: bytes, name: str, edits: Sequence[TextEdit] | None = None) -> str:
    """A unified diff (`--- a/name`, `+++ b/name`) that marks a missing final newline like git does.

    With the edits that turn old into new, only the lines around them are compared (fast on large files).
    """
    old_lines = [line.decode("utf-8", "surrogateescape") for line in _split_keep(old)]
    new_lines = [line.decode("utf-8", "surrogateescape") for line in _split_keep(new)]
    windows = [(0, len(old_lines), 0, len(new_lines))] if edits is None else _windows(old, new, edits)
    out = [f"--- a/{name}\n", f"+++ b/{name}\n"] if windows else []
    changed = False
    for a1, a2, b1, b2 in windows:
        hunk = difflib.unified_diff(old_lines[a1:a2], new_lines[b1:b2], lineterm="\n")
        for line in itertools.islice(hunk, 2, None):
            changed = True
            if line.startswith("@@"):
                match = re.match(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", line)
                assert match is not None
                old_at = int(match.group(1)) + a1  # the window's line 1 is line a1 + 1
                new_at = int(match.group(3)) + b1
                line = f"@@ -{old_at}{match.group(2) or ''} +{new_at}{match.group(4) or ''} @@\n"
            out.append(_shown(line))
    return "".join(out) if changed else ""


def _shown(line: str) -> str:
    """A diff line as printed: its text escaped as every output is (`escape_line`: no control, invisible
    character or workflow command reaches the terminal or the CI log), a missing final newline marked."""
    if line.startswith("@@"):
        return line
    body = line.rstrip("\r\n")  # one line break at most: the lines were split at each
    ending = line[len(body) :]
    if not ending:
        return line[0] + escape_line(line[1:], "\n") + "\\ No newline at end of file\n"
    return line[0] + escape_line(body[1:], ending)


def _windows(old: bytes, new: bytes, edits: Sequence[TextEdit]) -> list[tuple[int, int, int, int]]:
    """Line windows (old a1..a2, new b1..b2) around groups of edits, with room for three lines of context."""
    old_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(old)]
    new_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(new)]
    old_count = len(_split_keep(old))
    new_count = len(_split_keep(new))

    def line_of(offset: int) -> int:
        return bisect.bisect_right(old_starts, offset) - 1

    def offset_of(line: int) -> int:
        return old_starts[line] if line < len(old_starts) else len(old)

    groups: list[list[int]] = []  # [a1, a2, byte delta before the group, byte delta of the group]
    delta = 0
    for edit in sorted(edits):
        first, last = line_of(edit.start), line_of(max(edit.end - 1, edit.start)) + 1
        grown = len(edit.encoded) - (edit.end - edit.start)
        a1, a2 = max(first - 4, 0), min(last + 4, old_count)
        if groups and a1 <= groups[-1][1]:
            groups[-1][1] = max(groups[-1][1], a2)
            groups[-1][3] += grown
        else:
            groups.append([a1, a2, delta, grown])
        delta += grown
    windows: list[tuple[int, int, int, int]] = []
    for a1, a2, before, grown in groups:
        start = offset_of(a1) + before
        end = offset_of(a2) + before + grown
        b1 = bisect.bisect_right(new_starts, start) - 1
        b2 = len(new_starts) if end >= len(new) else bisect.bisect_right(new_starts, end) - 1
        windows.append((a1, a2, b1, min(b2, new_count)))
    return windows


def _split_keep(data: bytes) -> list[bytes]:
    lines: list[bytes] = []
    position = 0
    for match in _LINE_BREAK.finditer(data):
        lines.append(data[position : match.end()])
        position = match.end()
    if position < len(data):
        lines.append(data[position:])
    return lines
