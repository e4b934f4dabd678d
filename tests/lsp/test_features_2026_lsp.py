"""The 2026 tool features in the editor (issue 31, §2), over stdio: the issue's examples get the CLI's answers, and a
keystroke inside a namespace's function (a unit inside a unit) is checked again at its place."""

from __future__ import annotations

import json

from lspkit import Session
from lsprotocol import types

NAMESPACE = """{
  "model": "gpt-5.4",
  "input": "hi",
  "tools": [
    {"type": "namespace", "name": "crm", "description": "Customer records.", "tools": [
      {"type": "function", "name": "get_customer", "description": "Get a customer.",
       "parameters": {"type": "object", "properties": {"id": {"type": "strng", "description": "Id."}},
                      "required": ["id"], "additionalProperties": false}}
    ]}
  ]
}
"""


def _brief(found: list[types.Diagnostic]) -> list[tuple[object, tuple[int, int, int, int]]]:
    return [
        (d.code, (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)) for d in found
    ]


async def test_a_namespace_function_is_checked_and_rechecked_after_a_keystroke(session: Session) -> None:
    await session.start("neovim")
    uri = session.open("requests/crm.json", NAMESPACE)
    await session.settle()
    assert _brief(await session.diagnostics(uri, 1)) == [("TS214", (6, 70, 6, 77))]
    session.change(uri, ((6, 74, 6, 74), "i"))  # "strng" -> "string"
    await session.settle()
    assert await session.diagnostics(uri, 2) == []


async def test_the_issues_request_examples_in_the_editor(session: Session) -> None:
    await session.start("neovim")
    hosted = {
        "type": "mcp",
        "server_label": "deepwiki",
        "server_url": "http://mcp.example.com/mcp",
        "headers": {"Authorization": "Bearer sk-live-9f8e7d6c5b4a3f2e1d0c9b8a"},
    }
    custom = {
        "type": "custom",
        "name": "sql",
        "description": "Run SQL.",
        "format": {"type": "grammar", "syntax": "lark", "definition": 'start: "SELECT " ('},
    }
    openai = session.open(
        "requests/openai.json", json.dumps({"model": "gpt-5.4", "input": "hi", "tools": [hosted, custom]})
    )
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    deferred = [
        {"name": "a", "description": "Does a.", "input_schema": schema, "defer_loading": True},
        {
            "name": "b",
            "description": "Does b.",
            "input_schema": schema,
            "defer_loading": True,
            "allowed_callers": ["direkt"],
        },
    ]
    body = {"model": "claude-opus-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
    anthropic = session.open("requests/anthropic.json", json.dumps({**body, "tools": deferred}))
    await session.settle()
    assert [d.code for d in await session.diagnostics(openai, 1)] == ["TS943", "TS940", "TS245"]
    found = await session.diagnostics(anthropic, 1)
    assert sorted(str(d.code) for d in found) == ["TS246", "TS247"]
    ts247 = next(d for d in found if d.code == "TS247")
    assert ts247.severity == types.DiagnosticSeverity.Error
    assert "All tools have defer_loading set. At least one tool must be non-deferred" in ts247.message


async def test_an_mcp_apps_resource_uri_over_https(session: Session) -> None:
    await session.start("neovim")
    tool = {
        "name": "get_weather",
        "description": "Get current weather for a location",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
        "_meta": {"ui": {"resourceUri": "https://weather.example.com/dashboard"}},
    }
    uri = session.open("mcp/tools.json", json.dumps({"tools": [tool]}))
    await session.settle()
    (found,) = await session.diagnostics(uri, 1)
    assert (found.code, found.severity) == ("TS258", types.DiagnosticSeverity.Error)
    assert found.message.startswith('MCP Apps: resourceUri "https://weather.example.com/dashboard" must be a ui://')
