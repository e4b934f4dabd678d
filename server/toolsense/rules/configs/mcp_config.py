"""MCP client configuration files (`.vscode/mcp.json`, `mcp.json`, `.mcp.json`, `claude_desktop_config.json`):
the shape of each server entry, what it needs to start, `${input:…}` references; and the summary of the last
"Check this server's tools" run on an entry (TS924, read from the registry's live results).

Lenient where the clients are: extra top-level keys are never reported, unknown keys in an entry only in VS
Code's file (which VS Code validates) or when they look like a misspelt known key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...domain.live import entry_digest, summary_key
from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit, mcp_config_dialect
from ...jsonvalue import JsonObject, JsonValue, short_repr
from ...mcp_live import codes as live_codes
from ...mcp_live.codes import SUMMARY
from ...mcp_live.config import CONFIG_MODELS, KNOWN_TYPES, entry_transport, server_entries
from ..catalog import CATALOG

FAMILY = "MCP configuration files"

UNKNOWN_KEY = CATALOG.rule(
    "TS930",
    "mcp-config-unknown-key",
    Severity.WARNING,
    "A key the client does not know in a server entry (VS Code's file; elsewhere only a likely misspelling).",
    FAMILY,
    "rename to the closest known key; remove it",
)
WRONG_TYPE = CATALOG.rule(
    "TS931",
    "mcp-config-wrong-type",
    Severity.ERROR,
    "A value of the wrong JSON type (`args` must be an array of strings, `env` an object, …).",
    FAMILY,
)
MISSING = CATALOG.rule(
    "TS932",
    "mcp-config-missing-key",
    Severity.ERROR,
    "A server entry lacks what it needs: `command` for stdio, `url` for http/sse.",
    FAMILY,
)
INVALID = CATALOG.rule(
    "TS933",
    "mcp-config-invalid-value",
    Severity.WARNING,
    'A value the clients do not accept (an unknown `type`: they know "stdio", "http", "sse").',
    FAMILY,
)
UNDEFINED_INPUT = CATALOG.rule(
    "TS934",
    "mcp-config-undefined-input",
    Severity.ERROR,
    "`${input:id}` names no entry of `inputs` (VS Code).",
    FAMILY,
)

_CODES = {"TS101": UNKNOWN_KEY.code, "TS102": MISSING.code, "TS103": WRONG_TYPE.code, "TS105": WRONG_TYPE.code}
_INPUT = re.compile(r"\$\{input:([^}]*)\}")

LIVE_RULES = tuple(CATALOG.add(rule) for rule in live_codes.RULES)
"""The live MCP server checks report on these configuration files' servers: catalogued with this family."""


@CATALOG.unit_check("mcp_config")
def mcp_config_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict):
        return
    dialect = unit.dialect if unit.dialect in CONFIG_MODELS else mcp_config_dialect(value)
    if dialect not in CONFIG_MODELS:
        return  # the registry's server.json: `server_json`
    model = CONFIG_MODELS[dialect]
    for finding in model_findings(model, value, model.__doc__ or "MCP configuration"):
        code = _CODES.get(finding.code, INVALID.code if finding.code in ("TS104", "TS106") else finding.code)
        if code == UNKNOWN_KEY.code and dialect != "vscode" and "Did you mean" not in finding.message:
            continue
        yield Finding(code, finding.message, finding.pointer, finding.target, fixes=finding.fixes)
    inputs = value.get("inputs") if dialect == "vscode" else None
    ids = {i.get("id") for i in inputs if isinstance(i, dict)} if isinstance(inputs, list) else set()
    for entry in server_entries(value, dialect):
        yield from _entry_rules(entry.name, entry.pointer, entry.value)
        if dialect == "vscode":
            yield from _inputs(entry.value, entry.pointer, ids)
        summary = ctx.registry.live.get(summary_key(ctx.uri, entry.name))
        if isinstance(summary, dict) and summary.get("digest") == entry_digest(entry.value):
            severity = summary.get("severity")
            yield Finding(
                str(summary.get("code", SUMMARY.code)),
                str(summary.get("message", "")),
                entry.pointer,
                "key",
                Severity(severity) if isinstance(severity, int) else None,
            )


def _entry_rules(name: str, pointer: tuple[str, str], entry: JsonObject) -> Iterator[Finding]:
    kind = entry.get("type")
    if isinstance(kind, str) and kind not in KNOWN_TYPES:
        known = ", ".join(f'"{t}"' for t in KNOWN_TYPES)
        message = f"Unknown transport type {short_repr(kind)}: clients know {known}"
        yield Finding(INVALID.code, message, (*pointer, "type"))
        return
    transport = entry_transport(entry)
    if transport is None and ("command" in entry or "url" in entry):
        return  # present with the wrong type: reported as such
    if transport is None:
        yield Finding(
            MISSING.code, f"Server '{name}' needs `command` (to start it over stdio) or `url` (http)", pointer, "key"
        )
    elif transport == "stdio" and not isinstance(entry.get("command"), str):
        yield Finding(MISSING.code, f"Server '{name}' is of type stdio but has no `command`", pointer, "key")
    elif transport in ("http", "sse") and not isinstance(entry.get("url"), str):
        yield Finding(MISSING.code, f"Server '{name}' is of type {transport} but has no `url`", pointer, "key")


def _inputs(value: JsonValue, pointer: tuple[str | int, ...], ids: set[Any]) -> Iterator[Finding]:
    if isinstance(value, str):
        for match in _INPUT.finditer(value):
            if match.group(1) not in ids:
                known = ", ".join(sorted(str(i) for i in ids if isinstance(i, str))) or "none"
                yield Finding(
                    UNDEFINED_INPUT.code,
                    f"No input with id '{match.group(1)}' in `inputs` (defined: {known})",
                    pointer,
                    span=(match.start(), match.end()),
                )
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _inputs(child, (*pointer, key), ids)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _inputs(child, (*pointer, index), ids)
