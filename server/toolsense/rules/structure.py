"""File and structure: the file-level codes the engine reports (syntax, shape, size), and each unit validated by
its pydantic model (tool, tool call, automation) through `domain.validation`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from ..domain import validation as codes
from ..domain.tool import value_at
from ..domain.validation import model_findings
from ..engine.context import CheckContext
from ..engine.filefacts import mcp_version
from ..engine.findings import Finding, Fix, MoveMember, RenameKey, Severity
from ..engine.units import Unit
from ..jsonvalue import JsonValue, json_type_name
from ..models.definitions import (
    CALL_MODELS,
    MCP_ADDED,
    MCP_REMOVED,
    MCP_TOOL_MODELS,
    MCP_VERSIONS,
    SCHEMA_KEY,
    TOOL_MODELS,
    TRIGGER_CONFIG_MODELS,
    Automation,
)
from ..models.dialects import as_dialect
from .catalog import CATALOG

FAMILY = "File and structure"

SYNTAX = CATALOG.rule("TS001", "syntax-error", Severity.ERROR, "The JSON does not parse here.", FAMILY)
CATALOG.rule("TS002", "not-utf8", Severity.ERROR, "The file is not valid UTF-8.", FAMILY)
CATALOG.rule(
    "TS003",
    "file-too-large",
    Severity.WARNING,
    "The file is larger than `limits.max_file_mb` for live checks.",
    FAMILY,
)
CATALOG.rule("TS004", "unexpected-shape", Severity.ERROR, "The file is not an object or array of units.", FAMILY)
CATALOG.rule("TS005", "empty-file", Severity.WARNING, "The file is empty.", FAMILY)
CATALOG.rule("TS006", "too-deep", Severity.ERROR, "Nesting is too deep to check.", FAMILY)
CATALOG.rule(
    "TS007",
    "not-checked",
    Severity.INFORMATION,
    "A folder glob (`**/tools/*.json`) points at the file, but its content has the shape of no known dialect: "
    "it is not checked (add it to `[tool.toolsense.files]` to force it).",
    FAMILY,
)
CATALOG.rule(
    "TS008",
    "unexpected-container",
    Severity.ERROR,
    "A request body or forced tool file whose `tools` (or `functions`) is not an array.",
    FAMILY,
)
CATALOG.rule(
    "TS900",
    "internal-error",
    Severity.ERROR,
    "A check failed inside toolsense (a bug: please report).",
    FAMILY,
)

UNKNOWN = CATALOG.rule(
    codes.UNKNOWN,
    "unknown-property",
    Severity.ERROR,
    "A property the strict model does not define (`additionalProperties: false`). In a tool definition it is an "
    "error when the file is sent as it is (a request body, a tools/list result), the key is a misspelt known one, "
    "or a schema keyword sits beside the schema (`required` next to `parameters`); otherwise the app's own key, a "
    "warning. MCP clients ignore unknown members: always a warning there.",
    FAMILY,
    "rename to the closest known property; move a schema keyword into the schema; remove the property",
)
MISSING = CATALOG.rule(
    codes.MISSING,
    "missing-property",
    Severity.ERROR,
    "A required property is missing (marked on the parent).",
    FAMILY,
    "insert the missing properties with placeholders",
)
WRONG_TYPE = CATALOG.rule(codes.WRONG_TYPE, "wrong-type", Severity.ERROR, "A value of the wrong JSON type.", FAMILY)
BAD_ENUM = CATALOG.rule(
    codes.BAD_ENUM,
    "invalid-enum-value",
    Severity.ERROR,
    "A value that is not one of the allowed values.",
    FAMILY,
    "replace with the closest allowed value; an enum member's name → its value (safe)",
)
COERCIBLE = CATALOG.rule(
    codes.COERCIBLE,
    "coercible-value",
    Severity.WARNING,
    'A string that would be coerced to the expected type (`"80"`, `"true"`): an LLM mistake.',
    FAMILY,
    "write the value with its real type (safe)",
)
CONSTRAINT = CATALOG.rule(
    codes.CONSTRAINT,
    "constraint-violation",
    Severity.ERROR,
    "A value breaks a constraint (length, range, pattern…).",
    FAMILY,
)


@CATALOG.unit_check("tool")
def tool_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    dialect = unit.dialect or ""
    version = mcp_version(ctx.facts, ctx.settings.mcp.protocol_version) if dialect == "mcp" else None
    model = MCP_TOOL_MODELS[version] if version is not None else TOOL_MODELS.get(dialect)
    if model is None:
        return
    if not isinstance(unit.value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected a tool definition object, received {json_type_name(unit.value)}")
        return
    subject = tool_subject(unit, version)
    for finding in model_findings(model, _own_keys(unit), subject):
        if finding.code != UNKNOWN.code:
            yield finding
        elif (misplaced := _misplaced(finding, unit.value, dialect)) is not None:
            yield misplaced if version is None else dataclasses.replace(misplaced, severity=Severity.WARNING)
        elif not (dialect == "openai" and finding.pointer in _PLATFORM_KEYS and not ctx.facts.sent_as_is):
            yield _unknown_tool_key(finding, ctx, version)


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


def _unknown_tool_key(finding: Finding, ctx: CheckContext, version: str | None) -> Finding:
    """An unknown key of a tool: the provider rejects it only when the file is sent as it is (a request body, a
    tools/list result), and a misspelt known key leaves the tool without it: errors. Otherwise it is the app's
    own key, a warning. MCP clients never reject one (the official schema allows any extra member), so for MCP
    it is always a warning, told by version."""
    key = finding.data.get("key", "")
    if version is not None:
        added, removed = MCP_ADDED.get(key), MCP_REMOVED.get(key)
        if added is not None and MCP_VERSIONS.index(version) < MCP_VERSIONS.index(added):
            message = f"'{key}' is not part of MCP {version} (added in {added}): clients of {version} ignore it"
        elif removed is not None and MCP_VERSIONS.index(version) >= MCP_VERSIONS.index(removed):
            message = f"'{key}' was removed in MCP {removed}: clients of {version} ignore it"
        else:
            message = finding.message.replace(". Valid properties:", ": MCP clients ignore it. Valid properties:", 1)
        return dataclasses.replace(finding, message=message, severity=Severity.WARNING)
    typo = any(isinstance(edit, RenameKey) for fix in finding.fixes for edit in fix.edits)
    if ctx.facts.sent_as_is or typo:
        return finding  # rejected as sent; or a misspelt known key, which leaves the tool without it
    return dataclasses.replace(finding, severity=Severity.WARNING)


_FILE_KEYS = frozenset({"$schema", "protocolVersion"})


def _own_keys(unit: Unit) -> dict[str, Any]:
    """The unit's members without a file-level `$schema` or `protocolVersion` (they say what the file is, not a
    property of the unit)."""
    value: dict[str, Any] = unit.value
    if unit.pointer == () and not _FILE_KEYS.isdisjoint(value):
        return {key: member for key, member in value.items() if key not in _FILE_KEYS}
    return value


def tool_subject(unit: Unit, version: str | None = None) -> str:
    """The tool as messages name it: dialect (with the MCP version) and its `name`, never its display title."""
    value = unit.value if isinstance(unit.value, dict) else {}
    inner = value.get("function") or value.get("toolSpec")
    # An application's record may carry its own display `name` beside the wrapped tool: the tool's name wins.
    name = inner.get("name") if isinstance(inner, dict) and isinstance(inner.get("name"), str) else value.get("name")
    dialect = as_dialect(unit.dialect)
    base = dialect.label if dialect is not None else "tool"
    if version is not None:
        base = f"{base} ({version})"
    return f"{base} '{name}'" if isinstance(name, str) and name else base


@CATALOG.unit_check("tool_call")
def call_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    model = CALL_MODELS.get(unit.dialect or "")
    if model is None:
        return
    if not isinstance(unit.value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected a tool call object, received {json_type_name(unit.value)}")
        return
    yield from model_findings(model, _own_keys(unit), "tool call")


@CATALOG.unit_check("automation")
def automation_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected an automation object, received {json_type_name(value)}")
        return
    name = value.get("name")
    subject = f"automation '{name}'" if isinstance(name, str) else "automation"
    trigger = value.get("trigger_type")
    for finding in model_findings(Automation, _own_keys(unit), subject):
        if (finding.code, finding.pointer) not in _AUTOMATION_SPECIFIC:
            yield finding
    config = value.get("trigger_config", {})
    config_model = TRIGGER_CONFIG_MODELS.get(trigger) if isinstance(trigger, str) else None
    if config_model is not None and isinstance(config, dict):
        for finding in model_findings(config_model, config, f"{trigger} trigger_config"):
            placed = finding.under(("trigger_config",))
            if (placed.code, placed.pointer) in _AUTOMATION_SPECIFIC and (
                placed.code != BAD_ENUM.code or trigger == "schedule_recurring"
            ):
                continue
            yield placed


# Reported instead by the automation family with specific codes, wording and fixes (TS401, TS603–TS606).
_AUTOMATION_SPECIFIC = frozenset(
    {
        ("TS106", ("actions",)),
        ("TS106", ("trigger_config", "polling_interval_minutes")),
        ("TS106", ("trigger_config", "time_of_day")),
        ("TS106", ("trigger_config", "run_at")),
        ("TS104", ("trigger_config", "interval")),
    }
)
