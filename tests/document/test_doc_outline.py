"""The outline of a large document (a light tree from Python's JSON scanner) gives exactly the diagnostics and
units of tree-sitter's whole-document tree; text it cannot read alike goes to tree-sitter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import CORPUS, EXAMPLES

from toolsense.document.document import Document
from toolsense.document.lines import Position, Range
from toolsense.document.outline import LightNode
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.units import kind_from_path
from toolsense.rules import CATALOG
from toolsense.settings import Settings

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
BAD_TOOL = {
    "name": "bad name",
    "description": "Ünïcode 🌦 description\u2028with a line separator.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "strin", "description": "日本語 🌦"}, "n": {"type": "integer"}},
        "required": ["city", "missing"],
        "additionalProperties": False,
        "input_examples": [{"city": 1}],
    },
    "extra": True,
}
GOOD_TOOL = {"name": "ok", "description": "Fine.", "input_schema": {"type": "object", "properties": {}}}
FINE_TOOL = {
    "name": "fine",
    "description": "Gets the weather of a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city."}},
        "required": ["city"],
        "additionalProperties": False,
    },
}


def _check(data: bytes, name: str, outline_limit: int) -> tuple[Document, Any, Any]:
    uri = "file:///w/" + name
    document = Document(uri, bytearray(data), outline_limit=outline_limit)
    settings = Settings()
    context = CheckContext(settings, ToolRegistry(), uri, catalog=CATALOG)
    report = check_document(document, context, kind_from_path("/w/" + name, settings), UnitCache())
    diagnostics = [(d.range, d.code, d.severity, d.message, d.related) for d in report.diagnostics]
    units = [(u.pointer, u.value, u.dialect, u.start, u.end, u.clean, u.problem) for u in report.units]
    return document, diagnostics, units


def assert_same(data: bytes, name: str = "x.tools.json", outlined: bool = True) -> list[Any]:
    """Check data both ways; returns the diagnostics."""
    _, tree_diagnostics, tree_units = _check(data, name, 1 << 40)
    document, diagnostics, units = _check(data, name, 0)
    assert (document._outline is not None) == outlined
    assert diagnostics == tree_diagnostics
    assert units == tree_units
    return diagnostics


def _dumps(value: Any, crlf: bool = False) -> bytes:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return (text.replace("\n", "\r\n") if crlf else text).encode()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("x.tools.json", [BAD_TOOL, GOOD_TOOL, BAD_TOOL]),
        ("x.tools.json", {"tools": [GOOD_TOOL, BAD_TOOL, {**GOOD_TOOL, "name": "bad name"}]}),
        ("x.json", {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a b", "inputSchema": {"type": "x"}}]}}),
        ("x.json", {"model": "m", "messages": [], "tools": [BAD_TOOL]}),
        ("x.json", {"get_weather": {"description": "W.", "parameters": {"type": "object", "properties": []}}}),
        ("x.tool.json", BAD_TOOL),
        ("x.json", {"toolConfig": {"tools": [{"toolSpec": {"name": "a b", "inputSchema": {"json": {}}}}]}}),
    ],
)
@pytest.mark.parametrize("crlf", [False, True])
def test_findings_are_placed_as_on_the_whole_tree(name: str, value: Any, crlf: bool) -> None:
    diagnostics = assert_same(_dumps(value, crlf), name)
    assert diagnostics  # the cases have findings inside units, so placement inside a lazy unit is exercised


def test_clean_json_is_read_without_tree_sitter() -> None:
    data = _dumps([{**FINE_TOOL, "name": f"fine_{i}"} for i in range(20)] + [BAD_TOOL])
    document, diagnostics, _ = _check(data, "x.tools.json", 0)
    root = document.outline
    assert isinstance(root, LightNode) and root.type == "document"
    units = root.named_children[0].named_children
    assert all(unit._named is None for unit in units[16:20])  # past the sample, without findings: never expanded
    assert units[20]._named is not None  # its findings were placed by expanding it along their pointers
    text = data.decode()
    line = next(i for i, row in enumerate(text.split("\n")) if '"strin"' in row)
    column = text.split("\n")[line].index('"strin"')
    assert any(d[0] == Range(Position(line, column), Position(line, column + 7)) for d in diagnostics)
    assert document._tree is None and not units[20].outline._trees  # no tree-sitter tree at all


@pytest.mark.parametrize(
    "data",
    [
        b"[" + b",".join(json.dumps(GOOD_TOOL).encode() for _ in range(3)) + b",]",  # trailing comma
        b'[{"name": "a", "input_schema": {"type": "object"}} // c\n]',  # comments
        b'[{"name": "a", "input_schema": {"type": "object", "maximum": NaN}}]',  # NaN: no JSON
        b'[{"name": "a\x01", "input_schema": {"type": "object"}}]',  # a raw control character
        b'\xef\xbb\xbf[{"name": "a", "input_schema": {"type": "object"}}]',  # BOM
        b'[{"name": "a", "input_schema": {"type": "object"}}]\x0c',  # whitespace JSON does not know
        b'[{"name": "a", "input_schema": {"type": "object", "description": "\xff"}}]',  # not UTF-8
        b'[{"name": "a", "input_schema": {"type": "object"',  # unterminated
        b"",
    ],
)
def test_text_the_scanner_reads_otherwise_goes_to_tree_sitter(data: bytes) -> None:
    assert_same(data, outlined=False)


def test_json_lines_and_deep_nesting() -> None:
    lines = b"\n".join(json.dumps(tool).encode() for tool in (BAD_TOOL, GOOD_TOOL, BAD_TOOL)) + b"\n"
    assert_same(lines, "x.tools.jsonl")
    deep: Any = {}
    for _ in range(200):
        deep = {"a": deep}
    diagnostics = assert_same(_dumps([GOOD_TOOL, {**GOOD_TOOL, "input_schema": {"type": "object", "x": deep}}]))
    assert "TS006" in [d[1] for d in diagnostics]


def test_an_edit_makes_a_new_outline_and_a_later_check_agrees() -> None:
    data = _dumps([BAD_TOOL, GOOD_TOOL])
    document = Document("file:///w/x.tools.json", bytearray(data), outline_limit=0)
    cache = UnitCache()
    context = CheckContext(Settings(), ToolRegistry(), document.uri, catalog=CATALOG)
    check_document(document, context, "tool", cache)
    old = document.outline
    at = data.index(b'"ok"') + 1
    document.apply_change("ok2", Range(document.position_at(at), document.position_at(at + 2)))
    assert document.outline is not old and document._tree is None  # a new generation of the outline
    assert b'"ok"' in old.named_children[0].named_children[1].text  # an old node reads the text it was built from
    assert b'"ok2"' in document.outline.named_children[0].named_children[1].text
    after = check_document(document, context, "tool", cache)
    fresh = check_document(Document(document.uri, bytearray(document.data)), context, "tool", UnitCache())
    assert [(d.range, d.code) for d in after.diagnostics] == [(d.range, d.code) for d in fresh.diagnostics]


@pytest.mark.parametrize("folder", [GOLDEN, EXAMPLES, CORPUS], ids=lambda p: p.name)
def test_every_golden_example_and_corpus_file(folder: Path) -> None:
    if not folder.is_dir():
        pytest.skip(f"{folder} is not here")
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
    for path in files:
        if path.name.endswith(".expected.json"):
            continue
        data = path.read_bytes()
        _, tree_diagnostics, tree_units = _check(data, path.name, 1 << 40)
        _, diagnostics, units = _check(data, path.name, 0)
        assert (diagnostics, units) == (tree_diagnostics, tree_units), path


def test_an_edit_before_the_outline_is_built_leaves_it_to_be_built_from_the_new_text() -> None:
    data = _dumps([BAD_TOOL, GOOD_TOOL])
    document = Document("file:///w/x.tools.json", bytearray(data), outline_limit=0)
    at = data.index(b'"ok"') + 1
    document.replace_bytes(at, at + 2, b"fine")
    document.reparse()
    assert not document.has_error and document._tree is None  # read from an outline of the new text
    assert document.outline.named_children[0].named_children[1].value["name"] == "fine"
    assert_same(bytes(document.data))
