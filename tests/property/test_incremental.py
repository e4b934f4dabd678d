"""Incremental = fresh.

For any JSON-ish text and any sequence of LSP incremental edits — across CRLF pairs, next to multi-byte
characters, inserting and removing U+2028 and lone \\r — the document after the edits (bytes, line table,
tree, tree-sitter points) and its diagnostics (checked with a cache carried through the edits) equal those of a
document opened fresh on the final text.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import lsp_position
from propkit import EXAMPLES, diagnostic_rows, edits, nodes, reference_starts, texts

from toolsense.document.document import Document
from toolsense.document.lines import Position, Range
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.rules import CATALOG
from toolsense.settings import Settings

CTX = CheckContext(Settings(), ToolRegistry(), "file:///w/x.tools.json", catalog=CATALOG)
SETTINGS = settings(
    max_examples=EXAMPLES or 250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _snap(text: str, index: int) -> int:
    """LSP positions cannot point between \\r and \\n: move such an index before the \\r."""
    if 0 < index < len(text) and text[index - 1] == "\r" and text[index] == "\n":
        return index - 1
    return index


@SETTINGS
@given(texts, edits, st.sampled_from(["tool", "automation", None]))
def test_lsp_edits_equal_a_fresh_open(text: str, steps: list[tuple[float, int, str, bool]], kind: str | None) -> None:
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    check_document(document, CTX, kind, cache)  # type: ignore[arg-type]
    for fraction, length, insert, check_now in steps:
        start = _snap(text, int(fraction * len(text)))
        end = _snap(text, min(len(text), start + length))
        document.apply_change(insert, Range(Position(*lsp_position(text, start)), Position(*lsp_position(text, end))))
        text = text[:start] + insert + text[end:]
        assert document.text == text
        if check_now:
            check_document(document, CTX, kind, cache)  # type: ignore[arg-type]
    fresh = Document.from_text("file:///w/x.tools.json", text)
    assert [int(s) for s in document.lines.starts] == reference_starts(bytes(document.data))
    assert [int(s) for s in document.lines.starts] == [int(s) for s in fresh.lines.starts]
    assert str(document.tree.root_node) == str(fresh.tree.root_node)
    assert nodes(document.tree) == nodes(fresh.tree)
    incremental = check_document(document, CTX, kind, cache)  # type: ignore[arg-type]
    assert diagnostic_rows(incremental.diagnostics) == diagnostic_rows(
        check_document(fresh, CTX, kind).diagnostics  # type: ignore[arg-type]
    )


@SETTINGS
@given(texts, st.lists(st.tuples(st.floats(0, 1), st.integers(0, 6), st.binary(max_size=6)), min_size=1, max_size=10))
def test_byte_edits_anywhere_equal_a_fresh_open(text: str, steps: list[tuple[float, int, bytes]]) -> None:
    """Byte-level edits may split CRLF pairs and multi-byte characters (invalid UTF-8 on the way)."""
    document = Document.from_text("file:///w/x.json", text)
    data = bytearray(document.data)
    for fraction, length, insert in steps:
        start = int(fraction * len(data))
        end = min(len(data), start + length)
        document.replace_bytes(start, end, insert)
        document.reparse()
        data[start:end] = insert
    fresh = Document("file:///w/x.json", bytearray(data))
    assert bytes(document.data) == bytes(data)
    assert [int(s) for s in document.lines.starts] == reference_starts(bytes(data))
    assert nodes(document.tree) == nodes(fresh.tree)
    assert diagnostic_rows(check_document(document, CTX, "tool").diagnostics) == diagnostic_rows(
        check_document(fresh, CTX, "tool").diagnostics
    )


def test_error_recovery_after_edits_equals_a_fresh_parse() -> None:
    """A case the random runs found: tree-sitter's incremental error recovery differs from a fresh parse
    (it reuses the old tree), so a broken document is re-parsed fresh (`FRESH_PARSE_LIMIT`)."""
    tool = '{"name": "x", "input_schema": {"type": "object"}, "descripton": "é😀"}'
    text = "[" + tool + ",\r\n" + tool + "]"
    document = Document.from_text("file:///w/x.tools.json", text)
    cache = UnitCache()
    check_document(document, CTX, "tool", cache)
    for start, end, insert in ((101, 101, "{null"), (1, 4, "\r\n}")):
        document.apply_change(insert, Range(Position(*lsp_position(text, start)), Position(*lsp_position(text, end))))
        text = text[:start] + insert + text[end:]
    fresh = Document.from_text("file:///w/x.tools.json", text)
    assert nodes(document.tree) == nodes(fresh.tree)
    assert diagnostic_rows(check_document(document, CTX, "tool", cache).diagnostics) == diagnostic_rows(
        check_document(fresh, CTX, "tool").diagnostics
    )
