"""MCP 2026-07-28 tool features (issue 31, §2): `_meta` key names, MCP Apps' `_meta.ui`, a remote `$ref`; and
Gemini's two schema fields. The MCP Apps tool is the one in modelcontextprotocol/ext-apps'
specification/2026-01-26/apps.mdx (its `get_weather` example, with its `resourceUri` changed for the wrong case);
the rest are hand-made."""

from __future__ import annotations

import json
from typing import Any

from checking import check, one, only

from toolsense.rules.tools.mcp_meta import meta_key_problem, network_refs
from toolsense.settings import Settings

# modelcontextprotocol/ext-apps specification/2026-01-26/apps.mdx @3719bd1386978bc326d4acafdf15e8ae462e6801
APPS_TOOL: dict[str, Any] = {
    "name": "get_weather",
    "description": "Get current weather for a location",
    "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}},
    "_meta": {"ui": {"resourceUri": "ui://weather-server/dashboard-template", "visibility": ["model", "app"]}},
}


def _listing(*tools: dict[str, Any], version: str | None = None) -> str:
    body: dict[str, Any] = {"tools": list(tools)}
    if version is not None:
        body = {"protocolVersion": version, **body}
    return json.dumps(body, indent=2)


def _ours(text: str, *codes: str) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.text) for d in only(check(text, kind=None), *codes)]


def test_the_specs_mcp_apps_tool_is_fine() -> None:
    assert _ours(_listing(APPS_TOOL), "TS257", "TS258", "TS101", "TS104") == []


def test_a_resource_uri_over_https_is_an_error() -> None:
    tool = {**APPS_TOOL, "_meta": {"ui": {"resourceUri": "https://weather.example.com/dashboard"}}}
    found = one(check(_listing(tool), kind=None), "TS258")
    assert (found.severity, found.text) == ("error", '"https://weather.example.com/dashboard"')
    assert found.message == (
        'MCP Apps: resourceUri "https://weather.example.com/dashboard" must be a ui:// URI (a UI resource the server '
        "lists); hosts render nothing else"
    )


def test_the_resources_csp_and_permissions_on_a_tool_and_bad_visibility() -> None:
    ui = {
        "resourceUri": "ui://w/d",
        "visibility": ["model", "agent"],
        "csp": {"connectDomains": ["https://api.example.com"]},
        "permissions": {"camera": {}},
    }
    found = _ours(_listing({**APPS_TOOL, "_meta": {"ui": ui}}), "TS258", "TS104")
    assert found == [
        ("TS104", "warning", '"agent"'),
        ("TS258", "warning", '"csp"'),
        ("TS258", "warning", '"permissions"'),
    ]


def test_the_deprecated_flat_resource_uri() -> None:
    tool = {**APPS_TOOL, "_meta": {"ui/resourceUri": "https://x.example.com"}}
    assert _ours(_listing(tool), "TS258") == [
        ("TS258", "warning", '"ui/resourceUri"'),
        ("TS258", "error", '"https://x.example.com"'),
    ]


def test_meta_key_names() -> None:
    assert meta_key_problem("com.example/cache") is None
    assert meta_key_problem("com.example.mcp/x") is None  # the second label is `example`: not reserved
    assert meta_key_problem("io.modelcontextprotocol/related-task") is None  # MCP's own and its extensions'
    assert meta_key_problem("openai/outputTemplate") is None
    assert meta_key_problem("progressToken") is None
    assert meta_key_problem("dev.mcp/cache") == (
        "the prefix 'dev.mcp/' is reserved for MCP (its second label is 'mcp'); use your own reverse-DNS prefix "
        "(com.example/)"
    )
    assert meta_key_problem("org.modelcontextprotocol.api/x") is not None
    assert meta_key_problem("com.mcp.tools/x") is not None
    assert meta_key_problem("-bad") == "the name must start and end with a letter or digit, with only - _ . inside"
    assert meta_key_problem("1com.example/x") == (
        'prefix label "1com" must start with a letter and end with a letter or digit'
    )
    assert meta_key_problem("a/b/c") == "a key has at most one '/', between its prefix and its name"


def test_meta_keys_are_reported_on_the_key() -> None:
    tool = {**APPS_TOOL, "_meta": {"dev.mcp/cache": True, "com.example/ok": 1}}
    assert _ours(_listing(tool), "TS257") == [("TS257", "warning", '"dev.mcp/cache"')]


def test_the_key_older_fastmcp_writes_says_how_to_get_rid_of_it() -> None:
    """FastMCP 2's `_fastmcp` (26 tools of robert-cousins/mcp_agent_mail's tools_list.json in the shared corpus)."""
    tool = {**APPS_TOOL, "_meta": {"_fastmcp": {"tags": []}}}
    found = one(check(_listing(tool), kind=None), "TS257")
    assert found.message == (
        '_meta key "_fastmcp": the name must start and end with a letter or digit, with only - _ . inside; FastMCP '
        "wrote it so and now writes 'fastmcp' (PrefectHQ/fastmcp#2895): upgrade FastMCP"
    )


REMOTE = {"type": "object", "properties": {"address": {"$ref": "https://schemas.example.com/address.json"}}}


def test_a_remote_ref_is_an_error_when_the_file_states_2026_07_28() -> None:
    tool = {"name": "ship", "description": "Ship an order.", "inputSchema": REMOTE}
    found = one(check(_listing(tool, version="2026-07-28"), kind=None), "TS259")
    assert (found.severity, found.text) == ("error", '"https://schemas.example.com/address.json"')
    assert found.message.startswith('$ref "https://schemas.example.com/address.json" resolves to a network URI')


def test_a_remote_ref_under_another_or_no_stated_version_is_left_to_ts216() -> None:
    tool = {"name": "ship", "description": "Ship an order.", "inputSchema": REMOTE}
    assert only(check(_listing(tool, version="2025-11-25"), kind=None), "TS259") == []
    assert only(check(_listing(tool), kind=None), "TS259") == []
    chosen = Settings.model_validate({"mcp": {"protocol_version": "2026-07-28"}})
    assert len(only(check(_listing(tool), kind=None, settings=chosen), "TS259")) == 1


def test_which_refs_resolve_to_the_network() -> None:
    schema = {
        "$id": "https://example.com/schemas/order",
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/a"},
            "b": {"$ref": "https://example.com/schemas/order#/$defs/a"},  # this very resource
            "c": {"$ref": "address.json"},  # relative to $id: https://example.com/schemas/address.json
            "d": {"$ref": "urn:example:thing"},
            "e": {"$ref": "item"},  # an embedded resource's $id below
        },
        "$defs": {"a": {"type": "string"}, "item": {"$id": "item", "type": "string"}},
    }
    assert list(network_refs(schema)) == [(("properties", "c", "$ref"), "address.json")]


# --- Gemini ---------------------------------------------------------------------------------------------

GEMINI = Settings.model_validate({"profiles": ["gemini"]})
CLOSED = {"type": "object", "properties": {"x": {"type": "string", "description": "X."}}, "additionalProperties": False}


def test_gemini_parameters_subset_and_vertex_ai() -> None:
    declaration = {"name": "a", "description": "A.", "parameters": {**CLOSED, "type": "OBJECT"}}
    found = one(check(json.dumps({"functionDeclarations": [declaration]}), kind=None, settings=GEMINI), "TS265")
    assert found.text == '"additionalProperties"'
    assert found.message == (
        "The Gemini API's function parameters (OpenAPI 3.0 subset) do not support 'additionalProperties' (Vertex AI's "
        "do); for the Gemini API send the schema as `parametersJsonSchema`"
    )


def test_parameters_json_schema_is_not_held_to_the_parameters_subset() -> None:
    declaration = {"name": "a", "description": "A.", "parametersJsonSchema": {**CLOSED, "$defs": {}}}
    assert only(check(json.dumps({"functionDeclarations": [declaration]}), kind=None, settings=GEMINI), "TS265") == []


def test_an_mcp_tool_gemini_cli_forwards_is_not_held_to_the_parameters_subset() -> None:
    tool = {"name": "read_file", "description": "Read a file.", "inputSchema": CLOSED}
    assert only(check(_listing(tool), kind=None, settings=GEMINI), "TS265") == []
    openai = {"type": "function", "function": {"name": "f", "description": "F.", "parameters": CLOSED}}
    assert len(only(check(json.dumps({"tools": [openai]}), kind=None, settings=GEMINI), "TS265")) == 1
