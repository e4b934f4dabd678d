"""TS201–TS204: tool names per dialect and profile; duplicates in a file and across the workspace."""

from __future__ import annotations

import json

from checking import check, codes, one, only, registry_of, tool
from positions import span

from toolsense.engine.findings import ReplaceValue
from toolsense.settings import Settings

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


def test_anthropic_names_follow_the_api_pattern() -> None:
    text = tool(SCHEMA, name="get weather!")
    d = one(check(text), "TS201")
    assert d.range == span(text, '"get weather!"')
    assert d.message == (
        "Tool name \"get weather!\" is not valid for Anthropic: it contains space, '!' (allowed: 1–128 characters of "
        "a-z A-Z 0-9 _ -)"
    )
    assert d.fixes[0].edits == (ReplaceValue(("name",), '"get_weather"'),)
    assert not d.fixes[0].safe


def test_openai_names_are_at_most_64_characters() -> None:
    name = "x" * 65
    text = json.dumps(
        {"type": "function", "function": {"name": name, "description": "d", "parameters": SCHEMA}}, indent=2
    )
    d = one(check(text), "TS201")
    assert d.message.endswith(
        "… is not valid for OpenAI: it is 65 characters long (allowed: 1–64 characters of a-z A-Z 0-9 _ -)"
    )
    assert d.fixes[0].edits == (ReplaceValue(("function", "name"), '"' + "x" * 64 + '"'),)


def test_mcp_names_are_a_should_so_a_warning_and_dots_are_fine() -> None:
    ok = json.dumps({"name": "files.read_file", "description": "d", "inputSchema": SCHEMA}, indent=2)
    assert check(ok) == []
    bad = json.dumps({"name": "Summarize Detection", "description": "d", "inputSchema": SCHEMA}, indent=2)
    d = one(check(bad), "TS204")
    assert d.severity == "warning"
    assert d.message == (
        'Tool name "Summarize Detection" is not valid for MCP: it contains space (allowed: 1–128 characters of '
        "A-Z a-z 0-9 _ . -)"
    )


def test_enabled_profiles_add_their_patterns() -> None:
    mcp = json.dumps({"name": "files.read", "description": "d", "inputSchema": SCHEMA}, indent=2)
    d = one(check(mcp, settings=Settings(profiles=("anthropic",))), "TS201")
    assert d.message == (
        "Tool name \"files.read\" is not valid for profile 'anthropic': it contains '.' (allowed: 1–128 characters "
        "of a-z A-Z 0-9 _ -)"
    )
    gemini = tool(SCHEMA, name="3d_render")
    d = one(check(gemini, settings=Settings(profiles=("gemini",))), "TS201")
    assert "it must start with a letter or _" in d.message


def test_duplicates_in_a_file_point_at_each_other() -> None:
    text = json.dumps(
        {
            "tools": [
                json.loads(tool(SCHEMA, name="a")),
                json.loads(tool(SCHEMA, name="b")),
                json.loads(tool(SCHEMA, name="a")),
            ]
        },
        indent=2,
    )
    diags = only(check(text), "TS202")
    assert [d.range for d in diags] == [span(text, '"a"', 0), span(text, '"a"', 1)]
    assert diags[0].message == "Duplicate tool name 'a': 2 tools in this file have it"
    related = diags[0].diagnostic.related
    assert len(related) == 1 and related[0].message == "'a' is also defined here"
    assert (related[0].range.start.line, related[0].range.start.character) == span(text, '"a"', 1)[:2]
    back = diags[1].diagnostic.related[0]
    assert (back.range.start.line, back.range.start.character) == span(text, '"a"', 0)[:2]


def test_duplicates_across_the_workspace_are_a_warning_with_the_other_place() -> None:
    other_uri = "file:///work/project/tools/other.json"
    registry = registry_of((other_uri, tool(SCHEMA, name="get_weather")))
    text = tool(SCHEMA, name="get_weather")
    d = one(check(text, registry=registry), "TS203")
    assert d.severity == "warning"
    assert d.message == (
        "Tool 'get_weather' is also defined in other.json: calls and automations naming it are ambiguous"
    )
    finding = d.diagnostic.finding
    assert finding is not None and finding.related[0].uri == other_uri and finding.related[0].pointer == ("name",)
    # The file's own entry in the registry is not a duplicate of itself.
    mine = registry_of(("file:///work/project/tools/sample.json", text))
    assert "TS203" not in codes(check(text, registry=mine))


def test_anthropic_allows_names_of_up_to_128_characters() -> None:
    # The Messages API's pattern grew from {1,64} to {1,128} in 2025 (tests/corpus/compat/claude-code/*name*).
    assert not [d for d in check(tool(SCHEMA, name="x" * 128)) if d.code == "TS201"]
    d = one(check(tool(SCHEMA, name="x" * 129)), "TS201")
    assert "it is 129 characters long (allowed: 1–128 characters" in d.message
