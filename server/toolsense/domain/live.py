"""What the editor learnt by running an MCP server when asked, and how a check finds it again: the summary is
kept in `ToolRegistry.live` under the entry's key, with the digest of the entry it was made for (an edited entry
no longer matches it)."""

from __future__ import annotations

import json

from ..jsonvalue import JsonValue


def summary_key(uri: str, name: str) -> str:
    """Where the editor keeps the last live check of a server entry (`ToolRegistry.live`)."""
    return f"mcp-summary:{uri}#{name}"


def entry_digest(entry: JsonValue) -> str:
    """The server entry as it was when checked: equal for equal entries, whatever their key order."""
    return json.dumps(entry, sort_keys=True)


def drift_key(snapshot_uri: str) -> str:
    """Where the editor keeps the drift it found between a server and its committed snapshot (findings on the
    snapshot), until the tools are accepted or the snapshot changes."""
    return f"mcp-drift:{snapshot_uri}"


def pending_key(uri: str, name: str) -> str:
    """Marks a server entry whose new tools wait for "Accept these tools" (the code lens offers it): the entry's
    digest and the label of what accepting takes in (`{"digest": …, "label": "breaking: 1 removed"}`)."""
    return f"mcp-pending:{uri}#{name}"


def tools_digest(tools: list[JsonValue]) -> str:
    """The committed tools as they were compared: drift found for them no longer holds once they change."""
    return json.dumps(tools, sort_keys=True)
