"""Which MCP configuration file a file is: one client's (`models.mcp_clients`: VS Code's `servers`, Cursor's
`.cursor/mcp.json`, Zed's `context_servers`, …) or the MCP registry's `server.json` (checked against the registry's
schema by `rules.configs.server_json`). Path and content decide together: the name (and folder) must be the
client's and one of its server maps must be an object."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from tree_sitter import Node

from ..document.jsontree import member, pairs
from ..models.mcp_clients import ANY, CLIENT_FILES, FILE_NAMES, path_matches

SERVER_JSON = "server.json"
MCP_ONLY_FILE_NAMES = frozenset({"mcp.json", ".mcp.json", "claude_desktop_config.json", "mcp_config.json"})
"""MCP client configuration file names no other format uses (unlike `settings.json`): a broken file by one of these
names is ours (`ownership`). Which files each client reads is `models.mcp_clients`."""


def mcp_config_dialect(value: Any) -> str:
    """From the value alone (a unit without a dialect): `vscode` (a `servers` map), `server-json` (the registry's
    server.json: no servers map, a `name`) or `claude` (an `mcpServers` map)."""
    if isinstance(value, dict) and isinstance(value.get("servers"), dict):
        return "vscode"
    if isinstance(value, dict) and not isinstance(value.get("mcpServers"), dict) and isinstance(value.get("name"), str):
        return "server-json"
    return "claude"


def uri_path(uri: str) -> str:
    """The path of a document's uri (an untitled document's name)."""
    return unquote(urlparse(uri).path) if uri.startswith("file:") else uri


def config_reader(uri: str, root: Node) -> str | None:
    """The dialect of the client whose configuration file this is, or None."""
    name = unquote(uri.rstrip("/").rsplit("/", 1)[-1])
    if name not in FILE_NAMES and name != SERVER_JSON:
        return None  # the common case, decided before the uri is parsed: no client's file name
    path = uri_path(uri).rstrip("/")
    if name == SERVER_JSON:
        named, version = _member_value(root, "name"), _member_value(root, "version")
        return "server-json" if named is not None and named.type == "string" and version is not None else None
    for spec in CLIENT_FILES:
        if not spec.toml and path_matches(spec, path) and any(_has_object(root, p) for p in spec.servers):
            return spec.dialect
    return None


def _member_value(obj: Node, key: str) -> Node | None:
    pair = member(obj, key)
    return pair.child_by_field_name("value") if pair is not None else None


def _has_object(node: Node | None, path: tuple[str, ...]) -> bool:
    if node is None or node.type != "object":
        return False
    if not path:
        return True
    if path[0] == ANY:
        return any(_has_object(pair.child_by_field_name("value"), path[1:]) for pair in pairs(node))
    return _has_object(_member_value(node, path[0]), path[1:])
