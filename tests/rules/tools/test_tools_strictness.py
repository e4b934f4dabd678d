"""TS220: every object schema says `additionalProperties: false` — nested, items, $defs, anyOf."""

from __future__ import annotations

import json

from checking import check, codes, only, tool
from positions import line_of, span

from toolsense.engine.findings import InsertMembers
from toolsense.settings import Settings

SEED_STYLE = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Board name"},
        "inline_query_panels": {
            "type": "array",
            "description": "Query panels",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "Panel name"},
                    "position": {"$ref": "#/$defs/Position"},
                },
            },
        },
        "layout": {
            "anyOf": [
                {"type": "object", "properties": {"mode": {"type": "string", "description": "m"}}},
                {"type": "null"},
            ],
            "description": "Layout",
        },
    },
    "$defs": {
        "Position": {
            "type": "object",
            "description": "Position",
            "properties": {"x_coordinate": {"type": "integer", "description": "x"}},
        }
    },
}


def test_every_open_object_is_reported_where_it_is_declared() -> None:
    text = tool(SEED_STYLE)
    anyof_line = line_of(text, '"anyOf"')[0]
    branch = (anyof_line + 1, 10, anyof_line + 1, 11)  # the branch's opening brace
    diags = only(check(text), "TS220")
    assert [(d.range, d.message) for d in diags] == [
        (
            span(text, '"input_schema"'),
            "The input schema's root object does not say `additionalProperties: false`: unknown keys are accepted",
        ),
        (
            span(text, '"items"'),
            "The items of 'inline_query_panels' does not say `additionalProperties: false`: unknown keys are accepted",
        ),
        (branch, "anyOf branch 0 does not say `additionalProperties: false`: unknown keys are accepted"),
        (
            span(text, '"Position"'),
            "Definition 'Position' does not say `additionalProperties: false`: unknown keys are accepted",
        ),
    ]
    assert all(d.severity == "information" for d in diags)  # advice outside a strict dialect (issue 30)
    fix = diags[1].fixes[0]
    assert fix.safe and fix.preferred
    assert fix.edits == (
        InsertMembers(
            ("input_schema", "properties", "inline_query_panels", "items"), (("additionalProperties", "false"),)
        ),
    )


def test_closed_objects_and_explicit_maps_are_fine() -> None:
    value = {
        "type": "object",
        "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"}, "description": "map"},
            "meta": {"type": "object", "additionalProperties": True, "description": "free-form"},
        },
        "additionalProperties": False,
    }
    assert check(tool(value)) == []


def test_an_object_without_properties_gets_two_unsafe_choices() -> None:
    text = tool(
        {
            "type": "object",
            "properties": {"meta": {"type": "object", "description": "m"}},
            "additionalProperties": False,
        }
    )
    (d,) = only(check(text), "TS220")
    assert d.text == '"meta"'
    assert d.message == (
        "Object 'meta' declares no properties and does not say `additionalProperties`: list its "
        "properties and close it, "
        "or say `additionalProperties: true` if any keys are meant"
    )
    assert [(f.title, f.safe) for f in d.fixes] == [
        ("Add additionalProperties: true (any keys)", False),
        ("Add additionalProperties: false (only {})", False),
    ]


def test_allof_branches_and_conditions_are_left_alone() -> None:
    value = {
        "type": "object",
        "allOf": [{"type": "object", "properties": {"a": {"type": "string", "description": "a"}}}],
        "properties": {"b": {"type": "string", "description": "b", "not": {"type": "object", "properties": {}}}},
        "unevaluatedProperties": False,
    }
    assert "TS220" not in codes(check(tool(value)))


def test_severity_is_configurable() -> None:
    text = tool({"type": "object", "properties": {"a": {"type": "string", "description": "a"}}})
    assert [d.severity for d in check(text, settings=Settings(severity={"TS220": "error"}))] == ["error"]
    assert check(text, settings=Settings(severity={"TS220": "off"})) == []


def test_strict_tools_get_the_profile_error_instead() -> None:
    value = json.loads(
        tool({"type": "object", "properties": {"a": {"type": "string", "description": "a"}}, "required": ["a"]})
    )
    value["strict"] = True
    diags = check(json.dumps(value, indent=2))
    assert codes(diags) == ["TS263"]
    assert diags[0].message == "anthropic-strict: the root object must have `additionalProperties: false`"


def test_a_gemini_target_is_not_advised_to_close_objects() -> None:
    # Gemini's parameters refuse `additionalProperties` (TS264 would follow the advice's own fix).
    text = tool({"type": "object", "properties": {"a": {"type": "string", "description": "a"}}})
    assert codes(check(text, settings=Settings(targets=("claude-code",)))) == ["TS220"]
    assert codes(check(text, settings=Settings(targets=("claude-code", "gemini-api")))) == []
