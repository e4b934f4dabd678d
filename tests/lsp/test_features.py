"""The LSP-free editor logic: the unit index under edits, the cursor scan's short cut, the forgiving reader."""

from __future__ import annotations

import json

import pytest
from samples import WEATHER_TOOLS

from toolsense.document.cursor import cursor_context
from toolsense.document.document import ByteEdit, Document
from toolsense.engine.units import split
from toolsense.features.query import UnitIndex, index_for, inner_container, locate_cursor
from toolsense.features.tolerant import read_partial

TWO_TOOLS = "[" + WEATHER_TOOLS.strip()[1:-1] + "," + WEATHER_TOOLS.strip()[1:-1].replace("get_weather", "other") + "]"


def test_inner_container_scan_equals_the_scan_from_the_unit_start() -> None:
    document = Document.from_text("file:///t.tools.json", TWO_TOOLS)
    index = UnitIndex.from_split(split(document, "tool"))
    data = document.data
    checked = 0
    for offset in range(1, len(data)):
        position = index.find(offset)
        if position < 0:
            continue
        start, pointer = index.starts[position], index.pointers[position]
        inner = inner_container(document, start, pointer, offset)
        if inner is None:
            continue
        fast = cursor_context(data, inner[0], inner[1], offset)
        full = cursor_context(data, start, pointer, offset)
        assert fast == full, (offset, fast, full)
        checked += 1
    assert checked > len(data) // 2


def test_unit_index_follows_edits() -> None:
    index = UnitIndex("tool", "array", (), [10, 50, 90], [(0,), (1,), (2,)], [None] * 3, [None] * 3, [40, 80, 120])
    index.shift(ByteEdit(20, 20, 25))  # insert 5 bytes inside the first unit
    assert index.starts == [10, 55, 95]
    assert index.ends == [45, 85, 125]
    index.shift(ByteEdit(54, 56, 54))  # delete the second unit's opening brace
    assert index.starts == [10, 93]
    assert index.ends == [45, 123]
    assert index.pointers == [(0,), (2,)]


def test_locate_cursor_in_a_new_unit_typed_after_the_last_one() -> None:
    text = TWO_TOOLS[:-1] + ', {"na'
    document = Document.from_text("file:///t.tools.json", text)
    index = UnitIndex.from_split(split(Document.from_text("file:///t.tools.json", TWO_TOOLS), "tool"))
    context, unit = locate_cursor(document, index, len(document.data))
    assert unit is not None and unit.pointer == (2,)
    assert context.slot == "key" and context.partial == "na"


def test_locate_cursor_in_a_file_opened_broken() -> None:
    text = '[{"name": "w", "input_schema": {"type": "object", "properties": {"u": {"enum": ["a"]}}},'
    text += ' "input_examples": [{"u": "'
    document = Document.from_text("file:///t.tools.json", text)
    context, unit = locate_cursor(document, index_for(document, "tool"), len(document.data))
    assert unit is not None and unit.pointer == (0,)
    assert context.pointer == (0, "input_examples", 0, "u")
    assert unit.value["input_schema"]["properties"]["u"] == {"enum": ["a"]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1, "b": [1, 2', {"a": 1, "b": [1, 2]}),
        ('{"a": "unterminated\n, "b": 2}', {"a": "unterminated"}),
        ('{"a": 1 "b": 2}', {"a": 1, "b": 2}),  # a missing comma
        ('{"a": /* note */ 1, // c\n "b": true}', {"a": 1, "b": True}),
        ('{"a": {"b": {"c": [', {"a": {"b": {"c": []}}}),
        ("nonsense", None),
    ],
    ids=["truncated", "unterminated-string", "missing-comma", "comments", "open-nesting", "garbage"],
)
def test_read_partial(text: str, expected: object) -> None:
    assert read_partial(text.encode(), 0) == expected


def test_read_partial_bounds_its_depth() -> None:
    value = read_partial(b"[" * 10_000, 0)
    depth = 0
    while isinstance(value, list) and value:
        value = value[0]
        depth += 1
    assert depth <= 201


MANY = (
    "[\n"
    + ",\n".join(
        WEATHER_TOOLS.strip()[1:-1]
        .strip()
        .replace("get_weather", f"tool_{i}")
        .replace('"bogus": 1', f'"bogus{i}": {i}')
        for i in range(6)
    )
    + "\n]\n"
)


def _fast_then_full(edits: list[tuple[str, int, str]], initial: str = MANY) -> None:
    """Apply edits (needle, shift, new text) one by one; after each, the fast path's diagnostics must equal a
    full check's."""
    import asyncio

    from lsprotocol import types

    from toolsense.lsp.app import create_server

    async def run() -> None:
        server = create_server()
        published: list[types.PublishDiagnosticsParams] = []
        server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign,assignment]
        od = server.open("file:///tmp/fast/tools.tools.json", initial, 1, "json")
        server.check(od, "open")
        text = initial
        version = 1
        for needle, shift_by, new in edits:
            index = text.index(needle) + shift_by
            before = text[:index]
            line = before.count("\n")
            character = len(before[before.rfind("\n") + 1 :].encode("utf-16-le")) // 2
            version += 1
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(line, character), types.Position(line, character)), text=new
            )
            server.change(od, version, [change])
            text = text[:index] + new + text[index:]
            server.check(od, "edit")
            assert not od.settled, "the fast path did not run"
            fast = list(od.diagnostics)
            server.check(od, "settle")
            assert od.settled
            assert fast == od.diagnostics, (needle, fast, od.diagnostics)
        if od.timer is not None:
            od.timer.cancel()

    asyncio.run(run())


def test_fast_keystroke_check_equals_the_full_check() -> None:
    _fast_then_full(
        [
            ('"bogus2"', 6, "X"),  # an unknown key renamed in the middle unit
            ('"unit": "kelvin"', 0, "\n   "),  # a line break between members of the first unit
            ('"Weather for a city."', 1, "😀"),  # wide characters before later diagnostics
            ('"city": "Paris"', 0, "\n\n"),  # lines added: every later diagnostic moves down
            ('"bogus5"', 1, "b"),
        ]
    )


def test_the_fast_check_sees_what_the_file_says_about_its_units() -> None:
    """The MCP version stated at the top of the file applies to a tool re-checked alone."""
    tool = {"name": "t", "description": "d", "inputSchema": {"type": "object", "additionalProperties": False}}
    tools = [{**tool, "name": f"t{i}", "outputSchema": {"type": "array"}} for i in range(3)]
    initial = json.dumps({"protocolVersion": "2025-11-25", "tools": tools}, indent=2) + "\n"
    _fast_then_full([('"t1"', 2, "x"), ('"array"', 1, "b")], initial)
