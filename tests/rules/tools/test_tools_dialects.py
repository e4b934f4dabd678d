"""Every dialect people ship, recognised from its content: detection (kind, unit pointers, dialect, origin),
placement and messages; which files are not ours; bad input (one clear diagnostic or nothing, never a crash)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import check, codes, only

from toolsense.document.document import Document
from toolsense.engine.context import ToolRegistry
from toolsense.engine.units import read_unit, split, with_dialects
from toolsense.engine.workspace import Workspace, document_tools
from toolsense.models.dialects import Dialect
from toolsense.rules import CATALOG
from toolsense.settings import Settings, settings_from_mapping

SCHEMA = {"type": "object", "properties": {"city": {"type": "string", "description": "City."}}, "required": ["city"]}
CLOSED = {**SCHEMA, "additionalProperties": False}


def dumps(value: Any) -> str:
    return json.dumps(value, indent=1)


def units_of(text: str, uri: str = "file:///w/data.json", kind: Any = None) -> tuple[Any, list[tuple[Any, ...]]]:
    document = Document.from_text(uri, text)
    file_split = split(document, kind)
    units = with_dialects([read_unit(document, span) for span in file_split.spans])
    return file_split.kind, [(u.kind, u.pointer, u.dialect, u.origin) for u in units]


OPENAI = {"type": "function", "function": {"name": "get_weather", "description": "Weather.", "parameters": CLOSED}}
FLAT = {"name": "get_weather", "description": "Weather.", "parameters": CLOSED}
ANTHROPIC = {"name": "get_weather", "description": "Weather.", "input_schema": CLOSED}
MCP = {"name": "get_weather", "description": "Weather.", "inputSchema": CLOSED}
GEMINI = {
    "name": "get_weather",
    "description": "Weather.",
    "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING", "description": "City."}}},
}
BEDROCK = {"toolSpec": {"name": "get_weather", "description": "Weather.", "inputSchema": {"json": CLOSED}}}


@pytest.mark.parametrize(
    ("value", "kind", "units"),
    [
        ([OPENAI], "tool", [("tool", (0,), "openai", "file")]),
        ({"functions": [FLAT]}, "tool", [("tool", ("functions", 0), "openai-flat", "file")]),
        (
            {"type": "function", "name": "get_weather", "parameters": CLOSED, "strict": True},
            "tool",
            [("tool", (), "openai-flat", "file")],
        ),
        ([FLAT, FLAT], "tool", [("tool", (0,), "openai-flat", "file"), ("tool", (1,), "openai-flat", "file")]),
        (
            [ANTHROPIC, {"type": "web_search_20250305", "name": "web_search", "max_uses": 5}],
            "tool",
            [("tool", (0,), "anthropic", "file"), ("tool", (1,), "anthropic-server", "file")],
        ),
        (MCP, "tool", [("tool", (), "mcp", "file")]),
        ({"tools": [MCP], "nextCursor": "n"}, "tool", [("tool", ("tools", 0), "mcp", "tools_list")]),
        (
            {"jsonrpc": "2.0", "id": 1, "result": {"tools": [MCP]}},
            "tool",
            [("tool", ("result", "tools", 0), "mcp", "tools_list")],
        ),
        ({"tools": [ANTHROPIC]}, "tool", [("tool", ("tools", 0), "anthropic", "file")]),
        ([GEMINI], "tool", [("tool", (0,), "gemini", "file")]),
        (
            {"tools": [{"functionDeclarations": [FLAT]}, {"googleSearch": {}}]},
            "tool",
            [("tool", ("tools", 0, "functionDeclarations", 0), "gemini", "file")],
        ),
        ({"functionDeclarations": [FLAT]}, "tool", [("tool", ("functionDeclarations", 0), "gemini", "file")]),
        (
            [{"name": "get_weather", "parametersJsonSchema": CLOSED}],
            "tool",
            [("tool", (0,), "gemini", "file")],
        ),
        ([BEDROCK, {"cachePoint": {"type": "default"}}], "tool", [("tool", (0,), "bedrock", "file")]),
        ({"toolConfig": {"tools": [BEDROCK]}}, "tool", [("tool", ("toolConfig", "tools", 0), "bedrock", "file")]),
        (
            {"get_weather": OPENAI, "get_time": {**OPENAI, "function": {**OPENAI["function"], "name": "get_time"}}},
            "tool",
            [("tool", ("get_weather",), "openai", "map"), ("tool", ("get_time",), "openai", "map")],
        ),
        (
            {"id": "w", "name": "Get Weather", "function": FLAT, "mock_response": {"ok": True}},
            "tool",
            [("tool", ("function",), "openai-flat", "app")],
        ),
        (
            # `type: "function"` makes it the tool itself (Vapi's documented `server` beside it is not judged).
            [{**OPENAI, "server": {"url": "https://example.com"}}],
            "tool",
            [("tool", (0,), "openai", "file")],
        ),
    ],
    ids=[
        "openai-chat",
        "openai-legacy-functions",
        "openai-responses",
        "flat",
        "anthropic-with-server-tool",
        "mcp-tool",
        "mcp-list-result",
        "mcp-jsonrpc",
        "anthropic-wrapper",
        "gemini-upper-case",
        "gemini-tools",
        "gemini-declarations",
        "gemini-json-schema",
        "bedrock",
        "bedrock-tool-config",
        "name-keyed-map",
        "app-record",
        "app-records-in-a-list",
    ],
)
def test_each_dialect_is_recognised(value: Any, kind: str, units: list[tuple[Any, ...]]) -> None:
    assert units_of(dumps(value)) == (kind, units)


def test_the_dialect_is_an_enum_with_a_word_for_messages() -> None:
    assert Dialect("gemini").label == "Gemini function declaration"
    assert Dialect.BEDROCK.label == "Bedrock tool spec"
    assert Dialect.OPENAI_FLAT == "openai-flat" and f"{Dialect.MCP}" == "mcp"


def test_request_bodies_hold_tools_and_calls() -> None:
    anthropic = {
        "model": "claude",
        "tools": [ANTHROPIC],
        "messages": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "get_weather", "input": {}}]},
        ],
    }
    assert units_of(dumps(anthropic)) == (
        "tool",
        [
            ("tool", ("tools", 0), "anthropic", "request"),
            ("tool_call", ("messages", 1, "content", 0), "anthropic-call", "request"),
        ],
    )
    responses = {
        "model": "gpt",
        "tools": [{"type": "function", **FLAT}],
        "input": [{"type": "function_call", "call_id": "c", "name": "get_weather", "arguments": "{}"}],
    }
    assert units_of(dumps(responses))[1][1] == ("tool_call", ("input", 0), "openai-responses-call", "request")
    conversation = [
        {"role": "user", "content": "weather?"},
        {
            "role": "assistant",
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "x", "arguments": {}}}],
        },
    ]
    assert units_of(dumps(conversation)) == (
        "tool_call",
        [("tool_call", (1, "tool_calls", 0), "openai-call", "conversation")],
    )


@pytest.mark.parametrize(
    "value",
    [
        [{"name": "CycloneDX Core", "publisher": "CycloneDX", "description": "A library.", "repoUrl": "https://x"}],
        {"manifest_version": "0.3", "name": "x", "tools": [{"name": "list_files", "description": "List."}]},
        {"tools": [{"name": "A", "description": "B", "init_params_schema": {}, "env_vars": []}]},
        {"search_works": {"title": "Args", "type": "object", "properties": {"q": {"type": "string"}}}},
        {"tools": [{"name": "takeoff", "parameters": [], "ros_service": "/takeoff"}]},
        [{"tool_name": "detect", "parameters": {"object_name": ["string"]}}],
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
        {"compilerOptions": {"strict": True}},
        {"tools": []},
        [],
    ],
    ids=[
        "catalogue",
        "mcpb-manifest",
        "crewai-specs",
        "schema-map",
        "parameters-list",
        "no-name",
        "chat-without-calls",
        "tsconfig",
        "empty-tools",
        "empty-array",
    ],
)
def test_content_of_no_dialect_is_not_ours(value: Any) -> None:
    # Outside the folders toolsense knows: nothing at all, not even a note.
    assert check(dumps(value), None, uri="file:///w/data/x.json") == []


def test_a_folder_glob_that_points_at_something_else_gets_one_note() -> None:
    text = dumps([{"name": "CycloneDX Core", "publisher": "CycloneDX", "description": "A library."}])
    (note,) = check(text, None, uri="file:///w/tools/tools.json")
    assert (note.code, note.severity, note.range, note.text) == ("TS007", "information", (0, 0, 0, 1), "[")
    assert note.message == (
        "Not checked: the file's path suggests tool definitions, but the content has the shape of no known dialect (a "
        "tool needs a name and input_schema, inputSchema, parameters, function or toolSpec); to check it anyway, "
        "add its path to [tool.toolsense.files] tool_definitions"
    )


def test_a_folder_glob_lowers_the_bar() -> None:
    nameless = dumps({"input_schema": CLOSED})
    assert check(nameless, None, uri="file:///w/data/x.json") == []
    (missing,) = only(check(nameless, None, uri="file:///w/tools/x.json"), "TS102")
    assert missing.message == "Missing required property 'name' in Anthropic tool"


def test_settings_force_a_dialect() -> None:
    settings, problems = settings_from_mapping({"files": {"dialects": {"**/schemas/*.json": "gemini"}}}, "test")
    assert not problems
    document = Document.from_text("file:///w/schemas/a.json", dumps([{"name": "get_weather", "parameters": SCHEMA}]))
    from toolsense.engine.units import forced_dialect, kind_from_path

    assert kind_from_path("/w/schemas/a.json", settings) == "tool"
    assert forced_dialect("/w/schemas/a.json", settings) == "gemini"
    file_split = split(document, "tool", "gemini")
    (unit,) = with_dialects([read_unit(document, span) for span in file_split.spans])
    assert (unit.dialect, unit.origin, unit.sent_as_is) == ("gemini", "forced", True)


# --- messages and placement per dialect ------------------------------------------------------------------


def test_gemini_upper_case_types_are_json_schema_types() -> None:
    diagnostics = check(dumps([GEMINI]), None, uri="file:///w/gemini.json")
    assert only(diagnostics, "TS211", "TS214", "TS220") == []  # OBJECT is object; Gemini has no additionalProperties


def test_gemini_messages_name_the_dialect() -> None:
    parameters = '{"type": "OBJECT", "properties": {"day": {"type": "DATE"}}}'
    text = '[{"name": "get_weather", "parameters": ' + parameters + ', "strict": 1}]'
    found = check(text, None, uri="file:///w/gemini.json")
    (bad_type,) = only(found, "TS214")
    at = text.index('"DATE"')
    assert (bad_type.range, bad_type.text) == ((0, at, 0, at + 6), '"DATE"')
    (unknown,) = only(found, "TS101")
    at = text.index('"strict"')
    assert (unknown.range, unknown.text) == ((0, at, 0, at + 8), '"strict"')
    assert unknown.message.startswith("Unknown property 'strict' in Gemini function declaration 'get_weather'.")


def test_bedrock_tool_spec_is_checked_inside_its_envelope() -> None:
    schema = '{"type": "object", "properties": {"y": {"type": "string"}}, "required": ["x"]}'
    text = '[{"toolSpec": {"name": "get_weather", "inputSchema": {"json": ' + schema + '}, "colour": 1}}]'
    found = check(text, None, uri="file:///w/bedrock.json")
    (required,) = only(found, "TS212")
    at = text.index('"x"')
    assert (required.range, required.text) == ((0, at, 0, at + 3), '"x"')
    (unknown,) = only(found, "TS101")
    assert unknown.text == '"colour"' and unknown.message.startswith(
        "Bedrock tool spec 'get_weather', 'toolSpec': unknown property 'colour'."
    )


def test_anthropic_server_tools_are_accepted() -> None:
    text = dumps(
        [
            ANTHROPIC,
            {"type": "bash_20250124", "name": "bash"},
            {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
            {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768},
        ]
    )
    assert [d for d in check(text, None, uri="file:///w/a.json") if d.severity == "error"] == []


def test_an_application_record_is_not_judged_but_its_tool_is() -> None:
    record = {"id": "w", "name": "Get Weather", "function": {**FLAT, "parameters": {"type": "date"}}, "mock": 1}
    found = check(dumps(record), None, uri="file:///w/tools/get_weather.json")
    assert [d.code for d in found if d.severity == "error"] == ["TS211", "TS214"]  # no TS101 for id, mock
    (bad_type,) = only(found, "TS214")
    assert bad_type.text == '"date"'


def test_a_request_body_s_calls_are_checked_against_its_own_tools() -> None:
    request = {
        "model": "claude",
        "tools": [ANTHROPIC],
        "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "get_wether", "input": {}}]},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "u", "name": "get_weather", "input": {"city": 1}}],
            },
        ],
    }
    found = [d for d in check(dumps(request), None, uri="file:///w/request.json") if d.severity == "error"]
    assert [(d.code, d.text, d.message) for d in found] == [
        ("TS301", '"get_wether"', 'Unknown tool "get_wether". Did you mean "get_weather"?'),
        ("TS305", "1", "the input of 'get_weather', 'city': expected string, received integer: 1"),
    ]


def test_openai_request_calls_inside_argument_strings() -> None:
    request = {
        "model": "gpt",
        "tools": [OPENAI],
        "messages": [
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "get_weather", "arguments": '{"town": "x"}'}}
                ],
            }
        ],
    }
    found = {d.code: d for d in check(dumps(request), None, uri="file:///w/request.json") if d.severity == "error"}
    assert sorted(found) == ["TS303", "TS304"]
    assert found["TS303"].text == '\\"town\\"'  # the key's characters inside the JSON string


# --- bad input -------------------------------------------------------------------------------------------


def test_two_dialects_in_one_object_get_one_diagnostic() -> None:
    found = check(dumps({"name": "x", "description": "X.", "input_schema": CLOSED, "parameters": CLOSED}), None)
    (unknown,) = only(found, "TS101")
    assert unknown.text == '"parameters"' and "in Anthropic tool 'x'" in unknown.message


def test_an_array_mixing_dialects_gets_one_warning() -> None:
    text = "[\n" + ",\n".join(json.dumps(t) for t in (OPENAI, OPENAI, ANTHROPIC, MCP)) + "\n]"
    (mixed,) = only(check(text, None, uri="file:///w/mixed.json"), "TS009")
    assert (mixed.severity, mixed.range[:2], mixed.text) == ("warning", (3, 1), '"name"')
    assert mixed.message == (
        "This list mixes dialects: this is an Anthropic tool, but 2 of its 4 tools are OpenAI tools; a provider "
        "accepts only its own shape"
    )


def test_tools_that_is_not_an_array() -> None:
    (bad,) = check('{"model": "x", "tools": "nope", "messages": []}', None, uri="file:///w/request.json")
    assert (bad.code, bad.severity, bad.range, bad.message) == (
        "TS008",
        "error",
        (0, 24, 0, 30),
        "'tools' must be an array of tools, found a string",
    )
    assert check('{"tools": 3}', None, uri="file:///w/x.json") == []  # nothing else says it is ours


def test_a_name_keyed_map_under_tools() -> None:
    assert units_of(dumps({"tools": {"get_weather": ANTHROPIC}}))[1] == [
        ("tool", ("tools", "get_weather"), "anthropic", "map")
    ]


@pytest.mark.parametrize(
    "text",
    [
        '{"tools": [1, "x", null, []]}',
        '{"tools": [{"functionDeclarations": 3}]}',
        '{"tools": [{"functionDeclarations": [1, {"name": 2}]}]}',
        '{"toolConfig": {"tools": [{"toolSpec": []}]}}',
        '{"result": {"tools": {}}}',
        '{"model": "m", "tools": [], "messages": [{"role": "assistant", "tool_calls": 5}]}',
        '{"model": "m", "tools": [{"name": "a", "input_schema": {}}], '
        '"messages": [{"role": "assistant", "content": [{"type": "tool_use"}]}]}',
        '[{"role": "assistant", "tool_calls": [{"function": {"name": 1, "arguments": "{"}}]}]',
        '{"a": {"name": "x", "parameters": {}}, "b": {"name": "y", "input_schema": {}}}',
        '[{"functionDeclarations": [{"name": "x", '
        '"parameters": {"type": "OBJECT", "properties": {"a": {"type": ["STRING", 1]}}}}]}]',
    ],
)
def test_bad_input_never_crashes(text: str) -> None:
    for uri in ("file:///w/x.json", "file:///w/tools/x.json"):
        for kind in (None, "tool"):
            assert "TS900" not in codes(check(text, kind, uri=uri))  # type: ignore[arg-type]


def test_folders_are_walked_for_json_lines(tmp_path: Path) -> None:
    (tmp_path / "tools.jsonl").write_text("\n".join(json.dumps(FLAT | {"name": n}) for n in ("a", "b")) + "\n")
    workspace = Workspace(Settings(), CATALOG)
    workspace.add([tmp_path])
    report = workspace.check(tmp_path / "tools.jsonl")
    assert report is not None and [u.dialect for u in report.units] == ["openai-flat", "openai-flat"]


def test_an_mcp_tools_call_request_is_a_call_checked_against_the_workspace() -> None:
    text = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}}'
    assert units_of(text) == ("tool_call", [("tool_call", ("params",), "mcp-call", "file")])
    registry = ToolRegistry()
    gemini = Document.from_text(
        "file:///w/gemini.json", dumps([GEMINI | {"parameters": GEMINI["parameters"] | {"required": ["city"]}}])
    )
    registry.set_file(gemini.uri, document_tools(gemini, None))
    found = check(text, None, uri="file:///w/call.json", registry=registry)
    # The Gemini tool's OBJECT / STRING are JSON Schema types when its calls are validated.
    assert [(d.code, d.text, d.message) for d in found] == [
        ("TS304", '"arguments"', "Missing required property 'city' in the input of 'get_weather'")
    ]


def test_the_editor_knows_a_request_s_calls_are_calls() -> None:
    from toolsense.features.query import build_query, index_for

    text = dumps({"model": "m", "tools": [ANTHROPIC], "messages": [{"role": "assistant", "content": []}]})
    text = text.replace(
        '"content": []', '"content": [{"type": "tool_use", "id": "t", "name": "get_weather", "input": {}}]'
    )
    document = Document.from_text("file:///w/request.json", text)
    index = index_for(document, None)
    query = build_query(document, index, text.index('"t"'), ToolRegistry(), Settings())
    assert query.unit is not None and (query.unit.kind, query.unit.dialect) == ("tool_call", "anthropic-call")
    query = build_query(document, index, text.index('"Weather."'), ToolRegistry(), Settings())
    assert query.unit is not None and (query.unit.kind, query.unit.dialect) == ("tool", "anthropic")


@pytest.mark.parametrize(
    ("tool", "flagged"),
    [
        ({"name": "web-search.query", "parameters": SCHEMA}, False),  # the bare shape feeds Gemini and MCP too
        ({"name": "get weather", "parameters": SCHEMA}, True),  # no provider takes a space
        ({"type": "function", "name": "web-search.query", "parameters": SCHEMA}, True),  # surely OpenAI's
    ],
)
def test_the_flat_shape_s_name_rule(tool: dict[str, Any], flagged: bool) -> None:
    assert ("TS201" in codes(check(dumps([tool]), None, uri="file:///w/f.json"))) == flagged


def test_a_name_keyed_map_names_its_tools_by_their_keys() -> None:
    text = '{"get weather": {"description": "Weather.", "parameters": {"type": "object"}}, "b": {"parameters": {}}}'
    document = Document.from_text("file:///w/map.json", text)
    units = with_dialects([read_unit(document, span) for span in split(document, None).spans])
    assert [(u.pointer, u.value.get("name"), u.dialect, u.origin) for u in units] == [
        (("get weather",), "get weather", "openai-flat", "map"),
        (("b",), "b", "openai-flat", "map"),
    ]
    found = check(text, None, uri="file:///w/map.json")
    assert "TS102" not in codes(found)  # no "missing name": the key is the name
    (bad_name,) = only(found, "TS201")
    assert (bad_name.range, bad_name.text) == ((0, 16, 0, 17), "{")  # the tool that the key names


def test_a_forced_dialect_reaches_the_messages(tmp_path: Path) -> None:
    settings, problems = settings_from_mapping({"files": {"dialects": {"**/google/*.json": "gemini"}}}, "test")
    assert not problems
    (tmp_path / "google").mkdir()
    target = tmp_path / "google" / "decl.json"
    target.write_text(dumps([{"name": "get_weather", "parameters": SCHEMA, "strict": True}]))
    workspace = Workspace(settings, CATALOG)
    workspace.add([tmp_path])
    report = workspace.check(target)
    assert report is not None
    (unknown,) = [d for d in report.diagnostics if d.code == "TS101"]
    assert unknown.message.startswith("Unknown property 'strict' in Gemini function declaration 'get_weather'.")


def test_a_bare_tool_input_is_a_call_only_where_a_folder_of_calls_says_so() -> None:
    text = dumps({"name": "get_weather", "input": {"town": "Oslo"}})
    assert units_of(text, "file:///w/calls/weather.json") == (
        "tool_call",
        [("tool_call", (), "anthropic-call", "file")],
    )
    assert units_of(text, "file:///w/data.json") == (None, [])
