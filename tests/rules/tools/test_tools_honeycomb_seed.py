"""The seed's success criteria (000, "Tool Schema Validation Refactor"), on the worked example in examples/.

examples/honeycomb is the user's package (strict models on toolsense.models), examples/tools/honeycomb_*.json
the tool definitions generated from it with `toolsense schema`, examples/calls the tool calls that pass and
fail, examples/toolsense.toml registers the models.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

import pytest
from checking import EXAMPLES, HONEYCOMB_MODELS, ROOT, check, honeycomb_models
from clirun import run_cli
from positions import span

from toolsense.domain.tool import is_object_schema, walk_schema
from toolsense.models import format_validation_errors
from toolsense.settings import Settings
from toolsense.usermodels import ModelRegistry

BOARD = json.loads((EXAMPLES / "tools" / "honeycomb_create_board.json").read_text(encoding="utf-8"))
SLO = json.loads((EXAMPLES / "tools" / "honeycomb_create_slo.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def models() -> ModelRegistry:
    return honeycomb_models()


# --- "Schema shows enum values ("=", "COUNT") not names ("EQUALS")" --------------------------------------


def test_schema_shows_enum_values_not_names(models: ModelRegistry) -> None:
    defs = BOARD["input_schema"]["$defs"]
    assert defs["FilterOp"]["enum"][:3] == ["=", "!=", ">"]
    assert defs["OrderDirection"]["enum"] == ["ascending", "descending"]
    assert "COUNT" in defs["CalcOp"]["enum"]
    model = models.models["honeycomb_create_board"].model
    import honeycomb.query_builder as qb

    for enum in (qb.FilterOp, qb.OrderDirection, qb.CalcOp, qb.FilterCombination):
        values = defs[enum.__name__]["enum"]
        assert values == [member.value for member in enum]
        names_that_are_not_values = {m.name for m in enum} - {m.value for m in enum}
        assert not names_that_are_not_values & set(values), enum
    # The enum schema helpers give each enum its one registered description.
    assert defs["CalcOp"]["description"] == "Calculation operation (COUNT, AVG, P99, etc.)"
    assert issubclass(qb.FilterOp, Enum) and model.__name__ == "BoardToolInput"


def test_an_enum_name_in_a_call_is_fixed_to_its_value(models: ModelRegistry) -> None:
    text = json.dumps(
        {
            "type": "tool_use",
            "id": "t",
            "name": "honeycomb_create_board",
            "input": {
                "name": "B",
                "inline_query_panels": [{"name": "p", "filters": [{"column": "c", "op": "EQUALS"}]}],
            },
        },
        indent=2,
    )
    diags = check(text, "tool_call", models=models, settings=Settings(models=HONEYCOMB_MODELS))
    assert [(d.code, d.text) for d in diags] == [("TS306", '"EQUALS"')]
    assert diags[0].message.endswith("'EQUALS' is the member name; use its value \"=\"")
    assert diags[0].fixes[0].safe


# --- "All nested objects have additionalProperties: false" ---------------------------------------------


@pytest.mark.parametrize("definition", [BOARD, SLO], ids=["board", "slo"])
def test_all_nested_objects_have_additional_properties_false(definition: dict[str, Any]) -> None:
    walk = walk_schema(definition["input_schema"])
    objects = [entry for entry in walk.nodes if is_object_schema(entry.node)]
    assert len(objects) >= 4
    for entry in objects:
        if entry.node.get("properties"):
            assert entry.node.get("additionalProperties") is False, entry.pointer
        else:  # a free-form map on purpose (QueryPanelInput.visualization: dict[str, Any]) says so explicitly
            assert entry.node.get("additionalProperties") is True, entry.pointer
    assert check(json.dumps(definition, indent=2)) == []


# --- "Invalid nested structures rejected with clear errors" (one diagnostic per bad key) -------------------


def test_the_seeds_board_call_gets_exactly_one_diagnostic_on_each_bad_key() -> None:
    result = run_cli(
        [
            "check",
            "examples/calls/board-bad.json",
            "examples/tools",
            "--config",
            "examples/toolsense.toml",
            "--format",
            "json",
        ],
        ROOT,
        180,
    )
    assert result.returncode == 1, result.stderr
    diags = [d for d in json.loads(result.stdout) if d["path"].endswith("board-bad.json")]
    text = (EXAMPLES / "calls" / "board-bad.json").read_text(encoding="utf-8")
    got = [(d["code"], d["severity"], d["range"]["start"], d["range"]["end"]) for d in diags]
    want = []
    for key in ('"query"', '"chart_type"'):
        line, col, _, end = span(text, key)
        want.append(("TS303", "error", {"line": line, "character": col}, {"line": line, "character": end}))
    assert got == want
    assert diags[0]["message"].startswith(
        "the input of 'honeycomb_create_board', 'inline_query_panels.0': unknown property 'query'. Valid properties: "
        "name,"
    )
    assert diags[1]["message"].startswith(
        "the input of 'honeycomb_create_board', 'inline_query_panels.0': unknown property 'chart_type'. Valid "
    )
    assert "Did you mean" not in diags[0]["message"] + diags[1]["message"]  # no misleading 'start_time'


def test_the_model_says_the_same_at_run_time(models: ModelRegistry) -> None:
    from pydantic import ValidationError

    data = json.loads((EXAMPLES / "calls" / "board-bad.json").read_text(encoding="utf-8"))["input"]
    with pytest.raises(ValidationError) as caught:
        models.models["honeycomb_create_board"].model.model_validate(data)
    message = format_validation_errors(caught.value, "board tool input")
    assert message.splitlines()[:3] == [
        "Invalid board tool input - 2 errors:",
        "  • inline_query_panels.0.query: Extra inputs are not permitted (received dict: "
        "{'dataset': 'api', 'calculations': [{'op': 'AVG', 'column': 'cpu_pct'}]})",
        "  • inline_query_panels.0.chart_type: Extra inputs are not permitted (received str: 'line')",
    ]


# --- "SLO schema includes burn_alerts, target_percentage" / "No target_nines in schema" ---------------------


def test_slo_schema_has_burn_alerts_and_target_percentage_and_no_target_nines() -> None:
    schema = SLO["input_schema"]
    assert {"burn_alerts", "target_percentage", "datasets"} <= set(schema["properties"])
    assert "target_percentage" in schema["required"]
    assert "target_nines" not in json.dumps(SLO) and "target_nines" not in json.dumps(BOARD)
    # The examples (from the model's json_schema_extra) use burn_alerts, and validate.
    assert "burn_alerts" in SLO["input_examples"][0]


def test_a_call_with_target_nines_is_told_to_use_target_percentage(models: ModelRegistry) -> None:
    result = run_cli(
        [
            "check",
            "examples/calls/slo-bad.json",
            "examples/tools",
            "--config",
            "examples/toolsense.toml",
            "--format",
            "json",
        ],
        ROOT,
        180,
    )
    diags = json.loads(result.stdout)
    by_code = {d["code"]: d["message"] for d in diags}
    assert by_code["TS303"].startswith(
        "Unknown property 'target_nines' in the input of 'honeycomb_create_slo'. Did you mean 'target_percentage'?"
    )
    assert by_code["TS304"] == "Missing required property 'target_percentage' in the input of 'honeycomb_create_slo'"
    assert by_code["TS307"].startswith(
        "the input of 'honeycomb_create_slo', 'time_period_days': expected integer, received string \"30\""
    )
    assert (
        by_code["TS306"] == "the input of 'honeycomb_create_slo', 'burn_alerts.0.alert_type': "
        'invalid value "exhaustion": expected one of "exhaustion_time", "budget_rate". '
        'Did you mean "exhaustion_time"?'
    )


# --- "Position uses API-native structure" -------------------------------------------------------------


def test_position_is_the_api_native_object(models: ModelRegistry) -> None:
    position = BOARD["input_schema"]["$defs"]["PositionInput"]
    assert list(position["properties"]) == ["x_coordinate", "y_coordinate", "width", "height"]
    assert all(p["type"] == "integer" for p in position["properties"].values())
    assert position["required"] == ["x_coordinate", "y_coordinate", "width", "height"]
    assert (position["properties"]["width"]["minimum"], position["properties"]["width"]["maximum"]) == (1, 24)
    text = json.dumps(
        {
            "type": "tool_use",
            "id": "t",
            "name": "honeycomb_create_board",
            "input": {"name": "B", "inline_query_panels": [{"name": "p", "position": [0, 0, 8, 6]}]},
        },
        indent=2,
    )
    diags = check(text, "tool_call", models=models, settings=Settings(models=HONEYCOMB_MODELS))
    assert [(d.code, d.message) for d in diags] == [
        (
            "TS305",
            "the input of 'honeycomb_create_board', 'inline_query_panels.0.position': expected object, received array",
        )
    ]
    assert diags[0].text.startswith("[")


# --- the worked example as a whole ---------------------------------------------------------------------


def test_check_examples_reports_only_in_the_files_meant_to_be_wrong() -> None:
    result = run_cli(["check", "examples", "--format", "json"], ROOT, 180)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    diags = json.loads(result.stdout)
    paths = {d["path"] for d in diags}
    for path in paths:
        assert path.startswith("examples/wrong/") or (path.startswith("examples/calls/") and "bad" in path), path
    for bad in ("examples/calls/board-bad.json", "examples/calls/slo-bad.json", "examples/calls/weather-bad.json"):
        assert bad in paths
    good = {
        "examples/calls/board-ok.json",
        "examples/calls/slo-ok.json",
        "examples/tools/honeycomb_create_board.json",
        "examples/tools/honeycomb_create_slo.json",
    }
    assert not good & paths


@pytest.mark.parametrize(
    ("path", "model", "name"),
    [
        ("honeycomb_create_board.json", "honeycomb.tool_inputs:BoardToolInput", "honeycomb_create_board"),
        ("honeycomb_create_slo.json", "honeycomb.tool_inputs:SLOToolInput", "honeycomb_create_slo"),
    ],
)
def test_tool_definitions_are_exactly_what_toolsense_schema_generates(path: str, model: str, name: str) -> None:
    committed = (EXAMPLES / "tools" / path).read_text(encoding="utf-8")
    description = json.loads(committed)["description"]
    result = run_cli(
        ["schema", model, "--python-path", "examples", "--tool", name, "--description", description], ROOT, 180
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == committed
