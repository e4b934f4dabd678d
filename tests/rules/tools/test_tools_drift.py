"""TS701–TS704: drift between a tool's schema and its registered model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import EXAMPLES, HONEYCOMB_MODELS, MODEL_FIXTURES, check, codes, honeycomb_models, only
from positions import span

from toolsense.settings import Settings
from toolsense.usermodels import ModelRegistry, load_models

SLO_TOOL = EXAMPLES / "tools" / "honeycomb_create_slo.json"
BOARD_TOOL = EXAMPLES / "tools" / "honeycomb_create_board.json"


@pytest.fixture(scope="module")
def models() -> ModelRegistry:
    return honeycomb_models()


def drift(text: str, models: ModelRegistry) -> list[Any]:
    return only(
        check(text, models=models, settings=Settings(models=HONEYCOMB_MODELS)), "TS701", "TS702", "TS703", "TS704"
    )


def test_generated_definitions_do_not_drift(models: ModelRegistry) -> None:
    for path in (SLO_TOOL, BOARD_TOOL):
        assert check(path.read_text(encoding="utf-8"), models=models, settings=Settings(models=HONEYCOMB_MODELS)) == []


def edited(path: Path, change: Any) -> str:
    value = json.loads(path.read_text(encoding="utf-8"))
    change(value["input_schema"])
    return json.dumps(value, indent=2)


def test_the_seeds_slo_drift_is_found_with_the_models_location(models: ModelRegistry) -> None:
    def seed_bug(schema: dict[str, Any]) -> None:
        del schema["properties"]["burn_alerts"]  # the schema lacks what the model (and the examples) use
        schema["properties"]["target_nines"] = {"type": "integer", "description": "Nines"}
        schema["required"] = ["name", "sli"]

    text = edited(SLO_TOOL, seed_bug)
    diags = drift(text, models)
    location = models.models["honeycomb_create_slo"].location
    assert location.startswith("honeycomb.tool_inputs:SLOToolInput (") and ":" in location.rsplit("(", 1)[1]
    by_code = {d.code: d for d in diags}
    assert sorted(by_code) == ["TS701", "TS702", "TS703"]
    assert by_code["TS701"].message == f"Property 'burn_alerts' of the model {location} is missing from the schema"
    assert by_code["TS701"].text == '"properties"'
    assert by_code["TS702"].message == f"Property 'target_nines' is not in the model {location}: the model rejects it"
    assert by_code["TS702"].text == '"target_nines"'
    assert by_code["TS703"].message == (
        f"'required' differs from the model {location}: the model requires 'target_percentage' but the schema does not"
    )


def test_nested_models_and_enums_are_compared_with_their_own_locations(models: ModelRegistry) -> None:
    def nested(schema: dict[str, Any]) -> None:
        schema["$defs"]["PositionInput"]["properties"].pop("height")
        schema["$defs"]["FilterOp"]["enum"] = ["=", "!=", "EQUALS"]

    text = edited(BOARD_TOOL, nested)
    diags = drift(text, models)
    loaded = models.models["honeycomb_create_board"]
    assert [(d.code, d.message) for d in diags] == [
        (
            "TS704",
            "Enum values differ from the model " + loaded.locations["FilterOp"] + ': missing ">", ">=", "<", '
            '"<=", "starts-with", "does-not-start-with", "ends-with", "does-not-end-with", "exists", '
            '"does-not-exist", "contains", "does-not-contain", …; not in the enum "EQUALS"',
        ),
        ("TS701", f"Property 'height' of the model {loaded.locations['PositionInput']} is missing from the schema"),
    ]
    assert loaded.locations["FilterOp"].startswith("honeycomb.query_builder:FilterOp (")
    assert diags[0].range[0] == span(text, '"enum"', text.count('"enum"', 0, text.index('"EQUALS"')) - 1)[0]


def test_an_enum_the_schema_does_not_constrain(models: ModelRegistry) -> None:
    def loosen(schema: dict[str, Any]) -> None:
        schema["$defs"]["Calculation"]["properties"]["op"] = {"type": "string", "description": "op"}

    diags = drift(edited(BOARD_TOOL, loosen), models)
    assert [d.code for d in diags] == ["TS704"]
    assert diags[0].message.startswith("The model honeycomb.query_builder:CalcOp (")  # the enum class's own place
    assert diags[0].message.endswith(
        'allows only "COUNT", "SUM", "AVG", "MIN", "MAX", "P001", "P01", "P05", "P10", "P25", "P50", "P75", …, but the '
        "schema has no enum here"
    )
    assert diags[0].text == '"op"'


def test_registered_enums_are_compared_with_every_schema_node_they_name() -> None:
    settings = Settings(enums={"Unit": "tsfx_good:Unit"}, python_path=(str(MODEL_FIXTURES),))
    registry = load_models(settings, MODEL_FIXTURES, timeout=20)
    schema = {
        "type": "object",
        "properties": {"unit": {"$ref": "#/$defs/Unit", "description": "u"}},
        "$defs": {"Unit": {"type": "string", "enum": ["celsius", "kelvin"], "description": "Unit"}},
        "additionalProperties": False,
    }
    text = json.dumps({"name": "t", "description": "d", "input_schema": schema}, indent=2)
    diags = check(text, models=registry, settings=settings)
    assert codes(diags) == ["TS704"]
    assert diags[0].message.startswith("Enum values differ from the registered enum tsfx_good:Unit (")
    assert diags[0].message.endswith('missing "fahrenheit"; not in the enum "kelvin"')
