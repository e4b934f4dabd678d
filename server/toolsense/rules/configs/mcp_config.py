"""MCP client configuration files (every client of `models.mcp_clients`: VS Code, Cursor, Claude Code and
Desktop, Windsurf, Gemini CLI, Cline, Roo Code, Kiro, Amazon Q, opencode, Zed, dev containers, Codex): the shape
of each server entry, what it needs to start, the deprecated HTTP+SSE transport, `${input:…}` references; and the
summary of the last "Check this server's tools" run on an entry (TS924, read from the registry's live results).

Lenient where the clients are: keys outside the servers are never reported, unknown keys in an entry only for a
client that rejects them (VS Code, opencode, Codex) or when they look like a misspelt known key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...domain.live import entry_digest, summary_key
from ...domain.validation import model_findings
from ...engine.config_dialects import uri_path
from ...engine.context import CheckContext
from ...engine.findings import Finding, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonValue, short_repr
from ...mcp_live import codes as live_codes
from ...mcp_live.codes import SUMMARY
from ...mcp_live.config import CONFIG_MODELS, client_file, dialect_of, entry_view, server_entries
from ...models.mcp_clients import ClientFile, reader_types
from ..catalog import CATALOG

FAMILY = "MCP configuration files"

UNKNOWN_KEY = CATALOG.rule(
    "TS930",
    "mcp-config-unknown-key",
    Severity.WARNING,
    "A key the client does not know in a server entry (clients that reject them: VS Code, opencode, Codex; "
    "elsewhere only a likely misspelling).",
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
    'A value the client does not accept (an unknown `type`: VS Code knows "stdio", "http", "sse").',
    FAMILY,
)
# The deprecation and where it is stated: `models.mcp_clients.SSE_DEPRECATION`. Information by default (issue 30):
# clients still connect over SSE, so on the wild corpus every TS935 was advice (docs/accuracy.md).
DEPRECATED_TRANSPORT = CATALOG.rule(
    "TS935",
    "mcp-config-deprecated-transport",
    Severity.INFORMATION,
    "A server reached over the HTTP+SSE transport, deprecated since MCP 2025-03-26 (replaced by Streamable HTTP).",
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
    dialect = dialect_of(unit.dialect, value)
    if dialect not in CONFIG_MODELS:
        return  # the registry's server.json: `server_json`
    spec = client_file(dialect)
    model = CONFIG_MODELS[dialect]
    for finding in model_findings(model, value, model.__doc__ or "MCP configuration"):
        code = _CODES.get(finding.code, INVALID.code if finding.code in ("TS104", "TS106") else finding.code)
        if code == UNKNOWN_KEY.code and not spec.strict and "Did you mean" not in finding.message:
            continue
        yield Finding(code, finding.message, finding.pointer, finding.target, fixes=finding.fixes)
    inputs = _at(value, spec.inputs) if spec.inputs is not None else None
    ids = {i.get("id") for i in inputs if isinstance(i, dict)} if isinstance(inputs, list) else set()
    types, reader = reader_types(spec, uri_path(ctx.uri))
    for entry in server_entries(value, dialect):
        yield from _entry_rules(entry.name, entry.pointer, entry.value, spec, types, reader)
        if spec.inputs is not None:
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


def _at(value: Any, pointer: tuple[str, ...]) -> Any:
    for key in pointer:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _entry_rules(
    name: str,
    pointer: tuple[str, ...],
    entry: dict[str, Any],
    spec: ClientFile,
    types: tuple[str, ...] | None,
    reader: str,
) -> Iterator[Finding]:
    """`types` and `reader`: the transport types the file's reader knows, and who it is (`reader_types`)."""
    kind = entry.get("type")
    if types is not None and isinstance(kind, str) and kind not in types:
        known = ", ".join(f'"{t}"' for t in types)
        verb = "know" if reader.startswith("the ") else "knows"  # the programs that read a shared file, or one
        message = f"Unknown transport type {short_repr(kind)}: {reader} {verb} {known}"
        yield Finding(INVALID.code, message, (*pointer, "type"))
        return
    view = entry_view(entry, spec.dialect)
    if view.deprecated_sse is not None:
        yield Finding(
            DEPRECATED_TRANSPORT.code, _sse_message(name, view.deprecated_sse, spec), (*pointer, *view.deprecated_sse)
        )
    url_key = spec.url_keys[0]
    has_url = any(key in entry for key in spec.url_keys)
    if view.transport is None:
        if view.has_command or has_url or isinstance(kind, str) or any(key in entry for key in spec.complete_with):
            return  # present with the wrong type (reported as such), or a type of the client's own (a registry)
        message = f"Server '{name}' needs `command` (to start it over stdio) or `{url_key}` (http)"
        yield Finding(MISSING.code, message, pointer, "key")
    elif view.transport == "stdio" and not view.has_command:
        yield Finding(
            MISSING.code, f"Server '{name}' is of type {kind or 'stdio'} but has no `command`", pointer, "key"
        )
    elif view.transport in ("http", "sse") and not has_url:
        message = f"Server '{name}' is of type {kind or view.transport} but has no `{url_key}`"
        yield Finding(MISSING.code, message, pointer, "key")


def _sse_message(name: str, where: tuple[str | int, ...], spec: ClientFile) -> str:
    if where[-1] in spec.url_keys:
        instead = f"move the address to `{spec.url_keys[0]}` (Streamable HTTP)"
    else:
        http = next((t for t in spec.types or ("http",) if t not in ("stdio", "sse", "local", "registry")), "http")
        instead = f'use Streamable HTTP ("{where[-1]}": "{http}") if the server offers it'
    return (
        f"Server '{name}' is reached over the HTTP+SSE transport, deprecated since MCP 2025-03-26 and being dropped "
        f"by clients and servers; {instead}"
    )


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
