"""Is the tool's `input_schema` / `inputSchema` / `parameters` (and an MCP `outputSchema`) a valid JSON Schema?

Checked with jsonschema's meta-schemas for the schema's dialect (`$schema` if present, else 2020-12 for MCP and
draft-07 for the others), each error placed inside the schema. Plus what meta-schemas cannot say: the root is
`type: object`, `required` names defined properties, enums have no duplicates, type names are JSON Schema's
(`"dict"` → `"object"`), local `$ref`s resolve, and network/file `$ref`s are reported — never fetched.
Work is bounded (`limits.max_schema_depth`, `limits.max_subschemas`) and cached by content.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema.validators import validator_for

from ...document.jsontree import Pointer
from ...domain.tool import (
    JSON_TYPES,
    ContentMemo,
    SchemaWalk,
    ToolView,
    input_walk,
    tool_view,
    types_of,
    unit_key,
    walk_schema,
)
from ...engine.context import CheckContext
from ...engine.filefacts import checked_mcp_version
from ...engine.findings import Finding, Fix, InsertMembers, RemoveMember, ReplaceValue
from ...engine.schemas import closest
from ...engine.units import Unit
from ...jsonvalue import JsonObject, short_repr
from ...settings import LimitsSettings
from ..catalog import CATALOG
from ..structure import located
from .schema_codes import (
    DUPLICATE_ENUM,
    REQUIRED,
    ROOT,
    TOO_COMPLEX,
    TYPE_ALIASES,
    UNKNOWN_DIALECT,
    UNKNOWN_TYPE,
)
from .schema_meta import meta_findings, with_known_types
from .schema_refs import enum_key, own_values, ref_findings
from .schema_satisfiable import unsatisfiable
from .schema_templates import placeholders

_COMPOSITION = ("allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas", "dependencies", "patternProperties")


@dataclass(frozen=True)
class SchemaTarget:
    """One JSON Schema inside a tool: its value, its pointer in the unit, and what to call it."""

    schema: Any
    pointer: Pointer
    label: str
    dialect: str
    is_output: bool = False
    any_root: bool = False
    """Any JSON Schema may be the root (an MCP 2026-07-28 `outputSchema`), not only `type: object`."""


def schema_targets(view: ToolView, mcp_version: str | None = None) -> list[SchemaTarget]:
    targets: list[SchemaTarget] = []
    if view.has_schema:
        targets.append(SchemaTarget(view.schema, view.schema_pointer, "input schema", view.dialect))
    if view.dialect == "mcp" and "outputSchema" in view.value:
        any_root = mcp_version is not None and mcp_version >= "2026-07-28"
        label = f"MCP {mcp_version} outputSchema" if mcp_version is not None else "MCP outputSchema"
        output = SchemaTarget(view.value["outputSchema"], ("outputSchema",), label, "mcp", True, any_root)
        targets.append(output)
    return targets


@CATALOG.unit_check("tool")
def schema_validity(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
    if tool_view(unit) is None:
        return ()
    limits = ctx.settings.limits
    version = checked_mcp_version(ctx.facts, ctx.settings) if unit.dialect == "mcp" else None
    key = (unit_key(unit), unit.dialect, limits, version)
    return _MEMO.get(key, lambda: _schema_validity(unit, limits, version))


_MEMO: ContentMemo[tuple[Finding, ...]] = ContentMemo(4096)


def _schema_validity(unit: Unit, limits: LimitsSettings, version: str | None) -> tuple[Finding, ...]:
    view = tool_view(unit)
    assert view is not None
    found: list[Finding] = []
    for target in schema_targets(view, version):
        if not isinstance(target.schema, dict):
            continue  # the structure rule reports a schema that is not an object
        if target.is_output:
            walk = walk_schema(target.schema, limits.max_schema_depth, limits.max_subschemas)
        else:
            walk = input_walk(unit, limits.max_schema_depth, limits.max_subschemas)
        checked = placeholders(target.schema, target.pointer, check_schema_target(target, walk))
        found.extend(located(f, view.label, _LOCATED) for f in checked)
    return tuple(found)


_LOCATED = frozenset({"TS210"})
"""Codes whose wording names a keyword but neither the tool nor the path to it (`located` adds both)."""


def check_schema_target(target: SchemaTarget, walk: SchemaWalk) -> Iterator[Finding]:
    schema = target.schema
    base = target.pointer
    if walk.truncated is not None:
        yield Finding(
            TOO_COMPLEX.code,
            f"The {target.label} is {walk.truncated}: checks were cut short",
            base,
            "key",
        )
    yield from _dialect(schema, base, target.dialect)
    yield from _root(schema, base, target)
    unknown_types = list(_type_names(walk, base))
    yield from unknown_types
    if walk.truncated is None:
        checked = with_known_types(schema, [f.pointer[len(base) :] for f in unknown_types], unknown_types)
        yield from meta_findings(checked, base, target.dialect)
    yield from _required(walk, base)
    yield from _enum_duplicates(walk, base)
    yield from unsatisfiable(walk, base)
    yield from ref_findings(schema, walk, base)
    if walk.truncated is None and not target.is_output:
        yield from own_values(schema, walk, base, target.dialect)


def _dialect(schema: JsonObject, base: Pointer, dialect: str) -> Iterator[Finding]:
    uri = schema.get("$schema")
    if not isinstance(uri, str):
        return
    sentinel = object()
    if validator_for(schema, default=sentinel) is sentinel:  # type: ignore[arg-type]
        default = "2020-12" if dialect == "mcp" else "draft-07"
        yield Finding(
            UNKNOWN_DIALECT.code,
            f"Unknown JSON Schema dialect {short_repr(uri)}: checked as {default}",
            (*base, "$schema"),
        )


def _root(schema: JsonObject, base: Pointer, target: SchemaTarget) -> Iterator[Finding]:
    if target.any_root:
        return
    kinds = types_of(schema)
    what = f"an {target.label}" if target.is_output else f"the {target.label}"
    if "type" not in schema:
        if "$ref" in schema or any(k in schema for k in ("anyOf", "oneOf", "allOf")):
            message = f'The root of {what} must be `"type": "object"` itself, not a reference or a union'
        else:
            message = f'The root of {what} must say `"type": "object"`'
        fix = Fix('Add "type": "object"', (InsertMembers(base, (("type", '"object"'),)),), preferred=True)
        yield Finding(ROOT.code, message, base, "key", fixes=(fix,))
    elif kinds != ["object"] and isinstance(schema.get("type"), (str, list)):
        declared = schema["type"]
        lowered = declared.strip().lower() if isinstance(declared, str) else None
        if lowered is not None and "object" in (lowered, TYPE_ALIASES.get(lowered)):
            return  # "dict", "OBJECT": unknown-type-name says it, with the fix (one diagnostic per token)
        shown = json.dumps(declared)
        fixes: tuple[Fix, ...] = ()
        if "object" in kinds:
            fixes = (Fix('Use "object"', (ReplaceValue((*base, "type"), '"object"'),), preferred=True),)
        yield Finding(
            ROOT.code,
            f'The root of {what} must be `"type": "object"`, found {shown}',
            (*base, "type"),
            fixes=fixes,
        )


def _type_names(walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    for entry in walk.nodes:
        kind = entry.node.get("type")
        if isinstance(kind, str):
            places: list[tuple[Pointer, str]] = [((*base, *entry.pointer, "type"), kind)]
        elif isinstance(kind, list):
            places = [((*base, *entry.pointer, "type", i), k) for i, k in enumerate(kind) if isinstance(k, str)]
        else:
            continue
        for pointer, name in places:
            if name in JSON_TYPES:
                continue
            yield _unknown_type(pointer, name)


def _unknown_type(pointer: Pointer, name: str) -> Finding:
    lowered = name.strip().lower()
    right = TYPE_ALIASES.get(lowered) or (lowered if lowered in JSON_TYPES else None)
    valid = ", ".join(sorted(JSON_TYPES))
    if right is not None:
        message = f'Unknown type {short_repr(name)}: JSON Schema calls it "{right}"'
        fix = Fix(f'Use "{right}"', (ReplaceValue(pointer, json.dumps(right)),), safe=True, preferred=True)
        return Finding(UNKNOWN_TYPE.code, message, pointer, fixes=(fix,), data={"type": right})
    if lowered == "any":
        message = 'Unknown type "any": JSON Schema has no such type; leave `type` out to allow any value'
        return Finding(UNKNOWN_TYPE.code, message, pointer)
    candidates = closest(lowered, sorted(JSON_TYPES), limit=2, cutoff=0.5)
    message = f"Unknown type {short_repr(name)}: expected one of {valid}"
    fixes = tuple(
        Fix(f'Use "{c}"', (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0) for i, c in enumerate(candidates)
    )
    if candidates:
        message += f'. Did you mean "{candidates[0]}"?'
    return Finding(UNKNOWN_TYPE.code, message, pointer, fixes=fixes)


# --- required, enum duplicates ------------------------------------------------------------------------------


def _required(walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    if "required" not in walk.keys:
        return
    for entry in walk.nodes:
        node = entry.node
        required = node.get("required")
        properties = node.get("properties")
        if not isinstance(required, list) or not isinstance(properties, dict):
            continue
        if any(key in node for key in _COMPOSITION):
            continue
        for index, name in enumerate(required):
            if not isinstance(name, str) or name in properties:
                continue
            pointer = (*base, *entry.pointer, "required", index)
            candidates = [c for c in closest(name, list(properties)) if c not in required]
            message = f"Required property '{name}' is not defined in 'properties'"
            if candidates:
                message += f". Did you mean '{candidates[0]}'?"
            elif properties:
                shown = ", ".join(list(properties)[:12])
                message += f" (defined: {shown}{', …' if len(properties) > 12 else ''})"
            fixes = tuple(
                Fix(f"Use '{c}'", (ReplaceValue(pointer, json.dumps(c)),), preferred=i == 0)
                for i, c in enumerate(candidates)
            )
            yield Finding(REQUIRED.code, message, pointer, fixes=fixes, data={"name": name})


def _enum_duplicates(walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    if "enum" not in walk.keys:
        return
    for entry in walk.nodes:
        values = entry.node.get("enum")
        if not isinstance(values, list):
            continue
        first: dict[Hashable, int] = {}
        for index, value in enumerate(values):
            key = enum_key(value)
            if key in first:
                pointer = (*base, *entry.pointer, "enum", index)
                fix = Fix(
                    f"Remove the duplicate {short_repr(value)}", (RemoveMember(pointer),), safe=True, preferred=True
                )
                yield Finding(
                    DUPLICATE_ENUM.code,
                    f"Duplicate enum value {short_repr(value)} (already at index {first[key]})",
                    pointer,
                    fixes=(fix,),
                )
            else:
                first[key] = index
