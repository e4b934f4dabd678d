"""TS501–TS509: templates, each finding placed on the template inside the string (UTF-16 columns)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from automations import apply_fix, automation, check
from checking import codes, one, only

EMOJI_AND_ESCAPES = r"""{
  "name": "t",
  "trigger_type": "webhook",
  "trigger_config": {"service": "Gmail", "event_type": "message.created"},
  "actions": [
    {
      "id": "post",
      "tool": "slack_post_message",
      "parameters": {
        "channel": "#alerts",
        "text": "😀 \"{{event_data.subject}}\" from {{trigger_data.0.from}}"
      }
    }
  ]
}"""


def test_template_after_an_emoji_and_an_escaped_quote_exact_utf16_ranges() -> None:
    diags = check(EMOJI_AND_ESCAPES)
    assert codes(diags) == ["TS502", "TS503"]
    event, array = diags
    # Line 10: 8 spaces, `"text": ` → the string opens at 16; 😀 is two UTF-16 units (17-18), then ` \"`.
    assert event.range == (10, 22, 10, 44)
    assert event.text == "{{event_data.subject}}"
    assert event.message == (
        "Template '{{event_data.subject}}': there is no 'event_data'; the trigger's data is 'trigger_data' "
        "('{{trigger_data.subject}}')"
    )
    assert array.range == (10, 52, 10, 75)
    assert array.text == "{{trigger_data.0.from}}"
    assert array.message == (
        "Template '{{trigger_data.0.from}}': webhook trigger data is one object, not a list; use "
        "'{{trigger_data.from}}' (or '{{from}}')"
    )


def test_event_data_fix_is_safe_and_keeps_escapes_and_emoji() -> None:
    event = one(check(EMOJI_AND_ESCAPES), "TS502")
    [fix] = event.fixes
    assert fix.safe and fix.preferred
    fixed = apply_fix(EMOJI_AND_ESCAPES, fix)
    assert r'"text": "😀 \"{{trigger_data.subject}}\" from {{trigger_data.0.from}}"' in fixed
    array = one(check(fixed), "TS503")
    fixed = apply_fix(fixed, array.fixes[0])
    assert r'"text": "😀 \"{{trigger_data.subject}}\" from {{trigger_data.from}}"' in fixed
    assert check(fixed) == []


def _post(text: str, **extra: Any) -> str:
    return automation(
        [{"id": "post", "tool": "slack_post_message", "parameters": {"channel": "#c", "text": text}}], **extra
    )


@pytest.mark.parametrize(
    ("text", "token", "message"),
    [
        (
            "{{#if score}}Score: {{score}}{{/if}}",
            "{{#if score}}",
            "Handlebars block '{{#if score}}' is not supported (templates only substitute values): for conditional "
            "content use separate actions, each with a 'condition', e.g. "
            '{"condition": {"path": "score", "op": "exists"}, "parameters": {…}}',
        ),
        (
            "{{#if score}}Score: {{score}}{{/if}}",
            "{{/if}}",
            "Handlebars closing tag '{{/if}}' is not supported: remove the block and use separate actions, each with "
            "a 'condition'",
        ),
        (
            "a {{else}} b",
            "{{else}}",
            "Handlebars '{{else}}' is not supported: put the other branch in a second action with the opposite "
            "condition",
        ),
        (
            "{{> header}} hi",
            "{{> header}}",
            "Handlebars partial '{{> header}}' is not supported: write the text inline",
        ),
        (
            "{{! note }}hi",
            "{{! note }}",
            "Handlebars comment '{{! note }}' is not supported: it would be sent as literal text; remove it",
        ),
        (
            "{{#each items}}{{name}}{{/each}}",
            "{{#each items}}",
            "Handlebars block '{{#each items}}' is not supported (templates only substitute values): lists cannot be "
            "looped over: pass the whole value ('{{items}}' is sent as JSON) or use a polling trigger that runs once "
            "per item",
        ),
        (
            "{% if x %}hi{% endif %}",
            "{% if x %}",
            "Jinja tag '{% if x %}' is not supported: only '{{path}}' placeholders are replaced; for conditional "
            "content use separate actions, each with a 'condition'",
        ),
    ],
)
def test_unsupported_syntax(text: str, token: str, message: str) -> None:
    diags = only(check(_post(text)), "TS501")
    found = [d for d in diags if d.text == token]
    assert len(found) == 1, [d.text for d in diags]
    assert found[0].message == message


def test_all_template_errors_in_one_string_at_once() -> None:
    diags = check(_post("{{#if a}}{{a}}{{/if}} {{else}} {{event_data.x}} {{x | upper}}"))
    assert [(d.code, d.text) for d in diags] == [
        ("TS501", "{{#if a}}"),
        ("TS501", "{{/if}}"),
        ("TS501", "{{else}}"),
        ("TS502", "{{event_data.x}}"),
        ("TS507", "{{x | upper}}"),
    ]


def test_triple_braces_safe_fix() -> None:
    text = _post("Hi {{{trigger_data.user}}}")
    d = one(check(text), "TS501")
    assert d.text == "{{{trigger_data.user}}}"
    assert d.message == (
        "Triple braces / raw output '{{{trigger_data.user}}}' are not supported and leave stray braces: "
        "use '{{trigger_data.user}}'"
    )
    [fix] = d.fixes
    assert fix.safe
    assert check(apply_fix(text, fix)) == []


def test_malformed_and_empty() -> None:
    diags = check(_post("{{}} {{a..b}} {{trigger data}}"))
    assert [(d.code, d.text) for d in diags] == [
        ("TS507", "{{}}"),
        ("TS507", "{{a..b}}"),
        ("TS507", "{{trigger data}}"),
    ]
    assert diags[0].message == "Empty template '{{}}': put a path inside, e.g. '{{trigger_data.subject}}'"


def test_unbalanced_braces() -> None:
    text = _post("A {{trigger_data.user} and {trigger_data.text}} and {{trigger_data.ts")
    diags = check(text)
    assert [(d.code, d.text) for d in diags] == [
        ("TS506", "{{trigger_data.user}"),
        ("TS506", "{trigger_data.text}}"),
        ("TS506", "{{trigger_data.ts"),
    ]
    assert [d.message for d in diags] == [
        "Template '{{trigger_data.user}' is missing a closing brace: write '{{trigger_data.user}}'",
        "Template '{trigger_data.text}}' is missing an opening brace: write '{{trigger_data.text}}'",
        "Unclosed template '{{trigger_data.ts': add '}}' after the path",
    ]
    for _ in diags:
        text = apply_fix(text, check(text)[0].fixes[0])
    assert check(text) == []


def test_braces_of_json_inside_a_string_are_not_templates() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "sleep",
            },
            {
                "id": "b",
                "tool": "llm_transform",
                "parameters": {"text": '{"sleep": {{sleep}}, "x": {"y": true}}', "instruction": "summarise"},
            },
        ]
    )
    assert check(text) == []


def test_unknown_variable_in_a_schedule_is_an_error_with_what_is_available() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "oura_get_daily_activity",
                "parameters": {"start_date": "{{today}}"},
                "output_as": "act",
            },
            {"id": "b", "tool": "send_push_notification", "parameters": {"title": "x", "body": "{{score}}"}},
        ],
        trigger_type="schedule_recurring",
        trigger_config={"interval": "daily", "time_of_day": "09:00"},
    )
    d = one(check(text), "TS504")
    assert d.severity == "error"
    assert d.text == "{{score}}"
    assert d.message == (
        "Unknown template variable 'score' in '{{score}}'. A path starts with trigger_data, user, a built-in "
        "(today, yesterday, now, …) or the output_as of an earlier action (act); schedule_recurring automations "
        "have no trigger data"
    )


def test_unknown_variable_did_you_mean_with_fix() -> None:
    text = automation(
        [
            {"id": "a", "tool": "oura_get_daily_activity", "parameters": {"start_date": "{{yesterdya}}"}},
        ],
        trigger_type="manual",
        trigger_config={},
    )
    d = one(check(text), "TS504")
    assert d.message == "Unknown template variable 'yesterdya' in '{{yesterdya}}'. Did you mean 'yesterday'?"
    assert check(apply_fix(text, d.fixes[0])) == []


def test_webhook_shorthand_is_accepted_but_a_near_miss_is_a_warning() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "llm_classify",
                "parameters": {"text": "{{text}}", "question": "q", "options": []},
                "output_as": "summary",
            },
            {
                "id": "b",
                "tool": "slack_post_message",
                "parameters": {"channel": "#c", "text": "{{user}}: {{sumary.answer}}"},
            },
        ]
    )
    d = one(check(text), "TS504")
    assert d.severity == "warning"
    assert d.text == "{{sumary.answer}}"
    assert d.message == (
        "Unknown template variable 'sumary' in '{{sumary.answer}}'. Did you mean 'summary'? ('sumary' is not a "
        "variable, built-in or earlier output, so it would be read from the trigger data as 'trigger_data.sumary')"
    )


def test_output_of_a_later_action_is_an_error_that_says_so() -> None:
    text = automation(
        [
            {
                "id": "notify",
                "tool": "slack_post_message",
                "parameters": {"channel": "#c", "text": "{{urgency.answer}}"},
            },
            {
                "id": "classify",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "urgency",
            },
        ]
    )
    d = one(check(text), "TS505")
    assert d.text == "{{urgency.answer}}"
    assert d.message == (
        "Template '{{urgency.answer}}' uses 'urgency', the output of action 'classify' (#2), which runs later: only "
        "the output_as of earlier actions can be used. Move that action before this one"
    )
    [related] = d.diagnostic.related
    assert related.message == "'urgency' is set here"


def test_own_output_is_not_available_yet() -> None:
    text = automation(
        [
            {
                "id": "c",
                "tool": "llm_classify",
                "parameters": {"text": "{{u.answer}}", "question": "q", "options": []},
                "output_as": "u",
            }
        ]
    )
    d = one(check(text), "TS505")
    assert d.message == (
        "Template '{{u.answer}}' uses 'u', the output_as of this same action: it is set only after the action runs"
    )


def test_builtins_user_variables_and_earlier_outputs_resolve() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "llm_classify",
                "parameters": {"text": "{{trigger_data.text}}", "question": "q", "options": []},
                "output_as": "u",
            },
            {
                "id": "b",
                "tool": "send_push_notification",
                "parameters": {
                    "title": "{{today}} {{now_minus_24h}} {{user.email}} {{limits.max}}",
                    "body": "{{u.answer}} {{u.confidence}} {{subject}} {{trigger_data}}",
                },
            },
        ],
        variables={"limits": {"max": 3}},
    )
    assert check(text) == []


def test_paths_into_known_values_are_checked() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "u",
            },
            {
                "id": "b",
                "tool": "send_push_notification",
                "parameters": {"title": "{{u.anser}}", "body": "{{limits.min}} {{user.emial}}"},
            },
        ],
        variables={"limits": {"max": 3}},
    )
    diags = only(check(text), "TS611")
    assert [(d.text, d.message) for d in diags] == [
        (
            "{{u.anser}}",
            "Path 'u.anser' not found in the output of action 'a' (llm_classify). Available fields: answer, confidence",
        ),
        ("{{limits.min}}", "Path 'limits.min' not found in variable 'limits'. Available fields: max"),
        ("{{user.emial}}", "Path 'user.emial' not found in user. Available fields: id, email, name, phone, timezone"),
    ]
    assert diags[0].fixes[0].title == "Change to 'answer'"


def test_trigger_data_in_tool_params_is_not_available() -> None:
    text = json.dumps(
        {
            "name": "t",
            "trigger_type": "polling",
            "trigger_config": {
                "source_tool": "oura_get_daily_sleep",
                "polling_interval_minutes": 60,
                "tool_params": {"start_date": "{{yesterday}}", "end_date": "{{trigger_data.day}}"},
            },
            "actions": [{"id": "a", "tool": "send_push_notification", "parameters": {"title": "t", "body": "b"}}],
        },
        indent=2,
    )
    d = one(check(text), "TS508")
    assert d.severity == "error"
    assert d.text == "{{trigger_data.day}}"
    assert d.message == (
        "Template '{{trigger_data.day}}' cannot be used in tool_params: they are resolved before the source tool "
        "runs, when there is no trigger data yet (built-ins, user and variables can be used)"
    )


def test_trigger_data_in_a_schedule_is_a_warning() -> None:
    text = automation(
        [{"id": "a", "tool": "send_push_notification", "parameters": {"title": "t", "body": "{{trigger_data.x}}"}}],
        trigger_type="schedule_once",
        trigger_config={"run_at": "2026-03-01T09:00:00"},
    )
    d = one(check(text), "TS508")
    assert d.severity == "warning"
    assert d.message == (
        "Template '{{trigger_data.x}}': schedule_once automations have no trigger data; fetch the data with an "
        "action and use its output_as"
    )


def test_templates_in_nested_parameters_and_condition_values() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "slack_post_message",
                "condition": {"path": "trigger_data.text", "op": "contains", "value": "{{event_data.word}}"},
                "parameters": {
                    "channel": "#c",
                    "text": "x",
                    "blocks": [{"type": "section", "text": {"text": "{{#if a}}"}}],
                },
            }
        ]
    )
    diags = check(text)
    assert [(d.code, d.text) for d in diags] == [("TS502", "{{event_data.word}}"), ("TS501", "{{#if a}}")]
    assert diags[0].diagnostic.finding is not None
    assert diags[0].diagnostic.finding.pointer == ("actions", 0, "condition", "value")
