"""Edits of a document read from its outline equal opening the final text fresh.

A large clean JSON document is read from a light outline (`document/outline.py`); an edit inside one outlined
container re-scans only the members it touched and makes a new generation of the outline, so a keystroke never
parses the whole file. Here documents are small (`outline_limit=0` outlines everything) and the edits are the
minimal text difference between two dumps of a randomly changed value, so each lies inside the values it
changes, with now and then a raw edit that may break the JSON (then the document is tree-sitter's). After every
edit the engine's diagnostics and units of the edited document — checked with a unit cache, as the server does
— equal those of the same text opened fresh; nodes of earlier outlines keep reading their own text.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propkit import EXAMPLES

from toolsense.document.document import Document
from toolsense.document.outline import LightNode
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.units import kind_from_path
from toolsense.rules import CATALOG
from toolsense.settings import Settings

URI = "file:///w/x.tools.json"
SETTINGS = Settings()
CONTEXT = CheckContext(SETTINGS, ToolRegistry(), URI, catalog=CATALOG)
KIND = kind_from_path("/w/x.tools.json", SETTINGS)

STRINGS = st.text(alphabet=st.sampled_from(list('ab é😀東"\\\n\u2028/')), max_size=6)
SCALARS = st.one_of(
    STRINGS,
    st.integers(-5, 10**20),
    st.sampled_from([True, False, None, 1.5, -0.0, "object", "string", "integer", "get_weather", "bad name"]),
)
RAW = ['"', ",", "{", "}", "]", ":", " ", "\n", "1", "x", '"k": 1,', "\xe9", "//"]


def _tool(index: int, bad: bool) -> dict[str, Any]:
    tool: dict[str, Any] = {
        "name": f"tool_{index}" if not bad else f"tool {index}",
        "description": "Gets the weather of a city, given its name." if index % 3 else "",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "strin" if bad else "string", "description": "The city."}},
            "required": ["city"],
        },
    }
    if bad:
        tool["extra"] = [1, {"a": None}]
    return tool


def _shapes(tools: list[dict[str, Any]]) -> list[Any]:
    return [tools, {"tools": tools}, {t["name"].replace(" ", "_") + str(i): t for i, t in enumerate(tools)}]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _mutate(value: Any, data: st.DataObject) -> Any:
    """A copy of value with one random change below the root (set, delete, insert, rename a key)."""
    value = json.loads(json.dumps(value))
    paths = [p for p in _paths(value) if p]
    if not paths:
        return value
    path = data.draw(st.sampled_from(paths))
    parent = _get(value, path[:-1])
    last = path[-1]
    op = data.draw(st.sampled_from(["set", "delete", "insert", "rename", "tool"]))
    new: Any = data.draw(SCALARS) if op != "tool" else _tool(data.draw(st.integers(0, 99)), data.draw(st.booleans()))
    if isinstance(parent, list):
        if op == "delete":
            del parent[last]
        elif op in ("insert", "tool"):
            parent.insert(last, new)
        else:
            parent[last] = new
    elif op == "delete":
        del parent[last]
    elif op == "rename":
        name = data.draw(STRINGS)
        items = [(name if k == last else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    elif op in ("insert", "tool"):
        parent[f"k{data.draw(st.integers(0, 9))}"] = new
    else:
        parent[last] = new
    return value


def _dump(value: Any, indent: int | None, ascii_only: bool) -> bytes:
    return json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()


def _diff(old: bytes, new: bytes) -> tuple[int, int, bytes]:
    """The one replacement that turns old into new: (start, end in old, new bytes), the changed middle only."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return prefix, len(old) - suffix, new[prefix : len(new) - suffix]


def _result(document: Document, cache: UnitCache | None = None) -> tuple[Any, Any]:
    report = check_document(document, CONTEXT, KIND, cache)
    diagnostics = [(d.range, d.code, d.severity, d.message, d.related) for d in report.diagnostics]
    units = [(u.pointer, u.value, u.dialect, u.start, u.end, u.clean, u.problem) for u in report.units]
    return diagnostics, units


def _fresh(data: bytearray) -> tuple[Any, Any]:
    return _result(Document(URI, bytearray(data), outline_limit=0))


def _sample_nodes(root: LightNode) -> list[tuple[LightNode, bytes]]:
    """Some nodes of an outline with the text they read now (the units, and what is expanded below them)."""
    found: list[tuple[LightNode, bytes]] = []
    stack = [root]
    while stack and len(found) < 40:
        node = stack.pop()
        found.append((node, node.text))
        stack.extend(node._named or [])
    return found


@settings(
    max_examples=EXAMPLES or 60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    st.integers(0, 2),
    st.lists(st.booleans(), min_size=0, max_size=4),
    st.sampled_from([None, 2]),
    st.booleans(),
    st.integers(1, 6),
    st.data(),
)
def test_edits_inside_values_equal_a_fresh_open(
    shape: int, bad: list[bool], indent: int | None, ascii_only: bool, steps: int, data: st.DataObject
) -> None:
    value = _shapes([_tool(i, b) for i, b in enumerate(bad)])[shape]
    text = _dump(value, indent, ascii_only)
    document = Document(URI, bytearray(text), outline_limit=0)
    cache = UnitCache()
    assert _result(document, cache) == _fresh(document.data)
    held: list[tuple[LightNode, bytes]] = []
    strict = True
    for _ in range(steps):
        old_root = document._outline
        if old_root is not None:
            held.extend(_sample_nodes(old_root))
        if strict and data.draw(st.integers(0, 5)):
            value = _mutate(value, data)
            start, end, new = _diff(bytes(document.data), _dump(value, indent, ascii_only))
        else:
            strict = False
            start = data.draw(st.integers(0, len(document.data)))
            end = data.draw(st.integers(start, min(start + 3, len(document.data))))
            new = data.draw(st.sampled_from(RAW)).encode()
        document.replace_bytes(start, end, new)
        document.reparse()
        if strict:
            # an edit inside the root value of strict JSON keeps the outline: no tree-sitter tree of the whole
            assert document._outline is not None and document._tree is None
            assert document.outline.named_children[0].text == bytes(document.data).strip()
        assert _result(document, cache) == _fresh(document.data)
        for node, before in held:
            assert node.text == before  # nodes of earlier generations are never moved nor read anew


def test_a_snapshot_reads_its_own_text_while_the_original_is_edited() -> None:
    tools = [_tool(i, i % 2 == 0) for i in range(6)]
    text = _dump(tools, 2, False)
    document = Document(URI, bytearray(text), outline_limit=0)
    document.outline  # noqa: B018 - the outline is built on first read
    snapshot = document.snapshot()
    at = text.index(b"tool_1") + len(b"tool_1")
    document.replace_bytes(at, at, b"_renamed")
    at = text.index(b"The city.")
    document.replace_bytes(at, at + 3, b"Any")
    assert document._outline is not None and document._tree is None
    assert document._outline is not snapshot._outline
    assert _result(snapshot) == _fresh(bytearray(text))
    assert _result(document) == _fresh(document.data)
    assert b"tool_1_renamed" in document.outline.named_children[0].text


def test_an_edit_across_values_or_to_broken_text_goes_to_tree_sitter() -> None:
    text = _dump([_tool(0, True), _tool(1, False)], 2, True)
    for start, end, new in [
        (text.index(b'"tool 0"'), text.index(b'"tool 0"') + 1, b""),  # a string loses its quote
        (1, len(text) - 1, b""),  # the root emptied from inside: still strict, one container
        (0, 1, b"{"),  # the root's own bracket
    ]:
        document = Document(URI, bytearray(text), outline_limit=0)
        cache = UnitCache()
        _result(document, cache)
        document.replace_bytes(start, end, new)
        document.reparse()
        kept = document._outline is not None
        assert kept == (start == 1)
        assert _result(document, cache) == _fresh(document.data)


def _position_in(document: Document, data: st.DataObject) -> tuple[int, int, int]:
    """An element of the root array and an offset strictly inside it: (start, offset, end)."""
    elements = document.outline.named_children[0].named_children
    element = elements[data.draw(st.integers(0, len(elements) - 1))]
    return element.start_byte, data.draw(st.integers(element.start_byte + 1, element.end_byte - 1)), element.end_byte


@settings(max_examples=EXAMPLES or 60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.booleans(), min_size=1, max_size=4), st.sampled_from([None, 2]), st.integers(1, 3), st.data())
def test_a_broken_element_of_a_large_document_is_read_alone(
    bad: list[bool], indent: int | None, edits: int, data: st.DataObject
) -> None:
    """Above `fresh_parse_limit` (here 0) an edit that breaks one element of the root array keeps the outline:
    that element is read by tree-sitter from its own text, its syntax errors stay inside it, the other units are
    those of the text before; edits inside it again keep it so; undoing them equals a fresh open."""
    text = _dump([_tool(i, b) for i, b in enumerate(bad)], indent, False)
    document = Document(URI, bytearray(text), outline_limit=0, fresh_parse_limit=0)
    cache = UnitCache()
    before = _result(document, cache)
    element_start, at, old_end = _position_in(document, data)
    for _ in range(edits):
        document.replace_bytes(at, at, data.draw(st.sampled_from(RAW)).encode())
        document.reparse()
        shift = len(document.data) - len(text)
        element_end = old_end + shift
        diagnostics, units = _result(document, cache)
        if document._outline is None:
            break  # tree-sitter read it as more than one value: the document is tree-sitter's
        assert document._tree is None
        if document.has_error:
            syntax = [d[0] for d in diagnostics if d[1] == "TS001"]
            inside = document.range_of(element_start, element_end)
            assert syntax and all(inside.start <= r.start and r.end <= inside.end for r in syntax)
            others = [u for u in units if not element_start <= u[3] < element_end]
            moved = [
                (p, v, dl, s + shift, e + shift, c, pr) if s > element_start else (p, v, dl, s, e, c, pr)
                for p, v, dl, s, e, c, pr in before[1]
                if s != element_start
            ]
            assert others == moved
        # the same edits as one, on a fresh open read from its outline, give the same
        fresh = Document(URI, bytearray(text), outline_limit=0, fresh_parse_limit=0)
        fresh.outline  # noqa: B018 - the outline is built on first read
        fresh.replace_bytes(element_start + 1, old_end - 1, bytes(document.data[element_start + 1 : element_end - 1]))
        fresh.reparse()
        assert _result(fresh) == (diagnostics, units)
    document.replace_bytes(element_start, old_end + len(document.data) - len(text), text[element_start:old_end])
    document.reparse()
    assert _result(document, cache) == before == _fresh(bytearray(text))


def test_a_cached_map_member_is_not_reused_where_the_broken_file_reads_it_as_a_plain_element() -> None:
    """Found by the property test: a name-keyed map's member takes its name from its key. When an edit breaks
    the file, the same bytes read as a plain element with no name; the unit cache must not hand back the value
    that the key had named (the check then missed 'Missing required property name')."""
    value = _shapes([_tool(i, b) for i, b in enumerate([True, False])])[2]
    document = Document(URI, bytearray(_dump(value, None, False)), outline_limit=0)
    cache = UnitCache()
    assert _result(document, cache) == _fresh(document.data)
    del value["tool_11"]["name"]
    start, end, new = _diff(bytes(document.data), _dump(value, None, False))
    document.replace_bytes(start, end, new)
    document.reparse()
    assert _result(document, cache) == _fresh(document.data)
    document.replace_bytes(103, 106, b",")  # breaks tool_00: the map no longer reads as one
    document.reparse()
    result = _result(document, cache)
    assert result == _fresh(document.data)
    assert any("Missing required property 'name'" in str(d) for d in result[0])
