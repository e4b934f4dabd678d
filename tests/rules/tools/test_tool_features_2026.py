"""The 2026 tool features of OpenAI and Anthropic (issue 31, §2): each example of the issue gets its answer, at its
exact place, with the provider's documented message where it documents one. Hand-made request bodies, shaped as
the providers' SDK types say (openai-python, anthropic-sdk-python; see models/feature_facts.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from checking import check, one, only

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "The city."}},
    "required": ["city"],
    "additionalProperties": False,
}


def _openai(tools: list[dict[str, Any]]) -> str:
    return json.dumps({"model": "gpt-5.4", "input": "hi", "tools": tools}, indent=2)


def _anthropic(tools: list[dict[str, Any]], **extra: Any) -> str:
    body = {"model": "claude-opus-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "hi"}]}
    return json.dumps({**body, **extra, "tools": tools}, indent=2)


def _function(name: str = "get_weather", **extra: Any) -> dict[str, Any]:
    return {"type": "function", "name": name, "description": "Get the weather.", "parameters": SCHEMA, **extra}


# --- OpenAI namespaces -----------------------------------------------------------------------------------


NAMESPACE_REQUEST = """{
  "model": "gpt-5.4",
  "input": "hi",
  "tools": [
    {
      "type": "namespace",
      "name": "crm",
      "description": "Customer records.",
      "tools": [
        {
          "type": "function",
          "name": "get_customer",
          "description": "Get a customer by id.",
          "parameters": {
            "type": "object",
            "properties": {"id": {"type": "strng", "description": "Id."}},
            "required": ["id"],
            "additionalProperties": false
          }
        }
      ]
    }
  ]
}"""


def test_a_function_inside_a_namespace_is_checked_as_a_tool_at_its_exact_place() -> None:
    found = one(check(NAMESPACE_REQUEST, kind=None), "TS214")
    assert found.range == (15, 42, 15, 49)  # 0-based: line 16, column 43
    assert found.text == '"strng"'
    assert found.severity == "error"
    assert found.message.startswith('Unknown type "strng"') and 'Did you mean "string"?' in found.message


def test_the_same_function_outside_a_namespace_gives_the_same_finding() -> None:
    inner = json.loads(NAMESPACE_REQUEST)["tools"][0]["tools"][0]
    found = one(check(_openai([inner]), kind=None), "TS214")
    assert found.text == '"strng"'


def test_a_custom_tool_inside_a_namespace_has_its_grammar_compiled() -> None:
    custom = {"type": "custom", "name": "sql", "description": "SQL.", "format": _grammar("lark", 'start: "a" (')}
    text = _openai([{"type": "namespace", "name": "db", "description": "Database.", "tools": [custom]}])
    found = one(check(text, kind=None), "TS245")
    assert found.text == json.dumps('start: "a" (')


def test_defer_loading_on_the_namespace_object_is_reported_where_it_is() -> None:
    namespace = {
        "type": "namespace",
        "name": "crm",
        "description": "CRM.",
        "defer_loading": True,
        "tools": [_function()],
    }
    found = check(_openai([{"type": "tool_search"}, namespace]), kind=None)
    ts247 = one(found, "TS247")
    assert ts247.text == '"defer_loading"'
    assert ts247.message.startswith("OpenAI: defer_loading applies to the functions inside a namespace")
    assert only(found, "TS101") == []  # said once, by TS247


def test_deferred_functions_without_tool_search_are_a_warning_and_with_it_nothing() -> None:
    namespace = {"type": "namespace", "name": "crm", "description": "CRM.", "tools": [_function(defer_loading=True)]}
    found = one(check(_openai([namespace]), kind=None), "TS247")
    assert found.severity == "warning"
    assert "no `tool_search` tool" in found.message
    assert check(_openai([{"type": "tool_search"}, namespace]), kind=None) == []


def test_a_namespace_needs_its_description_and_tools() -> None:
    found = check(_openai([{"type": "namespace", "name": "crm"}]), kind=None)
    assert [d.message for d in found] == [
        "Missing required properties in 'namespace' tool 'crm': 'description', 'tools'"
    ]


# --- OpenAI custom tools -----------------------------------------------------------------------------------


def _grammar(syntax: str, definition: str) -> dict[str, str]:
    return {"type": "grammar", "syntax": syntax, "definition": definition}


def _custom(syntax: str, definition: str) -> str:
    tool = {"type": "custom", "name": "sql", "description": "Run SQL.", "format": _grammar(syntax, definition)}
    return _openai([tool])


def test_a_lark_grammar_that_does_not_parse_is_an_error_on_the_definition() -> None:
    found = one(check(_custom("lark", 'start: "SELECT " col (" FROM t"\ncol: /[a-z]+/'), kind=None), "TS245")
    assert found.severity == "error"
    assert found.message.startswith("The Lark grammar does not parse at line 1, column 32:")


def test_a_lark_grammar_naming_an_undefined_rule_is_an_error() -> None:
    found = one(check(_custom("lark", "start: select\n"), kind=None), "TS245")
    assert found.message == "The Lark grammar does not compile: Rule 'select' used but not defined (in rule start)"


def test_what_llguidance_does_not_support_is_an_error() -> None:
    found = one(check(_custom("lark", 'start: a\na.2: "x"'), kind=None), "TS245")
    assert found.message == (
        "OpenAI's grammar engine (llguidance) does not support rule and terminal priorities: line 2: 'a.2: \"x\"'"
    )
    lookaround = one(check(_custom("lark", "start: A\nA: /(?=x)\\w+/"), kind=None), "TS245")
    assert lookaround.message.startswith("Terminal A is no valid regular expression (invalid perl operator: (?=)")


def test_valid_grammars_and_llguidance_extensions_are_accepted() -> None:
    valid = 'start: "SELECT " col " FROM orders"\ncol: /[a-z_]+/\n%import common.WS\n%ignore WS'
    assert check(_custom("lark", valid), kind=None) == []
    assert check(_custom("lark", 'start: gen\ngen[stop=""]: /.*/'), kind=None) == []  # llguidance only: not judged
    assert check(_custom("regex", r"^\d{3}-\d{4}$"), kind=None) == []


def test_a_regex_grammar_that_does_not_compile_is_an_error() -> None:
    found = one(check(_custom("regex", "^(\\d{3}-\\d{4}$"), kind=None), "TS245")
    assert found.message == (
        "The regex grammar does not compile (missing ): ^(\\d{3}-\\d{4}$): OpenAI reads it as Rust regex"
    )


# --- hosted MCP tools -------------------------------------------------------------------------------------


def test_a_hosted_mcp_tool_gets_the_config_security_rules() -> None:
    tool = {
        "type": "mcp",
        "server_label": "deepwiki",
        "server_url": "http://mcp.example.com/mcp",
        "headers": {"Authorization": "Bearer sk-live-9f8e7d6c5b4a3f2e1d0c9b8a"},
        "require_approval": "never",
    }
    found = check(_openai([tool]), kind=None)
    assert [(d.code, d.severity, d.text) for d in found] == [
        ("TS943", "warning", '"http://mcp.example.com/mcp"'),
        ("TS940", "error", '"Bearer sk-live-9f8e7d6c5b4a3f2e1d0c9b8a"'),
    ]
    assert found[1].message == (
        'A secret is written inline in `headers.Authorization` ("sk-l…" (32 characters)): anyone who reads the file '
        "has it; send it from your secret store when the request is made, not from a file"
    )


def test_a_hosted_mcp_tools_authorization_token_and_its_members() -> None:
    tool = {
        "type": "mcp",
        "server_label": "x",
        "server_url": "https://mcp.example.com",
        "authorization": "ghp_" + "a1" * 18,
    }
    assert [d.code for d in check(_openai([tool]), kind=None)] == ["TS940"]
    safe = {**tool, "authorization": "${OAUTH_TOKEN}", "require_approval": "nevr"}
    found = one(check(_openai([safe]), kind=None), "TS104")
    assert found.message.endswith('expected one of "always", "never". Did you mean "never"?')


# --- Anthropic -----------------------------------------------------------------------------------------


def _anthropic_tool(name: str = "get_weather", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Get the weather.", "input_schema": SCHEMA, **extra}


def test_every_anthropic_tool_deferred_gets_the_apis_message() -> None:
    text = _anthropic([_anthropic_tool(defer_loading=True), _anthropic_tool("get_time", defer_loading=True)])
    found = one(check(text, kind=None), "TS247")
    assert found.severity == "error"
    assert found.text == '"defer_loading"'
    assert (
        'the API answers 400 "All tools have defer_loading set. At least one tool must be non-deferred"'
        in found.message
    )


def test_one_tool_loaded_is_enough_and_a_tools_file_is_not_judged() -> None:
    search = {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}
    assert check(_anthropic([search, _anthropic_tool(defer_loading=True)]), kind=None) == []
    tools_file = json.dumps({"tools": [_anthropic_tool(defer_loading=True)]})
    assert only(check(tools_file, kind=None), "TS247") == []


def test_the_tool_search_tool_itself_is_never_deferred() -> None:
    search = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25", "defer_loading": True}
    found = one(check(_anthropic([search, _anthropic_tool()]), kind=None), "TS247")
    assert found.message == "The tool-search tool itself is never deferred: it is what loads the deferred tools"


def test_allowed_callers_values_are_the_documented_ones() -> None:
    found = one(check(_anthropic([_anthropic_tool(allowed_callers=["direkt"])]), kind=None), "TS246")
    assert found.text == '"direkt"'
    assert found.message == (
        'allowed_callers value "direkt" is not one the API accepts (allowed: direct, code_execution_20250825, '
        "code_execution_20260120, code_execution_20260521; Anthropic allowed_callers values as of 2026-12-07). "
        'Did you mean "direct"?'
    )
    assert [getattr(e, "json_text", None) for fix in found.fixes for e in fix.edits] == ['"direct"']
    fine = _anthropic_tool(allowed_callers=["direct", "code_execution_20250825"])
    assert check(_anthropic([fine]), kind=None) == []
    openai = one(check(_openai([_function(allowed_callers=["programatic"])]), kind=None), "TS246")
    assert "allowed: direct, programmatic" in openai.message


def test_dated_server_tools_against_the_released_versions() -> None:
    released = [
        {"type": "web_search_20250305", "name": "web_search"},
        {"type": "code_execution_20250825", "name": "code_execution"},
        {"type": "bash_20250124", "name": "bash"},
        {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
        {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768},
        {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
        {"type": "memory_20250818", "name": "memory"},
        {"type": "web_fetch_20250910", "name": "web_fetch"},
    ]
    assert check(_anthropic(released), kind=None) == []
    unknown = one(check(_anthropic([{"type": "web_search_20990101", "name": "web_search"}]), kind=None), "TS248")
    assert unknown.severity == "warning"
    assert unknown.message.startswith('"web_search_20990101" is no released version of web_search (released as of')
    renamed = one(check(_anthropic([{"type": "bash_20250124", "name": "shell"}]), kind=None), "TS248")
    assert (renamed.severity, renamed.message) == ("error", 'A bash_20250124 tool must be named "bash", found "shell"')


def test_mcp_servers_and_the_mcp_toolset_tool() -> None:
    servers = [
        {
            "type": "url",
            "url": "http://mcp.example.com/mcp",
            "name": "tracker",
            "authorization_token": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123",
        }
    ]
    text = _anthropic([{"type": "mcp_toolset", "mcp_server_name": "traker"}], mcp_servers=servers)
    found = check(text, kind=None)
    assert [(d.code, d.text) for d in found] == [
        ("TS943", '"http://mcp.example.com/mcp"'),
        ("TS940", '"sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"'),
        ("TS249", '"traker"'),
    ]
    assert (found[0].severity, found[0].message) == (
        "error",
        "Server 'tracker' is reached over plain http at \"mcp.example.com\": requests, answers and any token travel "
        "readable and changeable; Anthropic's MCP connector accepts https:// only",
    )
    assert found[2].message == (
        'mcp_toolset names the server "traker", which the request\'s mcp_servers does not list (listed: "tracker")'
    )
    good = [{"type": "url", "url": "https://mcp.example.com/mcp", "name": "tracker", "authorization_token": "${T}"}]
    assert check(_anthropic([{"type": "mcp_toolset", "mcp_server_name": "tracker"}], mcp_servers=good), kind=None) == []


def test_an_mcp_servers_entry_against_its_model() -> None:
    servers = [{"type": "url", "url": "https://mcp.example.com/mcp", "name": "t", "tool_configuration": {"allow": []}}]
    found = check(_anthropic([{"type": "mcp_toolset", "mcp_server_name": "t"}], mcp_servers=servers), kind=None)
    assert [(d.code, d.text) for d in found] == [("TS101", '"allow"')]


# --- a real grammar ---------------------------------------------------------------------------------------

CODEX_GRAMMAR = (Path(__file__).parents[2] / "data" / "features" / "codex_apply_patch.lark").read_text(encoding="utf-8")
"""Codex's `apply_patch` grammar, a real public file (see its first lines): what Codex sends as a custom tool."""


def test_codexs_apply_patch_grammar_is_accepted_and_a_broken_copy_is_not() -> None:
    assert check(_custom("lark", CODEX_GRAMMAR), kind=None) == []
    broken = CODEX_GRAMMAR.replace("(change_context | change_line)+", "(change_context | change_line+")
    found = one(check(_custom("lark", broken), kind=None), "TS245")
    assert found.message.startswith("The Lark grammar does not parse at line 16, column 49:")


# Anthropic's documented mcp_servers entry, as copied in patrickcarmichael/claude-docs
# docs/ai-platforms/anthropic/formatted/329-mcp-server-configuration.md @a9add268a18e2590dacf9490541363c160df1733
DOCUMENTED_SERVER = {
    "type": "url",
    "url": "https://example-server.modelcontextprotocol.io/sse",
    "name": "example-mcp",
    "tool_configuration": {"enabled": True, "allowed_tools": ["example_tool_1", "example_tool_2"]},
    "authorization_token": "YOUR_TOKEN",
}


def test_the_documented_mcp_servers_entry_gets_nothing() -> None:
    toolset = {"type": "mcp_toolset", "mcp_server_name": "example-mcp"}
    assert check(_anthropic([toolset], mcp_servers=[DOCUMENTED_SERVER]), kind=None) == []
