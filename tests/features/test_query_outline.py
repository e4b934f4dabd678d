"""Hover and completion in a large document read from its outline parse the unit around the cursor, not the
whole file, and answer exactly as with the whole file's tree."""

from __future__ import annotations

import json
import re

import pytest

from generate import tools_text
from toolsense.document.document import Document
from toolsense.document.outline import LightNode
from toolsense.engine.context import ToolRegistry
from toolsense.features.completion import complete
from toolsense.features.hover import hover
from toolsense.features.query import build_hover_query, build_query, index_for
from toolsense.settings import Settings


def _offsets(data: bytes) -> list[int]:
    """Cursor places across the file: in names, keys deep in schemas, values, between members."""
    text = data.decode()
    places: list[int] = []
    for pattern in (r'"name": "', r'"type": "', r'"properties": \{\n\s*"', r'"required": \[', r",\n\s*"):
        hits = [m.end() for m in re.finditer(pattern, text)]
        places += hits[:: max(1, len(hits) // 6)][:6]
    places += [m.start() for m in re.finditer(r"\n  \{", text)][:3]  # on a tool's opening brace
    return sorted(set(places))


def _answers(document: Document, offsets: list[int]) -> list[object]:
    index = index_for(document, "tool")
    settings = Settings()
    found: list[object] = []
    for offset in offsets:
        query = build_query(document, index, offset, ToolRegistry(), settings)
        answer = hover(build_hover_query(document, index, offset, ToolRegistry(), settings))
        items = complete(query)
        found.append(
            (
                offset,
                query.cursor,
                query.unit,
                answer.markdown if answer is not None else None,
                [(item.label, item.insert_text) for item in items] if items is not None else None,
            )
        )
    return found


@pytest.mark.parametrize("wrapped", [False, True])
def test_hover_and_completion_in_an_outlined_file_parse_only_the_unit(wrapped: bool) -> None:
    tools = json.loads(tools_text(300))
    data = json.dumps({"tools": tools} if wrapped else tools, indent=2).encode()
    outlined = Document("file:///x/big.tools.json", bytearray(data))
    assert isinstance(outlined.outline, LightNode)
    whole = Document("file:///x/big.tools.json", bytearray(data), outline_limit=1 << 40)
    offsets = _offsets(data)
    assert len(offsets) > 20
    assert _answers(outlined, offsets) == _answers(whole, offsets)
    assert outlined._tree is None  # the whole file was never parsed
