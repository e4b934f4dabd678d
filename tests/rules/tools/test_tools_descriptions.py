"""TS240–TS242: descriptions of tools and parameters."""

from __future__ import annotations

import json

from checking import check, codes, one, only
from positions import span

from toolsense.settings import DescriptionSettings, Settings

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City"}},
    "additionalProperties": False,
}


def test_missing_tool_description_is_information_on_the_name() -> None:
    """Information by default (issue 30): a description is optional for every provider, and every TS240 of the
    wild corpus was advice on a valid file."""
    text = json.dumps({"name": "get_weather", "input_schema": SCHEMA}, indent=2)
    d = one(check(text), "TS240")
    assert d.severity == "information" and d.range == span(text, '"name"')
    assert d.message == "Tool 'get_weather' has no description: say what it does and when to use it"
    openai = json.dumps({"type": "function", "function": {"name": "f", "parameters": SCHEMA}}, indent=2)
    assert one(check(openai), "TS240").range == span(openai, '"name"')


def test_empty_description_is_reported_on_the_value() -> None:
    text = json.dumps({"name": "t", "description": "  ", "input_schema": SCHEMA}, indent=2)
    d = one(check(text), "TS240")
    assert d.text == '"  "' and d.message == "The tool description is empty"


def test_parameters_without_description_are_information() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"$ref": "#/$defs/Unit"},
            "where": {
                "type": "object",
                "properties": {"lat": {"type": "number"}},
                "additionalProperties": False,
                "description": "w",
            },
        },
        "$defs": {"Unit": {"type": "string", "enum": ["c", "f"], "description": "Temperature unit"}},
        "additionalProperties": False,
    }
    text = json.dumps({"name": "t", "description": "d", "input_schema": schema}, indent=2)
    diags = only(check(text), "TS241")
    assert [(d.text, d.severity, d.message) for d in diags] == [
        ('"city"', "information", "Parameter 'city' has no description"),
        ('"lat"', "information", "Parameter 'lat' has no description"),
    ]


def test_description_length_limit_is_configurable() -> None:
    text = json.dumps({"name": "t", "description": "x" * 30, "input_schema": SCHEMA}, indent=2)
    assert "TS242" not in codes(check(text))
    d = one(check(text, settings=Settings(description=DescriptionSettings(max_length=20))), "TS242")
    assert d.text == '"' + "x" * 30 + '"'
    assert d.message == "The tool description is 30 characters long, more than description.max_length (20)"
