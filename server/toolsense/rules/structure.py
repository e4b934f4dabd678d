"""Strict structure: each unit validated by its pydantic model, every error at once, each on its exact place.

`model_findings` is shared by every family that validates against a pydantic model or a JSON Schema: one
mapping from pydantic's `loc` to pointers, one wording (seed 002: path, message, received type and value).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from ..engine.catalog import CATALOG
from ..engine.context import CheckContext
from ..engine.filefacts import mcp_version
from ..engine.findings import (
    Finding,
    Fix,
    InsertMembers,
    MoveMember,
    RemoveMember,
    RenameKey,
    ReplaceValue,
    Severity,
)
from ..engine.schemas import closest, enum_values, json_types, properties_of, subschemas_at
from ..engine.units import Unit
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
from ..models.errors import ValidationIssue, coercion_for, validation_issues

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
    "TS101",
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
    "TS102",
    "missing-property",
    Severity.ERROR,
    "A required property is missing (marked on the parent).",
    FAMILY,
    "insert the missing properties with placeholders",
)
WRONG_TYPE = CATALOG.rule("TS103", "wrong-type", Severity.ERROR, "A value of the wrong JSON type.", FAMILY)
BAD_ENUM = CATALOG.rule(
    "TS104",
    "invalid-enum-value",
    Severity.ERROR,
    "A value that is not one of the allowed values.",
    FAMILY,
    "replace with the closest allowed value; an enum member's name → its value (safe)",
)
COERCIBLE = CATALOG.rule(
    "TS105",
    "coercible-value",
    Severity.WARNING,
    'A string that would be coerced to the expected type (`"80"`, `"true"`): an LLM mistake.',
    FAMILY,
    "write the value with its real type (safe)",
)
CONSTRAINT = CATALOG.rule(
    "TS106",
    "constraint-violation",
    Severity.ERROR,
    "A value breaks a constraint (length, range, pattern…).",
    FAMILY,
)

_TYPE_ERRORS = {
    "string_type": "string",
    "int_type": "integer",
    "int_parsing": "integer",
    "float_type": "number",
    "float_parsing": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "list_type": "array",
    "none_required": "null",
    "int_from_float": "integer",
}
_ENUM_ERRORS = frozenset({"enum", "literal_error"})


def json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def short_repr(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if _jsonable(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _real_pointer(value: Any, loc: tuple[int | str, ...]) -> tuple[tuple[str | int, ...], list[str]]:
    """pydantic's loc walked against the value: parts that are not keys/indices are union tags."""
    pointer: list[str | int] = []
    tags: list[str] = []
    node = value
    for index, part in enumerate(loc):
        is_key = isinstance(node, dict) and isinstance(part, str) and part in node
        if is_key or (isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)):
            pointer.append(part)
            node = node[part]
        elif index == len(loc) - 1 and isinstance(part, str) and isinstance(node, dict):
            pointer.append(part)  # a missing or unknown key
        else:
            tags.append(str(part))
    return tuple(pointer), tags


def _value_at(value: Any, pointer: tuple[str | int, ...]) -> Any:
    node = value
    for part in pointer:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    return node


def _tag_note(tags: list[str]) -> str:
    """Say which form of a union was assumed (conditions are told apart by their keys); the innermost counts."""
    for tag in reversed(tags):
        if tag == "group":
            return " (read as a condition group because it has 'clauses' or 'operator')"
        if tag == "clause":
            return " (read as a condition clause: it has no 'clauses' or 'operator')"
    return ""


def placeholder_for(schemas: list[dict[str, Any]]) -> str:
    """A JSON placeholder value for a property with these schemas."""
    values = enum_values(schemas)
    if values:
        return json.dumps(values[0])
    kinds = json_types(schemas)
    for kind, text in (
        ("string", '""'),
        ("object", "{}"),
        ("array", "[]"),
        ("integer", "0"),
        ("number", "0"),
        ("boolean", "false"),
    ):
        if kind in kinds:
            return text
    if any("properties" in s for s in schemas):
        return "{}"
    return '""'


def snippet_for(schemas: list[dict[str, Any]], index: int) -> str:
    values = enum_values(schemas)
    if values and all(isinstance(v, str) for v in values):
        choices = ",".join(str(v).replace(",", "\\,").replace("|", "\\|") for v in values[:20])
        return f'"${{{index}|{choices}|}}"'
    text = placeholder_for(schemas)
    if text == '""':
        return f'"${index}"'
    if text in ("{}", "[]"):
        return f"{text[0]}${index}{text[1]}"
    return f"${{{index}:{text}}}"


def schema_findings(
    issues: Iterable[ValidationIssue],
    value: Any,
    schema: dict[str, Any],
    subject: str,
) -> Iterator[Finding]:
    """Findings for pydantic issues, with schema-driven did-you-mean, valid names and fixes."""
    grouped: dict[tuple[tuple[str | int, ...], str], list[tuple[ValidationIssue, list[str]]]] = {}
    for issue in issues:
        pointer, tags = _real_pointer(value, issue.loc)
        kind = "type" if issue.error_type in _TYPE_ERRORS else issue.error_type
        grouped.setdefault((pointer, kind), []).append((issue, tags))
    missing_by_parent: dict[tuple[str | int, ...], list[tuple[str, str]]] = {}
    known_by_parent: dict[tuple[str | int, ...], list[str]] = {}  # many unknown keys of one object: read once
    for (pointer, _kind), entries in grouped.items():
        issue, tags = entries[0]
        note = _tag_note(tags)
        if issue.error_type == "extra_forbidden":
            parent = pointer[:-1]
            if parent not in known_by_parent:
                known_by_parent[parent] = [p.name for p in properties_of(subschemas_at(schema, parent))]
            yield _unknown(pointer, value, known_by_parent[parent], subject, note)
        elif issue.error_type == "missing":
            missing_by_parent.setdefault(pointer[:-1], []).append((str(pointer[-1]), note))
        elif issue.error_type in _TYPE_ERRORS:
            yield _wrong_type(pointer, [e[0] for e in entries], schema, note)
        elif issue.error_type in _ENUM_ERRORS:
            yield _bad_enum(pointer, issue, schema, note)
        else:
            yield Finding(CONSTRAINT.code, f"{issue.message}{_received(issue)}{note}", pointer)
    for parent, names in missing_by_parent.items():
        yield _missing(parent, names, schema, subject)


def _received(issue: ValidationIssue) -> str:
    if not issue.has_input:
        return ""
    return f" (received {json_type_name(issue.received)}: {short_repr(issue.received)})"


def _unknown(pointer: tuple[str | int, ...], value: Any, known: list[str], subject: str, note: str) -> Finding:
    key = str(pointer[-1])
    parent = pointer[:-1]
    present = _value_at(value, parent)
    candidates = [
        name
        for name in closest(key, known)
        if not (isinstance(present, dict) and name in present) and _plausible(key, name)
    ]
    where = f" in {subject}" if not parent else f" at '{_dotted(parent)}'"
    message = f"Unknown property '{key}'{where}."
    if candidates:
        message += f" Did you mean '{candidates[0]}'?"
    if known:
        message += " Valid properties: " + ", ".join(known[:12]) + (", …" if len(known) > 12 else "")
    fixes = [
        Fix(f"Rename to '{name}'", (RenameKey(pointer, name),), safe=False, preferred=index == 0)
        for index, name in enumerate(candidates)
    ]
    fixes.append(Fix(f"Remove property '{key}'", (RemoveMember(pointer),), safe=False))
    return Finding(UNKNOWN.code, message + note, pointer, "key", fixes=tuple(fixes), data={"key": key})


def _plausible(key: str, name: str) -> bool:
    """A did-you-mean for an unknown key: a close spelling, or a shared word (`target_nines` → `target_percentage`);
    not letters that merely line up (`chart_type` → `start_time`)."""
    import difflib
    import re

    low_key, low_name = key.lower(), name.lower()
    if difflib.SequenceMatcher(None, low_key, low_name).ratio() >= 0.75 or low_key in low_name or low_name in low_key:
        return True

    def words(text: str) -> set[str]:
        return {w for w in re.split(r"[^a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text).lower()) if w}

    return bool(words(key) & words(name))


def _dotted(pointer: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in pointer)


def _missing(
    parent: tuple[str | int, ...], names: list[tuple[str, str]], schema: dict[str, Any], subject: str
) -> Finding:
    keys = [name for name, _ in names]
    note = names[0][1]
    where = subject if not parent else f"'{_dotted(parent)}'"
    if len(keys) == 1:
        message = f"Missing required property '{keys[0]}' in {where}{note}"
    else:
        message = f"Missing required properties in {where}: " + ", ".join(f"'{k}'" for k in keys) + note
    schemas_by_key = {k: subschemas_at(schema, (*parent, k)) for k in keys}
    members = tuple((k, placeholder_for(schemas_by_key[k])) for k in keys)
    snippets = tuple((k, snippet_for(schemas_by_key[k], i + 1)) for i, k in enumerate(keys))
    fix = Fix(
        "Add missing " + ("property " if len(keys) == 1 else "properties ") + ", ".join(f"'{k}'" for k in keys),
        (InsertMembers(parent, members, snippets),),
        safe=False,
        preferred=True,
    )
    return Finding(MISSING.code, message, parent, "parent", fixes=(fix,), data={"missing": ",".join(keys)})


def _wrong_type(
    pointer: tuple[str | int, ...], issues: list[ValidationIssue], schema: dict[str, Any], note: str
) -> Finding:
    expected: list[str] = []
    for issue in issues:
        name = _TYPE_ERRORS[issue.error_type]
        if name not in expected:
            expected.append(name)
    schemas = subschemas_at(schema, pointer)
    wanted = set(expected) | json_types(schemas)
    received = issues[0].received if issues[0].has_input else None
    coercion = coercion_for(received, wanted)
    label = " or ".join(expected)
    if coercion is not None:
        message = (
            f"Expected {coercion.json_type}, received string {short_repr(received)}: it would be coerced to "
            f"{coercion.replacement_json}, but write the {coercion.json_type} itself{note}"
        )
        fix = Fix(
            "Convert to null"
            if coercion.json_type == "null"
            else f"Convert to {coercion.json_type} {coercion.replacement_json}",
            (ReplaceValue(pointer, coercion.replacement_json),),
            safe=True,
            preferred=True,
        )
        return Finding(COERCIBLE.code, message, pointer, fixes=(fix,))
    message = f"Expected {label}, received {json_type_name(received)}"
    if issues[0].has_input and not isinstance(received, (dict, list)):
        message += f": {short_repr(received)}"
    return Finding(WRONG_TYPE.code, message + note, pointer)


def _bad_enum(pointer: tuple[str | int, ...], issue: ValidationIssue, schema: dict[str, Any], note: str) -> Finding:
    allowed = enum_values(subschemas_at(schema, pointer))
    received = issue.received if issue.has_input else None
    fixes: list[Fix] = []
    message = f"Invalid value {short_repr(received)}"
    if allowed:
        message += ": expected one of " + ", ".join(short_repr(v) for v in allowed[:20])
    else:
        message += f": {issue.message}"
    if isinstance(received, str):
        member_value = _enum_member_value(pointer, received, schema)
        if member_value is not None:
            message += f". '{received}' is the member name; use its value {short_repr(member_value)}"
            fixes.append(
                Fix(
                    f"Use the value {short_repr(member_value)}",
                    (ReplaceValue(pointer, json.dumps(member_value)),),
                    safe=True,
                    preferred=True,
                )
            )
        else:
            candidates = closest(received, [v for v in allowed if isinstance(v, str)])
            if candidates:
                message += f". Did you mean {short_repr(candidates[0])}?"
            fixes.extend(
                Fix(f"Replace with {short_repr(c)}", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
                for i, c in enumerate(candidates)
            )
    return Finding(BAD_ENUM.code, message + note, pointer, fixes=tuple(fixes))


def _enum_member_value(pointer: tuple[str | int, ...], received: str, schema: dict[str, Any]) -> Any:
    """If received is the *name* of a member of a known enum at pointer, that member's value."""
    for node in subschemas_at(schema, pointer):
        names = node.get("x-enum-names")
        values = node.get("enum")
        if isinstance(names, list) and isinstance(values, list) and received in names:
            return values[names.index(received)]
    from ..models.base import ENUM_SCHEMAS

    allowed = enum_values(subschemas_at(schema, pointer))
    for name in ENUM_SCHEMAS.names():
        fragment = ENUM_SCHEMAS.get(name)
        if fragment.source is None or set(fragment.values) != set(allowed):
            continue
        member = fragment.source.__members__.get(received) or fragment.source.__members__.get(received.upper())
        if member is not None:
            return member.value
    return None


_SCHEMA_CACHE: dict[type[BaseModel], dict[str, Any]] = {}


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = _SCHEMA_CACHE.get(model)
    if schema is None:
        schema = model.model_json_schema(by_alias=True)
        _add_enum_names(model, schema)
        _SCHEMA_CACHE[model] = schema
    return schema


def _add_enum_names(model: type[BaseModel], schema: dict[str, Any]) -> None:
    """Record Python member names beside enum values, so `"EQUALS"` can be fixed to `"="`."""
    from enum import Enum

    defs = schema.get("$defs", {})
    seen: set[type[Enum]] = set()
    visited: set[type[BaseModel]] = set()
    stack: list[type[BaseModel]] = [model]
    while stack:
        current = stack.pop()
        if current in visited:
            continue
        visited.add(current)
        for field in current.model_fields.values():
            for annotation in _flatten(field.annotation):
                if isinstance(annotation, type) and issubclass(annotation, Enum) and annotation not in seen:
                    seen.add(annotation)
                    target = defs.get(annotation.__name__)
                    if isinstance(target, dict):
                        target["x-enum-names"] = [m.name for m in annotation]
                elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
                    stack.append(annotation)


def _flatten(annotation: Any) -> Iterator[Any]:
    from typing import get_args

    yield annotation
    for arg in get_args(annotation):
        yield from _flatten(arg)


def model_findings(model: type[BaseModel], value: Any, subject: str) -> list[Finding]:
    """Validate value with a pydantic model; all errors at once, as placed findings."""
    try:
        # Strict JSON mode: "80" for an integer or "true" for a boolean is reported (TS105), not coerced
        # silently; enums are still matched by value, as they arrive in JSON.
        model.model_validate_json(json.dumps(value), strict=True)
    except ValidationError as error:
        return list(schema_findings(validation_issues(error), value, model_schema(model), subject))
    return []


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


def _misplaced(finding: Finding, value: Any, dialect: str) -> Finding | None:
    """A schema keyword beside the schema (`required` next to `parameters`): the provider ignores or rejects
    it, so the model is told nothing is required. Says where it belongs and offers to move it there."""
    key = finding.data.get("key", "")
    schema_key = SCHEMA_KEY.get(dialect)
    if key not in _SCHEMA_KEYWORDS or schema_key is None or finding.pointer[:-1] != schema_key[:-1]:
        return None
    schema = _value_at(value, schema_key)
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
