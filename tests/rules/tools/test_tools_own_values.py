"""TS219: `default`, `examples`, `const` and `enum` members checked against the (sub)schema they sit in."""

from __future__ import annotations

from typing import Any

from checking import check, only, tool


def own(properties: dict[str, Any], **root: Any) -> list[tuple[str, str, str]]:
    schema = {"type": "object", "properties": properties, "additionalProperties": False, **root}
    return [(d.severity, d.text, d.message) for d in only(check(tool(schema)), "TS219")]


def test_a_default_outside_the_enum_is_an_error() -> None:
    found = own({"scope": {"type": "string", "description": "s", "enum": ["team", "org"], "default": "all"}})
    assert found == [
        ("error", '"all"', 'The default breaks its own schema: Invalid value "all": expected one of "team", "org"')
    ]


def test_a_default_of_the_wrong_type_is_an_error_and_a_broken_range_a_warning() -> None:
    found = own(
        {
            "n": {"type": "integer", "description": "n", "minimum": 1, "default": 0},
            "s": {"type": "string", "description": "s", "default": 5},
        }
    )
    assert found == [
        ("warning", "0", "The default breaks its own schema: Input should be greater than or equal to 1 (received "
         "integer: 0)"),
        ("error", "5", "The default breaks its own schema: Expected string, received integer: 5"),
    ]  # fmt: skip


def test_examples_items_are_each_checked() -> None:
    found = own({"n": {"type": "integer", "description": "n", "examples": [2, "x", 3]}})
    assert found == [("error", '"x"', 'Example 2 breaks its own schema: Expected integer, received string: "x"')]


def test_local_refs_and_composition_are_followed() -> None:
    found = own(
        {
            "unit": {"$ref": "#/$defs/Unit", "description": "u", "default": "kelvin"},
            "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "m", "default": None},
        },
        **{"$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}}},
    )
    assert found == [('error', '"kelvin"', 'The default breaks its own schema: Invalid value "kelvin": expected '
                      'one of "c", "f"')]  # fmt: skip


def test_when_unsure_nothing_is_said() -> None:
    # A reference that leaves the root's $defs: the default cannot be checked without guessing.
    found = own({"a": {"$ref": "#/properties/b", "description": "a", "default": 1}, "b": {"type": "string"}})
    assert found == []


def test_const_and_enum_members_against_the_type() -> None:
    found = own(
        {
            "c": {"type": "string", "description": "c", "const": 5},
            "e": {"type": "string", "description": "e", "enum": ["a", 1, None]},
            "both": {"type": "string", "description": "b", "const": "z", "enum": ["a"]},
            "nullable": {"type": ["string", "null"], "description": "n", "enum": ["a", None]},
        }
    )
    assert found == [
        ("error", "5", "const 5 is an integer, not string: no value can match the schema"),
        ("error", "1", "Enum value 1 is an integer, not string: no value can match it"),
        ("error", "null", "Enum value null is null, not string: no value can match it"),
        ("error", '"z"', 'const "z" is not one of the enum values: no value can match the schema'),
    ]
