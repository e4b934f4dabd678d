"""TS221: a schema no value can satisfy, each contradiction at the keyword that makes it."""

from __future__ import annotations

import json

import pytest
from checking import check, only


def _tool(properties: dict[str, object], required: list[str] | None = None) -> str:
    schema: dict[str, object] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required is not None:
        schema["required"] = required
    return json.dumps({"name": "a", "description": "Does a.", "input_schema": schema})


@pytest.mark.parametrize(
    ("prop", "keyword", "message"),
    [
        ({"type": "string", "enum": []}, "[]", "`enum` is empty: no value can satisfy this schema"),
        (
            {"type": "integer", "minimum": 10, "maximum": 5},
            "10",
            "`minimum` 10 is above `maximum` 5: no number can satisfy this schema",
        ),
        (
            {"type": "number", "exclusiveMinimum": 5, "maximum": 5},
            "5",
            "`exclusiveMinimum` 5 is equal to `maximum` 5: no number can satisfy this schema",
        ),
        (
            {"type": "string", "minLength": 4, "maxLength": 2},
            "4",
            "`minLength` 4 is above `maxLength` 2: no value can satisfy this schema",
        ),
        (
            {"type": "array", "minItems": 3, "maxItems": 1},
            "3",
            "`minItems` 3 is above `maxItems` 1: no value can satisfy this schema",
        ),
        (
            {"const": "x", "enum": ["y", "z"]},
            '"x"',
            '`const` "x" is not in this schema\'s own `enum`: no value can satisfy both',
        ),
        ({"not": {}}, "{}", "`not` of a schema every value satisfies: no value can satisfy this schema"),
    ],
)
def test_a_contradiction_in_one_subschema(prop: dict[str, object], keyword: str, message: str) -> None:
    (found,) = only(check(_tool({"p": {"description": "P.", **prop}})), "TS221")
    assert (found.severity, found.message, found.text) == ("error", message, keyword)


def test_required_naming_a_property_forbidden_with_false() -> None:
    (found,) = only(check(_tool({"gone": False}, ["gone"])), "TS221")
    assert found.message == (
        "`required` names 'gone', which `properties` forbids with `false`: no object can satisfy this schema"
    )
    assert found.text == '"gone"'


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "integer", "minimum": 5, "maximum": 5},
        {"type": "string", "minLength": 2, "maxLength": 2},
        {"const": "y", "enum": ["y", "z"]},
        {"type": "number", "minimum": 1, "exclusiveMinimum": True, "maximum": 1},  # draft-04's flag: no bound
        {"enum": ["only"]},
        {"not": {"type": "null"}},
    ],
)
def test_a_satisfiable_schema_is_left_alone(prop: dict[str, object]) -> None:
    assert only(check(_tool({"p": {"description": "P.", **prop}})), "TS221") == []
