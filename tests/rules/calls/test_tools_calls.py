"""TS301–TS310, TS801–TS805: tool calls validated against the registered model or the tool's input_schema."""

from __future__ import annotations

import json

import pytest
from checking import MODEL_FIXTURES, check, codes, one, registry_of, tool
from positions import span

from toolsense.engine.findings import ReplaceInString, ReplaceValue
from toolsense.settings import Settings
from toolsense.usermodels import ModelRegistry, load_models

WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit"},
        "days": {"type": "integer", "minimum": 1, "maximum": 14, "description": "Days"},
        "alerts": {"type": "boolean", "description": "Include alerts"},
    },
    "required": ["city"],
    "additionalProperties": False,
}
REGISTRY_URI = "file:///work/project/tools/weather.json"
CALL_URI = "file:///work/project/calls/call.json"


def registry():  # type: ignore[no-untyped-def]
    return registry_of((REGISTRY_URI, tool(WEATHER, name="get_weather", description="Weather for a city.")))


def call(text: str, **options: object) -> list:  # type: ignore[type-arg]
    options.setdefault("registry", registry())
    return check(text, "tool_call", uri=CALL_URI, **options)  # type: ignore[arg-type]


def anthropic(inp: object, name: str = "get_weather") -> str:
    return json.dumps({"type": "tool_use", "id": "toolu_1", "name": name, "input": inp}, indent=2)


def test_every_error_in_an_anthropic_call_at_once_against_the_input_schema() -> None:
    text = anthropic({"unit": "kelvin", "days": "3", "alerts": "true", "country": "FR"})
    diags = call(text)
    assert [(d.code, d.severity, d.text, d.message) for d in diags] == [
        ("TS304", "error", '"input"', "Missing required property 'city' in the input of 'get_weather'"),
        (
            "TS306",
            "error",
            '"kelvin"',
            'the input of \'get_weather\', \'unit\': invalid value "kelvin": expected one of "celsius", "fahrenheit"',
        ),
        (
            "TS307",
            "warning",
            '"3"',
            "the input of 'get_weather', 'days': expected integer, received string \"3\": it would "
            "be coerced to 3, but write the integer itself",
        ),
        (
            "TS307",
            "warning",
            '"true"',
            "the input of 'get_weather', 'alerts': expected boolean, received string \"true\": it would "
            "be coerced to true, but write the boolean itself",
        ),
        (
            "TS303",
            "error",
            '"country"',
            "Unknown property 'country' in the input of 'get_weather'. Valid properties: city, unit, days, alerts",
        ),
    ]
    coerce = diags[2].fixes[0]
    assert coerce.safe and coerce.edits == (ReplaceValue(("input", "days"), "3"),)


def test_openai_arguments_as_a_json_string_are_checked_inside_the_string() -> None:
    arguments = json.dumps({"city": "Paris", "days": 30, "unit": "celcius"})
    text = json.dumps(
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}, indent=2
    )
    diags = call(text)
    assert [(d.code, d.text, d.message) for d in diags] == [
        (
            "TS308",
            "30",
            "the input of 'get_weather', 'days': input should be less than or equal to 14 (received integer: 30)",
        ),
        (
            "TS306",
            '\\"celcius\\"',
            "the input of 'get_weather', 'unit': "
            'invalid value "celcius": expected one of "celsius", "fahrenheit". Did you mean "celsius"?',
        ),
    ]
    line, column = span(text, '\\"celcius\\"')[:2]
    assert diags[1].range == (line, column, line, column + len('\\"celcius\\"'))
    fix = diags[1].fixes[0]
    start = arguments.index('"celcius"')
    assert fix.edits == (ReplaceInString(("function", "arguments"), start, start + len('"celcius"'), '"celsius"'),)


def test_arguments_that_are_not_json_or_not_an_object() -> None:
    text = json.dumps({"name": "get_weather", "arguments": '{"city": "Paris",}'}, indent=2)
    d = one(call(text), "TS302")
    assert (
        d.message == "arguments is not valid JSON: Expecting property name enclosed in double quotes (at character 18)"
    )
    assert d.text == "}"
    listed = json.dumps({"name": "get_weather", "arguments": "[1, 2]"}, indent=2)
    assert one(call(listed), "TS302").message == "arguments must encode a JSON object, found array"


def test_unknown_tool_with_did_you_mean() -> None:
    text = anthropic({"city": "Paris"}, name="get_wether")
    d = one(call(text), "TS301")
    assert d.range == span(text, '"get_wether"')
    assert d.message == 'Unknown tool "get_wether". Did you mean "get_weather"?'
    assert d.fixes[0].edits == (ReplaceValue(("name",), '"get_weather"'),)
    # With no tool definitions in the workspace there is nothing to check against: no noise.
    assert call(text, registry=registry_of()) == []


def test_a_bare_input_file_is_associated_by_settings() -> None:
    settings = Settings(tool_call_tool={"**/inputs/weather-*.json": "get_weather"})
    text = json.dumps({"city": "Paris", "unit": "K"}, indent=2)
    diags = check(
        text, "tool_call", settings=settings, registry=registry(), uri="file:///work/project/inputs/weather-1.json"
    )
    assert codes(diags) == ["TS306"]
    assert (
        check(text, "tool_call", settings=settings, registry=registry(), uri="file:///work/project/inputs/other.json")
        == []
    )


@pytest.fixture(scope="module")
def models() -> ModelRegistry:
    settings = Settings(
        models={"get_weather": "tsfx_good:WeatherInput", "broken_tool": "tsfx_raises:Model"},
        python_path=(str(MODEL_FIXTURES),),
    )
    return load_models(settings, MODEL_FIXTURES, timeout=20)


def model_settings() -> Settings:
    return Settings(models={"get_weather": "tsfx_good:WeatherInput", "broken_tool": "tsfx_raises:Model"})


def test_the_registered_model_validates_the_call(models: ModelRegistry) -> None:
    text = anthropic({"place": {"city": "Paris", "zip": "75001"}, "unit": "CELSIUS", "days": 13, "detail": "medium"})
    diags = call(text, models=models, settings=model_settings())
    assert [(d.code, d.text, d.message) for d in diags] == [
        (
            "TS303",
            '"zip"',
            "the input of 'get_weather', 'place': unknown property 'zip'. Valid properties: city, country",
        ),
        (
            "TS306",
            '"CELSIUS"',
            "the input of 'get_weather', 'unit': "
            'invalid value "CELSIUS": expected one of "celsius", "fahrenheit". \'CELSIUS\' is the '
            'member name; use its value "celsius"',
        ),
        ("TS308", "13", "the input of 'get_weather', 'days': value error, 13 days is unlucky (received integer: 13)"),
        (
            "TS306",
            '"medium"',
            'the input of \'get_weather\', \'detail\': invalid value "medium": expected one of "short", "long"',
        ),
    ]
    fix = diags[1].fixes[0]
    assert fix.safe and fix.edits == (ReplaceValue(("input", "unit"), '"celsius"'),)


def test_values_the_model_would_coerce_are_still_fixable_warnings(models: ModelRegistry) -> None:
    text = anthropic({"place": {"city": "Paris"}, "days": "3"})
    diags = call(text, models=models, settings=model_settings())
    assert [(d.code, d.severity, d.text) for d in diags] == [("TS307", "warning", '"3"')]


def test_a_model_registered_without_a_tool_definition_still_validates(models: ModelRegistry) -> None:
    text = anthropic({"place": {}})
    diags = call(text, models=models, settings=model_settings(), registry=registry_of())
    assert [(d.code, d.message) for d in diags] == [
        ("TS304", "the input of 'get_weather', 'place': missing required property 'city'")
    ]


def test_a_model_that_cannot_be_imported_is_a_diagnostic_not_a_crash(models: ModelRegistry) -> None:
    text = anthropic({"x": 1}, name="broken_tool")
    d = one(call(text, models=models, settings=model_settings()), "TS801")
    assert d.range == span(text, '"broken_tool"')
    assert d.message == (
        "Registered model for 'broken_tool' (tsfx_raises:Model): cannot import 'tsfx_raises': "
        "RuntimeError: database not configured"
    )


def test_untrusted_workspaces_do_not_use_models(models: ModelRegistry) -> None:
    text = anthropic({"city": "Paris", "place": {"city": "Paris"}})
    diags = call(text, models=models, settings=model_settings(), trusted=False)
    assert [(d.code, d.severity) for d in diags] == [("TS805", "information"), ("TS303", "error")]
    assert diags[0].message == (
        "The model registered for 'get_weather' (tsfx_good:WeatherInput) is not imported: the workspace is not trusted"
    )
