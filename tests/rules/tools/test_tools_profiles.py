"""TS260–TS268: provider profiles (OpenAI strict, Anthropic strict, Gemini), limits, and the budget hover text."""

from __future__ import annotations

import json

from checking import check, codes, one, tool
from positions import span

from toolsense.domain.providers import AS_OF, profile_limits, tool_budget
from toolsense.domain.tool import tool_view
from toolsense.engine.findings import InsertMembers, ReplaceValue
from toolsense.engine.units import Unit
from toolsense.features.tool_help import budget_markdown
from toolsense.settings import ProfileLimits, Settings


def openai(parameters: dict[str, object], strict: bool = True, name: str = "f") -> str:
    function: dict[str, object] = {"name": name, "description": "d", "parameters": parameters}
    if strict:
        function["strict"] = True
    return json.dumps({"type": "function", "function": function}, indent=2)


def test_openai_strict_requires_every_property_and_offers_make_strict() -> None:
    text = openai(
        {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "c"},
                "unit": {"type": "string", "enum": ["c", "f"], "description": "u"},
            },
            "required": ["city"],
            "additionalProperties": False,
        }
    )
    d = one(check(text), "TS260")
    assert d.range == span(text, '"unit"')
    assert d.message == (
        "OpenAI strict (strict: true): property 'unit' must be listed in 'required'; make it optional with a null "
        'type (["T", "null"]) instead'
    )
    fix = d.fixes[0]
    assert fix.title == "Make strict: require every property, optional ones nullable" and not fix.safe
    base = ("function", "parameters")
    assert fix.edits == (
        ReplaceValue((*base, "required"), '["city", "unit"]'),
        ReplaceValue((*base, "properties", "unit", "type"), '["string", "null"]'),
        ReplaceValue((*base, "properties", "unit", "enum"), '["c", "f", null]'),
    )


def test_openai_strict_unsupported_keywords_and_open_objects() -> None:
    text = openai(
        {
            "type": "object",
            "properties": {"a": {"type": "string", "description": "a", "format": "uri"}},
            "required": ["a"],
            "allOf": [{"required": ["a"]}],
        }
    )
    diags = check(text)
    assert [(d.code, d.text) for d in diags if d.code.startswith("TS26")] == [
        ("TS263", '"parameters"'),
        ("TS261", '"uri"'),
        ("TS269", '"allOf"'),  # at the root: the top-level combinator rule says it (once)
    ]
    messages = {d.text: d.message for d in diags}
    assert messages['"allOf"'] == (
        "OpenAI tool 'f', 'function.parameters': 'allOf' at the top level of the input schema; OpenAI "
        "strict mode rejects it: the root must be a plain object schema"
    )
    assert messages['"uri"'].startswith('OpenAI strict (strict: true) does not support format "uri" (supported: date,')
    closed = one(diags, "TS263")
    assert closed.fixes[0].safe
    assert closed.fixes[0].edits == (InsertMembers(("function", "parameters"), (("additionalProperties", "false"),)),)


def test_the_profile_applies_to_every_tool_without_strict() -> None:
    text = openai(
        {"type": "object", "properties": {"a": {"type": "string", "description": "a"}}, "additionalProperties": False},
        strict=False,
    )
    assert codes(check(text)) == []
    diags = check(text, settings=Settings(profiles=("openai-strict",)))
    assert codes(diags) == ["TS260"]
    assert diags[0].message.startswith("OpenAI strict (profile 'openai-strict'): property 'a' must be listed")


def test_anthropic_strict_subset() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "description": "n"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "description": "t"},
            "shape": {"enum": [{"x": 1}, "square"], "description": "s"},
            "tree": {"$ref": "#/$defs/Node"},
        },
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "description": "c"}},
                "additionalProperties": False,
                "description": "A node",
            }
        },
        "additionalProperties": False,
    }
    text = tool(schema, strict=True)
    diags = check(text)
    assert [(d.code, d.text, d.message) for d in diags] == [
        (
            "TS267",
            '"input_schema"',
            "Anthropic strict (strict: true) does not support recursive schemas (a $ref cycle)",
        ),
        (
            "TS261",
            '"minimum"',
            "Anthropic strict (strict: true) does not support 'minimum' (the SDK moves it into the description)",
        ),
        ("TS261", "2", "Anthropic strict (strict: true) supports minItems 0 or 1 only, found 2"),
        (
            "TS268",
            '{\n            "x": 1\n          }',
            'Anthropic strict (strict: true): enum values must be primitives, found {"x": 1}',
        ),
    ]


def test_gemini_subset() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": ["string", "null"], "description": "a"}, "b": {"const": 1, "description": "b"}},
        "additionalProperties": False,
    }
    diags = check(tool(schema), settings=Settings(profiles=("gemini",)))
    assert [(d.code, "".join(d.text.split()), d.message) for d in diags] == [
        ("TS265", '["string","null"]', 'Gemini: `type` must be a single type name; use "nullable": true for null'),
        ("TS265", '"const"', "Gemini function parameters (OpenAPI 3.0 subset) do not support 'const'"),
        (
            "TS265",
            '"additionalProperties"',
            "The Gemini API's function parameters (OpenAPI 3.0 subset) do not support 'additionalProperties' (Vertex "
            "AI's do); for the Gemini API send the schema as `parametersJsonSchema`",
        ),
    ]
    assert "TS220" not in codes(
        check(tool({"type": "object", "properties": {}}), settings=Settings(profiles=("gemini",)))
    )


def test_limits_are_dated_defaults_and_overridable() -> None:
    assert profile_limits("openai-strict", Settings()).max_properties == 5000
    settings = Settings(profiles=("openai-strict",), profile_limits={"openai-strict": ProfileLimits(max_properties=2)})
    merged = profile_limits("openai-strict", settings)
    assert merged.max_properties == 2 and merged.max_depth == 10
    schema = {
        "type": "object",
        "properties": {k: {"type": "string", "description": k} for k in "abc"},
        "required": list("abc"),
        "additionalProperties": False,
    }
    text = openai(schema, strict=False)
    d = one(check(text, settings=settings), "TS262")
    assert d.range == span(text, '"parameters"')
    assert d.message == (
        f"OpenAI strict (profile 'openai-strict') allows at most 2 properties; this tool has 3 (limit as of {AS_OF}; "
        "override in profile_limits.openai-strict)"
    )


def test_too_many_tools_in_an_openai_file() -> None:
    small = {"type": "object", "properties": {}, "additionalProperties": False}
    tools = [json.loads(openai(small, strict=False, name=f"f{i}")) for i in range(129)]
    text = json.dumps(tools, indent=1)
    d = one(check(text), "TS266")
    assert d.text == '"f128"'
    assert d.message == f"OpenAI accepts at most 128 tools per request; this file defines 129 (limit as of {AS_OF})"


def test_budget_counts_and_markdown() -> None:
    schema = {
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["c", "f"], "description": "u"},
            "where": {"anyOf": [{"$ref": "#/$defs/Place"}, {"type": "null"}], "description": "w"},
        },
        "required": ["unit"],
        "$defs": {
            "Place": {"type": "object", "properties": {"lat": {"type": "number"}}, "additionalProperties": False}
        },
        "additionalProperties": False,
    }
    budget = tool_budget(schema)
    assert (
        budget.properties,
        budget.depth,
        budget.enum_values,
        budget.optional_parameters,
        budget.union_parameters,
    ) == (3, 2, 2, 2, 1)
    assert budget.total_chars == len("unit") + len("where") + len("Place") + len("lat") + 2
    unit = Unit("tool", (), json.loads(tool(schema, name="weather", strict=True)), "anthropic", 0, 0, True)
    view = tool_view(unit)
    assert view is not None
    text = budget_markdown(view, Settings(profiles=("openai-strict",)))
    assert text.splitlines()[0] == f"**weather** — budget (limits as of {AS_OF})"
    assert "| | this tool | openai-strict | anthropic-strict |" in text
    assert "| properties | 3 | 5000 | — |" in text
    assert "| optional parameters | 2 | — | 24 |" in text


def test_anthropic_strict_refuses_max_items() -> None:
    # Refused by the API though not in the documented list: tests/corpus/compat/anthropic-strict/maxitems-*.json.
    schema = {
        "type": "object",
        "properties": {"ids": {"type": "array", "items": {"type": "string"}, "maxItems": 10, "description": "i"}},
        "required": ["ids"],
        "additionalProperties": False,
    }
    diags = check(tool(schema, strict=True))
    assert [(d.code, d.text) for d in diags] == [("TS261", '"maxItems"')]
