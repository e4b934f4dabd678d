"""TS933 by the file's reader (issue 30, the warning precision of the wild corpus): a bare `mcp.json` outside every
client's folder is no one client's file (Claude Code reads it only by path, the MCP Inspector and Agent Plugins
read theirs), so its `type` is checked against the transports any of them knows; Claude's own `.mcp.json` and
`claude_desktop_config.json` keep Claude's three."""

from __future__ import annotations

import json

import pytest
from tests.support.checking import check

READERS = "the programs that read such a file (Claude Code by --mcp-config, the MCP Inspector, Agent Plugins)"


def _config(kind: str, schema: str | None = None) -> str:
    value: dict[str, object] = {"mcpServers": {"remote": {"type": kind, "url": "https://e.com/mcp"}}}
    if schema is not None:
        value = {"$schema": schema, **value}
    return json.dumps(value, indent=2) + "\n"


def _ts933(text: str, path: str) -> list[tuple[str, str]]:
    return [(d.severity, d.message) for d in check(text, None, uri="file:///w/" + path) if d.code == "TS933"]


@pytest.mark.parametrize("path", ["mcp.json", "configs/mcp.json", "plugins/viewer/mcp.json"])
def test_streamable_http_in_a_bare_mcp_json_is_no_finding(path: str) -> None:
    assert _ts933(_config("streamable-http"), path) == []


def test_an_agent_plugin_mcp_json_with_its_schema_takes_streamable_http() -> None:
    text = _config("streamable-http", "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json")
    assert _ts933(text, "mcp.json") == []


def test_a_type_no_reader_knows_is_still_reported_in_a_bare_mcp_json() -> None:
    assert _ts933(_config("websocket"), "configs/mcp.json") == [
        ("warning", f'Unknown transport type "websocket": {READERS} know "stdio", "http", "sse", "streamable-http"')
    ]


@pytest.mark.parametrize("path", [".mcp.json", "repo/.mcp.json", "claude_desktop_config.json"])
def test_claude_s_own_files_keep_claude_s_transports(path: str) -> None:
    assert _ts933(_config("streamable-http"), path) == [
        (
            "warning",
            'Unknown transport type "streamable-http": Claude Code / Claude Desktop knows "stdio", "http", "sse"',
        )
    ]


def test_a_client_folder_s_mcp_json_keeps_that_client_s_transports() -> None:
    assert _ts933(_config("streamable-http"), ".amazonq/mcp.json") == [
        ("warning", 'Unknown transport type "streamable-http": Amazon Q Developer knows "stdio", "http", "registry"')
    ]
    assert _ts933(_config("streamable-http"), ".roo/mcp.json") == []
