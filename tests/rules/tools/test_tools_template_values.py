"""TS222: a schema keyword whose value is a template placeholder gets one warning naming it, instead of the JSON
Schema errors about a string where a schema value belongs."""

from __future__ import annotations

import json

import pytest
from checking import check


def _tool(prop: dict[str, object], dialect_key: str = "input_schema") -> str:
    schema = {"type": "object", "properties": {"p": prop}, "required": ["p"], "additionalProperties": False}
    return json.dumps({"name": "classify", "description": "Classify a text.", dialect_key: schema})


@pytest.mark.parametrize(
    ("prop", "keyword", "name"),
    [
        ({"type": "string", "description": "P.", "enum": "$CATEGORIES"}, "enum", "$CATEGORIES"),
        ({"type": "${TYPE}", "description": "P."}, "type", "${TYPE}"),
        ({"type": "string", "description": "P.", "maxLength": "{{max_len}}"}, "maxLength", "{{max_len}}"),
        ({"type": "array", "description": "P.", "items": "<ITEMS>"}, "items", "<ITEMS>"),
    ],
)
@pytest.mark.parametrize("dialect_key", ["input_schema", "inputSchema", "parameters"])
def test_a_placeholder_gets_one_warning_that_names_it(
    prop: dict[str, object], keyword: str, name: str, dialect_key: str
) -> None:
    found = check(_tool(prop, dialect_key))
    assert [(d.code, d.severity) for d in found] == [("TS222", "warning")]
    assert found[0].message == (
        f"`{keyword}` is the template placeholder {name!r}, filled in by the tool's loader: checked as written, "
        "it is not a schema value (a provider given this file as is rejects it)"
    )
    assert found[0].text == json.dumps(name)


def test_a_string_that_is_no_placeholder_is_still_an_error() -> None:
    found = check(_tool({"type": "string", "description": "P.", "enum": "CATEGORIES"}))
    assert [(d.code, d.severity) for d in found] == [("TS210", "error")]
