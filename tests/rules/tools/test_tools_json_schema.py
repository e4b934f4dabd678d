"""TS210–TS218: the input schema is a valid JSON Schema, each problem placed inside the schema."""

from __future__ import annotations

import json
import urllib.request

import pytest
from checking import CORPUS, check, codes, one, only, tool
from positions import span

from toolsense.engine.findings import InsertMembers, RemoveMember, ReplaceValue
from toolsense.settings import LimitsSettings, McpSettings, Settings


def schema(**properties: object) -> dict[str, object]:
    return {"type": "object", "properties": properties, "additionalProperties": False}


def test_bfcl_dict_and_float_are_unknown_types_with_the_right_name_offered_safely() -> None:
    text = tool(
        {
            "type": "dict",
            "properties": {
                "x": {"type": "float", "description": "x"},
                "tags": {"type": "list", "items": {"type": "str"}, "description": "t"},
            },
            "required": ["x"],
        }
    )
    diags = only(check(text), "TS214")
    assert [(d.text, d.message) for d in diags] == [
        ('"dict"', 'Unknown type "dict": JSON Schema calls it "object"'),
        ('"float"', 'Unknown type "float": JSON Schema calls it "number"'),
        ('"list"', 'Unknown type "list": JSON Schema calls it "array"'),
        ('"str"', 'Unknown type "str": JSON Schema calls it "string"'),
    ]
    assert diags[0].range == span(text, '"dict"')
    fix = diags[0].fixes[0]
    assert fix.safe and fix.preferred and fix.edits == (ReplaceValue(("input_schema", "type"), '"object"'),)
    # The meta-schema check does not report the same names again, and the root-type rule leaves "dict" to TS214.
    assert "TS210" not in codes(check(text)) and "TS211" not in codes(check(text))


def test_unknown_type_in_a_type_list_and_a_typo() -> None:
    text = tool(schema(a={"type": ["strin", "null"], "description": "a"}))
    d = one(check(text), "TS214")
    assert d.text == '"strin"'
    assert (
        d.message == 'Unknown type "strin": expected one of array, boolean, integer, null, number, object, '
        'string. Did you mean "string"?'
    )
    assert not d.fixes[0].safe


def test_meta_schema_errors_are_placed_inside_the_schema() -> None:
    text = tool(
        {
            "type": "object",
            "properties": {"a": "string", "b": {"type": "integer", "minimum": "5", "description": "b"}},
            "required": "a",
            "additionalProperties": "false",
        }
    )
    diags = only(check(text), "TS210")
    assert [(d.text, d.message) for d in diags] == [
        (
            '"string"',
            "Anthropic tool 't', 'input_schema.properties.a': expected a schema (an object, or true/false) at 'a', "
            'found string "string". Did you mean {"type": "string"}? (draft-07)',
        ),
        (
            '"5"',
            "Anthropic tool 't', 'input_schema.properties.b.minimum': 'minimum' must be a number, found string "
            '"5" (draft-07)',
        ),
        (
            '"a"',
            "Anthropic tool 't', 'input_schema.required': 'required' must be an array, found string \"a\" (draft-07)",
        ),
        (
            '"false"',
            "Anthropic tool 't', 'input_schema.additionalProperties': expected a schema (an object, or true/false) at "
            "'additionalProperties', found string \"false\" (draft-07)",
        ),
    ]
    by_text = {d.text: d for d in diags}
    assert by_text['"false"'].range == span(text, '"false"')
    assert by_text['"false"'].fixes[0].safe
    assert by_text['"false"'].fixes[0].edits == (ReplaceValue(("input_schema", "additionalProperties"), "false"),)
    assert by_text['"string"'].fixes[0].edits == (
        ReplaceValue(("input_schema", "properties", "a"), '{"type": "string"}'),
    )
    assert by_text['"5"'].fixes[0].edits == (ReplaceValue(("input_schema", "properties", "b", "minimum"), "5"),)


def test_mcp_schemas_are_checked_as_2020_12_and_dollar_schema_wins() -> None:
    # prefixItems is 2020-12; in draft-07 "items" must not be an array of 1 with minItems "x"…
    mcp = json.dumps(
        {
            "name": "m",
            "description": "d",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "array", "minItems": -1, "description": "a"}},
                "additionalProperties": False,
            },
        },
        indent=2,
    )
    d = one(check(mcp), "TS210")
    assert (
        d.message
        == "MCP tool 'm', 'inputSchema.properties.a.minItems': 'minItems' must be at least 0, found -1 (2020-12)"
    )
    draft7 = json.loads(mcp)
    draft7["inputSchema"]["$schema"] = "http://json-schema.org/draft-07/schema#"
    assert one(check(json.dumps(draft7, indent=2)), "TS210").message.endswith("(draft-07)")


def test_unknown_dialect_is_a_warning_on_dollar_schema() -> None:
    text = tool({"$schema": "https://example.com/my-dialect", **schema()})
    d = one(check(text), "TS218")
    assert d.severity == "warning"
    assert d.text == '"https://example.com/my-dialect"'
    assert d.message == 'Unknown JSON Schema dialect "https://example.com/my-dialect": checked as draft-07'


def test_root_must_be_an_object() -> None:
    missing = tool({"properties": {"a": {"type": "string", "description": "a"}}, "additionalProperties": False})
    d = one(check(missing), "TS211")
    assert d.range == span(missing, '"input_schema"')
    assert d.message == 'The root of the input schema must say `"type": "object"`'
    assert d.fixes[0].edits == (InsertMembers(("input_schema",), (("type", '"object"'),)),)
    array = tool({"type": "array", "items": {"type": "string"}})
    d = one(check(array), "TS211")
    assert d.text == '"array"'
    assert d.message == 'The root of the input schema must be `"type": "object"`, found "array"'
    union = tool({"anyOf": [schema(), {"type": "null"}]})
    assert one(check(union), "TS211").message == (
        'The root of the input schema must be `"type": "object"` itself, not a reference or a union'
    )


def test_required_names_must_be_defined_with_did_you_mean() -> None:
    text = tool(
        {
            **schema(city={"type": "string", "description": "c"}, unit={"type": "string", "description": "u"}),
            "required": ["citty", "unit"],
        }
    )
    d = one(check(text), "TS212")
    assert d.range == span(text, '"citty"')
    assert d.message == "Required property 'citty' is not defined in 'properties'. Did you mean 'city'?"
    assert d.fixes[0].edits == (ReplaceValue(("input_schema", "required", 0), '"city"'),)


def test_duplicate_enum_values_are_removed_safely() -> None:
    text = tool(schema(unit={"type": "string", "description": "u", "enum": ["c", "f", "c", 1, 1.0, True]}))
    diags = only(check(text), "TS213")
    assert [d.message for d in diags] == [
        'Duplicate enum value "c" (already at index 0)',
        "Duplicate enum value 1.0 (already at index 3)",
    ]
    assert diags[0].severity == "warning"
    assert diags[0].fixes[0].safe and diags[0].fixes[0].edits == (
        RemoveMember(("input_schema", "properties", "unit", "enum", 2)),
    )


def test_local_refs_must_resolve_and_are_offered_the_closest_definition() -> None:
    text = tool(
        {
            **schema(
                p={"$ref": "#/$defs/Positon", "description": "p"}, q={"$ref": "#/$defs/Position"}, r={"$ref": "#anchor"}
            ),
            "$defs": {"Position": {**schema(x={"type": "integer", "description": "x"}), "$anchor": "anchor"}},
        }
    )
    d = one(check(text), "TS215")
    assert d.text == '"#/$defs/Positon"'
    assert d.message == '$ref "#/$defs/Positon" does not resolve inside the schema. Did you mean "#/$defs/Position"?'


def test_network_refs_are_reported_and_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("toolsense tried to fetch a URL")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    text = tool(
        schema(a={"$ref": "https://example.com/schemas/address.json", "description": "a"}),
        input_examples=[{"a": {"street": "x"}}],
    )
    diags = check(text)
    d = one(diags, "TS216")
    assert d.text == '"https://example.com/schemas/address.json"'
    assert d.message.startswith(
        '$ref "https://example.com/schemas/address.json" points outside this schema: it is not fetched'
    )
    cut = one(diags, "TS236")
    assert cut.message == (
        "Checking input example 1 was cut short: a $ref was not resolved and is never fetched "
        "('https://example.com/schemas/address.json')"
    )


def test_meta_schema_refs_are_known_offline() -> None:
    text = tool(schema(s={"$ref": "http://json-schema.org/draft-07/schema#", "description": "a schema"}))
    assert "TS216" not in codes(check(text))


def test_work_is_bounded_by_depth_and_subschema_count() -> None:
    deep: dict[str, object] = {"type": "string", "description": "leaf"}
    for _ in range(12):
        deep = schema(n={**deep, "description": "n"} if "description" not in deep else deep)
    text = tool(deep)
    settings = Settings(limits=LimitsSettings(max_schema_depth=6))
    d = one(check(text, settings=settings), "TS217")
    assert (
        d.message == "The input schema is nested deeper than 6 levels (limits.max_schema_depth): checks were cut short"
    )
    assert d.range == span(text, '"input_schema"')
    wide = tool(schema(**{f"p{i}": {"type": "string", "description": "p"} for i in range(50)}))
    d = one(check(wide, settings=Settings(limits=LimitsSettings(max_subschemas=10))), "TS217")
    assert "more than 10 subschemas" in d.message


def test_mcp_output_schema_is_checked_too() -> None:
    text = json.dumps(
        {
            "name": "m",
            "description": "d",
            "inputSchema": {"type": "object", "additionalProperties": False},
            "outputSchema": {"type": "array", "items": {"type": "dict"}},
        },
        indent=2,
    )
    older = Settings(mcp=McpSettings(protocol_version="2025-11-25"))
    diags = check(text, settings=older)
    message = one(diags, "TS211").message
    assert message == 'The root of an MCP 2025-11-25 outputSchema must be `"type": "object"`, found "array"'
    assert one(diags, "TS214").text == '"dict"'
    # Since 2026-07-28 (the default) an outputSchema may be any JSON Schema; what is inside is still checked.
    diags = check(text)
    assert "TS211" not in codes(diags)
    assert one(diags, "TS214").text == '"dict"'


def test_a_valid_pydantic_style_schema_has_no_findings() -> None:
    text = tool(
        {
            "$defs": {"Unit": {"type": "string", "enum": ["c", "f"], "description": "Unit"}},
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City"},
                "unit": {"anyOf": [{"$ref": "#/$defs/Unit"}, {"type": "null"}], "default": None, "description": "u"},
            },
            "required": ["city"],
            "additionalProperties": False,
        }
    )
    assert check(text) == []


INVALID_SCHEMAS: list[object] = [
    {"type": "dict"},
    {"properties": {"a": "string"}},
    {"required": "a"},
    {"minItems": -1},
    {"items": [{"type": "string"}]},
    {"$defs": {"x": {"type": 5}}},
    {"prefixItems": {}},
    {"pattern": "("},
    {"enum": 5},
    {"additionalProperties": "false"},
    {"dependentRequired": {"a": [1]}},
    {"$id": 5},
    {"format": 3},
    {"if": "x"},
    {"properties": {"a": {"properties": {"b": {"type": ["string", "strin"]}}}}},
    {"anyOf": []},
    {"$anchor": "1bad"},
    {"definitions": {"x": {"type": 3}}},
    {"dependencies": {"a": 3}},
    {"type": "object", "properties": {"a": {"type": "string", "minLength": "1"}}, "required": ["a", "a"]},
]


def _corpus_schemas() -> list[object]:
    corpus = CORPUS
    found: list[object] = []

    def visit(node: object) -> None:
        if isinstance(node, dict):
            for key in ("inputSchema", "input_schema", "parameters", "outputSchema"):
                if isinstance(node.get(key), dict):
                    found.append(node[key])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    if corpus.is_dir():
        for path in sorted(corpus.rglob("*")):
            if path.suffix not in (".json", ".snap") or not path.is_file():
                continue
            try:
                visit(json.loads(path.read_text(encoding="utf-8")))
            except ValueError:
                for line in path.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        visit(json.loads(line))
    return found


def test_the_flattened_2020_12_meta_schema_judges_like_the_original() -> None:
    from jsonschema import Draft202012Validator

    from toolsense.rules.tools.schema_meta import flat_2020_12_meta_schema

    fast = Draft202012Validator(flat_2020_12_meta_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    original = Draft202012Validator(
        Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    corpus = _corpus_schemas()
    schemas = INVALID_SCHEMAS + corpus
    for schema in schemas:
        got = {(tuple(map(str, e.absolute_path)), e.validator) for e in fast.iter_errors(schema)}
        want = {(tuple(map(str, e.absolute_path)), e.validator) for e in original.iter_errors(schema)}
        assert got == want, schema
    assert len(INVALID_SCHEMAS) >= 20
    # Without ../shared (a clone elsewhere) only the hand-written schemas are compared; with it, hundreds more.
    assert corpus or not CORPUS.is_dir()


def test_a_2020_12_error_is_reported_once() -> None:
    text = json.dumps(
        {"name": "m", "description": "d", "inputSchema": {"type": "object", "properties": {"a": "string"}}}, indent=2
    )
    assert [d.text for d in only(check(text), "TS210")] == ['"string"']


def test_the_fast_path_never_calls_an_invalid_schema_valid() -> None:
    from jsonschema import Draft7Validator, Draft202012Validator

    from toolsense.rules.tools.schema_meta import flat_2020_12_meta_schema, quick_valid

    checks = {
        Draft7Validator: Draft7Validator(Draft7Validator.META_SCHEMA, format_checker=Draft7Validator.FORMAT_CHECKER),
        Draft202012Validator: Draft202012Validator(
            flat_2020_12_meta_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER
        ),
    }
    tricky: list[object] = [
        {"type": "integer", "minimum": True},
        {"exclusiveMinimum": False},
        {"minLength": 1.5},
        {"multipleOf": 0},
        {"type": ["string", "string"]},
        {"required": ["a", "a"]},
        {"pattern": "[a-"},
        {"items": [{"type": "string"}], "type": "array"},
        {"properties": {"a": {"$ref": "#/$defs/a b"}}},
        {"enum": {"a": 1}},
        {"anyOf": []},
        {"uniqueItems": "yes"},
    ]
    schemas = INVALID_SCHEMAS + tricky + _corpus_schemas()
    fast = 0
    for schema in schemas:
        for cls, meta in checks.items():
            if quick_valid(schema, cls):
                fast += 1
                assert list(meta.iter_errors(schema)) == [], (cls.__name__, schema)
    assert fast > 0.8 * len(_corpus_schemas())  # the common shapes do take the fast path
