"""TS401–TS410: actions, tools and parameters — exact ranges (0-based, UTF-16), messages, fixes."""

from __future__ import annotations

from typing import Literal

from automations import apply_fix, automation, check, make_registry
from checking import codes, one, only
from pydantic import BaseModel, ConfigDict

from toolsense.engine.context import ToolRegistry
from toolsense.models import strict_json_schema
from toolsense.settings import Settings
from toolsense.usermodels import LoadedModel, ModelRegistry

MANUAL = """{
  "name": "t",
  "trigger_type": "manual",
  "actions": [
%s
  ]
}"""


def manual(*actions: str) -> str:
    return MANUAL % ",\n".join("    " + a for a in actions)


def webhook(*actions: str) -> str:
    text = manual(*actions)
    return text.replace(
        '"trigger_type": "manual"',
        '"trigger_type": "webhook",\n  "trigger_config": {"service": "Slack", "event_type": "message.channels"}',
    )


def test_empty_actions_is_one_clear_error_on_the_array() -> None:
    diags = check('{"name": "t", "trigger_type": "manual", "actions": []}')
    assert codes(diags) == ["TS401"]
    d = diags[0]
    assert d.range == (0, 51, 0, 53)
    assert d.text == "[]"
    assert d.message.startswith("An automation needs at least one action: 'actions' is empty.")


def test_missing_id_and_tool_come_from_the_structure_rules() -> None:
    diags = check(manual('{"parameters": {}}'))
    d = one(diags, "TS102")
    assert d.message == "automation 't', 'actions.0': missing required properties: 'id', 'tool'"
    assert d.range == (4, 4, 4, 5)  # the action's `{`


def test_duplicate_id_points_at_the_second_and_relates_the_first() -> None:
    text = manual(
        '{"id": "notify", "tool": "send_push_notification", "parameters": {"title": "a", "body": "b"}}',
        '{"id": "notify", "tool": "send_push_notification", "parameters": {"title": "c", "body": "d"}}',
    )
    d = one(check(text), "TS402")
    assert d.range == (5, 11, 5, 19)
    assert d.text == '"notify"'
    assert d.message == "Duplicate action id 'notify': action #1 already uses it; ids must be unique"
    related = d.diagnostic.related
    assert len(related) == 1
    assert related[0].message == "Action #1 uses id 'notify'"
    assert (related[0].range.start.line, related[0].range.start.character) == (4, 11)


def test_unknown_tool_did_you_mean_on_the_tool_value_with_ranked_fixes() -> None:
    text = manual('{"id": "a", "tool": "oura_sleep", "parameters": {"start_date": "{{today}}"}}')
    d = one(check(text), "TS403")
    assert d.message == "Unknown tool 'oura_sleep'. Did you mean 'oura_get_daily_sleep'?"
    assert d.range == (4, 24, 4, 36)
    assert d.text == '"oura_sleep"'
    [fix] = d.fixes
    assert fix.preferred and not fix.safe
    assert '"tool": "oura_get_daily_sleep"' in apply_fix(text, fix)


def test_unknown_tool_several_candidates_best_first() -> None:
    text = manual('{"id": "a", "tool": "oura_get_daily", "parameters": {}}')
    d = one(check(text), "TS403")
    assert d.message.startswith("Unknown tool 'oura_get_daily'. Did you mean 'oura_get_daily_")
    titles = [f.title for f in d.fixes]
    assert len(titles) == 2
    assert [f.preferred for f in d.fixes] == [True, False]


def test_unknown_tool_without_a_similar_name_does_not_list_every_tool() -> None:
    d = one(check(manual('{"id": "a", "tool": "zz", "parameters": {}}')), "TS403")
    assert d.message == "Unknown tool 'zz'. No tool with a similar name among the 7 known tools."
    assert list(d.fixes) == []


def test_unknown_parameter_exact_message_on_the_key() -> None:
    text = manual('{"id": "a", "tool": "slack_post_message", "parameters": {"channel": "#x", "msg": "hi"}}')
    diags = check(text)
    d = one(diags, "TS404")
    assert d.message == (
        "Tool 'slack_post_message' has unknown parameter 'msg'. Did you mean 'text'? "
        "Valid parameters: channel, text, blocks, thread_ts"
    )
    assert d.range == (4, 78, 4, 83)
    assert d.text == '"msg"'
    rename, remove = d.fixes
    assert rename.preferred
    assert '"text": "hi"' in apply_fix(text, rename)
    assert '"msg"' not in apply_fix(text, remove)
    missing = one(diags, "TS405")
    assert missing.message == "Tool 'slack_post_message' requires parameter 'text' ('msg' may be meant as 'text')"
    assert missing.text == '"parameters"'
    assert missing.range == (4, 46, 4, 58)


def test_unknown_parameter_similar_name() -> None:
    text = manual('{"id": "a", "tool": "send_push_notification", "parameters": {"title": "x", "bdy": "y"}}')
    d = one(check(text), "TS404")
    assert d.message.startswith("Tool 'send_push_notification' has unknown parameter 'bdy'. Did you mean 'body'?")


def test_missing_required_parameters_marked_on_parameters_with_insert_fix() -> None:
    text = manual('{"id": "a", "tool": "llm_classify", "parameters": {"text": "x"}}')
    d = one(check(text), "TS405")
    assert d.message == "Tool 'llm_classify' requires parameters 'question', 'options'"
    assert d.text == '"parameters"'
    fixed = apply_fix(text, d.fixes[0])
    assert '"question": ""' in fixed and '"options": []' in fixed
    assert check(fixed) == []


def test_missing_parameters_object_is_marked_on_the_action() -> None:
    text = manual('{"id": "a", "tool": "send_push_notification"}')
    d = one(check(text), "TS405")
    assert d.message == "Tool 'send_push_notification' requires parameters 'title', 'body'"
    assert d.range == (4, 4, 4, 5)
    fixed = apply_fix(text, d.fixes[0])
    assert check(fixed) == []


def test_literal_wrong_type_and_enum_on_the_value() -> None:
    text = manual(
        '{"id": "a", "tool": "create_ticket", "parameters": '
        '{"title": "Broken", "priority": "urgent", "estimate_hours": "3", "tags": ["a", 5]}}'
    )
    diags = check(text)
    enum = one(diags, "TS407")
    assert enum.text == '"urgent"'
    assert enum.message == (
        "Invalid value \"urgent\" for parameter 'priority' of tool 'create_ticket': expected one of "
        '"URGENT", "NORMAL", "LOW_PRIORITY". Did you mean "URGENT"?'
    )
    assert '"priority": "URGENT"' in apply_fix(text, enum.fixes[0])
    types = only(diags, "TS406")
    assert [(d.text, d.message) for d in types] == [
        ('"3"', "Parameter 'estimate_hours' of tool 'create_ticket' expects integer, received string: \"3\""),
        ("5", "Parameter 'tags.1' of tool 'create_ticket' expects string, received integer: 5"),
    ]


def test_other_constraints() -> None:
    text = manual('{"id": "a", "tool": "create_ticket", "parameters": {"title": "ab"}}')
    d = one(check(text), "TS408")
    assert d.text == '"ab"'
    assert d.message == "Parameter 'title' of tool 'create_ticket': 'ab' is too short"


def test_templated_values_are_not_checked_as_literals() -> None:
    text = webhook(
        '{"id": "a", "tool": "create_ticket", "parameters": '
        '{"title": "{{trigger_data.subject}}", "priority": "{{trigger_data.level}}"}}'
    )
    assert check(text) == []


def test_template_in_a_non_string_parameter_is_a_warning_on_the_template() -> None:
    text = webhook(
        '{"id": "a", "tool": "create_ticket", "parameters": {"title": "x y z", "estimate_hours": "{{trigger_data.h}}"}}'
    )
    d = one(check(text), "TS509")
    assert d.severity == "warning"
    assert d.text == "{{trigger_data.h}}"
    assert d.message == (
        "Parameter 'estimate_hours' of tool 'create_ticket' expects integer, but templates always produce text: "
        "'{{trigger_data.h}}' is sent as a string, so the tool must accept one here"
    )


def test_no_registry_is_one_information_and_nothing_else() -> None:
    text = manual('{"id": "a", "tool": "anything", "parameters": {"x": 1}}')
    diags = check(text, registry=ToolRegistry())
    assert codes(diags) == ["TS409"]
    assert diags[0].severity == "information"
    assert diags[0].text == '"actions"'


def test_registered_model_names_count_as_known_tools() -> None:
    settings = Settings(models={"my_tool": "pkg.mod:Input"})
    text = manual('{"id": "a", "tool": "my_tool", "parameters": {"x": 1}}')
    assert check(text, settings=settings) == []
    assert codes(check(manual('{"id": "a", "tool": "my_tol", "parameters": {}}'), settings=settings)) == ["TS403"]


class _Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    severity: Literal["low", "high"] = "low"


def test_a_registered_model_is_the_parameters_schema() -> None:
    schema = strict_json_schema(_Ticket)
    models = ModelRegistry(models={"file_ticket": LoadedModel("file_ticket", "t:_Ticket", _Ticket, "t.py:1", schema)})
    settings = Settings(models={"file_ticket": "t:_Ticket"})
    text = manual('{"id": "a", "tool": "file_ticket", "parameters": {"title": "x", "severity": "hgh", "extra": 1}}')
    diags = check(text, settings=settings, models=models)
    assert [(d.code, d.text) for d in diags] == [("TS407", '"hgh"'), ("TS404", '"extra"')]
    assert diags[0].message == (
        'Invalid value "hgh" for parameter \'severity\' of tool \'file_ticket\': expected one of "low", "high". '
        'Did you mean "high"?'
    )


def test_output_name_conflicts_are_warnings() -> None:
    text = automation(
        [
            {
                "id": "a",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "today",
            },
            {
                "id": "b",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "c",
            },
            {
                "id": "c",
                "tool": "llm_classify",
                "parameters": {"text": "x", "question": "q", "options": []},
                "output_as": "c",
            },
        ]
    )
    diags = only(check(text), "TS410")
    assert [d.text for d in diags] == ['"today"', '"c"']
    assert diags[0].message.startswith("output_as 'today' is the name of a built-in variable")
    assert diags[1].message == "output_as 'c' is also set by action #2: later actions see only this newer output"
    assert all(d.severity == "warning" for d in diags)


def test_registry_change_is_seen() -> None:
    registry = make_registry()
    text = manual('{"id": "a", "tool": "brand_new_tool", "parameters": {}}')
    assert codes(check(text, registry)) == ["TS403"]
    registry.set_file(
        "file:///ws/tools/new.tools.json",
        make_registry({"tools": [{"name": "brand_new_tool", "inputSchema": {"type": "object"}}]}).by_uri[
            "file:///ws/tools/registry.tools.json"
        ],
    )
    assert check(text, registry) == []
