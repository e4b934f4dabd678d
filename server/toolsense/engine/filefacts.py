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

from ..document.jsontree import Pointer, member, string_value, to_value
from ..models.definitions import LATEST_MCP_VERSION, MCP_VERSIONS

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


NO_FACTS = FileFacts()


def _value(obj: Node, key: str) -> Node | None:
    pair = member(obj, key)
    return pair.child_by_field_name("value") if pair is not None else None


def _stated_version(root: Node) -> tuple[str, Pointer] | None:
    """`protocolVersion` (root, `result`, `params`), `_meta["io.modelcontextprotocol/protocolVersion"]`, or a
    date in an MCP `$schema` URL (`…/schema/2025-11-25/schema.json`)."""
    candidates: list[tuple[Node | None, Pointer]] = [(_value(root, "protocolVersion"), ("protocolVersion",))]
    for outer in ("result", "params"):
        inner = _value(root, outer)
        if inner is not None and inner.type == "object":
            candidates.append((_value(inner, "protocolVersion"), (outer, "protocolVersion")))
            meta = _value(inner, "_meta")
            if meta is not None and meta.type == "object":
                candidates.append((_value(meta, _META_VERSION), (outer, "_meta", _META_VERSION)))
    meta = _value(root, "_meta")
    if meta is not None and meta.type == "object":
        candidates.append((_value(meta, _META_VERSION), ("_meta", _META_VERSION)))
    for node, pointer in candidates:
        text = string_value(node) if node is not None else None
        if text is not None:
            return text.strip(), pointer
    schema = _value(root, "$schema")
    url = string_value(schema) if schema is not None else None
    if url and ("modelcontextprotocol" in url or "/mcp" in url.lower()):
        found = _DATE.search(url)
        if found is not None:
            return found.group(1), ("$schema",)
    return None


def file_facts(root: Node | None) -> FileFacts:
    """The facts of a file whose root value is `root` (None for JSON Lines and unparsable files)."""
    if root is None or root.type != "object":
        return NO_FACTS
    stated = _stated_version(root)
    version, where = stated if stated is not None else (None, ())
    holder: Node | None = None
    holder_pointer: Pointer | None = None
    result = _value(root, "result")
    jsonrpc = _value(root, "jsonrpc") is not None
    if result is not None and result.type == "object" and _value(result, "tools") is not None:
        holder, holder_pointer = result, ("result",)
    elif _value(root, "tools") is not None:
        holder, holder_pointer = root, ()
    members: list[tuple[str, str]] = []
    if holder is not None:
        for key in LIST_RESULT_KEYS:
            node = _value(holder, key)
            if node is not None:
                try:
                    members.append((key, json.dumps(to_value(node), sort_keys=True)))
                except ValueError:
                    continue
    request = _value(root, "model") is not None and (
        _value(root, "messages") is not None or _value(root, "input") is not None
    )
    listed = holder_pointer == ("result",) and jsonrpc
    marked = holder is not None and any(key in _LIST_ONLY for key, _ in members)
    return FileFacts(version, where, request or listed or marked, holder_pointer, tuple(members))


def mcp_version(facts: FileFacts, default: str) -> str:
    """The MCP protocol version a file's MCP tools are checked against: the one it states when toolsense
    knows it, the latest when it states an unknown one, else the setting (`mcp.protocol_version`)."""
    if facts.mcp_version is None:
        return default if default in MCP_VERSIONS else LATEST_MCP_VERSION
    return facts.mcp_version if facts.mcp_version in MCP_VERSIONS else LATEST_MCP_VERSION
