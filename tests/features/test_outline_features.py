"""Folding ranges, document symbols, references and quick fixes of a large document read from its outline never
parse the whole file, and answer exactly as with the whole file's tree."""

from __future__ import annotations

import json
from typing import Any

import pytest
from automations import make_registry
from test_automation_help import POLLING, URI

from generate import tools_text
from toolsense.document.document import Document
from toolsense.document.lines import Position, Range
from toolsense.document.outline import LightNode
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.findings import Fix, RemoveMember, ReplaceValue
from toolsense.engine.units import split
from toolsense.features import symbols
from toolsense.features.definition import references
from toolsense.features.query import build_hover_query, index_for
from toolsense.features.symbols import document_symbols, folding_ranges
from toolsense.fixes import edits_for_fix
from toolsense.fixes.text import TextEdit, parses_clean_after
from toolsense.rules import CATALOG
from toolsense.settings import Settings

TOOLS_URI = "file:///x/big.tools.json"


def _both(data: bytes, uri: str = TOOLS_URI) -> tuple[Document, Document]:
    """The document read from its outline, and the same text parsed whole by tree-sitter."""
    outlined = Document(uri, bytearray(data), outline_limit=0)
    assert isinstance(outlined.outline, LightNode)
    return outlined, Document(uri, bytearray(data), outline_limit=1 << 40)


def _tools(count: int, wrapped: bool = False) -> bytes:
    tools = json.loads(tools_text(count))
    return json.dumps({"tools": tools} if wrapped else tools, indent=2).encode()


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("limit", [None, 1, 7, 40, 400])
def test_folding_ranges_read_the_outline_only_as_far_as_the_limit(wrapped: bool, limit: int | None) -> None:
    outlined, whole = _both(_tools(40, wrapped))
    units = outlined.outline.named_children[0]
    units = units.named_children[0].named_children[1] if wrapped else units
    unread = [unit._named is None for unit in units.named_children]
    found = folding_ranges(outlined, limit)
    assert found == folding_ranges(whole, limit)
    assert len(found) == (limit or len(found))
    assert [unit._named is None for unit in units.named_children] == unread  # read from copies
    assert outlined._tree is None


def test_folding_ranges_of_a_large_outlined_file_expand_only_the_folded_containers() -> None:
    outlined, whole = _both(_tools(30))
    root = outlined.outline.named_children[0]
    folds = folding_ranges(outlined, 31)  # the array and its 30 tools: no tool's members are read
    assert folds == folding_ranges(whole, 31)
    first = root.named_children[0]
    assert [(f.start, f.end) for f in folds[:2]] == [
        (root.start_byte, root.end_byte - 1),
        (first.start_byte, first.end_byte - 1),
    ]
    assert all(tool._named is None for tool in root.named_children)
    assert outlined._tree is None


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("children", [True, False])
def test_document_symbols_of_an_outlined_file_leave_no_expanded_units(
    wrapped: bool, children: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not children:
        monkeypatch.setattr(symbols, "MAX_UNITS_WITH_CHILDREN", 10)
    outlined, whole = _both(_tools(40, wrapped))
    split(outlined, None)  # which reads the first few units' members to tell the file's kind
    root = outlined.outline.named_children[0]
    units = (root.named_children[0].named_children[1] if wrapped else root).named_children
    unread = [unit._named is None for unit in units]
    assert sum(unread) >= 20
    found = document_symbols(outlined, None)
    assert found == document_symbols(whole, None)
    assert len(found) == 40
    assert all(bool(symbol.children) == children for symbol in found if symbol.kind == "tool")
    assert [unit._named is None for unit in units] == unread  # the others were read from copies
    assert outlined._tree is None


def test_automation_symbols_and_references_read_the_outline() -> None:
    outlined, whole = _both(POLLING.encode(), URI)
    assert document_symbols(outlined, "automation") == document_symbols(whole, "automation")
    assert [s.name for s in document_symbols(outlined, "automation")[0].children] == [
        "polling",
        "classify",
        "notify",
    ]
    offset = POLLING.encode().index(b'"verdict"') + 3
    answers = []
    for document in (outlined, whole):
        query = build_hover_query(document, index_for(document, "automation"), offset, make_registry(), Settings())
        answers.append(references(query, True, []))
    assert answers[0] == answers[1]
    assert [(found.pointer, found.range) for found in answers[0]] == [
        (("actions", 0, "output_as"), None),
        (None, Range(Position(20, 38), Position(20, 52))),  # placed in the outline: `verdict.answer` in a template
        (("actions", 1, "condition", "path"), None),
    ]
    assert outlined._tree is None


BROKEN = {
    "name": "bad",
    "description": "Gets the weather of a city.",
    "input_schema": {"type": "object", "properties": {"city": {"type": "strin"}}, "required": ["city"]},
}


def _diagnostics(document: Document) -> list[Any]:
    context = CheckContext(Settings(), ToolRegistry(), TOOLS_URI, catalog=CATALOG)
    return check_document(document, context, "tool", UnitCache()).diagnostics


def test_quick_fixes_of_an_outlined_file_parse_only_the_unit() -> None:
    tools = json.loads(tools_text(30))
    tools[17] = BROKEN
    outlined, whole = _both(json.dumps(tools, indent=2).encode())
    fixable = [
        [edits_for_fix(document, fix) for d in _diagnostics(document) if d.finding for fix in d.finding.fixes]
        for document in (outlined, whole)
    ]
    assert fixable[0] == fixable[1]
    assert any(edits is not None and any(e.text == '"string"' for e in edits) for edits in fixable[0])
    assert outlined._tree is None


@pytest.mark.parametrize("pointer", [(0,), (3,), (29,), (5, "description"), (5, "input_schema", "type")])
def test_removing_a_member_of_an_outlined_container_takes_its_comma(pointer: tuple[Any, ...]) -> None:
    data = _tools(30)
    outlined, whole = _both(data)
    fix = Fix("remove", (RemoveMember(pointer),))
    edits = edits_for_fix(outlined, fix)
    assert edits is not None and edits == edits_for_fix(whole, fix)
    assert outlined._tree is None


@pytest.mark.parametrize(
    ("old", "new", "clean"),
    [
        (b'"name": "', b'"name": "x', True),  # inside one string
        (b'"type": "object"', b'"type": "object",', False),  # a trailing comma
        (b'"type": "object"', b'"type": {"a": [1, 2]}', True),
        (b'"type": "object"', b'"type": "object" /* why */', True),  # a comment: tree-sitter reads it
        (b'"type": "object"', b'"type": "object"}, {"x": 1', False),  # a value where a key must be
        (b'\n    "name": "', b'\n    "name": "a"}, {"name": "', True),  # one tool split in two: the whole decides
        (b'\n    "name": "', b'\n    "name": "a"}, {"name": ', False),
    ],
)
def test_the_parse_check_of_a_fix_in_an_outlined_file(old: bytes, new: bytes, clean: bool) -> None:
    data = _tools(12)
    outlined, whole = _both(data)
    at = data.index(old, len(data) // 2)
    edits = [TextEdit(at, at + len(old), new.decode())]
    assert parses_clean_after(outlined, edits) is clean
    assert parses_clean_after(whole, edits) is clean
    assert outlined._tree is None


def test_replacing_a_whole_unit_of_an_outlined_file() -> None:
    outlined, whole = _both(_tools(12))
    fix = Fix("replace", (ReplaceValue((4,), '{"name": "x"}'),))
    assert edits_for_fix(outlined, fix) == edits_for_fix(whole, fix) is not None
    assert outlined._tree is None
