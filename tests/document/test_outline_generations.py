"""Typing in an outlined document keeps no outline generation alive that nothing holds (issue 26, L1).

Each keystroke makes a new generation of the outline, with every member after the edit made anew. The members
before the edit are shared; they used to keep their old parent (and through it the whole old generation) and
their old `Outline` (and through its links every later one), and parents and children formed cycles that only a
full garbage collection — which the server runs only when idle — could free: a storm of 1,000 keystrokes in a
file of 7,000 small tools took the server from 139 MB to 1.2 GB, for good. Now a shared member is adopted by the
new generation, and a node holds its parent weakly: a generation nothing holds is freed at once, by reference
counting alone (these tests run with the garbage collector off)."""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Iterator

import pytest

from toolsense.document.document import Document
from toolsense.document.lines import Range
from toolsense.document.outline import LightNode

TOOLS = [
    {
        "name": f"tool_{i}",
        "description": f"Tool number {i}.",
        "input_schema": {"type": "object", "properties": {"x": {"type": "string", "description": "X."}}},
    }
    for i in range(300)
]


@pytest.fixture
def without_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _document() -> tuple[Document, int]:
    """An outlined document and the offset just inside the description of its middle tool."""
    text = json.dumps(TOOLS, indent=2)
    document = Document("file:///w/x.tools.json", bytearray(text.encode()), outline_limit=0)
    assert isinstance(document.outline, LightNode)
    return document, text.index('"Tool number 150.') + 1


def _type(document: Document, at: int, letters: str) -> None:
    for letter in letters:
        document.apply_change(letter, Range(document.position_at(at), document.position_at(at)))
        document.outline  # noqa: B018 - as a check reads it after each keystroke
        at += 1


def _expand_to(node: LightNode, at: int) -> None:
    """Expand the containers on the way down to an offset, as a check placing a finding there does."""
    while node.named_children:
        inside = [child for child in node.named_children if child.start_byte < at < child.end_byte]
        if not inside or not isinstance(inside[0], LightNode):
            return
        node = inside[0]


@pytest.mark.usefixtures("without_collector")
def test_a_generation_nothing_holds_is_freed_at_once() -> None:
    document, at = _document()
    _expand_to(document.outline, at)
    first = weakref.ref(document.outline)
    first_outline = weakref.ref(document.outline.outline)
    _type(document, at, "ab")
    assert first() is None and first_outline() is None


@pytest.mark.usefixtures("without_collector")
def test_an_edit_storm_leaves_one_generation_of_nodes() -> None:
    document, at = _document()
    _type(document, at, "a")
    settled = sum(1 for item in gc.get_objects() if type(item) is LightNode)
    _expand_to(document.outline, at)
    _type(document, at + 1, "bcdefghijklmnopqrstuvwxyz" * 2)
    after = sum(1 for item in gc.get_objects() if type(item) is LightNode)
    assert after < settled + 200  # 50 generations of the ~600 nodes made per keystroke, before


def test_members_before_an_edit_belong_to_the_current_generation() -> None:
    document, at = _document()
    _expand_to(document.outline, at)
    old = document.outline
    _type(document, at, "x")
    root = document.outline.named_children[0]
    first_tool = root.named_children[0]
    assert first_tool is old.named_children[0].named_children[0]  # shared, not made anew
    assert first_tool.parent is root and first_tool.outline is root.outline
    middle = next(tool for tool in root.named_children if tool.start_byte < at < tool.end_byte)
    pair = middle.named_children[0]
    assert pair.parent is middle and pair.named_children[0].parent is pair
    assert pair.named_children[0].text == b'"name"'
    assert old.named_children[0].named_children[150].text.count(b"Tool number 150.") == 1  # the old text, still


def test_a_node_held_after_its_generation_still_reads_its_text() -> None:
    document, at = _document()
    _expand_to(document.outline, at)
    held = [tool for tool in document.outline.named_children[0].named_children if tool.start_byte < at][-1]
    _type(document, at, "xyz")
    assert held.text.startswith(b'{\n    "name": "tool_150"') and b"Tool number 150." in held.text
    assert held.parent is None  # its generation is gone: nothing but the node itself was kept
