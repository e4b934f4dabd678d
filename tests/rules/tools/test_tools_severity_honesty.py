"""An error means the provider or the MCP client rejects the tool, or the model is given a wrong contract;
anything less certain is a warning or nothing."""

from __future__ import annotations

import json
from typing import Any

from checking import check, codes, one, only
from positions import span

from toolsense.engine.findings import MoveMember
from toolsense.engine.units import Unit
from toolsense.rules.tools.structure import tool_subject
from toolsense.settings import DescriptionSettings, Settings

SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}


def anthropic(**extra: Any) -> dict[str, Any]:
    return {"name": "t", "description": "Does a thing.", "input_schema": SCHEMA, **extra}


def openai(**extra: Any) -> dict[str, Any]:
    function = {"name": "t", "description": "Does a thing.", "parameters": SCHEMA}
    return {"type": "function", "function": function, **extra}


# --- unknown keys ------------------------------------------------------------------------------------------


def test_an_apps_own_key_is_a_warning_in_a_tool_file() -> None:
    text = json.dumps([anthropic(category="weather")], indent=2)
    d = one(check(text), "TS101")
    assert d.severity == "warning" and d.text == '"category"'
    assert d.message.startswith("Unknown property 'category' in Anthropic tool 't'.")


def test_a_misspelt_known_key_is_an_error() -> None:
    text = json.dumps([anthropic(cache_contrl={"type": "ephemeral"})], indent=2)
    d = one(check(text), "TS101")
    assert d.severity == "error" and d.text == '"cache_contrl"'


def test_an_unknown_key_in_a_request_body_is_an_error() -> None:
    body = {"model": "claude-x", "max_tokens": 10, "messages": [], "tools": [anthropic(category="weather")]}
    text = json.dumps(body, indent=2)
    d = one(check(text), "TS101")
    assert d.severity == "error" and d.range == span(text, '"category"')


def test_vapis_documented_members_are_not_judged() -> None:
    text = json.dumps([openai(server={"url": "https://example.com/hook"}, messages=[], **{"async": False})], indent=2)
    assert "TS101" not in codes(check(text))
    d = one(check(json.dumps([openai(colour=1)], indent=2)), "TS101")
    assert d.severity == "warning"


def test_tools_are_named_by_their_name_not_their_display_title() -> None:
    record = {"id": 3, "name": "Get Weather", **openai()}
    assert tool_subject(Unit("tool", (), record, "openai", 0, 0, True)) == "OpenAI tool 't'"
    assert tool_subject(Unit("tool", (), {"name": "x", "inputSchema": {}}, "mcp", 0, 0, True), "2025-11-25") == (
        "MCP tool (2025-11-25) 'x'"
    )


# --- names -------------------------------------------------------------------------------------------------


def test_a_dotted_name_in_a_bare_function_list_is_not_judged_but_a_space_is_a_warning() -> None:
    """The bare {name, parameters} shape feeds Gemini and MCP servers too, which take '.' and ':'; no provider takes
    a space, but the file does not say it is OpenAI's, so that is a warning."""
    tool = {"name": "calendar.create_event", "description": "d", "parameters": SCHEMA}
    text = json.dumps([tool], indent=2)
    assert "TS201" not in codes(check(text))
    spaced = json.dumps([{**tool, "name": "create event"}], indent=2)
    d = one(check(spaced), "TS201")
    assert d.severity == "warning" and d.text == '"create event"'
    assert d.message == (
        'Tool name "create event" is not valid for OpenAI: it contains space (allowed: 1–64 characters of '
        "a-z A-Z 0-9 _ -)"
    )
    explicit = json.dumps([{"type": "function", **tool}], indent=2)
    assert one(check(explicit), "TS201").severity == "error"


# --- one provider's limit ------------------------------------------------------------------------------------


def test_openais_description_limit_is_not_applied_to_anthropic_tools() -> None:
    long = "x" * 1500
    assert "TS242" not in codes(check(json.dumps(anthropic(description=long), indent=2)))
    tool = openai()
    tool["function"]["description"] = long
    d = one(check(json.dumps(tool, indent=2)), "TS242")
    assert d.severity == "warning"
    assert d.message == "The tool description is 1500 characters long, more than OpenAI's limit (1024)"
    chosen = Settings(description=DescriptionSettings(max_length=1200))
    d = one(check(json.dumps(anthropic(description=long), indent=2), settings=chosen), "TS242")
    assert d.message == "The tool description is 1500 characters long, more than description.max_length (1200)"
    profiled = Settings(profiles=("openai",))
    assert one(check(json.dumps(anthropic(description=long), indent=2), settings=profiled), "TS242")


# --- one token, one diagnostic ------------------------------------------------------------------------------


def test_an_upper_case_root_type_is_one_diagnostic() -> None:
    text = json.dumps(anthropic(input_schema={"type": "OBJECT", "properties": {}}), indent=2)
    diags = [d for d in check(text) if d.text == '"OBJECT"']
    assert [(d.code, d.message) for d in diags] == [("TS214", 'Unknown type "OBJECT": JSON Schema calls it "object"')]


# --- TS220 and composed schemas --------------------------------------------------------------------------------


def test_a_schema_whose_properties_come_from_branches_is_not_told_to_close() -> None:
    schema = {
        "type": "object",
        "oneOf": [
            {"properties": {"id": {"type": "string", "description": "i"}}, "required": ["id"]},
            {"properties": {"name": {"type": "string", "description": "n"}}, "required": ["name"]},
        ],
    }
    text = json.dumps(anthropic(input_schema=schema), indent=2)
    # Each branch may be closed (it is checked on its own); the root may not: it lists no properties itself.
    assert [d.message for d in only(check(text), "TS220")] == [
        "oneOf branch 0 does not say `additionalProperties: false`: unknown keys are accepted",
        "oneOf branch 1 does not say `additionalProperties: false`: unknown keys are accepted",
    ]


def test_branches_of_an_object_with_its_own_properties_are_not_told_to_close() -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"type": "string", "description": "k"}},
        "additionalProperties": False,
        "anyOf": [{"properties": {"a": {"type": "string", "description": "a"}}}],
    }
    assert "TS220" not in codes(check(json.dumps(anthropic(input_schema=schema), indent=2)))


# --- a key in the wrong place ----------------------------------------------------------------------------------


def test_a_schema_keyword_beside_the_schema_says_where_it_belongs() -> None:
    text = json.dumps([anthropic(required=["city"])], indent=2)
    d = one(check(text), "TS101")
    assert d.severity == "error" and d.text == '"required"'
    assert (
        d.message == "'required' belongs inside 'input_schema': beside it, it is not part of the schema the model sees"
    )
    [move] = d.fixes
    assert move.title == "Move 'required' into 'input_schema'" and move.edits == (
        MoveMember((0, "required"), (0, "input_schema")),
    )
    mcp = {"name": "t", "description": "d", "inputSchema": SCHEMA, "required": ["city"]}
    d = one(check(json.dumps([mcp], indent=2)), "TS101")
    assert d.severity == "warning" and d.message.startswith("'required' belongs inside 'inputSchema'")


def test_a_keyword_the_schema_already_has_is_not_offered_a_move() -> None:
    schema = {**SCHEMA, "required": []}
    d = one(check(json.dumps([anthropic(input_schema=schema, required=["city"])], indent=2)), "TS101")
    assert d.message.startswith("Unknown property 'required' in Anthropic tool 't'")
    assert not any(isinstance(e, MoveMember) for f in d.fixes for e in f.edits)
