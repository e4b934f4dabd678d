"""Which MCP configuration file a value is: a client's (VS Code's `servers`, the others' `mcpServers`) or the MCP
registry's `server.json` (checked against the registry's schema by `rules.configs.server_json`)."""

from __future__ import annotations

from typing import Any

SERVER_JSON = "server.json"
MCP_CONFIG_FILES = frozenset({"mcp.json", ".mcp.json", "claude_desktop_config.json"})
"""MCP client configuration files (VS Code `.vscode/mcp.json`, Cursor `mcp.json`, Claude Code `.mcp.json`, Claude
Desktop): ours when the name matches and the content has a `servers` / `mcpServers` object."""


def mcp_config_dialect(value: Any) -> str:
    """`vscode` (a `servers` map, with `inputs`), `claude` (an `mcpServers` map: Claude Code, Claude Desktop,
    Cursor) or `server-json` (the registry's server.json: no servers map, a `name`)."""
    if isinstance(value, dict) and isinstance(value.get("servers"), dict):
        return "vscode"
    if isinstance(value, dict) and not isinstance(value.get("mcpServers"), dict) and isinstance(value.get("name"), str):
        return "server-json"
    return "claude"
