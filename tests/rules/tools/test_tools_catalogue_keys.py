"""TS101 on a catalogue's own key (one every tool of the file has) is advice, information, in a file that is not
sent as it is; the odd key of one tool stays a warning, and a request body keeps the error."""

from __future__ import annotations

import json
from typing import Any

from checking import check


def _tools(count: int, **extra: Any) -> list[dict[str, Any]]:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    return [{"name": f"t{i}", "description": "Does it.", "category": "x", "input_schema": schema} for i in range(count)]


def _ts101(text: str) -> list[tuple[str, str]]:
    return [(d.severity, d.message.split("'")[1]) for d in check(text, None) if d.code == "TS101"]


def test_a_key_every_tool_has_is_information_and_an_odd_one_a_warning() -> None:
    tools = _tools(3)
    tools[1]["colour"] = "red"
    found = check(json.dumps(tools), None)
    catalogue = [d for d in found if d.code == "TS101" and "'category'" in d.message]
    assert [d.severity for d in catalogue] == ["information"] * 3
    assert catalogue[0].message.startswith(
        "Unknown property 'category' in Anthropic tool 't0': every tool of this file has it, the catalogue's own key "
        "(advice). Valid properties:"
    )
    (odd,) = [d for d in found if d.code == "TS101" and "'colour'" in d.message]
    assert odd.severity == "warning"


def test_two_tools_are_no_catalogue() -> None:
    assert _ts101(json.dumps(_tools(2))) == [("warning", "category"), ("warning", "category")]


def test_a_request_body_keeps_the_error() -> None:
    body = {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "hi"}], "tools": _tools(3)}
    assert _ts101(json.dumps(body)) == [("error", "category")] * 3


def _mcp_tools(count: int) -> list[dict[str, Any]]:
    schema = {"type": "object", "properties": {}}
    return [{"name": f"t{i}", "description": "Does it.", "category": "x", "inputSchema": schema} for i in range(count)]


def test_an_mcp_catalogue_s_own_key_is_information_and_an_odd_one_a_warning() -> None:
    tools = _mcp_tools(3)
    tools[2]["colour"] = "red"
    found = [d for d in check(json.dumps(tools), None) if d.code == "TS101"]
    assert sorted((d.severity, d.message.split("'")[1]) for d in found) == [
        ("information", "category"),
        ("information", "category"),
        ("information", "category"),
        ("warning", "colour"),
    ]
    assert "every tool of this file has it, the catalogue's own key (advice)" in found[0].message


def test_an_mcp_tools_list_result_s_shared_key_is_information_too() -> None:
    """MCP clients ignore a member they do not know, sent as it is or not."""
    result = {"jsonrpc": "2.0", "id": 1, "result": {"tools": _mcp_tools(3)}}
    assert _ts101(json.dumps(result)) == [("information", "category")] * 3


def test_two_mcp_tools_are_no_catalogue() -> None:
    assert _ts101(json.dumps(_mcp_tools(2))) == [("warning", "category")] * 2


def _wrapped(count: int) -> list[dict[str, Any]]:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    function = {"description": "Does it.", "module": "app.files", "parameters": schema}
    return [{"type": "function", "function": {"name": f"t{i}", **function}} for i in range(count)]


def _wrapped_ts101(text: str) -> list[tuple[str, bool]]:
    """Each TS101's severity and whether it is about `module` (the message names the tool first)."""
    return [(d.severity, "unknown property 'module'" in d.message) for d in check(text, None) if d.code == "TS101"]


def test_a_key_every_wrapped_function_has_is_information() -> None:
    """The app's own key inside `function` (its loader deletes `function.module` before sending)."""
    assert _wrapped_ts101(json.dumps(_wrapped(3))) == [("information", True)] * 3


def test_a_wrapped_key_of_one_function_stays_a_warning() -> None:
    tools = _wrapped(3)
    for tool in tools[1:]:
        del tool["function"]["module"]
    assert _wrapped_ts101(json.dumps(tools)) == [("warning", True)]


def test_a_request_body_keeps_the_wrapped_key_s_error() -> None:
    body = {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}], "tools": _wrapped(3)}
    assert _wrapped_ts101(json.dumps(body)) == [("error", True)] * 3


def test_a_misspelling_every_tool_shares_is_no_catalogue_key() -> None:
    tools = _mcp_tools(3)
    for tool in tools:
        tool["descripton"] = tool.pop("description")
    assert {severity for severity, key in _ts101(json.dumps(tools)) if key == "descripton"} == {"warning"}
