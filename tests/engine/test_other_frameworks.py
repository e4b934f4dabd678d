"""Another framework's tool shape is not ours, even with a key one of ours uses.

The Vercel AI SDK keeps tools as `{type: "function", name, description, inputSchema, inputExamples}` and converts
them before a provider sees them. `inputSchema` alone made it an MCP tool, so it got "unknown property 'type'" and
"'inputExamples'" (found in the wild corpus). An MCP Tool has no `type`; a `type: "function"` beside
`inputSchema` says the object is someone else's.
"""

from __future__ import annotations

import json

from checking import check, report

AI_SDK_TOOLS = json.dumps(
    {
        "title": "fixture",
        "tools": [
            {
                "type": "function",
                "name": "book_flight",
                "description": "Book a one-way flight",
                "inputSchema": {"type": "object", "properties": {"from": {"type": "string"}}},
                "inputExamples": [{"input": {"from": "ICN"}}],
            }
        ],
    }
)


def test_an_ai_sdk_tool_list_is_left_alone() -> None:
    assert check(AI_SDK_TOOLS, None, uri="file:///work/repo/src/fixture.json") == []


def test_where_the_path_suggests_tools_it_gets_only_the_note() -> None:
    found = check(AI_SDK_TOOLS, None, uri="file:///work/repo/tools/fixture.json")
    assert [(d.code, d.severity, d.range) for d in found] == [("TS007", "information", (0, 0, 0, 1))]


def test_an_mcp_tool_with_input_schema_is_still_mcp() -> None:
    tool = {"name": "book_flight", "description": "Book a flight", "inputSchema": {"type": "object"}}
    _, found = report(json.dumps({"tools": [tool]}), "mcp-tools.json")
    assert [str(unit.dialect) for unit in found.units] == ["mcp"]
    ai_sdk = {**tool, "type": "function"}
    _, found = report(json.dumps({"tools": [ai_sdk]}), "mcp-tools.json")
    assert found.units == []
