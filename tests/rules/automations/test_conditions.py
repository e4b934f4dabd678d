"""Conditions on actions, the polling `filter` and the webhook `filters`: shape, value, op, paths."""

from __future__ import annotations

import json
from typing import Any

from automations import apply_fix, check
from checking import codes, one, only

CLAUSE_ACTION = """{
  "name": "t",
  "trigger_type": "webhook",
  "trigger_config": {"service": "Slack", "event_type": "message.channels"},
  "actions": [
    {
      "id": "a",
      "tool": "send_push_notification",
      "condition": %s,
      "parameters": {"title": "t", "body": "b"}
    }
  ]
}"""


def with_condition(condition: str) -> str:
    return CLAUSE_ACTION % condition


def test_missing_value_on_the_clause_with_insert_fix() -> None:
    text = with_condition('{"path": "score", "op": "<"}')
    d = one(check(text), "TS601")
    assert d.range == (8, 6, 8, 17)  # a missing member is marked on its object's key
    assert d.text == '"condition"'
    assert d.message == (
        "Condition clause with op '<' needs a 'value' to compare with (only exists/not_exists take none)"
    )
    fixed = apply_fix(text, d.fixes[0])
    assert '"value": 0' in fixed
    assert codes(check(fixed)) == []


def test_value_with_exists_is_a_warning_with_safe_removal() -> None:
    text = with_condition('{"path": "score", "op": "exists", "value": 1}')
    d = one(check(text), "TS602")
    assert d.severity == "warning"
    assert d.text == '"value"'
    assert d.range == (8, 53, 8, 60)
    assert d.message == "op 'exists' takes no value: 1 is ignored; remove it"
    [fix] = d.fixes
    assert fix.safe
    assert check(apply_fix(text, fix)) == []


def test_ordering_op_with_a_non_numeric_value() -> None:
    d = one(check(with_condition('{"path": "score", "op": ">=", "value": "high"}')), "TS607")
    assert d.text == '"high"'
    assert d.message == "op '>=' compares numbers, but \"high\" is not one: the clause would always be false"
    assert check(with_condition('{"path": "score", "op": ">=", "value": "70"}')) == []


def test_clause_shape_errors_say_which_form_was_assumed() -> None:
    diags = check(with_condition('{"path": "score"}'))
    d = one(diags, "TS102")
    assert d.message == (
        "automation 't', 'actions.0.condition': missing required property 'op' (read as a condition clause: it has "
        "no 'clauses' or 'operator')"
    )
    assert not only(diags, "TS601")  # no value demanded while op is unknown


def test_op_outside_the_set() -> None:
    d = one(check(with_condition('{"path": "score", "op": "EQUALS", "value": 1}')), "TS104")
    assert d.text == '"EQUALS"'
    assert d.message.startswith(
        'automation \'t\', \'actions.0.condition.op\': invalid value "EQUALS": expected one of "<", ">", "<=", ">="'
    )


def test_group_operator_and_empty_clauses_recursively() -> None:
    condition = json.dumps(
        {
            "operator": "AND",
            "clauses": [
                {"path": "a", "op": "==", "value": 1},
                {"operator": "XOR", "clauses": []},
                {"operator": "OR", "clauses": [{"path": "b", "op": "<"}]},
            ],
        }
    )
    diags = check(with_condition(condition))
    assert [(d.code, d.text) for d in diags] == [
        ("TS104", '"XOR"'),
        ("TS106", "[]"),
        ("TS601", "{"),
    ]
    assert diags[0].message == (
        "automation 't', 'actions.0.condition.clauses.1.operator': "
        'invalid value "XOR": expected one of "AND", "OR". Did you mean "OR"? (read as a condition group because '
        "it has 'clauses' or 'operator')"
    )
    assert diags[2].diagnostic.finding is not None
    assert diags[2].diagnostic.finding.pointer == ("actions", 0, "condition", "clauses", 2, "clauses", 0)


def _webhook_filters(filters: Any) -> str:
    return json.dumps(
        {
            "name": "t",
            "trigger_type": "webhook",
            "trigger_config": {"service": "Gmail", "event_type": "message.created", "filters": filters},
            "actions": [{"id": "a", "tool": "send_push_notification", "parameters": {"title": "t", "body": "b"}}],
        },
        indent=2,
    )


def test_webhook_filters_are_checked_as_conditions() -> None:
    text = _webhook_filters(
        {
            "operator": "OR",
            "clauses": [
                {"path": "subject", "op": "contains", "value": "urgent", "case_insensitive": True},
                {"path": "from", "op": "starts", "value": "boss"},
                {"path": "trigger_data.0.subject", "op": "exists"},
                {"path": "to", "op": "contains"},
            ],
        }
    )
    diags = check(text)
    assert [(d.code, d.text) for d in diags] == [
        ("TS104", '"starts"'),
        ("TS503", '"trigger_data.0.subject"'),
        ("TS601", "{"),
    ]
    assert diags[0].message.endswith("(read as a condition clause: it has no 'clauses' or 'operator')")
    assert diags[1].message == (
        "Condition path 'trigger_data.0.subject': webhook trigger data is one object, not a list; use "
        "'trigger_data.subject'"
    )
    fixed = apply_fix(text, diags[1].fixes[0])
    assert '"path": "trigger_data.subject"' in fixed


def test_condition_paths_resolve_like_template_paths() -> None:
    text = json.dumps(
        {
            "name": "t",
            "trigger_type": "webhook",
            "trigger_config": {"service": "Slack", "event_type": "message.channels"},
            "actions": [
                {
                    "id": "early",
                    "tool": "send_push_notification",
                    "condition": {"path": "urgency.answer", "op": "==", "value": "URGENT"},
                    "parameters": {"title": "t", "body": "b"},
                },
                {
                    "id": "classify",
                    "tool": "llm_classify",
                    "parameters": {"text": "{{text}}", "question": "q", "options": ["URGENT"]},
                    "output_as": "urgency",
                },
                {
                    "id": "late",
                    "tool": "send_push_notification",
                    "condition": {
                        "operator": "AND",
                        "clauses": [
                            {"path": "urgency.answer", "op": "==", "value": "URGENT"},
                            {"path": "urgency.anwser", "op": "exists"},
                            {"path": "event_data.text", "op": "exists"},
                            {"path": "today", "op": "exists"},
                        ],
                    },
                    "parameters": {"title": "t", "body": "b"},
                },
            ],
        },
        indent=2,
    )
    diags = check(text)
    assert [(d.code, d.text) for d in diags] == [
        ("TS505", '"urgency.answer"'),
        ("TS611", '"urgency.anwser"'),
        ("TS502", '"event_data.text"'),
        ("TS508", '"today"'),
    ]
    assert diags[0].message == (
        "Condition path 'urgency.answer' uses 'urgency', the output of action 'classify' (#2), which runs later: "
        "only the output_as of earlier actions can be used. Move that action before this one"
    )
    assert diags[1].message == (
        "Path 'urgency.anwser' not found in the output of action 'classify' (llm_classify). Available fields: "
        "answer, confidence"
    )
    assert diags[2].message == (
        "Condition path 'event_data.text': there is no 'event_data'; the trigger's data is 'trigger_data' "
        "('trigger_data.text')"
    )
    assert diags[3].message.startswith("Condition path 'today': built-ins such as 'today' are replaced only inside")


def test_polling_filter_paths_are_trigger_fields() -> None:
    text = json.dumps(
        {
            "name": "t",
            "trigger_type": "polling",
            "trigger_config": {
                "source_tool": "oura_get_daily_sleep",
                "polling_interval_minutes": 60,
                "tool_params": {"start_date": "{{yesterday}}"},
                "filter": {
                    "operator": "AND",
                    "clauses": [
                        {"path": "score", "op": "<", "value": 70},
                        {"path": "trigger_data.day", "op": "exists"},
                        {"path": "scor", "op": "<", "value": 70},
                    ],
                },
            },
            "actions": [{"id": "a", "tool": "send_push_notification", "parameters": {"title": "t", "body": "b"}}],
        },
        indent=2,
    )
    d = one(check(text), "TS610")
    assert d.text == '"scor"'
    assert d.message == (
        "Path 'scor' not found in oura_get_daily_sleep output. Available fields: score, day, timestamp, contributors"
    )
    assert d.fixes[0].title == "Change to 'score'"
