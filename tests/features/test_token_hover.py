"""Token costs in hover (on a tool's name: the tool, and the file's tools together) and in the outline (each
tool's detail), with the tokenizer named: exact o200k_base for OpenAI dialects, an estimate elsewhere."""

from __future__ import annotations

import json

from toolsense.document.document import Document
from toolsense.engine.context import ToolRegistry
from toolsense.features.hover import hover
from toolsense.features.query import build_hover_query, index_for
from toolsense.features.symbols import document_symbols
from toolsense.settings import Settings

URI = "file:///ws/tools/weather.tools.json"
TOOLS = [
    {"name": "get_weather", "description": "Get the weather.", "input_schema": {"type": "object"}},
    {"name": "ping", "description": "Check that the service answers.", "input_schema": {"type": "object"}},
]
OPENAI = [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather."}}]


def _hover_text(text: str, needle: str) -> str:
    document = Document.from_text(URI, text)
    offset = len(text[: text.index(needle) + 2].encode("utf-8"))
    query = build_hover_query(document, index_for(document, "tool"), offset, ToolRegistry(), Settings())
    answer = hover(query)
    assert answer is not None
    return answer.markdown


def test_hover_on_a_tool_name_shows_its_tokens_and_the_files() -> None:
    text = json.dumps(TOOLS, indent=2)
    shown = _hover_text(text, '"get_weather"')
    assert shown.startswith("**get_weather** — budget")
    assert shown.endswith(
        "\n\nTokens: ≈19 tokens (o200k_base estimate) with every request.\n\n"
        "The file's 2 tools: ≈39 tokens (o200k_base estimate)."
    )


def test_openai_counts_are_exact() -> None:
    shown = _hover_text(json.dumps(OPENAI, indent=2), '"get_weather"')
    assert shown.endswith("\n\nTokens: 19 tokens (o200k_base) with every request.")


def test_outline_details_carry_the_tokens() -> None:
    document = Document.from_text(URI, json.dumps(TOOLS, indent=2))
    details = [(s.name, s.detail) for s in document_symbols(document, "tool")]
    assert details == [
        ("get_weather", "anthropic · ≈19 tokens (o200k_base estimate)"),
        ("ping", "anthropic · ≈20 tokens (o200k_base estimate)"),
    ]
