"""TS230–TS236: `input_examples` validated against the tool's own input_schema, each error inside its example."""

from __future__ import annotations

import json

import pytest
from checking import check, codes, one, only, tool
from positions import span

from toolsense.engine.findings import RenameKey, ReplaceValue
from toolsense.settings import LimitsSettings, Settings

# An SLO tool whose examples use burn_alerts, which the schema does not define.
SLO_SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "SLO name"},
        "dataset": {"type": "string", "description": "Dataset slug"},
        "target_percentage": {"type": "number", "description": "Target, e.g. 99.9"},
        "time_period_days": {"type": "integer", "description": "Days"},
        "sli": {
            "type": "object",
            "properties": {"alias": {"type": "string", "description": "Alias"}},
            "required": ["alias"],
            "additionalProperties": False,
            "description": "SLI",
        },
    },
    "required": ["name", "sli"],
    "additionalProperties": False,
}


def test_the_seeds_burn_alerts_example_is_an_error_on_that_key() -> None:
    example = {
        "name": "API",
        "sli": {"alias": "ok"},
        "target_percentage": 99.9,
        "burn_alerts": [{"alert_type": "budget_rate"}],
    }
    text = tool(SLO_SCHEMA, name="honeycomb_create_slo", input_examples=[example])
    diags = check(text)
    assert codes(diags) == ["TS230"]
    d = diags[0]
    assert d.range == span(text, '"burn_alerts"')
    assert d.severity == "error"
    assert d.message == (
        "Unknown property 'burn_alerts' in input example 1. Valid properties: name, sli, dataset, target_percentage, "
        "time_period_days"
    )


def test_every_error_of_every_example_at_once() -> None:
    examples = [
        {"name": "A", "sli": {"alias": "ok", "aliass": "x"}, "time_period_days": "30"},
        {"sli": {}, "target_percentage": "high"},
        {"name": "C", "sli": {"alias": "ok"}, "datset": "api"},
    ]
    text = tool(SLO_SCHEMA, input_examples=examples)
    diags = check(text)
    assert [(d.code, d.text, d.message) for d in diags] == [
        ("TS230", '"aliass"', "Unknown property 'aliass' at 'sli'. Valid properties: alias"),
        (
            "TS234",
            '"30"',
            'Expected integer, received string "30": it would be coerced to 30, but write the integer itself',
        ),
        ("TS231", "{", "Missing required property 'name' in input example 2"),
        ("TS231", '"sli"', "Missing required property 'alias' in 'sli'"),
        ("TS232", '"high"', 'Expected number, received string: "high"'),
        (
            "TS230",
            '"datset"',
            "Unknown property 'datset' in input example 3. Did you mean 'dataset'? Valid properties: "
            "name, sli, dataset, target_percentage, time_period_days",
        ),
    ]
    coercible = diags[1]
    assert coercible.severity == "error"
    assert coercible.fixes[0].safe
    assert coercible.fixes[0].edits == (ReplaceValue(("input_examples", 0, "time_period_days"), "30"),)
    rename = diags[-1].fixes[0]
    assert rename.edits == (RenameKey(("input_examples", 2, "datset"), "dataset"),)


def test_enum_and_constraint_errors() -> None:
    schema = {
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "u"},
            "days": {"type": "integer", "minimum": 1, "maximum": 14, "description": "d"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "c"},
        },
        "additionalProperties": False,
    }
    text = tool(schema, input_examples=[{"unit": "celcius", "days": 30, "code": "par"}])
    diags = check(text)
    assert [(d.code, d.text, d.message) for d in diags] == [
        (
            "TS233",
            '"celcius"',
            'Invalid value "celcius": expected one of "celsius", "fahrenheit". Did you mean "celsius"?',
        ),
        ("TS235", "30", "Input should be less than or equal to 14 (received integer: 30)"),
        ("TS235", '"par"', 'String should match pattern "^[A-Z]{3}$" (received string: "par")'),
    ]


def test_optional_fields_in_pydantic_style_any_of_are_narrowed_to_the_meant_branch() -> None:
    schema = {
        "type": "object",
        "properties": {
            "details": {
                "anyOf": [{"$ref": "#/$defs/Email"}, {"$ref": "#/$defs/Slack"}, {"type": "null"}],
                "description": "d",
            },
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "description": "l"},
        },
        "$defs": {
            "Email": {
                "type": "object",
                "properties": {"email_address": {"type": "string", "description": "e"}},
                "required": ["email_address"],
                "additionalProperties": False,
                "description": "E",
            },
            "Slack": {
                "type": "object",
                "properties": {"slack_channel": {"type": "string", "description": "s"}},
                "required": ["slack_channel"],
                "additionalProperties": False,
                "description": "S",
            },
        },
        "additionalProperties": False,
    }
    text = tool(schema, input_examples=[{"details": {"channel": "#alerts"}, "limit": "10"}])
    diags = check(text)
    assert [(d.code, d.text, d.message) for d in diags] == [
        ("TS231", '"details"', "Missing required property 'slack_channel' in 'details'"),
        (
            "TS230",
            '"channel"',
            "Unknown property 'channel' at 'details'. Did you mean 'slack_channel'? Valid properties: "
            "email_address, slack_channel",
        ),
        (
            "TS234",
            '"10"',
            'Expected integer, received string "10": it would be coerced to 10, but write the integer itself',
        ),
    ]


@pytest.mark.timeout(30)
def test_catastrophic_patterns_are_decided_in_linear_time() -> None:
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": "^(a+)+$", "description": "s"}},
        "additionalProperties": False,
    }
    text = tool(schema, input_examples=[{"s": "a" * 40 + "!"}, {"s": "aaa"}, {"s": "b"}])
    diags = check(text, settings=Settings(limits=LimitsSettings(regex_timeout_ms=100)))
    assert [(d.code, d.text) for d in diags] == [("TS235", '"' + "a" * 40 + '!"'), ("TS235", '"b"')]


@pytest.mark.timeout(30)
def test_patterns_beyond_the_linear_engine_are_cut_short_not_hung() -> None:
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": r"^(a|a)+\1$", "description": "s"}},
        "additionalProperties": False,
    }
    text = tool(schema, input_examples=[{"s": "a" * 30 + "b"}, {"s": "aa"}, {"s": "b"}])
    diags = check(text, settings=Settings(limits=LimitsSettings(regex_timeout_ms=100)))
    cut = one(diags, "TS236")
    assert cut.severity == "warning"
    assert cut.message == (
        'Checking input example 1 was cut short: matching pattern "^(a|a)+\\\\1$" took longer than the regex time '
        "budget"
    )
    assert cut.text == "{"
    # The short strings are still decided: "aa" matches, "b" does not.
    mismatch = one(diags, "TS235")
    assert mismatch.text == '"b"'


# A lookaround pattern (the backtracking engine) on which "a" * 30 + "b" runs out of any budget.
_EXHAUSTING = {
    "type": "object",
    "properties": {
        "s": {"type": "array", "description": "s", "items": {"type": "string", "pattern": "^(?=a)(a|aa)+(?<!b)$"}}
    },
    "additionalProperties": False,
}
_SLOW = "a" * 40 + "b"


@pytest.mark.timeout(60)
def test_a_tools_matches_share_one_time_budget_said_once() -> None:
    # 40 strings that each use up the per-match budget (20 ms) cost the tool's budget (5 x 20 ms) once, not
    # 40 times; the second example is not matched at all, and nothing more is said about it.
    settings = Settings(limits=LimitsSettings(regex_timeout_ms=20))
    examples = [{"s": [_SLOW + str(i) for i in range(40)]}, {"s": [_SLOW]}]
    diags = check(tool(_EXHAUSTING, name="budget_once", input_examples=examples), settings=settings)
    cut = one(diags, "TS236")
    assert cut.message == (
        'Checking input example 1 was cut short: matching pattern "^(?=a)(a|aa)+(?<!b)$" took longer than the '
        "regex time budget, and the regex time budget of this tool (100 ms) is spent: its remaining patterns were "
        "not matched"
    )
    assert cut.text == "{" and cut.range[0] == 18  # the first example's opening brace


@pytest.mark.timeout(60)
def test_a_files_tools_share_one_time_budget_said_once() -> None:
    # Five tools spend the file's budget (25 x 20 ms); the sixth is not matched, and the fifth says it once.
    settings = Settings(limits=LimitsSettings(regex_timeout_ms=20))
    tools = [
        json.loads(
            tool(_EXHAUSTING, name=f"file_budget_{i}", input_examples=[{"s": [_SLOW + str(j) for j in range(8)]}])
        )
        for i in range(6)
    ]
    diags = check(json.dumps(tools), settings=settings)
    messages = [d.message.split(", and ")[-1] for d in only(diags, "TS236")]
    assert messages == [
        *["the regex time budget of this tool (100 ms) is spent: its remaining patterns were not matched"] * 4,
        "the regex time budget of this file (500 ms) is spent: its remaining patterns were not matched",
    ]
    assert codes(diags) == ["TS236"] * 5


@pytest.mark.timeout(60)
def test_a_loaded_machine_does_not_change_which_patterns_the_budget_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every match seems to take 70 ms longer than it did (a descheduled process): a timed-out match is charged
    # what it was granted, so the same five tools are matched and the same budgets are said spent.
    import itertools

    from toolsense.engine import regexes

    ticks = itertools.count()
    real = regexes.time.monotonic
    monkeypatch.setattr(regexes.time, "monotonic", lambda: real() + 0.07 * next(ticks))
    test_a_files_tools_share_one_time_budget_said_once()


def test_examples_of_a_valid_tool_and_tools_without_examples_are_quiet() -> None:
    text = tool(SLO_SCHEMA, input_examples=[{"name": "A", "sli": {"alias": "ok"}, "target_percentage": 99.5}])
    assert check(text) == []
    assert only(check(tool(SLO_SCHEMA)), "TS230", "TS231") == []


def test_a_tool_with_syntax_errors_does_not_report_missing_properties_in_examples() -> None:
    value = json.loads(tool(SLO_SCHEMA, input_examples=[{"sli": {"alias": "ok"}}]))
    text = json.dumps(value, indent=2)
    assert "TS231" in codes(check(text))
    broken = text.replace('"description": "Does a thing.",', '"description": "Does a thing."')
    diags = check(broken)
    assert "TS001" in codes(diags) and "TS231" not in codes(diags)


@pytest.mark.timeout(30)
def test_catastrophic_property_name_patterns_are_cut_short_too() -> None:
    schema = {
        "type": "object",
        "patternProperties": {r"^(a|a)+\1$": {"type": "integer"}},
        "additionalProperties": False,
    }
    text = tool(schema, input_examples=[{"a" * 30 + "b": 1, "aa": "x"}])
    diags = check(text, settings=Settings(limits=LimitsSettings(regex_timeout_ms=100)))
    assert [(d.code, d.text) for d in diags] == [("TS236", "{"), ("TS232", '"x"')]
    assert diags[0].message == (
        'Checking input example 1 was cut short: matching property names against "^(a|a)+\\\\1$" took longer '
        "than the regex time budget"
    )
