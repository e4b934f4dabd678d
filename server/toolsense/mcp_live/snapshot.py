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
from urllib.parse import urlsplit

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
    """`<server>.tools.json` from serverInfo.name (when the server gives none: the command's name, or the URL's
    host and path, never its user, password, port or query), made safe for every file system."""
    name = listing.server_name or ""
    if not name.strip():
        target = listing.target
        name = Path(target.command).name if isinstance(target, StdioTarget) else _host_and_path(target.url)
    return sanitise(name) + SUFFIX


def _host_and_path(url: str) -> str:
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:  # not a URL one can split: nothing of it is used
        return ""
    return f"{host}{parts.path}"


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


class NotASnapshot(ValueError):
    """A file where a snapshot goes that is not one; the message says why."""


def read_snapshot_tools(path: Path) -> list[Any]:
    """The tools of a committed snapshot; NotASnapshot when it is not one (unreadable, not JSON, nested deeper
    than the parser goes, no `tools` array)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise NotASnapshot("it is not UTF-8 text") from error
    except OSError as error:
        raise NotASnapshot(f"it cannot be read ({error.strerror})") from error
    try:
        data = json.loads(text)
    except RecursionError as error:
        raise NotASnapshot("it is nested too deeply to read") from error
    except ValueError as error:
        raise NotASnapshot("it is not JSON") from error
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data = data["result"]
    tools = data.get("tools") if isinstance(data, dict) else None
    if not isinstance(tools, list):
        raise NotASnapshot("it has no `tools` array")
    return tools
