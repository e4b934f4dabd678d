"""A tool definition against its dialect's pydantic model (or its MCP version's): unknown keys told apart
(a misspelt known key, a schema keyword beside the schema, the application's own key)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from ...domain.tool import value_at
from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.filefacts import checked_mcp_version, mcp_version_told, user_set_version
from ...engine.findings import Finding, Fix, MoveMember, RenameKey, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonValue, json_type_name
from ...models.definitions import (
    MCP_ADDED,
    MCP_REMOVED,
    MCP_TOOL_MODELS,
    MCP_VERSIONS,
    SCHEMA_KEY,
    TOOL_MODELS,
)
from ...models.dialects import as_dialect
from ...models.tool_features import hosted_model
from ..catalog import CATALOG
from ..structure import UNKNOWN, WRONG_TYPE, located, own_keys, own_text


@CATALOG.unit_check("tool")
def tool_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    dialect = unit.dialect or ""
    version = checked_mcp_version(ctx.facts, ctx.settings) if dialect == "mcp" else None
    model = MCP_TOOL_MODELS[version] if version is not None else TOOL_MODELS.get(dialect)
    if model is None and not dialect:
        model = hosted_model(unit.value)  # a namespace, custom, tool_search or hosted mcp tool
    if model is None:
        return
    if not isinstance(unit.value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected a tool definition object, received {json_type_name(unit.value)}")
        return
    subject = tool_subject(unit, version)
    for finding in model_findings(model, own_keys(unit), subject, own_text(unit)):
        if finding.code != UNKNOWN.code:
            yield located(finding, subject)
        elif finding.pointer == ("defer_loading",) and not dialect:
            continue  # on a namespace: TS247 says where it belongs
        elif (misplaced := _misplaced(finding, unit.value, dialect)) is not None:
            yield misplaced if version is None else dataclasses.replace(misplaced, severity=Severity.WARNING)
        elif not (dialect == "openai" and finding.pointer in _PLATFORM_KEYS and not ctx.facts.sent_as_is):
            if version is not None and not _judged_by_version(finding, ctx):
                continue
            yield located(_unknown_tool_key(finding, ctx, version), subject)


_SCHEMA_KEYWORDS = frozenset({"required", "properties", "additionalProperties", "$defs", "definitions"})
"""JSON Schema keywords that authors write beside the tool's schema instead of inside it."""


def _misplaced(finding: Finding, value: JsonValue, dialect: str) -> Finding | None:
    """A schema keyword beside the schema (`required` next to `parameters`): the provider ignores or rejects
    it, so the model is told nothing is required. Says where it belongs and offers to move it there."""
    key = finding.data.get("key", "")
    schema_key = SCHEMA_KEY.get(dialect)
    if key not in _SCHEMA_KEYWORDS or schema_key is None or finding.pointer[:-1] != schema_key[:-1]:
        return None
    schema = value_at(value, schema_key)
    if not isinstance(schema, dict) or key in schema:
        return None
    where = str(schema_key[-1])
    move = Fix(f"Move '{key}' into '{where}'", (MoveMember(finding.pointer, schema_key),), preferred=True)
    message = f"'{key}' belongs inside '{where}': beside it, it is not part of the schema the model sees"
    return Finding(UNKNOWN.code, message, finding.pointer, "key", fixes=(move,), data=finding.data)


_PLATFORM_KEYS = frozenset({("server",), ("async",), ("messages",)})
"""Vapi's documented members beside an OpenAI `function` tool (its webhook, async flag and spoken messages): the
platform reads them and sends OpenAI only the function, so they are not ours to judge."""


def _judged_by_version(finding: Finding, ctx: CheckContext) -> bool:
    """A member some MCP version has (`execution`, `icons`) is judged by version only when the version is known
    (stated, set by the user, or implied by the tools' members): under an assumed version it is left alone, never
    "removed in" a version the file may not speak."""
    key = finding.data.get("key", "")
    if key not in MCP_ADDED and key not in MCP_REMOVED:
        return True
    return mcp_version_told(ctx.facts, user_set_version(ctx.settings))


def _unknown_tool_key(finding: Finding, ctx: CheckContext, version: str | None) -> Finding:
    """An unknown key of a tool: the provider rejects it only when the file is sent as it is (a request body, a
    tools/list result), and a misspelt known key leaves the tool without it: errors. Otherwise it is the app's
    own key, a warning. MCP clients never reject one (the official schema allows any extra member), so for MCP
    it is a warning, told by version. A key every tool of a catalogue has (not a typo) is information, MCP or
    not, unless the file is sent as it is to a provider that rejects it."""
    key = finding.data.get("key", "")
    if version is not None:
        added, removed = MCP_ADDED.get(key), MCP_REMOVED.get(key)
        if added is not None and MCP_VERSIONS.index(version) < MCP_VERSIONS.index(added):
            message = f"'{key}' is not part of MCP {version} (added in {added}): clients of {version} ignore it"
        elif removed is not None and MCP_VERSIONS.index(version) >= MCP_VERSIONS.index(removed):
            message = f"'{key}' was removed in MCP {removed}: clients of {version} ignore it"
        elif _catalogue_key(finding, ctx):
            # Every tool has it and clients ignore it, sent as it is or not: the catalogue's grouping (advice).
            return _catalogue_information(finding)
        else:
            message = finding.message.replace(". Valid properties:", ": MCP clients ignore it. Valid properties:", 1)
        return dataclasses.replace(finding, message=message, severity=Severity.WARNING)
    if ctx.facts.sent_as_is or _typo(finding):
        return finding  # rejected as sent; or a misspelt known key, which leaves the tool without it
    if _catalogue_key(finding, ctx):
        # Every tool of the file has it: the catalogue's own member, read by its loader and stripped before a
        # provider sees the tool. Advice (a file sent as it is keeps the error above).
        return _catalogue_information(finding)
    return dataclasses.replace(finding, severity=Severity.WARNING)


def _typo(finding: Finding) -> bool:
    """A misspelt known key (its fix renames it): the tool is without the key it meant."""
    return any(isinstance(edit, RenameKey) for fix in finding.fixes for edit in fix.edits)


def _catalogue_key(finding: Finding, ctx: CheckContext) -> bool:
    """An unknown key every tool of the file has at the same place (`category`, `function.module`), not a typo."""
    pointer = tuple(str(part) for part in finding.pointer)
    return pointer == finding.pointer and pointer in ctx.facts.shared_keys and not _typo(finding)


def _catalogue_information(finding: Finding) -> Finding:
    own = ": every tool of this file has it, the catalogue's own key (advice). Valid properties:"
    message = finding.message.replace(". Valid properties:", own, 1)
    return dataclasses.replace(finding, message=message, severity=Severity.INFORMATION)


def tool_subject(unit: Unit, version: str | None = None) -> str:
    """The tool as messages name it: dialect (with the MCP version) and its `name`, never its display title."""
    value = unit.value if isinstance(unit.value, dict) else {}
    inner = value.get("function") or value.get("toolSpec")
    # An application's record may carry its own display `name` beside the wrapped tool: the tool's name wins.
    name = inner.get("name") if isinstance(inner, dict) and isinstance(inner.get("name"), str) else value.get("name")
    dialect = as_dialect(unit.dialect)
    kind = value.get("type")
    base = dialect.label if dialect is not None else f"'{kind}' tool" if isinstance(kind, str) else "tool"
    if dialect is None and not isinstance(name, str):
        name = value.get("server_label") or value.get("mcp_server_name")  # a hosted MCP tool, an mcp_toolset
    if version is not None:
        base = f"{base} ({version})"
    return f"{base} '{name}'" if isinstance(name, str) and name else base
