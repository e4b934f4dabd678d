"""TS229: a misspelt JSON Schema keyword is ignored by every validator, so the schema silently loses it (the most
common mistake the mutation run of issue 30 found nothing for). Near misses only: the application's own keys,
other drafts' and OpenAPI's keywords, and editor extensions are left alone."""

from __future__ import annotations

import json

import pytest
from tests.support.checking import check, only

from toolsense.rules.tools.schema_keywords import intended_keyword


def anthropic(schema: dict[str, object]) -> str:
    return json.dumps({"name": "search", "description": "Search the docs.", "input_schema": schema}, indent=1)


def test_misspelt_keywords_are_marked_on_the_key_with_the_keyword_to_use() -> None:
    text = anthropic(
        {
            "type": "object",
            "proprties": {"q": {"type": "string"}},
            "requried": ["q"],
            "additionalProperties": False,
        }
    )
    found = only(check(text), "TS229")
    assert [(d.text, d.severity, d.message) for d in found] == [
        (
            '"proprties"',
            "error",
            "'proprties' is not a JSON Schema keyword: did you mean 'properties'? An unknown keyword is ignored, so "
            "this schema has no 'properties'",
        ),
        (
            '"requried"',
            "error",
            "'requried' is not a JSON Schema keyword: did you mean 'required'? An unknown keyword is ignored, so "
            "this schema has no 'required'",
        ),
    ]
    assert [fix.title for fix in found[0].fixes] == ["Rename to 'properties'"]


def test_nested_schemas_case_and_a_missing_dollar_are_read_and_annotations_are_warnings() -> None:
    prop = {"tpye": "string", "descripton": "The id", "Enum": ["a", "b"]}
    text = anthropic({"type": "object", "properties": {"id": prop}, "ref": "#/$defs/x", "additionalProperties": False})
    found = only(check(text), "TS229")
    assert sorted((d.text, d.severity) for d in found) == [
        ('"Enum"', "error"),
        ('"descripton"', "warning"),
        ('"ref"', "error"),
        ('"tpye"', "error"),
    ]
    tpye = next(d for d in found if d.text == '"tpye"')
    line = text.splitlines()[tpye.range[0]]
    assert line[tpye.range[1] : tpye.range[3]] == '"tpye"'


def test_a_keyword_already_there_gets_no_rename() -> None:
    text = anthropic({"type": "object", "properties": {}, "propertes": {}, "additionalProperties": False})
    [finding] = only(check(text), "TS229")
    assert finding.fixes == ()


@pytest.mark.parametrize(
    "key",
    [
        "x-order",
        "ui:widget",
        "enumDescriptions",
        "markdownDescription",
        "enumNames",
        "errorMessage",
        "nullable",
        "example",
        "propertyOrdering",
        "discriminator",
        "minimal",
        "schema",
        "comment",
        "than",
        "name",
        "time",
        "tags",
        "strict",
        "optional",
        "label",
    ],
)
def test_the_applications_own_keys_and_other_vocabularies_are_left_alone(key: str) -> None:
    assert intended_keyword(key) is None or key in ("nullable", "example", "propertyOrdering", "discriminator")
    text = anthropic({"type": "object", "properties": {"q": {"type": "string", key: 1}}, "additionalProperties": False})
    assert only(check(text), "TS229") == []


def test_property_names_are_not_keywords() -> None:
    text = anthropic({"type": "object", "properties": {"tpye": {"type": "string"}}, "additionalProperties": False})
    assert only(check(text), "TS229") == []
