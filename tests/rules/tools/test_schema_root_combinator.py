"""TS269: `oneOf` / `anyOf` / `allOf` at the top level of an input schema (issue 21, recall).

Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the top level" — an error, as for OpenAI
strict tools; a warning for MCP tools (clients forward them to such providers); nothing for a plain OpenAI
function. The quick fix writes one object: `allOf` merged (safe when exact), `anyOf`/`oneOf` as the union of
their properties (lossy, so never safe)."""

from __future__ import annotations

import json
from typing import Any

from checking import check, one
from fixing import fixed_text
from positions import span

URI = "file:///w/tools/sample.json"
X = {"type": "string", "description": "X."}
Y = {"type": "integer", "description": "Y."}
ANY_OF = {
    "type": "object",
    "anyOf": [
        {"properties": {"x": X, "shared": X}, "required": ["x", "shared"]},
        {"properties": {"y": Y, "shared": X}, "required": ["y", "shared"]},
    ],
}
ALL_OF = {
    "type": "object",
    "allOf": [
        {"type": "object", "properties": {"x": X}, "required": ["x"]},
        {"type": "object", "properties": {"y": Y}},
    ],
    "additionalProperties": False,
}
ANTHROPIC_WORDS = '"input_schema does not support oneOf, allOf, or anyOf at the top level"'


def _text(tool: dict[str, Any]) -> str:
    return json.dumps(tool, indent=2)


def test_an_anthropic_tool_with_a_top_level_any_of_is_an_error_with_a_lossy_fix() -> None:
    text = _text({"name": "pick", "description": "Pick.", "input_schema": ANY_OF})
    d = one(check(text, uri=URI), "TS269")
    assert (d.severity, d.range, d.text) == ("error", span(text, '"anyOf"'), '"anyOf"')
    assert d.message == (
        f"Anthropic tool 'pick', 'input_schema': 'anyOf' at the top level of the input schema; Anthropic rejects "
        f"the tool: {ANTHROPIC_WORDS}"
    )
    (fix,) = d.fixes
    assert fix.title == "Write one object schema (lossy: the branches' alternatives become optional properties)"
    assert not fix.safe
    fixed = json.loads(fixed_text(text, fix, URI))
    assert fixed["input_schema"] == {
        "type": "object",
        "properties": {"x": X, "shared": X, "y": Y},
        "required": ["shared"],
    }
    assert "TS269" not in [c.code for c in check(json.dumps(fixed, indent=2), uri=URI)]


def test_an_mcp_tool_with_a_top_level_all_of_is_a_warning_with_a_safe_merge() -> None:
    text = _text({"name": "pick", "description": "Pick.", "inputSchema": ALL_OF})
    d = one(check(text, uri=URI), "TS269")
    assert (d.severity, d.text) == ("warning", '"allOf"')
    assert d.message == (
        "MCP tool 'pick', 'inputSchema': 'allOf' at the top level of the input schema; clients forward the tool to "
        f"the model's provider, and Anthropic rejects it ({ANTHROPIC_WORDS}): one such tool breaks every request"
    )
    (fix,) = d.fixes
    assert (fix.title, fix.safe) == ("Merge the allOf branches into one object", True)
    fixed = json.loads(fixed_text(text, fix, URI))
    assert fixed["inputSchema"] == {
        "type": "object",
        "additionalProperties": False,
        "properties": {"x": X, "y": Y},
        "required": ["x"],
    }


def test_strict_openai_is_an_error_and_plain_openai_is_left_alone() -> None:
    schema = {"oneOf": [{"type": "object", "properties": {"x": X}, "required": ["x"], "additionalProperties": False}]}
    strict = {"type": "function", "name": "pick", "description": "Pick.", "strict": True, "parameters": schema}
    d = one(check(_text(strict), uri=URI), "TS269")
    assert (d.severity, d.message) == (
        "error",
        "OpenAI function 'pick', 'parameters': 'oneOf' at the top level of the input schema; OpenAI strict mode "
        "rejects it: the root must be a plain object schema",
    )
    plain = {**strict, "strict": False}
    assert "TS269" not in [c.code for c in check(_text(plain), uri=URI)]


def test_no_fix_when_a_branch_is_no_object_and_nested_combinators_are_fine() -> None:
    mixed = {"anyOf": [{"type": "object", "properties": {"x": X}}, {"type": "string"}]}
    d = one(check(_text({"name": "pick", "description": "Pick.", "input_schema": mixed}), uri=URI), "TS269")
    assert d.fixes == ()
    nested = {"type": "object", "properties": {"v": {"anyOf": [X, Y], "description": "V."}}}
    assert "TS269" not in [c.code for c in check(_text({"name": "p", "description": "P.", "input_schema": nested}))]
