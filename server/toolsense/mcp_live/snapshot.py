"""A listing as a formatted `tools/list` result: the same bytes for the same tools, whatever order the server
sent them or their keys in, so a committed snapshot only changes when the tools do.

Tools are sorted by name (ties keep the server's order); a tool's members and a schema's keywords follow a
conventional order (name, title, description, inputSchema, …; type, description, properties, required, …),
others alphabetically. The members of `properties` (and other maps of names) keep the server's order: it is
the parameters' order, which clients show.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .client import Listing, StdioTarget

SUFFIX = ".tools.json"

_TOOL_ORDER = ("name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons")
_SCHEMA_ORDER = (
    "$schema",
    "$id",
    "$ref",
    "type",
    "title",
    "description",
    "enum",
    "const",
    "format",
    "pattern",
    "properties",
    "required",
    "items",
    "additionalProperties",
)
_NAME_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})


def server_file_name(listing: Listing) -> str:
    """`<server>.tools.json` from serverInfo.name (the command's name when the server gives none), made safe
    for every file system."""
    name = listing.server_name or ""
    if not name.strip():
        target = listing.target
        name = Path(target.command).name if isinstance(target, StdioTarget) else re.sub(r"^\w+://", "", target.url)
    return sanitise(name) + SUFFIX


def sanitise(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name.strip()).strip("-.")
    return cleaned[:100] or "server"


def _ordered(value: Any, order: tuple[str, ...], keep: bool) -> Any:
    if isinstance(value, dict):
        if keep:
            return {k: _ordered(v, _SCHEMA_ORDER, False) for k, v in value.items()}
        keys = sorted(value, key=lambda k: (order.index(k) if k in order else len(order), k))
        return {k: _ordered(value[k], _SCHEMA_ORDER, k in _NAME_MAPS) for k in keys}
    if isinstance(value, list):
        return [_ordered(item, _SCHEMA_ORDER, False) for item in value]
    return value


def canonical_tools(tools: list[Any]) -> list[Any]:
    def key(entry: tuple[int, Any]) -> tuple[int, str, int]:
        index, tool = entry
        name = tool.get("name") if isinstance(tool, dict) else None
        return (0, name, index) if isinstance(name, str) else (1, "", index)

    ordered = [tool for _, tool in sorted(enumerate(tools), key=key)]
    return [_ordered(tool, _TOOL_ORDER, False) for tool in ordered]


def snapshot_text(listing: Listing) -> str:
    info: dict[str, Any] = {}
    if listing.server_name is not None:
        info["name"] = listing.server_name
    if listing.server_version:
        info["version"] = listing.server_version
    document: dict[str, Any] = {}
    if info:
        document["serverInfo"] = info
    document["tools"] = canonical_tools(listing.tools)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_snapshot_tools(path: Path) -> list[Any] | None:
    """The tools of a committed snapshot (None when it is not one: unreadable, not JSON, no `tools` array)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data = data["result"]
    tools = data.get("tools") if isinstance(data, dict) else None
    return tools if isinstance(tools, list) else None
