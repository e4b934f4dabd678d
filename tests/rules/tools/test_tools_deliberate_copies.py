"""TS203 only where a call, an automation or one request could mean either definition: the same tools kept once
per provider, once per language, or copied verbatim are deliberate copies, not ambiguous names."""

from __future__ import annotations

import json
from typing import Any

from checking import check, registry_of

MINE = "file:///work/project/tools/sample.json"
OTHER = "file:///work/project/other/tools.json"
CITY = {"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": False}
QUERY = {"type": "object", "properties": {"query": {"type": "string"}}, "additionalProperties": False}


def _anthropic(*tools: tuple[str, dict[str, Any], str]) -> str:
    return json.dumps([{"name": n, "description": d, "input_schema": s} for n, s, d in tools], indent=2)


def _ts203(text: str, *others: tuple[str, str]) -> list[str]:
    registry = registry_of((MINE, text), *others)
    return [d.message for d in check(text, None, registry=registry) if d.code == "TS203"]


def test_the_same_tools_kept_once_per_provider_are_no_ambiguity() -> None:
    mine = _anthropic(("get_weather", CITY, "Weather for a city."), ("search", QUERY, "Search the web."))
    bedrock = json.dumps(
        {
            "toolConfig": {
                "tools": [
                    {"toolSpec": {"name": "get_weather", "description": "Weather.", "inputSchema": {"json": QUERY}}},
                    {"toolSpec": {"name": "search", "description": "Search.", "inputSchema": {"json": CITY}}},
                ]
            }
        }
    )
    assert _ts203(mine, (OTHER, bedrock)) == []


def test_the_same_tools_kept_once_per_language_are_no_ambiguity() -> None:
    english = _anthropic(("get_weather", CITY, "Weather for a city."), ("search", QUERY, "Search the web."))
    german = _anthropic(
        ("get_weather", {**CITY, "required": ["city"]}, "Wetter für eine Stadt."),
        ("search", QUERY, "Im Web suchen."),
    )
    assert _ts203(english, ("file:///work/project/i18n/de/tools.json", german)) == []


def test_a_verbatim_copy_of_one_tool_is_no_ambiguity() -> None:
    mine = _anthropic(("get_weather", CITY, "Weather for a city."))
    copy = _anthropic(("get_weather", CITY, "Weather for a city."), ("other", QUERY, "Something else."))
    assert _ts203(mine, (OTHER, copy)) == []


def test_two_different_tools_of_one_name_in_one_dialect_are_ambiguous() -> None:
    mine = _anthropic(("search", QUERY, "Search the web."), ("get_weather", CITY, "Weather."))
    theirs = _anthropic(("search", CITY, "Search the files of a city."), ("read_file", QUERY, "Read a file."))
    assert _ts203(mine, (OTHER, theirs)) == [
        "Tool 'search' is also defined in other/tools.json: calls and automations naming it are ambiguous"
    ]
