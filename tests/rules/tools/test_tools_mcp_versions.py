"""MCP protocol versions: where the version comes from, and the rules that follow it (TS211 on outputSchema,
TS253–TS256, version-aware unknown keys)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from checking import CORPUS, check, codes, one, only
from positions import span

from toolsense.settings import McpSettings, Settings

SCHEMA = {"type": "object", "additionalProperties": False}
SPEC_EXAMPLES = CORPUS / "realworld" / "files" / "modelcontextprotocol__modelcontextprotocol"


def mcp_tool(**extra: Any) -> dict[str, Any]:
    return {"name": "t", "description": "d", "inputSchema": SCHEMA, **extra}


def listing(*tools: dict[str, Any], **around: Any) -> str:
    return json.dumps({**around, "tools": list(tools)}, indent=2)


def errors(diags: list[Any]) -> list[str]:
    return [d.code for d in diags if d.severity == "error"]


def spec_example(name: str) -> str:
    if not SPEC_EXAMPLES.is_dir():
        pytest.skip("../shared/corpus is not available")
    return (SPEC_EXAMPLES / f"schema__2026-07-28__examples__{name}.json").read_text(encoding="utf-8")


# --- where the version comes from ---------------------------------------------------------------------------


def test_protocol_version_in_the_file_decides_and_messages_name_it() -> None:
    icon = {"src": "https://example.com/i.png"}
    text = listing(mcp_tool(icons=[icon], x_vendor=1), protocolVersion="2025-06-18")
    diags = check(text)
    icons, vendor = only(diags, "TS101")
    assert icons.severity == "warning" and icons.text == '"icons"'
    assert (
        icons.message == "MCP tool (2025-06-18) 't': 'icons' is not part of MCP 2025-06-18 (added in 2025-11-25): "
        "clients of 2025-06-18 ignore it"
    )
    assert vendor.severity == "warning" and vendor.text == '"x_vendor"'
    assert vendor.message == (
        "Unknown property 'x_vendor' in MCP tool (2025-06-18) 't': MCP clients ignore it. Valid properties: name, "
        "inputSchema, title, description, outputSchema, annotations, _meta"
    )


def test_a_schema_url_states_the_version() -> None:
    url = "https://static.modelcontextprotocol.io/schemas/2025-11-25/schema.json"
    text = listing(mcp_tool(outputSchema={"type": "array"}), **{"$schema": url})
    d = one(check(text), "TS211")
    assert d.text == '"array"' and d.severity == "error"
    assert d.message == 'The root of an MCP 2025-11-25 outputSchema must be `"type": "object"`, found "array"'


def test_the_latest_version_by_default_accepts_the_specs_array_output_schema() -> None:
    text = spec_example("Tool__tool-with-array-output-schema")
    diags = check(text)
    assert errors(diags) == []
    assert "TS211" not in codes(diags)


def test_the_setting_chooses_the_version_when_the_file_does_not() -> None:
    text = spec_example("Tool__tool-with-array-output-schema")
    d = one(check(text, settings=Settings(mcp=McpSettings(protocol_version="2025-11-25"))), "TS211")
    assert d.range == span(text, '"array"')
    assert d.message == 'The root of an MCP 2025-11-25 outputSchema must be `"type": "object"`, found "array"'


def test_an_unknown_stated_version_is_checked_as_the_latest_with_one_information() -> None:
    text = listing(mcp_tool(outputSchema={"type": "array"}), protocolVersion="2099-01-01")
    diags = check(text)
    d = one(diags, "TS256")
    assert d.severity == "information" and d.range == span(text, '"2099-01-01"')
    assert d.message == (
        'Unknown MCP protocol version "2099-01-01": checked as 2026-07-28 (known: 2025-06-18, 2025-11-25, 2026-07-28)'
    )
    assert errors(diags) == []


def test_a_single_tool_file_may_state_its_version() -> None:
    text = json.dumps({"protocolVersion": "2025-11-25", **mcp_tool(outputSchema={"type": "array"})}, indent=2)
    diags = check(text)
    assert codes(diags) == ["TS211"]


def test_members_removed_by_a_stated_version() -> None:
    text = listing(mcp_tool(execution={"taskSupport": "optional"}), protocolVersion="2026-07-28")
    d = one(check(text), "TS101")
    assert d.severity == "warning" and d.text == '"execution"'
    assert d.message == (
        "MCP tool (2026-07-28) 't': 'execution' was removed in MCP 2026-07-28: clients of 2026-07-28 ignore it"
    )
    assert "TS101" not in codes(
        check(listing(mcp_tool(execution={"taskSupport": "optional"}), protocolVersion="2025-11-25"))
    )


def test_members_removed_by_a_version_the_user_sets() -> None:
    text = listing(mcp_tool(execution={"taskSupport": "optional"}))
    settings = Settings(mcp=McpSettings(protocol_version="2026-07-28"))
    assert one(check(text, settings=settings), "TS101").message == (
        "MCP tool (2026-07-28) 't': 'execution' was removed in MCP 2026-07-28: clients of 2026-07-28 ignore it"
    )


def test_an_unstated_version_is_inferred_from_version_specific_members() -> None:
    """`execution` only exists in 2025-11-25: a file that states no version but has it is read as 2025-11-25,
    so nothing says it was removed, and 2025-11-25's own rules apply to every tool of the file."""
    tools = [mcp_tool(name=f"t{i}", execution={"taskSupport": "optional"}) for i in range(3)]
    tools.append(mcp_tool(name="flagged", inputSchema={"type": "object", "properties": {"a": True}}))
    text = json.dumps({"tools": tools}, indent=2)
    diags = check(text)
    assert "TS101" not in codes(diags)
    d = one(diags, "TS253")
    assert d.message == "MCP tool (2025-11-25): the schema of property 'a' must be an object, found boolean true"
    bare = json.dumps(tools[:3], indent=2)  # a bare array of tools too
    assert "TS101" not in codes(check(bare))


def test_an_unknown_version_never_says_added_or_removed() -> None:
    """No stated version and no member that tells: `icons` and `execution` beside each other are valid in
    2025-11-25, so an assumed version never calls either one removed or not yet added."""
    icons = [{"src": "https://example.com/i.png"}]
    assert "TS101" not in codes(check(listing(mcp_tool(icons=icons, execution={"taskSupport": "required"}))))
    assert "TS101" not in codes(check(listing(mcp_tool(icons=icons))))


def test_null_members_are_rejected_as_the_official_schema_does() -> None:
    text = listing(mcp_tool(description=None))
    d = one(check(text), "TS103")
    assert d.text == "null" and d.message == "MCP tool (2026-07-28) 't', 'description': expected string, received null"


# --- TS253: property schemas before 2026-07-28 ------------------------------------------------------------


def test_boolean_property_schemas_before_2026() -> None:
    tool = mcp_tool(inputSchema={"type": "object", "properties": {"a": True}})
    text = listing(tool, protocolVersion="2025-11-25")
    d = one(check(text), "TS253")
    assert d.severity == "error" and d.text == "true"
    assert d.message == "MCP tool (2025-11-25): the schema of property 'a' must be an object, found boolean true"
    assert "TS253" not in codes(check(listing(tool)))


# --- TS254: x-mcp-header -----------------------------------------------------------------------------------


def headers(properties: dict[str, Any], **around: Any) -> str:
    return listing(mcp_tool(inputSchema={"type": "object", "properties": properties}), **around)


def test_the_specs_header_example_is_valid() -> None:
    text = headers(
        {
            "region": {"type": "string", "description": "r", "x-mcp-header": "Region"},
            "options": {"type": "object", "properties": {"limit": {"type": "integer", "x-mcp-header": "Limit"}}},
            "confirm": {"type": ["boolean", "null"], "x-mcp-header": "Confirm"},
        }
    )
    assert "TS254" not in codes(check(text))


@pytest.mark.parametrize(
    ("properties", "marked", "problem"),
    [
        ({"a": {"type": "string", "x-mcp-header": ""}}, '""', "must not be empty"),
        (
            {"a": {"type": "string", "x-mcp-header": "My Region"}},
            '"My Region"',
            "must be an HTTP header token (letters, digits and !#$%&'*+-.^_`|~), found space",
        ),
        ({"a": {"type": "string", "x-mcp-header": 7}}, "7", "must be a string, found integer 7"),
        (
            {"a": {"type": "number", "x-mcp-header": "A"}},
            '"A"',
            "is on a property of type number: only string, integer and boolean (not number) may be mirrored",
        ),
        (
            {"a": {"x-mcp-header": "A"}},
            '"A"',
            "is on a property without a type: it must be a string, integer or boolean",
        ),
        (
            {"a": {"type": "array", "items": {"type": "string", "x-mcp-header": "A"}}},
            '"A"',
            "is on 'properties/a/items', which is not reached through `properties` alone (not through items, "
            "composition, conditions or $ref)",
        ),
    ],
)
def test_invalid_header_annotations(properties: dict[str, Any], marked: str, problem: str) -> None:
    text = headers(properties)
    d = one(check(text), "TS254")
    assert d.severity == "error" and d.text == marked
    assert d.message == f"x-mcp-header {problem}: MCP 2026-07-28 clients on Streamable HTTP drop this tool"


def test_header_names_are_unique_ignoring_case() -> None:
    text = headers(
        {"a": {"type": "string", "x-mcp-header": "Region"}, "b": {"type": "string", "x-mcp-header": "REGION"}}
    )
    d = one(check(text), "TS254")
    assert d.text == '"REGION"'
    assert d.message == (
        'x-mcp-header repeats "Region" (header names ignore case): MCP 2026-07-28 clients on Streamable HTTP drop '
        "this tool"
    )


def test_header_annotations_mean_nothing_before_2026() -> None:
    assert "TS254" not in codes(
        check(headers({"a": {"type": "number", "x-mcp-header": ""}}, protocolVersion="2025-11-25"))
    )


# --- TS255: the list result's own members ------------------------------------------------------------------


def test_the_specs_list_results_are_valid() -> None:
    for name in (
        "ListToolsResult__tools-list-with-cursor-and-ttl",
        "ListToolsResultResponse__list-tools-result-response",
    ):
        diags = check(spec_example(name))
        assert errors(diags) == [], name
        assert "TS255" not in codes(diags)


def test_list_result_members_of_the_wrong_kind() -> None:
    text = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"resultType": 1, "tools": [mcp_tool()], "ttlMs": -5, "cacheScope": "shared"},
        },
        indent=2,
    )
    found = [(d.text, d.severity, d.message) for d in only(check(text), "TS255")]
    assert found == [
        ("1", "error", "'resultType' must be a string (MCP 2026-07-28), found integer 1"),
        ("-5", "error", "'ttlMs' must be an integer ≥ 0 (MCP 2026-07-28), found integer -5"),
        ('"shared"', "error", '\'cacheScope\' must be "public" or "private" (MCP 2026-07-28), found string "shared"'),
    ]


def test_list_result_members_before_2026_are_ignored_by_clients() -> None:
    text = listing(mcp_tool(), protocolVersion="2025-11-25", ttlMs=1000)
    d = one(check(text), "TS255")
    assert d.severity == "warning" and d.text == '"ttlMs"'
    assert d.message == "'ttlMs' is new in MCP 2026-07-28: clients of 2025-11-25 ignore it"


def test_a_2026_response_that_says_so_must_have_the_new_members() -> None:
    body = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [mcp_tool()], "_meta": {}}}
    body["result"]["_meta"] = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}
    text = json.dumps(body, indent=2)
    d = one(check(text), "TS255")
    assert d.severity == "error" and d.text == '"result"'
    assert d.message == "An MCP 2026-07-28 tools/list result must have 'ttlMs', 'cacheScope', 'resultType'"
    unstated = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": [mcp_tool()]}}, indent=2)
    assert "TS255" not in codes(check(unstated))
