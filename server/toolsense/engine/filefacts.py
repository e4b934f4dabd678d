"""What a file says about all of its units at once: the MCP protocol version it states, whether it is sent to
a provider or client as it is (a request body, a JSON-RPC response, a `tools/list` result), and the members of
an MCP list result beside its `tools`.

Read from the root object's own members only (never a walk of the tree), once per check. Rules see the facts
through `CheckContext.facts`; they are part of the context's fingerprint, so editing `protocolVersion` at the
top of a file re-checks the tools below it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tree_sitter import Node

from ..document.jsontree import Pointer, pair_key, pairs, string_value, to_value
from ..document.outline import LightNode
from ..models.definitions import LATEST_MCP_VERSION, MCP_VERSIONS
from ..settings import Settings

_DATE = re.compile(r"(?<!\d)(\d{4}-\d{2}-\d{2})(?!\d)")
_META_VERSION = "io.modelcontextprotocol/protocolVersion"
LIST_RESULT_KEYS = ("resultType", "ttlMs", "cacheScope", "nextCursor", "_meta")
_LIST_ONLY = frozenset({"resultType", "ttlMs", "cacheScope", "nextCursor"})
"""Members only a `tools/list` result has: a file with one of them is that result, sent as it is."""


@dataclass(frozen=True)
class FileFacts:
    mcp_version: str | None = None
    """The MCP protocol version the file states (known or not); None when it states none."""
    mcp_version_pointer: Pointer = ()
    """Where it is stated (absolute pointer to the value)."""
    sent_as_is: bool = False
    """The file is a message sent as it is: a request body, a JSON-RPC response, a `tools/list` result."""
    list_result: Pointer | None = None
    """Absolute pointer of the object holding `tools` when it may be an MCP list result (`()` or `("result",)`)."""
    list_members: tuple[tuple[str, str], ...] = ()
    """That object's members other than `tools` (key, JSON text), in document order."""
    mcp_inferred: str | None = None
    """The MCP version the tools' own members imply when the file states none (`execution`: only 2025-11-25 has
    it); None when no member tells."""
    shared_keys: frozenset[tuple[str, ...]] = frozenset()
    """Members every sampled tool of the file's list has (three tools at least), as pointers into the tool: its
    own keys (`("category",)`) and the keys of an object it wraps (`("function", "module")`). A catalogue's own
    members, which its loader reads and strips (`category`, `tags`, `module`), not a mistake in one tool."""
    mcp_servers: str | None = None
    """The JSON text of a request's root `mcp_servers` (Anthropic's MCP connector), when it has one: the entries an
    `mcp_toolset` tool names, checked by the same security rules as a client's configuration."""


NO_FACTS = FileFacts()


_WANTED = (
    "protocolVersion",
    "result",
    "params",
    "_meta",
    "$schema",
    "jsonrpc",
    "tools",
    "model",
    "messages",
    "input",
    "mcp_servers",
)
_WANTED_RAW = {json.dumps(key).encode(): key for key in (*_WANTED, *LIST_RESULT_KEYS, _META_VERSION)}


class _Members:
    """The members of interest of each object asked about, found in one pass over its pairs comparing raw key
    bytes (a root of 100,000 members costs one scan, not one decode per member per key)."""

    def __init__(self) -> None:
        self._seen: dict[int, dict[str, Node]] = {}

    def get(self, obj: Node, key: str) -> Node | None:
        table = self._seen.get(obj.id)
        if table is None:
            table = {}
            for pair in pairs(obj):
                key_node = pair.child_by_field_name("key")
                name = _WANTED_RAW.get(key_node.text or b"") if key_node is not None else None
                value = pair.child_by_field_name("value")
                if name is not None and value is not None:
                    table[name] = value  # the last duplicate wins, as JSON parsers keep it
            self._seen[obj.id] = table
        return table.get(key)


def _stated_version(root: Node, cache: _Members) -> tuple[str, Pointer] | None:
    """`protocolVersion` (root, `result`, `params`), `_meta["io.modelcontextprotocol/protocolVersion"]`, or a
    date in an MCP `$schema` URL (`…/schema/2025-11-25/schema.json`)."""
    candidates: list[tuple[Node | None, Pointer]] = [(cache.get(root, "protocolVersion"), ("protocolVersion",))]
    for outer in ("result", "params"):
        inner = cache.get(root, outer)
        if inner is not None and inner.type == "object":
            candidates.append((cache.get(inner, "protocolVersion"), (outer, "protocolVersion")))
            meta = cache.get(inner, "_meta")
            if meta is not None and meta.type == "object":
                candidates.append((cache.get(meta, _META_VERSION), (outer, "_meta", _META_VERSION)))
    meta = cache.get(root, "_meta")
    if meta is not None and meta.type == "object":
        candidates.append((cache.get(meta, _META_VERSION), ("_meta", _META_VERSION)))
    for node, pointer in candidates:
        text = string_value(node) if node is not None else None
        if text is not None:
            return text.strip(), pointer
    schema = cache.get(root, "$schema")
    url = string_value(schema) if schema is not None else None
    if url and ("modelcontextprotocol" in url or "/mcp" in url.lower()):
        found = _DATE.search(url)
        if found is not None:
            return found.group(1), ("$schema",)
    return None


_VERSION_MEMBERS = ((b'"execution"', "2025-11-25"),)
"""Tool members only one known MCP version has, as raw key bytes, with that version."""


def _implied_version(tools: Node | None) -> str | None:
    """The MCP version the members of a list of tools imply (their keys compared as raw bytes: no decoding)."""
    if tools is None or tools.type != "array":
        return None
    if not isinstance(tools, LightNode):
        text = tools.text or b""
        if not any(member in text for member, _ in _VERSION_MEMBERS):
            return None  # one search of the bytes spares a walk of every tool's members
    for tool in tools.named_children:
        if tool.type != "object":
            continue
        if isinstance(tool, LightNode):
            # A large file's outline holds each value decoded already: no expansion of the tool's members.
            keys = tool.value.keys() if isinstance(tool.value, dict) else ()
            found = next((version for member, version in _VERSION_MEMBERS if member[1:-1].decode() in keys), None)
            if found is not None:
                return found
            continue
        for pair in pairs(tool):
            key = pair.child_by_field_name("key")
            raw = key.text if key is not None else None
            for member, version in _VERSION_MEMBERS:
                if raw == member:
                    return version
    return None


def file_facts(root: Node | None) -> FileFacts:
    """The facts of a file whose root value is `root` (None for JSON Lines and unparsable files)."""
    if root is not None and root.type == "array":
        return FileFacts(mcp_inferred=_implied_version(root), shared_keys=_shared_keys(root))
    if root is None or root.type != "object":
        return NO_FACTS
    cache = _Members()
    stated = _stated_version(root, cache)
    version, where = stated if stated is not None else (None, ())
    holder: Node | None = None
    holder_pointer: Pointer | None = None
    result = cache.get(root, "result")
    jsonrpc = cache.get(root, "jsonrpc") is not None
    if result is not None and result.type == "object" and cache.get(result, "tools") is not None:
        holder, holder_pointer = result, ("result",)
    elif cache.get(root, "tools") is not None:
        holder, holder_pointer = root, ()
    members: list[tuple[str, str]] = []
    if holder is not None:
        for key in LIST_RESULT_KEYS:
            node = cache.get(holder, key)
            if node is not None:
                try:
                    members.append((key, json.dumps(to_value(node), sort_keys=True)))
                except ValueError:
                    continue
    request = cache.get(root, "model") is not None and (
        cache.get(root, "messages") is not None or cache.get(root, "input") is not None
    )
    listed = holder_pointer == ("result",) and jsonrpc
    marked = holder is not None and any(key in _LIST_ONLY for key, _ in members)
    implied = _implied_version(cache.get(holder, "tools")) if holder is not None and version is None else None
    shared = _shared_keys(cache.get(holder, "tools")) if holder is not None else frozenset()
    servers = _json_text(cache.get(root, "mcp_servers"))
    return FileFacts(
        version, where, request or listed or marked, holder_pointer, tuple(members), implied, shared, servers
    )


def _json_text(node: Node | None) -> str | None:
    if node is None or node.type != "array":
        return None
    try:
        return json.dumps(to_value(node))
    except ValueError:
        return None


_SHARED_SAMPLE = 16
_SHARED_FROM = 3


def _shared_keys(tools: Node | None) -> frozenset[tuple[str, ...]]:
    """The members every one of the first `_SHARED_SAMPLE` objects of a list has, when there are three or more:
    each object's keys, and the keys of the objects it holds (one level: a wrapper's `function`)."""
    if tools is None or tools.type != "array":
        return frozenset()
    shared: set[tuple[str, ...]] | None = None
    seen = 0
    for tool in tools.named_children:
        if seen >= _SHARED_SAMPLE:
            break
        if tool.type != "object":
            continue
        seen += 1
        members = _members(tool)
        shared = members if shared is None else shared & members
        if not shared:
            return frozenset()
    return frozenset(shared) if shared is not None and seen >= _SHARED_FROM else frozenset()


def _members(tool: Node) -> set[tuple[str, ...]]:
    """A tool object's keys and its object members' keys, as pointers."""
    if isinstance(tool, LightNode):
        # A large file's outline holds each value decoded already: no expansion of the tool's members.
        value = tool.value if isinstance(tool.value, dict) else {}
        inner = ((key, child.keys()) for key, child in value.items() if isinstance(child, dict))
        return {(key,) for key in value} | {(key, k) for key, keys in inner for k in keys}
    found: set[tuple[str, ...]] = set()
    for pair in pairs(tool):
        key = pair_key(pair)
        if key is None:
            continue
        found.add((key,))
        child = pair.child_by_field_name("value")
        if child is not None and child.type == "object":
            found.update((key, k) for inner in pairs(child) if (k := pair_key(inner)) is not None)
    return found


def mcp_version(facts: FileFacts, default: str, explicit: bool = False) -> str:
    """The MCP protocol version a file's MCP tools are checked against: the one it states when toolsense
    knows it, the latest when it states an unknown one; else the setting (`mcp.protocol_version`) when the user
    gave it (`explicit`), else the version the tools' own members imply, else the setting's default."""
    if facts.mcp_version is None:
        if facts.mcp_inferred is not None and not explicit:
            return facts.mcp_inferred
        return default if default in MCP_VERSIONS else LATEST_MCP_VERSION
    return facts.mcp_version if facts.mcp_version in MCP_VERSIONS else LATEST_MCP_VERSION


def user_set_version(settings: Settings) -> bool:
    """Whether the user's settings give `mcp.protocol_version` (rather than leaving its default)."""
    return "protocol_version" in settings.mcp.model_fields_set


def checked_mcp_version(facts: FileFacts, settings: Settings) -> str:
    """`mcp_version` with the settings' version, explicit when the user gave it."""
    return mcp_version(facts, settings.mcp.protocol_version, user_set_version(settings))


def mcp_version_told(facts: FileFacts, explicit: bool = False) -> bool:
    """Whether the MCP version is known rather than assumed: stated by the file, given by the user's settings,
    or implied by the tools' members. An assumed version never says a member was added or removed."""
    return facts.mcp_version is not None or explicit or facts.mcp_inferred is not None
