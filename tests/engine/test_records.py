"""Tools and calls one level down (`engine.records`): recordings, cassettes, captured SDK calls, dataset lines whose
`tools` is a JSON string (positions inside the string), and provider responses."""

from __future__ import annotations

import json
from typing import Any

from checking import D
from checking import check as check_text
from positions import locate, lsp_position

BROKEN_TOOL = {
    "name": "get_weather",
    "description": "Weather now",
    "parameters": {"type": "dict", "properties": {"city": {"type": "str", "description": "A city"}}},
    "required": ["city"],
}
"""A dataset's tool with the defects real fine-tuning files have: `dict`, `str`, `required` beside `parameters`."""
GOOD_FUNCTION = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather now",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "A city"}},
            "required": ["city"],
        },
    },
}
USER = [{"role": "user", "content": "Weather in Paris?"}]


def check(text: str, kind: None = None) -> list[D]:
    """The diagnostics of a file in a folder no default glob names: the content alone decides."""
    return check_text(text, kind, uri="file:///work/project/data/records.jsonl")


def _found(diagnostics: list[D]) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.text) for d in diagnostics]


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    """The LSP range of `needle` in text."""
    start = locate(text, needle, occurrence)
    return (*lsp_position(text, start), *lsp_position(text, start + len(needle)))


def _lines(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


# --- datasets: tools as a JSON string ---------------------------------------------------------------------


def test_a_dataset_tools_string_is_checked_inside_the_string() -> None:
    text = _lines({"messages": USER, "tools": json.dumps([BROKEN_TOOL])}, {"messages": USER, "tools": "[]"})
    found = check(text, None)
    assert _found(found) == [
        ("TS214", "error", '\\"dict\\"'),
        ("TS214", "error", '\\"str\\"'),
        ("TS101", "error", '\\"required\\"'),
    ]
    assert [d.range for d in found] == [_at(text, '\\"dict\\"'), _at(text, '\\"str\\"'), _at(text, '\\"required\\"')]
    assert found[0].message == 'Unknown type "dict": JSON Schema calls it "object"'
    assert found[2].message.startswith("'required' belongs inside 'parameters'")
    assert all(d.fixes == () for d in found)  # a fix's edits address the file's JSON, never a string's inside


def test_positions_inside_the_string_count_utf16_through_escapes() -> None:
    tool = dict(BROKEN_TOOL, description='Wé "quoted" ☀ 😀 weather')
    # ensure_ascii on the inner text (\u00e9 escapes in the file) and raw characters on the outer: both kinds.
    record = {"conversations": [{"from": "human", "value": "😀 hi"}], "tools": json.dumps([tool])}
    text = _lines(record).replace("\\\\u00e9", "é", 1)
    found = check(text, None)
    assert "é" in text and "\\\\u2600" in text and "😀 hi" in text  # raw, escaped in the string, raw outside
    assert [(d.code, d.range) for d in found] == [
        ("TS214", _at(text, '\\"dict\\"')),
        ("TS214", _at(text, '\\"str\\"')),
        ("TS101", _at(text, '\\"required\\"')),
    ]


def test_legacy_functions_as_objects_and_as_a_string_and_a_bare_property_map() -> None:
    bare = {"name": "lookup", "description": "Looks up", "parameters": {"city": {"type": "string"}}}
    text = _lines(
        {"messages": USER, "functions": [bare]},
        {"messages": USER, "functions": json.dumps([bare])},
    )
    found = check(text, None)
    assert [(d.code, d.range) for d in found] == [
        ("TS211", _at(text, '"parameters"')),
        ("TS211", _at(text, '\\"parameters\\"')),
    ]
    assert found[1].message == 'The root of the input schema must say `"type": "object"`'


def test_a_tools_string_that_does_not_parse_gets_one_diagnostic() -> None:
    broken = '[{"name": "f", "parameters": {"type": "object"}'
    text = _lines({"messages": USER, "tools": broken}, {"messages": USER, "tools": broken})
    found = check(text, None)
    assert [(d.code, d.severity, d.range[0]) for d in found] == [("TS008", "error", 0), ("TS008", "error", 1)]
    assert found[0].message == "'tools' is a JSON string that does not parse: Expecting ',' delimiter (at character 48)"
    assert found[0].range == _at(text, json.dumps(broken))


def test_strings_that_are_clearly_not_tools_are_left_alone() -> None:
    text = _lines(
        {"messages": USER, "tools": ""},
        {"messages": USER, "tools": '["search", "calculator"]'},
        {"messages": USER, "tools": "none"},
        {"messages": USER, "tools": '[{"title": "not a tool"}]'},
    )
    assert check(text, None) == []


def test_each_dataset_record_is_a_request_of_its_own() -> None:
    tool = {"name": "get_weather", "description": "Weather now", "parameters": GOOD_FUNCTION["function"]["parameters"]}
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"town": "Paris"}'}}
    record = {"messages": [*USER, {"role": "assistant", "tool_calls": [call]}], "tools": json.dumps([tool])}
    text = _lines(record, dict(record, messages=USER))
    # The same tool on two lines is no duplicate; the call is checked against its own line's tool.
    found = [d for d in check(text, None) if d.severity == "error"]
    assert [(d.code, d.range[0], d.text) for d in found] == [("TS304", 0, "{")]
    assert found[0].message == "Missing required property 'city' in the input of 'get_weather'"


def test_a_huge_tools_string_is_left_alone() -> None:
    tools = json.dumps([dict(BROKEN_TOOL, name=f"t{i}") for i in range(8_000)])  # over 1 MiB
    text = _lines({"messages": USER, "tools": tools}, {"messages": USER, "tools": json.dumps([BROKEN_TOOL])})
    assert {d.range[0] for d in check(text, None)} == {1}


# --- request bodies one level down ------------------------------------------------------------------------


def _broken_request() -> dict[str, Any]:
    function = json.loads(json.dumps(GOOD_FUNCTION))
    function["function"]["parameters"]["properties"]["city"]["type"] = "str"
    return {"model": "gpt-4o", "messages": USER, "tools": [function]}


def test_a_recorded_request_body_is_checked_as_a_request() -> None:
    recording = {
        "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "body": _broken_request()},
        "response": {"status": 200},
    }
    text = json.dumps(recording, indent=1)
    (found,) = [d for d in check(text, None) if d.severity == "error"]
    assert (found.code, found.text, found.range) == ("TS214", '"str"', _at(text, '"str"'))


def test_a_cassette_body_as_json_text_and_its_recorded_response() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": 3}'}}
    response = {
        "id": "x",
        "object": "chat.completion",
        "choices": [{"message": {"role": "assistant", "tool_calls": [call]}}],
    }
    interaction = {
        "request": {
            "method": "POST",
            "uri": "https://api.openai.com/v1/chat/completions",
            "body": json.dumps(_broken_request()),
        },
        "response": {"status": {"code": 200}, "body": json.dumps(response)},
    }
    text = json.dumps({"version": 1, "interactions": [interaction, interaction]})
    found = [d for d in check(text, None) if d.severity == "error"]
    assert [(d.code, d.text) for d in found] == [("TS214", '\\"str\\"'), ("TS214", '\\"str\\"')]
    assert [d.range for d in found] == [_at(text, '\\"str\\"', 0), _at(text, '\\"str\\"', 1)]


def test_a_captured_sdk_call() -> None:
    text = json.dumps({"method": "chat.completions.create", "arguments": _broken_request()})
    assert [(d.code, d.text) for d in check(text, None) if d.severity == "error"] == [("TS214", '"str"')]


def test_a_request_body_with_tools_as_a_string_is_still_wrong_for_the_provider() -> None:
    text = json.dumps({"model": "gpt-4o", "messages": USER, "tools": json.dumps([GOOD_FUNCTION])})
    (found,) = check(text, None)
    assert (found.code, found.message) == ("TS008", "'tools' must be an array of tools, found a string")


# --- provider responses -------------------------------------------------------------------------------------


def _completion(arguments: str, name: str = "get_weather") -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}


def test_chat_completion_arguments_that_are_not_json() -> None:
    text = json.dumps(_completion('{"city": '))
    (found,) = check(text, None)
    assert (found.code, found.severity) == ("TS302", "error")
    assert found.message == "arguments is not valid JSON: Expecting value (at character 10)"
    end = text.index('{\\"city\\": ') + len('{\\"city\\": ')
    assert found.range == (0, end, 0, end)  # where the value should start: the end of the string's text


def test_chat_completion_arguments_that_parse_name_no_tool_of_the_file() -> None:
    assert check(json.dumps(_completion('{"city": 3}', name="elsewhere")), None) == []


def test_recorded_response_arguments_against_the_recorded_request() -> None:
    recording = {
        "request": {"body": {"model": "gpt-4o", "messages": USER, "tools": [GOOD_FUNCTION]}},
        "response": {"body": _completion('{"city": 3}')},
    }
    text = json.dumps(recording)
    (found,) = [d for d in check(text, None) if d.severity == "error"]
    assert (found.code, found.text) == ("TS305", "3")
    assert found.message == "the input of 'get_weather', 'city': expected string, received integer: 3"


def test_a_responses_object_echoes_its_tools_and_its_calls_are_checked() -> None:
    echoed = {
        "type": "function",
        "name": "get_weather",
        "description": None,
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": True,
        "defer_loading": False,
    }
    output = [
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "c1",
            "name": "get_weather",
            "arguments": '{"city": 5}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "c2",
            "name": "unknown",
            "arguments": "{oops",
            "status": "completed",
        },
    ]
    response = {
        "id": "resp_1",
        "object": "response",
        "model": "gpt-4.1",
        "output": output,
        "tools": [echoed, {"type": "web_search_preview"}],
    }
    text = json.dumps(response, indent=1)
    found = check(text, None)  # the echoed tools are what the provider accepted: nothing said about them
    assert [(d.code, d.text) for d in found] == [("TS305", "5"), ("TS302", "o")]


def test_an_anthropic_message_calls_a_tool_the_file_does_not_define() -> None:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [{"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": 1}}],
    }
    assert check(json.dumps(message), None) == []


def test_a_recorded_request_and_the_response_that_echoes_its_tools() -> None:
    function = {"type": "function", **GOOD_FUNCTION["function"]}
    output = [{"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": '{"city": 1}'}]
    recording = {
        "request": {"body": {"model": "gpt-4.1", "input": USER, "tools": [function]}},
        "response": {"body": {"id": "resp_1", "object": "response", "output": output, "tools": [function]}},
    }
    found = [d for d in check(json.dumps(recording), None) if d.severity == "error"]
    assert [(d.code, d.text) for d in found] == [("TS305", "1")]  # no duplicate name: the echo is the same tool


def test_an_array_of_request_bodies_and_a_json_array_of_dataset_records() -> None:
    bodies = json.dumps([_broken_request(), _broken_request()], indent=1)
    assert [(d.code, d.range) for d in check(bodies, None) if d.severity == "error"] == [
        ("TS214", _at(bodies, '"str"', 0)),
        ("TS214", _at(bodies, '"str"', 1)),
    ]
    records = json.dumps([{"messages": USER, "tools": json.dumps([BROKEN_TOOL])}] * 2)
    assert [d.range[1] for d in check(records, None) if d.code == "TS214"] == [
        _at(records, '\\"dict\\"', 0)[1],
        _at(records, '\\"str\\"', 0)[1],
        _at(records, '\\"dict\\"', 1)[1],
        _at(records, '\\"str\\"', 1)[1],
    ]


def test_json_lines_of_recordings_each_with_its_body_object() -> None:
    recording = {
        "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "body": _broken_request()}
    }
    text = _lines(recording, recording)
    found = [(d.code, d.range) for d in check(text, None) if d.severity == "error"]
    assert found == [("TS214", _at(text, '"str"', 0)), ("TS214", _at(text, '"str"', 1))]


def test_a_recording_whose_body_is_not_a_request_is_not_ours() -> None:
    recording = {"request": {"method": "POST", "url": "https://example.com/upload", "body": '{"file": "a.txt"}'}}
    assert check(json.dumps(recording), None) == []
    assert check(json.dumps({"arguments": {"path": "/tmp", "recursive": True}}), None) == []


def test_hostile_tools_strings_get_one_clear_diagnostic() -> None:
    deep = json.dumps({"messages": USER, "tools": "[" * 100_000 + "]" * 100_000})
    (found,) = check(deep, None)
    assert (found.code, found.message) == ("TS008", "'tools' is a JSON string nested too deeply to read")
    huge_number = json.dumps({"messages": USER, "tools": '[{"name": "f", "n": ' + "9" * 5000 + "}]"})
    (found,) = check(huge_number, None)
    assert found.code == "TS008" and found.message.startswith("'tools' is a JSON string that cannot be read: ")
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    tool = {"name": "f", "description": "Deep.", "parameters": schema}
    for _ in range(140):
        schema["properties"] = {"x": {"type": "object", "properties": {}}}
        schema = schema["properties"]["x"]
    text = json.dumps({"messages": USER, "tools": json.dumps([tool])})
    (found,) = check(text, None)
    assert (found.code, found.text) == ("TS006", "{")
    inner = json.dumps([tool])
    # The first bracket past 128 levels inside the tool (the list around it is one more).
    opening = [index for index, char in enumerate(inner) if char in "[{"]
    offset = opening[129]
    token = json.dumps(inner)
    expected = text.index(token) + len(json.dumps(inner[:offset])) - 1  # the escaped prefix, less its closing quote
    assert found.range == (0, expected, 0, expected + 1)


def test_bodies_one_level_down_in_each_dialect() -> None:
    anthropic = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": USER,
        "tools": [{"name": "f", "description": "Does f.", "input_schema": {"type": "dict", "properties": {}}}],
    }
    responses = {
        "model": "gpt-4.1",
        "input": USER,
        "tools": [{"type": "function", "name": "f", "description": "Does f.", "parameters": {"type": "dict"}}],
    }
    for body in (anthropic, responses):
        as_text = json.dumps({"request": {"body": json.dumps(body)}})
        as_object = json.dumps({"arguments": body})
        assert [(d.code, d.text) for d in check(as_text, None) if d.severity == "error"] == [("TS214", '\\"dict\\"')]
        assert [(d.code, d.text) for d in check(as_object, None) if d.severity == "error"] == [("TS214", '"dict"')]


def test_streamed_chunks_are_assembled_before_they_are_read() -> None:
    """Each chunk's `{"ci` alone is no JSON; assembled (`engine.streams`), the call breaks in the second chunk."""
    delta = {"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": '{"ci'}}]}
    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}
    (found,) = check(_lines(chunk, chunk), None)
    assert (found.code, found.range[0]) == ("TS302", 1)
    assert found.message == "arguments is not valid JSON: Expecting ':' delimiter (at character 7)"


def test_close_every_object_schema_leaves_tools_inside_strings_alone() -> None:
    from toolsense.document.document import Document
    from toolsense.fixes.close_objects import close_objects_fix

    open_schema = {"name": "f", "description": "Does f.", "parameters": {"type": "object", "properties": {}}}
    embedded = _lines({"messages": USER, "tools": json.dumps([open_schema])})
    assert close_objects_fix(Document.from_text("file:///x/d.jsonl", embedded)) is None
    plain = _lines({"messages": USER, "tools": [open_schema]})
    fix = close_objects_fix(Document.from_text("file:///x/d.jsonl", plain))
    assert fix is not None and [edit.pointer for edit in fix.edits] == [("tools", 0, "parameters")]


def test_chat_logs_without_tools_are_not_claimed_as_records() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}
    log = {"model": "gpt-4o", "messages": [*USER, {"role": "assistant", "tool_calls": [call]}]}
    assert check(_lines(log, log), None) == []
