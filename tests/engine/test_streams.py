"""More shapes of recordings: a replay file's bodies split into `bodySegments` (the Google Gen AI SDK's), and
streamed `chat.completion.chunk` JSON Lines whose tool calls are assembled from their `delta.tool_calls` fragments
(`engine.streams`, `document.assembled`).

Where a finding on an assembled call lands: on the chunk whose fragment carries the first character of what it is
about, clipped to that fragment; a finding on the whole `arguments` lands on its first non-empty fragment."""

from __future__ import annotations

import json
from typing import Any

from checking import D, context, report
from checking import check as check_text
from positions import locate, lsp_position

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather now",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "A city"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    },
}
USER = [{"role": "user", "content": "Weather in Paris?"}]


def check(text: str, name: str = "stream.jsonl") -> list[D]:
    return check_text(text, None, uri=f"file:///work/project/data/{name}")


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int, int, int]:
    start = locate(text, needle, occurrence)
    return (*lsp_position(text, start), *lsp_position(text, start + len(needle)))


def chunk(*fragments: dict[str, Any], stream: str = "chatcmpl-1") -> dict[str, Any]:
    delta = {"tool_calls": list(fragments)}
    return {"id": stream, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]}


def first(index: int, call_id: str, name: str) -> dict[str, Any]:
    """A call's first fragment, as OpenAI streams it: id, type, the whole name, empty arguments."""
    return {"index": index, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}


def more(index: int, arguments: str) -> dict[str, Any]:
    return {"index": index, "function": {"arguments": arguments}}


def lines(*records: dict[str, Any]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


def stream(*pieces: str, name: str = "get_weather") -> list[dict[str, Any]]:
    return [chunk(first(0, "call_1", name)), *(chunk(more(0, piece)) for piece in pieces)]


# --- streamed chunks ------------------------------------------------------------------------------------------


def test_a_complete_stream_assembles_into_a_call_that_parses() -> None:
    assert check(lines(*stream('{"ci', 'ty": "Par', 'is"}'))) == []


def test_arguments_that_do_not_assemble_into_json_are_an_error_on_the_chunk_that_breaks_them() -> None:
    text = lines(*stream('{"ci', 'ty": "Paris",', "}"))
    [found] = check(text)
    assert (found.code, found.severity) == ("TS302", "error")
    assert found.message == (
        "arguments is not valid JSON: Expecting property name enclosed in double quotes (at character 18)"
    )
    brace = text.index('"arguments": "}"') + len('"arguments": "')
    assert (found.range, found.text) == ((*lsp_position(text, brace), *lsp_position(text, brace + 1)), "}")
    assert found.range[0] == 3  # the last chunk's line


def test_arguments_that_are_not_an_object_are_an_error_on_their_first_fragment() -> None:
    text = lines(*stream("[1, ", "2]"))
    [found] = check(text)
    assert (found.code, found.message) == ("TS302", "arguments must encode a JSON object, found array")
    assert (found.range, found.text) == (_at(text, '"[1, '), '"[1, ')


def test_a_new_id_at_the_same_index_starts_a_new_call() -> None:
    text = lines(*stream('{"city": "Paris"}'), chunk(first(0, "call_2", "get_weather")), chunk(more(0, "{")))
    [found] = check(text)
    assert (found.code, found.range[0]) == ("TS302", 3)  # the second call's `{`, not the first call's text


def test_chunks_without_tool_calls_are_still_left_alone() -> None:
    text_chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}
    assert check(lines(text_chunk, text_chunk)) == []


# --- bodies split into segments ---------------------------------------------------------------------------------


def _broken_request() -> dict[str, Any]:
    function = json.loads(json.dumps(WEATHER))
    function["function"]["parameters"]["properties"]["city"]["type"] = "str"
    return {"model": "gpt-4o", "messages": USER, "tools": [function]}


def replay(request: dict[str, Any], response: dict[str, Any], segments: str = "bodySegments") -> str:
    interaction = {
        "request": {
            "method": "post",
            "url": "https://api.openai.com/v1/chat/completions",
            "headers": {},
            segments: [request],
        },
        "response": {"statusCode": 200, "headers": {}, **response},
    }
    return json.dumps({"replayId": "weather/stream/openai", "interactions": [interaction]}, indent=1)


def test_a_request_body_in_body_segments_is_checked_as_a_request() -> None:
    for key in ("bodySegments", "body_segments"):
        text = replay(_broken_request(), {key: []}, key)
        [found] = [d for d in check(text, "replay.json") if d.severity == "error"]
        assert (found.code, found.text, found.range) == ("TS214", '"str"', _at(text, '"str"')), key


def test_a_streamed_response_in_body_segments_against_the_request_of_the_same_interaction() -> None:
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER], "stream": True}
    text = replay(request, {"bodySegments": stream('{"ci', 'ty": 3', "}")})
    [found] = check(text, "replay.json")
    assert (found.code, found.text, found.range) == ("TS305", "3", _at(text, "3", text.count("3") - 1))


def test_a_response_in_one_body_segment_is_a_response() -> None:
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER]}
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": 3}'}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    completion = {"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
    text = replay(request, {"bodySegments": [completion]})
    [found] = check(text, "replay.json")
    assert (found.code, found.text) == ("TS305", "3")


def test_calls_are_told_apart_by_index_and_a_repeated_whole_name_is_one_name() -> None:
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER], "stream": True}
    repeat = {"index": 1, "function": {"name": "get_weather", "arguments": '{"city": '}}
    chunks = [
        chunk(first(0, "call_1", "get_weather"), first(1, "call_2", "get_weather")),
        chunk(more(0, '{"city": "Paris"}'), repeat),
        chunk({"index": 1, "function": {"name": "get_weather", "arguments": "false}"}}),
    ]
    text = replay(request, {"bodySegments": chunks})
    [found] = check(text, "replay.json")
    assert (found.code, found.text, found.range) == ("TS305", "false", _at(text, "false", text.count("false") - 1))
    assert found.message == "the input of 'get_weather', 'city': expected string, received boolean: false"


def test_a_server_sent_event_stream_is_not_json_lines_and_is_not_claimed() -> None:
    """`data: {…}` lines are no JSON: the chunks error recovery finds in them do not make the file ours."""
    events = "".join(f"data: {json.dumps(record)}\n\n" for record in stream('{"city": 3'))
    assert check(events + "data: [DONE]\n", "stream.json") == []


def test_a_gemini_replay_as_the_google_gen_ai_sdk_records_it() -> None:
    declaration = {
        "name": "get_weather",
        "description": "Weather now",
        "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRNG"}}, "required": ["city"]},
    }
    body = {
        "contents": [{"role": "user", "parts": [{"text": "Weather?"}]}],
        "tools": [{"functionDeclarations": [declaration]}],
    }
    call = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
    answer = {"candidates": [{"content": {"role": "model", "parts": [call]}}]}
    interaction = {
        "request": {
            "method": "post",
            "url": "{MLDEV_URL_PREFIX}/models/gemini-2.0-flash:generateContent",
            "headers": {},
            "bodySegments": [body],
        },
        "response": {"headers": {}, "statusCode": 200, "bodySegments": [answer], "sdkResponseSegments": [answer]},
    }
    text = json.dumps({"replayId": "models/generate_content/mldev", "interactions": [interaction]}, indent=1)
    [found] = [d for d in check(text, "generate_content.json") if d.severity == "error"]
    assert (found.code, found.text, found.range) == ("TS214", '"STRNG"', _at(text, '"STRNG"'))


def test_wherever_the_stream_splits_the_arguments_the_finding_starts_on_the_value_and_stays_in_its_chunk() -> None:
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER], "stream": True}
    arguments = '{"city": 1234}'
    value = arguments.index("1234")
    for cut in range(1, len(arguments)):
        text = replay(request, {"bodySegments": stream(arguments[:cut], arguments[cut:])})
        [found] = check(text, "replay.json")
        assert found.code == "TS305", cut
        # the chunk that carries the value's first character, and only its part of the value
        first_chunk = value < cut
        assert found.text == (arguments[value:cut] if first_chunk else "1234"), cut
        fragment = json.dumps(arguments[:cut] if first_chunk else arguments[cut:])
        assert found.range[0] == text.count("\n", 0, text.index(fragment)), cut


def test_an_edit_to_a_later_chunk_is_an_edit_to_the_assembled_call() -> None:
    """The editor's path: the unit of an assembled call spans all its fragments, so the cache does not reuse it
    when only a later chunk changed."""
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER], "stream": True}
    text = replay(request, {"bodySegments": stream('{"city": ', '"Paris"}')})
    uri = "file:///work/project/data/replay.json"
    document, cache = Document.from_text(uri, text), UnitCache()
    ctx = context(None, None, uri, True, None)
    assert check_document(document, ctx, None, cache).diagnostics == []
    start = text.index('\\"Paris\\"')
    edited = document.range_of(len(text[:start].encode()), len(text[: start + len('\\"Paris\\"')].encode()))
    document.apply_change("3", edited)
    after = check_document(document, ctx, None, cache).diagnostics
    assert [(d.code, d.message) for d in after] == [
        ("TS305", "the input of 'get_weather', 'city': expected string, received integer: 3")
    ]


def test_units_stay_in_the_files_order_when_a_stream_comes_between_records() -> None:
    request = {"model": "gpt-4o", "messages": USER, "tools": [WEATHER]}
    text = lines(request, *stream('{"city": "Paris"}'), request)
    _, result = report(text, "records.jsonl")
    starts = [node.start_byte for node in result.unit_nodes]
    assert len(starts) == 3 and starts == sorted(starts)
