"""TS201–TS204: tool names per dialect and profile; duplicates in a file and across the workspace."""

from __future__ import annotations

import json

import pytest
from tooltest import check, codes, one, only, registry_of, span, tool

from toolsense.engine.catalog import CATALOG
from toolsense.engine.context import CheckContext
from toolsense.engine.findings import MAX_RELATED, Finding, Related, ReplaceValue
from toolsense.engine.units import Unit
from toolsense.settings import Settings

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


def test_anthropic_names_follow_the_api_pattern() -> None:
    text = tool(SCHEMA, name="get weather!")
    d = one(check(text), "TS201")
    assert d.range == span(text, '"get weather!"')
    assert d.message == (
        "Tool name \"get weather!\" is not valid for Anthropic: it contains space, '!' (allowed: 1–64 characters of "
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
        "Tool name \"files.read\" is not valid for profile 'anthropic': it contains '.' (allowed: 1–64 characters "
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


def _same_name_tools(count: int) -> str:
    return json.dumps([{"name": "same", "description": "d", "input_schema": SCHEMA} for _ in range(count)])


def test_many_tools_sharing_a_name_list_a_bounded_number_of_others() -> None:
    """n tools with one name are n findings; each lists at most MAX_RELATED others (not n - 1), so the output
    grows linearly: doubling n doubles the related locations (1,000 tools once made 999,000)."""
    totals = {}
    for count in (150, 300):
        diags = only(check(_same_name_tools(count)), "TS202")
        assert len(diags) == count
        assert {d.message for d in diags} == {
            f"Duplicate tool name 'same': {count} tools in this file have it (the first 10 others are listed)"
        }
        assert all(len(d.diagnostic.related) == MAX_RELATED for d in diags)
        totals[count] = sum(len(d.diagnostic.related) for d in diags)
        first = diags[0].diagnostic.related
        assert [r.range.start.line for r in first] == [0] * MAX_RELATED  # one line of JSON: all on line 0
        assert diags[0].range not in [(r.range.start.line, r.range.start.character) for r in first]
    assert totals[300] == 2 * totals[150] == 2 * 150 * MAX_RELATED


def test_a_few_duplicates_still_list_every_other() -> None:
    diags = only(check(_same_name_tools(4)), "TS202")
    assert diags[0].message == "Duplicate tool name 'same': 4 tools in this file have it"
    assert [len(d.diagnostic.related) for d in diags] == [3, 3, 3, 3]
    assert all(
        d.range[:2] not in [(r.range.start.line, r.range.start.character) for r in d.diagnostic.related] for d in diags
    )


def test_many_duplicates_across_the_workspace_are_counted_not_all_listed() -> None:
    other_uri = "file:///work/project/tools/other.json"
    own_uri = "file:///work/project/tools/sample.json"
    text = _same_name_tools(40)
    registry = registry_of((other_uri, _same_name_tools(30)), (own_uri, text))
    diags = only(check(text, registry=registry, uri=own_uri), "TS203")
    assert len(diags) == 40
    assert diags[0].message == (
        "Tool 'same' is also defined in other.json (and 29 more): calls and automations naming it are ambiguous"
    )
    finding = diags[0].diagnostic.finding
    assert finding is not None
    assert len(finding.related) == MAX_RELATED and {r.uri for r in finding.related} == {other_uri}


def test_related_locations_are_capped_whatever_a_rule_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker places at most MAX_RELATED related locations for any finding."""
    many = tuple(Related("here", ("name",)) for _ in range(MAX_RELATED * 5))

    def noisy(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
        return (Finding("TS202", "many", ("name",), related=many),)

    monkeypatch.setitem(CATALOG.unit_checks, "tool", [*CATALOG.unit_checks["tool"], noisy])
    (placed,) = [d for d in check(tool(SCHEMA)) if d.message == "many"]
    assert len(placed.diagnostic.related) == MAX_RELATED
