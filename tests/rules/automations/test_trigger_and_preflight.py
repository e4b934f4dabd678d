"""TS603–TS606 (trigger configuration), TS403/TS404 on the polling source tool, TS610/TS611 (static preflight)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from automations import apply_fix, check, make_registry
from checking import codes, one

from toolsense.rules.automations.preflight import normalize_time

NOTIFY = [{"id": "n", "tool": "send_push_notification", "parameters": {"title": "t", "body": "b"}}]


def _automation(trigger_type: str, config: dict[str, Any], actions: list[dict[str, Any]] | None = None) -> str:
    return json.dumps(
        {"name": "t", "trigger_type": trigger_type, "trigger_config": config, "actions": actions or NOTIFY}, indent=2
    )


def _polling(**config: Any) -> str:
    base: dict[str, Any] = {
        "source_tool": "oura_get_daily_sleep",
        "polling_interval_minutes": 60,
        "tool_params": {"start_date": "{{yesterday}}", "end_date": "{{today}}"},
    }
    base.update(config)
    return _automation("polling", base)


def test_polling_interval_must_be_positive_one_finding() -> None:
    diags = check(_polling(polling_interval_minutes=0))
    assert codes(diags) == ["TS603"]
    assert diags[0].text == "0"
    assert diags[0].range == (5, 32, 5, 33)
    assert diags[0].message == "polling_interval_minutes must be a positive whole number of minutes, received 0"


def test_polling_interval_as_string_is_the_structure_coercion_warning() -> None:
    assert codes(check(_polling(polling_interval_minutes="60"))) == ["TS105"]


def test_unknown_source_tool_did_you_mean() -> None:
    d = one(check(_polling(source_tool="oura_sleep")), "TS403")
    assert d.text == '"oura_sleep"'
    assert d.message == "Unknown source_tool 'oura_sleep'. Did you mean 'oura_get_daily_sleep'?"
    assert '"source_tool": "oura_get_daily_sleep"' in apply_fix(_polling(source_tool="oura_sleep"), d.fixes[0])


def test_tool_params_checked_like_parameters() -> None:
    diags = check(_polling(tool_params={"start": "{{yesterday}}", "end_date": 5}))
    assert [(d.code, d.text) for d in diags] == [
        ("TS405", '"tool_params"'),
        ("TS404", '"start"'),
        ("TS406", "5"),
    ]
    assert diags[0].message == (
        "Tool 'oura_get_daily_sleep' requires parameter 'start_date' ('start' may be meant as 'start_date')"
    )
    assert diags[1].message == (
        "Tool 'oura_get_daily_sleep' has unknown parameter 'start'. Did you mean 'start_date'? "
        "Valid parameters: start_date, end_date"
    )
    assert diags[2].message == "Parameter 'end_date' of tool 'oura_get_daily_sleep' expects string, received integer: 5"


@pytest.mark.parametrize(
    ("interval", "message", "fixed"),
    [
        (
            "hourly",
            'Schedule interval "hourly" is not supported: use one of 5min, 15min, 30min, 1hr, 6hr, daily, weekly. '
            "Did you mean '1hr'?",
            "1hr",
        ),
        ("Daily", None, "daily"),
        ("15 minutes", None, "15min"),
        (
            "once",
            'Schedule interval "once" is not supported: use one of 5min, 15min, 30min, 1hr, 6hr, daily, weekly '
            "(for a single run use trigger_type 'schedule_once' with 'run_at')",
            None,
        ),
        (
            "monthly",
            'Schedule interval "monthly" is not supported: use one of 5min, 15min, 30min, 1hr, 6hr, daily, weekly',
            None,
        ),
    ],
)
def test_schedule_interval(interval: str, message: str | None, fixed: str | None) -> None:
    text = _automation("schedule_recurring", {"interval": interval, "time_of_day": "09:00"})
    diags = check(text)
    assert codes(diags) == ["TS606"]  # not also the structure's TS104
    d = diags[0]
    assert d.text == json.dumps(interval)
    if message is not None:
        assert d.message == message
    if fixed is None:
        assert list(d.fixes) == []
    else:
        [fix] = d.fixes
        assert fix.safe
        assert check(apply_fix(text, fix)) == []


@pytest.mark.parametrize(
    ("value", "fixed"),
    [("9:00", "09:00"), ("9am", "09:00"), ("9:30 PM", "21:30"), ("21h15", "21:15"), ("12am", "00:00"), ("25:00", None)],
)
def test_time_of_day(value: str, fixed: str | None) -> None:
    assert normalize_time(value) == fixed
    text = _automation("schedule_recurring", {"interval": "daily", "time_of_day": value})
    diags = check(text)
    assert codes(diags) == ["TS604"]
    d = diags[0]
    assert d.range == (5, 19, 5, 19 + len(value) + 2)
    expected = f"time_of_day {json.dumps(value)} is not HH:MM on a 24-hour clock (e.g. '09:00' or '18:30')"
    assert d.message == expected + (f". Did you mean '{fixed}'?" if fixed else "")
    if fixed:
        assert check(apply_fix(text, d.fixes[0])) == []


@pytest.mark.parametrize(
    ("value", "message", "fixable"),
    [
        ("tomorrow 9am", "run_at \"tomorrow 9am\" is not an ISO 8601 timestamp (e.g. '2026-03-01T09:00:00' "
         "(local time) or '2026-03-01T09:00:00Z')", False),
        ("2026-02-30T09:00:00", "run_at \"2026-02-30T09:00:00\" is not a real date and time (e.g. "
         "'2026-03-01T09:00:00' (local time) or '2026-03-01T09:00:00Z')", False),
        ("2026-03-01 09:00", "run_at \"2026-03-01 09:00\" is not an ISO 8601 timestamp: separate date and time with "
         "'T' ('2026-03-01T09:00')", True),
        ("2026-03-01", "run_at \"2026-03-01\" has a date but no time: add one (e.g. '2026-03-01T09:00:00' (local "
         "time) or '2026-03-01T09:00:00Z')", False),
    ],
)  # fmt: skip
def test_run_at(value: str, message: str, fixable: bool) -> None:
    text = _automation("schedule_once", {"run_at": value})
    diags = check(text)
    assert codes(diags) == ["TS605"]
    assert diags[0].message == message
    assert diags[0].text == json.dumps(value)
    assert bool(list(diags[0].fixes)) == fixable
    if fixable:
        assert check(apply_fix(text, diags[0].fixes[0])) == []


def test_valid_triggers_pass() -> None:
    assert check(_automation("schedule_once", {"interval": "once", "run_at": "2026-03-01T09:00:00Z"})) == []
    assert check(_automation("schedule_recurring", {"interval": "weekly", "time_of_day": "23:59"})) == []
    assert check(_polling(filter={"path": "score", "op": "<", "value": 70})) == []


# --- preflight ---------------------------------------------------------------------------------------------


def _polling_body(body: str) -> str:
    return _automation(
        "polling",
        {"source_tool": "oura_get_daily_sleep", "polling_interval_minutes": 60, "tool_params": {"start_date": "x"}},
        [{"id": "n", "tool": "send_push_notification", "parameters": {"title": "t", "body": body}}],
    )


def test_preflight_message_from_the_output_schema() -> None:
    text = _polling_body("Score {{trigger_data.sleep_score}}")
    d = one(check(text), "TS610")
    assert d.message == (
        "Path 'trigger_data.sleep_score' not found in oura_get_daily_sleep output. "
        "Available fields: score, day, timestamp, contributors"
    )
    assert d.text == "{{trigger_data.sleep_score}}"
    assert d.range == (16, 23, 16, 51)
    [fix] = d.fixes
    assert fix.title == "Change to 'score'"
    assert check(apply_fix(text, fix)) == []


def test_preflight_shorthand_and_nested_paths() -> None:
    diags = check(_polling_body("{{score}} {{day}} {{scroe}} {{contributors.deep_sleep}}"))
    assert [(d.code, d.text) for d in diags] == [
        ("TS504", "{{scroe}}"),
        ("TS610", "{{contributors.deep_sleep}}"),
    ]
    assert diags[0].message == "Unknown template variable 'scroe' in '{{scroe}}'. Did you mean 'score'?"
    assert diags[1].message == (
        "Path 'contributors.deep_sleep' not found in oura_get_daily_sleep output. 'contributors' (object) has no fields"
    )


def test_preflight_against_a_sample_output_with_the_runtimes_normalisation() -> None:
    sample = {"data": [{"score": 81, "day": "2026-03-01", "contributors": {"deep_sleep": 70}}], "next_token": None}
    registry = make_registry(samples={"oura_get_daily_activity": sample})
    text = _automation(
        "polling",
        {"source_tool": "oura_get_daily_activity", "polling_interval_minutes": 60, "tool_params": {"start_date": "x"}},
        [
            {
                "id": "n",
                "tool": "send_push_notification",
                "parameters": {
                    "title": "{{trigger_data.score}} {{trigger_data.data.0.day}} {{data.-1.contributors.deep_sleep}}",
                    "body": "{{trigger_data.steps}}",
                },
            }
        ],
    )
    d = one(check(text, registry), "TS610")
    assert d.text == "{{trigger_data.steps}}"
    assert d.message == (
        "Path 'trigger_data.steps' not found in oura_get_daily_activity output. Available fields: data, next_token; "
        "also readable at the top level: score, day"
    )


def test_webhook_payload_sample() -> None:
    registry = make_registry(samples={"webhook:Gmail:message.created": {"subject": "s", "from": "f", "snippet": "x"}})
    text = _automation(
        "webhook",
        {"service": "Gmail", "event_type": "message.created"},
        [{"id": "n", "tool": "send_push_notification", "parameters": {"title": "{{subject}}", "body": "{{frm}}"}}],
    )
    d = one(check(text, registry), "TS504")
    assert d.severity == "error"  # the payload is known: not a shorthand guess
    assert d.message == "Unknown template variable 'frm' in '{{frm}}'. Did you mean 'from'?"


def test_output_paths_of_earlier_actions_are_checked_against_their_tool() -> None:
    text = _automation(
        "manual",
        {},
        [
            {
                "id": "s",
                "tool": "oura_get_daily_sleep",
                "parameters": {"start_date": "{{yesterday}}"},
                "output_as": "sleep",
            },
            {
                "id": "n",
                "tool": "send_push_notification",
                "parameters": {"title": "{{sleep.score}}", "body": "{{sleep.sleep_score}}"},
            },
        ],
    )
    d = one(check(text), "TS611")
    assert d.message == (
        "Path 'sleep.sleep_score' not found in the output of action 's' (oura_get_daily_sleep). Available fields: "
        "score, day, timestamp, contributors"
    )


def test_unknown_output_shape_is_not_checked() -> None:
    text = _automation(
        "manual",
        {},
        [
            {"id": "a", "tool": "oura_get_daily_activity", "parameters": {"start_date": "x"}, "output_as": "act"},
            {
                "id": "n",
                "tool": "send_push_notification",
                "parameters": {"title": "{{act.anything.at.all}}", "body": "b"},
            },
        ],
    )
    assert check(text) == []


def test_aggregation_mode_of_the_runtime_spec() -> None:
    assert check(_polling(aggregation_mode="per_item")) == []
    d = one(check(_polling(aggregation_mode="latests")), "TS104")
    assert d.message == (
        "automation 't', 'trigger_config.aggregation_mode': "
        'invalid value "latests": expected one of "latest", "all", "per_item". Did you mean "latest"?'
    )
