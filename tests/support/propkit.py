"""Strategies and comparisons for the property-based tests (incremental = fresh; never crash, always in range).

Bounded by default; `TOOLSENSE_HYPOTHESIS_EXAMPLES=5000 pytest tests/property` runs longer (see
docs/hardening.md).
"""

from __future__ import annotations

import os
import re
from typing import Any

from hypothesis import strategies as st

from toolsense.document.document import Document
from toolsense.engine.checker import Diagnostic

EXAMPLES = int(os.environ.get("TOOLSENSE_HYPOTHESIS_EXAMPLES", "0")) or None

TOOL = (
    '{"name": "get_weather", "description": "Wetter ☀️ — 東京", "input_schema": {"type": "object", '
    '"properties": {"city": {"type": "string", "enum": ["Paris", "東京"]}}, "additionalProperties": false}, '
    '"strict": "true", "colour": 1}'
)
SEEDS = [
    TOOL,
    "[\r\n  " + TOOL + ",\r\n  // comment\r\n  " + TOOL.replace("get_weather", "b") + "\r\n]\r\n",
    '{"tools": [\n' + TOOL + ",\n" + TOOL.replace('"strict": "true", ', "") + "\n]}",
    '{"name": "Digest", "trigger_type": "manual", "actions": [{"id": "a", "tool": "t", "x": 1}]}',
    '{"a": "x\u2028y", "b": [1, 2, /* c */ 3]}\r{"c": "😀"}\n',
    "",
]

# Pieces that make JSON-ish text, with the characters that break naive position code.
TOKENS = [
    "{", "}", "[", "]", '"', ":", ",", " ", "\n", "\r", "\r\n", "\u2028", "\x85", "\f",
    "é", "😀", "東", "e\u0301", "a", "1", "-", ".", "true", "null", '"name"', '"input_schema"',
    "//", "/*", "*/", "\\", '\\"', "\t",
]  # fmt: skip

texts = st.one_of(
    # Realistic documents most of the time: broken multi-unit files are where tree-sitter's incremental error
    # recovery can differ from a fresh parse.
    st.sampled_from(SEEDS[:3]),
    st.sampled_from(SEEDS),
    st.lists(st.sampled_from(TOKENS), max_size=40).map("".join),
    st.tuples(st.sampled_from(SEEDS), st.lists(st.sampled_from(TOKENS), max_size=8).map("".join)).map(
        lambda pair: pair[0] + pair[1]
    ),
)
insertions = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=6).map("".join),
    st.sampled_from(["\r", "\n", "\r\n", "\u2028", "😀", '"', "}", "]", ",", ""]),
)
edits = st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 12), insertions, st.booleans()),
    min_size=1,
    max_size=12,
)


def reference_starts(data: bytes) -> list[int]:
    return [0] + [m.end() for m in re.finditer(rb"\r\n|\r|\n", data)]


def nodes(tree: Any) -> list[tuple[Any, ...]]:
    """Every node of a tree with its bytes and points (iterative walk)."""
    out: list[tuple[Any, ...]] = []
    cursor = tree.walk()
    while True:
        node = cursor.node
        out.append((node.type, node.start_byte, node.end_byte, tuple(node.start_point), tuple(node.end_point)))
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def diagnostic_rows(diagnostics: list[Any]) -> list[tuple[Any, ...]]:
    return [(d.range, d.severity, d.code, d.message) for d in diagnostics]


def assert_in_range(document: Document, diagnostics: list[Diagnostic]) -> None:
    """Every range runs forwards and lies inside the document: a real line, at most that line's width."""
    lines = document.lines
    for d in diagnostics:
        start, end = d.range.start, d.range.end
        assert (start.line, start.character) <= (end.line, end.character), d
        for position in (start, end):
            assert 0 <= position.line < lines.line_count, d
            _, line_end = lines.line_span(document.data, position.line)
            width = document.position_at(line_end).character
            assert 0 <= position.character <= width, (d, width)
