"""A call judged against the wrong registry is information, not an error (issue 21, class 5).

An MCP `tools/call` names a tool of the server it is sent to; a call of a kind whose tools the workspace does not
define (an OpenAI call in a workspace of Anthropic tools) names tools defined elsewhere. A call of a kind the
workspace does define still gets the error."""

from __future__ import annotations

import json

from checking import check, registry_of, tool
from positions import span

WEATHER = {"type": "object", "properties": {"city": {"type": "string", "description": "City"}}, "required": ["city"]}
ANTHROPIC_TOOLS = ("file:///w/tools/weather.json", tool(WEATHER, name="get_weather", description="Weather."))
MCP_TOOLS = (
    "file:///w/tools/server.json",
    json.dumps({"tools": [{"name": "get_weather", "description": "Weather.", "inputSchema": WEATHER}]}),
)
CALL_URI = "file:///w/calls/call.json"


def _found(text: str, *files: tuple[str, str]) -> list[tuple[str, str, str, str]]:
    diags = check(text, None, uri=CALL_URI, registry=registry_of(*files))
    return [(d.code, d.severity, d.message, d.text) for d in diags]


def test_a_json_rpc_tools_call_naming_an_undefined_tool_is_information() -> None:
    text = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_repos", "arguments": {}}},
        indent=2,
    )
    assert _found(text, MCP_TOOLS) == [
        (
            "TS301",
            "information",
            'Unknown tool "search_repos": no tool of that name among the 1 defined in the workspace (a tools/call '
            "names a tool of the server it is sent to, which the workspace need not define)",
            '"search_repos"',
        )
    ]
    d = check(text, None, uri=CALL_URI, registry=registry_of(MCP_TOOLS))[0]
    assert d.range == span(text, '"search_repos"')


def test_a_call_of_a_kind_the_workspace_defines_no_tools_for_is_information() -> None:
    openai = json.dumps(
        {"id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": "{}"}}, indent=2
    )
    assert _found(openai, ANTHROPIC_TOOLS) == [
        (
            "TS301",
            "information",
            'Unknown tool "lookup_order": no tool of that name among the 1 defined in the workspace (the workspace '
            "defines no tools of this call's kind, so its tools are defined elsewhere)",
            '"lookup_order"',
        )
    ]


def test_a_call_of_a_kind_the_workspace_defines_is_still_an_error() -> None:
    anthropic = json.dumps({"type": "tool_use", "id": "toolu_1", "name": "lookup_order", "input": {}}, indent=2)
    assert _found(anthropic, ANTHROPIC_TOOLS) == [
        (
            "TS301",
            "error",
            'Unknown tool "lookup_order": no tool of that name among the 1 defined in the workspace',
            '"lookup_order"',
        )
    ]
    # MCP tools are forwarded to every provider: an OpenAI call may name them.
    openai = json.dumps({"type": "function", "function": {"name": "get_wether", "arguments": "{}"}, "id": "c"})
    assert [(code, severity) for code, severity, _, _ in _found(openai, MCP_TOOLS)] == [("TS301", "error")]
