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
