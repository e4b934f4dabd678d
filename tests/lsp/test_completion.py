"""Completion over LSP: enum values (with docs) before a value, inside quotes, after a partial word; property
names (required first, snippet or plain by client); literals; `input_examples` and tool calls completed from
the tool's own input schema; JSON Schema keywords and type names; half-typed JSON; emoji / CRLF / U+2028."""

from __future__ import annotations

import pytest
from lspkit import Session, at
from lsprotocol import types
from samples import SEND_TOOL

TOOL_WITH_EXAMPLE = """[
  {
    "name": "get_weather",
    "description": "Weather for a city.",
    "input_schema": {
      "type": "object",
      "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"},
        "days": {"type": "integer", "description": "How many days"},
        "alerts": {"type": "boolean", "description": "Include alerts"}
      },
      "required": ["city", "unit"],
      "additionalProperties": false
    },
    "input_examples": [{"city": "Paris", "unit": @@}]
  }
]
"""


def _edit_range(item: types.CompletionItem) -> types.Range:
    assert isinstance(item.text_edit, types.TextEdit)
    return item.text_edit.range


def _rng(line: int, start: int, end: int) -> types.Range:
    return types.Range(types.Position(line, start), types.Position(line, end))


@pytest.mark.parametrize(
    ("typed", "start_shift", "end_shift"),
    [
        ("|", 0, 0),  # before a value
        ('"|"', 0, 2),  # inside empty quotes: the quotes are replaced too
        ('"cel|"', 0, 5),  # inside quotes after a partial word
        ('"cel|', 0, 4),  # unclosed string
        ("cel|", 0, 3),  # a bare partial word
        ('"celsius|"', 0, 9),  # on a complete value: the whole token
    ],
)
async def test_enum_values_inside_input_examples(
    session: Session, typed: str, start_shift: int, end_shift: int
) -> None:
    text, line, character = at(TOOL_WITH_EXAMPLE.replace("@@", typed))
    token_start = character - typed.index("|")
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"']
    for item in items:
        assert item.kind == types.CompletionItemKind.EnumMember
        assert _edit_range(item) == _rng(line, token_start + start_shift, token_start + end_shift)
        assert item.text_edit is not None and item.text_edit.new_text == item.label
        assert item.detail == "Temperature unit"
        assert item.insert_text_format == types.InsertTextFormat.PlainText


async def test_property_names_in_an_example_required_first_plain_text(session: Session) -> None:
    text, line, character = at(TOOL_WITH_EXAMPLE.replace('{"city": "Paris", "unit": @@}', "{|}"))
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    ordered = sorted(items, key=lambda item: item.sort_text or "")
    assert [item.label for item in ordered] == ["city", "unit", "days", "alerts"]
    by_label = {item.label: item for item in items}
    assert by_label["city"].text_edit is not None and by_label["city"].text_edit.new_text == '"city": ""'
    assert by_label["unit"].text_edit is not None and by_label["unit"].text_edit.new_text == '"unit": "celsius"'
    assert by_label["days"].text_edit is not None and by_label["days"].text_edit.new_text == '"days": 0'
    assert by_label["alerts"].text_edit is not None and by_label["alerts"].text_edit.new_text == '"alerts": false'
    assert all(item.insert_text_format == types.InsertTextFormat.PlainText for item in items)
    assert by_label["city"].detail == "string · required · input of get_weather"
    assert _edit_range(by_label["city"]) == _rng(line, character, character)


async def test_property_names_are_snippets_for_vscode_and_skip_present_keys(session: Session) -> None:
    text, line, character = at(TOOL_WITH_EXAMPLE.replace('"unit": @@', '"|'))
    await session.start("vscode")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    by_label = {item.label: item for item in items}
    assert set(by_label) == {"unit", "days", "alerts"}  # "city" is already there
    unit = by_label["unit"]
    assert unit.insert_text_format == types.InsertTextFormat.Snippet
    assert unit.text_edit is not None and unit.text_edit.new_text == '"unit": "${1|celsius,fahrenheit|}"'
    assert _edit_range(unit) == _rng(line, character - 1, character)
    assert isinstance(unit.documentation, types.MarkupContent)
    assert unit.documentation.kind == types.MarkupKind.Markdown
    assert unit.documentation.value == 'Temperature unit\n\nAllowed: `"celsius"`, `"fahrenheit"`'


async def test_missing_comma_before_the_cursor(session: Session) -> None:
    text, line, character = at(TOOL_WITH_EXAMPLE.replace('"unit": @@', '"unit": "celsius" "|'))
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    by_label = {item.label: item for item in items}
    assert set(by_label) == {"days", "alerts"}
    days = by_label["days"]
    assert days.text_edit is not None and days.text_edit.new_text == '"days": 0'
    assert list(days.additional_text_edits or []) == [types.TextEdit(_rng(line, character - 2, character - 2), ",")]


async def test_truncated_file(session: Session) -> None:
    full = TOOL_WITH_EXAMPLE.replace("@@", '"')
    text = full[: full.index('"unit": "') + len('"unit": "')]
    line = text.count("\n")
    character = len(text) - text.rfind("\n") - 1
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"']
    assert _edit_range(items[0]) == _rng(line, character - 1, character)


async def test_completion_keeps_working_while_typing_a_broken_document(session: Session) -> None:
    text = TOOL_WITH_EXAMPLE.replace("@@", '"celsius"')
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    await session.diagnostics(uri, 1)
    # Replace `"celsius"` by `"f` (an unclosed string that breaks the rest of the file).
    line, character = at(text.replace('"unit": "celsius"', '"unit": |"celsius"'))[1:]
    version = session.change(uri, ((line, character, line, character + 9), '"f'))
    await session.diagnostics(uri, version)
    items = await session.completion(uri, line, character + 2)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"']
    assert _edit_range(items[1]) == _rng(line, character, character + 2)


@pytest.mark.parametrize(
    ("prefix", "name"),
    [
        ("😀 emoji 😀", "emoji"),
        ("a\u2028b", "line separator"),
        ("x" * 3, "plain"),
    ],
)
async def test_positions_after_wide_characters_on_the_same_line(session: Session, prefix: str, name: str) -> None:
    template = TOOL_WITH_EXAMPLE.replace('{"city": "Paris", "unit": @@}', '{"city": "' + prefix + '", "unit": "c|"}')
    text, line, character = at(template)
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"'], name
    assert _edit_range(items[0]) == _rng(line, character - 2, character + 1)


async def test_positions_in_a_crlf_file(session: Session) -> None:
    text, line, character = at(TOOL_WITH_EXAMPLE.replace("@@", '"f|"').replace("\n", "\r\n"))
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"']
    assert _edit_range(items[0]) == _rng(line, character - 2, character + 1)


async def test_incremental_edits_with_emoji_then_completion(session: Session) -> None:
    text = TOOL_WITH_EXAMPLE.replace("@@", '"celsius"')
    await session.start("neovim")
    uri = session.open("tools/weather.tools.json", text)
    line, character = at(text.replace('"Paris"', '"|Paris"'))[1:]
    session.change(uri, ((line, character, line, character), "🌍 "))  # 2 UTF-16 units + a space
    value_line, value_character = at(text.replace('"unit": "celsius"', '"unit": "c|elsius"'))[1:]
    items = await session.completion(uri, value_line, value_character + 3)
    assert [item.label for item in items] == ['"celsius"', '"fahrenheit"']
    assert _edit_range(items[0]) == _rng(value_line, value_character + 1, value_character + 10)


AUTOMATION = """{
  "name": "Alerts",
  "trigger_type": @@,
  "actions": [{"id": "a", "tool": "send_message", "parameters": {}}]
}
"""


async def test_automation_enum_with_meanings(session: Session) -> None:
    text, line, character = at(AUTOMATION.replace("@@", '"p|"'))
    await session.start("vscode")
    uri = session.open("automations/alerts.json", text)
    items = await session.completion(uri, line, character)
    labels = [item.label for item in items]
    assert labels == ['"webhook"', '"polling"', '"schedule_recurring"', '"schedule_once"', '"manual"']
    polling = items[1]
    assert polling.detail == ("A tool polled on an interval (trigger_config: source_tool, polling_interval_minutes).")
    assert isinstance(polling.documentation, types.MarkupContent)
    assert polling.documentation.value.endswith("What starts the automation.")
    assert _edit_range(polling) == _rng(line, character - 2, character + 1)


async def test_action_parameters_and_tool_names_from_the_registry(session: Session) -> None:
    session.write("tools/send.tool.json", SEND_TOOL)
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    text, line, character = at(AUTOMATION.replace("@@", '"manual"').replace('"parameters": {}', '"parameters": {|}'))
    uri = session.open("automations/alerts.json", text)
    items = await session.completion(uri, line, character)
    assert sorted(items, key=lambda i: i.sort_text or "")[0].label == "channel"
    assert {item.label for item in items} >= {"channel", "priority"}
    text, line, character = at(AUTOMATION.replace("@@", '"manual"').replace('"tool": "send_message"', '"tool": "s|"'))
    session.change(uri, (None, text))
    items = await session.completion(uri, line, character)
    assert '"send_message"' in [item.label for item in items]
    tool = next(item for item in items if item.label == '"send_message"')
    assert tool.kind == types.CompletionItemKind.Function
    assert tool.documentation == types.MarkupContent(types.MarkupKind.Markdown, "Send a chat message to a channel.")


TOOL_USE = """{
  "type": "tool_use",
  "id": "toolu_01",
  "name": "send_message",
  "input": {"channel": "general", "priority": @@}
}
"""

OPENAI_CALL = """{
  "id": "call_1",
  "type": "function",
  "function": {"name": "send_message", "arguments": {@@}}
}
"""


async def test_tool_call_input_from_the_named_tool(session: Session) -> None:
    session.write("tools/send.tool.json", SEND_TOOL)
    await session.start("neovim")
    text, line, character = at(TOOL_USE.replace("@@", '"|"'))
    uri = session.open("calls/reply.json", text)
    items: list[types.CompletionItem] = []
    for _ in range(100):  # the tool is found by background indexing
        items = await session.completion(uri, line, character)
        if items:
            break
        await session.until(lambda: True, "tick")
    assert [item.label for item in items] == ['"low"', '"normal"', '"high"']
    assert items[0].detail == "How urgent it is"


async def test_openai_call_arguments_object(session: Session) -> None:
    await session.start("neovim")
    tool_uri = session.open("tools/send.tool.json", SEND_TOOL)
    await session.diagnostics(tool_uri, 1)
    text, line, character = at(OPENAI_CALL.replace("@@", "|"))
    uri = session.open("calls/openai.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in sorted(items, key=lambda i: i.sort_text or "")] == ["channel", "priority"]


SCHEMA = """[
  {
    "name": "lookup",
    "input_schema": {
      "type": "object",
      "properties": {
        "query": {"type": @@}
      },
      "required": []
    }
  }
]
"""


async def test_json_schema_type_names(session: Session) -> None:
    text, line, character = at(SCHEMA.replace("@@", '"s|"'))
    await session.start("neovim")
    uri = session.open("tools/lookup.tools.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == [
        '"string"',
        '"number"',
        '"integer"',
        '"boolean"',
        '"object"',
        '"array"',
        '"null"',
    ]
    assert items[0].kind == types.CompletionItemKind.TypeParameter
    assert _edit_range(items[0]) == _rng(line, character - 2, character + 1)


async def test_json_schema_keywords_and_required_names(session: Session) -> None:
    text, line, character = at(SCHEMA.replace('"type": @@', '"type": "string", |'))
    await session.start("vscode")
    uri = session.open("tools/lookup.tools.json", text)
    items = await session.completion(uri, line, character)
    labels = [item.label for item in sorted(items, key=lambda i: i.sort_text or "")]
    assert labels[:4] == ["description", "properties", "required", "enum"]
    assert "type" not in labels
    description = next(item for item in items if item.label == "description")
    assert description.text_edit is not None and description.text_edit.new_text == '"description": "$1"'
    text, line, character = at(SCHEMA.replace("@@", '"string"').replace('"required": []', '"required": [|]'))
    session.change(uri, (None, text))
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ['"query"']


async def test_envelope_keys_and_literals(session: Session) -> None:
    text, line, character = at('{"name": "x", "input_schema": {"type": "object"}, "strict": |}')
    await session.start("neovim")
    uri = session.open("tools/x.tool.json", text)
    items = await session.completion(uri, line, character)
    assert [item.label for item in items] == ["true", "false", "null"]
    text, line, character = at('{"name": "x", "input_schema": {"type": "object"}, "|"}')
    session.change(uri, (None, text))
    items = await session.completion(uri, line, character)
    labels = {item.label for item in items}
    assert labels == {
        "type",
        "description",
        "input_examples",
        "cache_control",
        "strict",
        "defer_loading",
        "allowed_callers",
        "eager_input_streaming",
    }
    description = next(item for item in items if item.label == "description")
    assert description.detail == "null | string · optional · A tool for Anthropic's Messages API."
    assert description.documentation == types.MarkupContent(
        types.MarkupKind.Markdown, "What the tool does and when to use it."
    )


async def test_no_completion_in_files_that_are_not_ours(session: Session) -> None:
    text, line, character = at('{"dependencies": {"|"}}')
    await session.start("neovim")
    uri = session.open("package.json", text)
    assert await session.completion(uri, line, character) == []
