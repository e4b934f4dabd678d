"""A wrapper or a glob never claims content that has none of a dialect's shape (issue 21, classes 1 and 2).

A wrapper (`tools`, `functions`, `automations`, a name-keyed map) is ours only when its members are; in a mixed one
the members are checked and the other entries left alone. A default glob, by folder or by file name
(`*.tools.json`), lowers the bar; only the user's settings force a kind."""

from __future__ import annotations

import json

from checking import report

from toolsense.settings import settings_from_mapping

SCHEDULED_PROMPTS = json.dumps(
    {
        "automations": [
            {"name": "daily digest", "schedule": "0 9 * * *", "model": "gpt-4o", "prompt": "Summarise my inbox"},
            {"name": "weekly", "schedule": "0 9 * * 1", "model": "gpt-4o", "prompt": "Plan the week"},
        ]
    },
    indent=2,
)
TOOL = {"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object", "properties": {}}}
AUTOMATION = {
    "name": "nightly",
    "trigger_type": "manual",
    "actions": [{"id": "a", "tool": "get_weather", "parameters": {}}],
}


def _codes(text: str, name: str) -> list[tuple[str, str]]:
    _, found = report(text, name)
    return [(d.code, d.severity.label) for d in found.diagnostics]


def test_an_automations_wrapper_of_scheduled_prompts_is_not_ours() -> None:
    _, found = report(SCHEDULED_PROMPTS, "automations/prompts.json")
    assert found.kind is None and found.units == []
    (note,) = found.diagnostics
    assert (note.code, note.severity.label) == ("TS007", "information")
    assert note.message.startswith("Not checked: the file's path suggests an automation, but the content has")
    assert (note.range.start.line, note.range.start.character, note.range.end.character) == (0, 0, 1)


def test_a_mixed_automations_wrapper_checks_only_its_automations() -> None:
    prompt = {"name": "digest", "schedule": "0 9 * * *", "prompt": "Summarise"}
    _, found = report(json.dumps({"automations": [AUTOMATION, prompt]}), "automations/mixed.json")
    assert [u.pointer for u in found.units] == [("automations", 0)]
    assert all(d.range.start.line == 0 for d in found.diagnostics)  # nothing on the prompt (one line: all on 0)
    assert not [d for d in found.diagnostics if d.severity.label == "error" and "schedule" in d.message]


def test_a_mixed_tools_wrapper_checks_only_its_tools() -> None:
    other = {"id": 7, "label": "Export", "enabled": True}
    text = json.dumps({"tools": [TOOL, other]}, indent=2)
    _, found = report(text, "config/app.json")
    assert [u.pointer for u in found.units] == [("tools", 0)]
    assert [d for d in found.diagnostics if d.severity.label == "error"] == []


def test_a_named_entry_with_only_a_tools_keys_is_still_a_member() -> None:
    """`{name, description}` beside tools is a tool that lacks its schema: checked (and told so)."""
    text = json.dumps({"tools": [TOOL, {"name": "lookup", "description": "Look up."}]}, indent=2)
    _, found = report(text, "config/app.json")
    assert [u.pointer for u in found.units] == [("tools", 0), ("tools", 1)]
    assert [(d.code, d.message) for d in found.diagnostics if d.severity.label == "error"] == [
        ("TS102", "Missing required property 'input_schema' in Anthropic tool 'lookup'")
    ]


def test_a_functions_wrapper_of_other_records_is_not_ours() -> None:
    text = json.dumps({"functions": [{"name": "hello", "runtime": "nodejs18", "handler": "index.handler"}]})
    assert _codes(text, "functions/config.json") == []
    assert _codes(text, "app/serverless.json") == []


def test_a_name_glob_does_not_make_node_metadata_a_tool() -> None:
    """A flow tool's `*.tools.json` node metadata has no tool keys: one note, never "Anthropic tool" errors."""
    nodes = [{"displayName": "HTTP Request", "properties": [{"displayName": "URL", "type": "string"}]}]
    for name in ("flow.tools.json", "node.tool.json"):
        assert _codes(json.dumps(nodes, indent=2), name) == [("TS007", "information")]
    assert _codes(json.dumps({"displayName": "HTTP Request", "version": 2}), "x.tools.json") == [
        ("TS007", "information")
    ]


def test_a_name_glob_lowers_the_bar() -> None:
    """In a `*.tool.json` a tool may lack its name: it is still claimed, and the missing name reported."""
    _, found = report(json.dumps({"input_schema": {"type": "object"}}), "x.tool.json")
    assert [(d.code, d.message) for d in found.diagnostics if d.severity.label == "error"] == [
        ("TS102", "Missing required property 'name' in Anthropic tool")
    ]


def test_the_users_settings_force_the_kind() -> None:
    forced, problems = settings_from_mapping({"files": {"tool_definitions": ["**/*.tools.json"]}}, "test")
    assert not problems
    _, found = report(json.dumps({"description": "No name and no schema."}), "x.tools.json", settings=forced)
    assert found.kind == "tool"
    assert [d.code for d in found.diagnostics] == ["TS102"]


def test_an_empty_list_a_glob_points_at_is_fine() -> None:
    """`[]` in `tools/x.tools.json` is an empty list of tools, not someone else's content: no note."""
    _, found = report("[]", "tools/x.tools.json")
    assert (found.kind, found.diagnostics) == ("tool", [])
