"""A combinator (`oneOf`, `anyOf`, `allOf`) at the top level of a tool's input schema.

Anthropic rejects it ("input_schema does not support oneOf, allOf, or anyOf at the top level"), OpenAI's strict
mode wants an object at the root, and one such MCP tool breaks every request of a client that forwards its
tools to Anthropic. An error for Anthropic tools and strict OpenAI tools, a warning for MCP tools.

The quick fix writes one object schema where the branches are objects: `allOf` merged (exact, hence safe, when
the branches share no property and say nothing else), `anyOf`/`oneOf` as the union of the branches' properties,
requiring what every branch requires (lossy: the branches' exclusivity is gone, so never safe).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...document.jsontree import Pointer
from ...domain.providers import active_profiles
from ...domain.tool import tool_view
from ...engine.context import CheckContext
from ...engine.findings import (
    Finding,
    Fix,
    FixEdit,
    InsertMembers,
    RemoveMember,
    RenameKey,
    ReplaceValue,
    Severity,
)
from ...engine.units import Unit
from ...jsonvalue import JsonObject
from ..catalog import CATALOG

ROOT_COMBINATOR = CATALOG.rule(
    "TS269",
    "schema-root-combinator",
    Severity.ERROR,
    '`oneOf`, `anyOf` or `allOf` at the top level of an input schema: Anthropic rejects it ("input_schema does '
    'not support oneOf, allOf, or anyOf at the top level"), and so does OpenAI strict mode; a warning for MCP '
    "tools, which clients forward to such providers.",
    "Tool definitions: provider profiles",
    "one object schema: `allOf` merged (safe when exact), `anyOf`/`oneOf` as the union of their properties",
)

COMBINATORS = ("oneOf", "anyOf", "allOf")
_ANTHROPIC_WORDS = '"input_schema does not support oneOf, allOf, or anyOf at the top level"'
_BRANCH_KEYS = frozenset({"type", "properties", "required", "description", "title", "additionalProperties"})
"""What an object branch may say for the merge to keep its meaning (anything else: not merged)."""


@CATALOG.unit_check("tool")
def root_combinator(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or not isinstance(view.schema, dict):
        return
    found = [key for key in COMBINATORS if key in view.schema]
    if not found:
        return
    severity, why = _judgement(view.dialect, active_profiles(view, ctx.settings))
    if severity is None:
        return
    fixes = _fixes(view.schema, found, view.schema_pointer)
    for key in found:
        yield Finding(
            ROOT_COMBINATOR.code,
            f"{view.label}, '{'.'.join(map(str, view.schema_pointer))}': '{key}' at the top level of the input "
            f"schema; {why}",
            (*view.schema_pointer, key),
            "key",
            severity=severity,
            fixes=fixes,
        )


def _judgement(dialect: str, profiles: list[str]) -> tuple[Severity | None, str]:
    if dialect == "anthropic" or "anthropic-strict" in profiles:
        return Severity.ERROR, f"Anthropic rejects the tool: {_ANTHROPIC_WORDS}"
    if "openai-strict" in profiles:
        return Severity.ERROR, "OpenAI strict mode rejects it: the root must be a plain object schema"
    if dialect == "mcp":
        return Severity.WARNING, (
            f"clients forward the tool to the model's provider, and Anthropic rejects it ({_ANTHROPIC_WORDS}): one "
            "such tool breaks every request"
        )
    return None, ""


def _fixes(schema: JsonObject, found: list[str], pointer: Pointer) -> tuple[Fix, ...]:
    """The edits that fold the combinator into the schema itself: the combinator removed, `properties` and
    `required` written (or replaced) with the merged ones, `type: object` added when missing."""
    if len(found) != 1:
        return ()
    key = found[0]
    merged = _merged(schema, key)
    if merged is None:
        return ()
    rewritten, exact = merged
    edits: list[FixEdit] = []
    inserted: list[tuple[str, str]] = []
    # The combinator's own member becomes the first merged member the schema lacks (renamed, its value
    # replaced): no removal next to an insertion at the same end of the object.
    taken = False
    for member in ("properties", "required", "type"):
        if member not in rewritten or rewritten[member] == schema.get(member):
            continue
        text = json.dumps(rewritten[member], ensure_ascii=False, separators=(", ", ": "))
        if member in schema:
            edits.append(ReplaceValue((*pointer, member), text))
        elif not taken:
            edits += [RenameKey((*pointer, key), member), ReplaceValue((*pointer, key), text)]
            taken = True
        else:
            inserted.append((member, text))
    if not taken:
        edits.append(RemoveMember((*pointer, key)))
    if inserted:
        edits.append(InsertMembers(pointer, tuple(inserted)))
    title = "Merge the allOf branches into one object" if key == "allOf" else "Write one object schema"
    if not exact:
        title += " (lossy: the branches' alternatives become optional properties)"
    return (Fix(title, tuple(edits), safe=exact, preferred=True),)


def _merged(schema: JsonObject, key: str) -> tuple[JsonObject, bool] | None:
    """The schema with its combinator folded into one object (and whether that keeps its meaning); None when a
    branch is no object schema."""
    found = schema.get(key)
    branches = [b for b in found if isinstance(b, dict) and _object_branch(b)] if isinstance(found, list) else []
    if not branches or not isinstance(found, list) or len(branches) != len(found):
        return None
    properties: dict[str, Any] = dict(_members(schema, "properties"))
    exact = key == "allOf"
    for branch in branches:
        for name, sub in _members(branch, "properties").items():
            if name in properties and properties[name] != sub:
                exact = False  # two schemas for one property: the first is kept
            properties.setdefault(name, sub)
        if not branch.keys() <= _BRANCH_KEYS or "additionalProperties" in branch:
            exact = False
    required_sets = [_names(branch) for branch in branches]
    if key == "allOf":
        extra = [name for group in required_sets for name in group]
    else:
        extra = [name for name in required_sets[0] if all(name in group for group in required_sets[1:])]
    required = list(dict.fromkeys([*_names(schema), *extra]))
    kept = {k: v for k, v in schema.items() if k not in (key, "properties", "required", "type")}
    result: dict[str, Any] = {"type": "object", **kept, "properties": properties}
    if required:
        result["required"] = required
    return result, exact


def _members(schema: JsonObject, key: str) -> JsonObject:
    found = schema.get(key)
    return found if isinstance(found, dict) else {}


def _names(schema: JsonObject) -> list[str]:
    """The property names a schema's `required` lists."""
    found = schema.get("required")
    return [name for name in found if isinstance(name, str)] if isinstance(found, list) else []


def _object_branch(branch: JsonObject) -> bool:
    kind = branch.get("type")
    if kind not in (None, "object") or any(k in branch for k in COMBINATORS):
        return False
    return isinstance(branch.get("properties"), dict) or kind == "object"
