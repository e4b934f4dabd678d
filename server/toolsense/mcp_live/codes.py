"""The rules of live MCP server checks and snapshot drift (TS920–TS929); `rules.configs` adds them to the catalog."""

from __future__ import annotations

from ..engine.catalog import Rule
from ..engine.findings import Severity

FAMILY = "MCP servers: live listing and snapshots"

SERVER_FAILED = Rule(
    "TS920",
    "mcp-server-failed",
    Severity.ERROR,
    "A live MCP server could not be started, connected to or listed (not found, crashed, closed the connection, "
    "answered `tools/list` with an error).",
    FAMILY,
)
SERVER_TIMEOUT = Rule(
    "TS921",
    "mcp-server-timeout",
    Severity.ERROR,
    "A live MCP server did not answer within the time limit (it hangs, or waits for input); it was stopped.",
    FAMILY,
)
STDOUT_NOISE = Rule(
    "TS922",
    "mcp-server-stdout-noise",
    Severity.WARNING,
    "A stdio MCP server wrote lines to stdout that are not JSON-RPC (stdout belongs to the protocol).",
    FAMILY,
)
LISTING_LIMITED = Rule(
    "TS923",
    "mcp-server-listing-limited",
    Severity.WARNING,
    "A live listing was stopped (too many tools or pages, a repeated cursor), or lists more tools than a model "
    "can use well.",
    FAMILY,
)
SUMMARY = Rule(
    "TS924",
    "mcp-server-summary",
    Severity.INFORMATION,
    "The result of checking a server's tools from its configuration entry: tools, errors, warnings.",
    FAMILY,
)
TOOL_ADDED = Rule(
    "TS925",
    "snapshot-tool-added",
    Severity.ERROR,
    "The server lists a tool the committed snapshot lacks.",
    FAMILY,
)
TOOL_REMOVED = Rule(
    "TS926",
    "snapshot-tool-removed",
    Severity.ERROR,
    "A tool of the committed snapshot is no longer listed by the server.",
    FAMILY,
)
TOOL_CHANGED = Rule(
    "TS927",
    "snapshot-tool-changed",
    Severity.ERROR,
    "A tool's definition (schema, description, annotations…) differs from the committed snapshot.",
    FAMILY,
)

MANY_TOOLS = 128
"""More tools than this in one server is worth a warning (OpenAI accepts 128 per request)."""

RULES = (SERVER_FAILED, SERVER_TIMEOUT, STDOUT_NOISE, LISTING_LIMITED, SUMMARY, TOOL_ADDED, TOOL_REMOVED, TOOL_CHANGED)
