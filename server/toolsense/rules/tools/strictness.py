"""Strictness: every object schema — nested, in `items`, in `$defs`, in `anyOf` branches — says `additionalProperties:
false`, so a model cannot add keys the tool silently ignores. Information by default: outside a strict dialect an
open object is valid and most real schemas leave it open, so the finding is advice, not a problem (on the wild
corpus nearly every TS220 was advice on a valid file); `severity.TS220` raises it. Where a strict profile applies,
the profile's error (TS263) replaces it; with the Gemini profile or a Gemini target in `targets` (which reject the
keyword) it is not asked for.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.providers import active_profiles, strict_profiles
from ...domain.tool import ContentMemo, SchemaNode, input_walk, is_object_schema, tool_view, unit_key
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, InsertMembers, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonObject
from ...settings import LimitsSettings
from ..catalog import CATALOG

FAMILY = "Tool definitions: strictness"

OPEN_OBJECT = CATALOG.rule(
    "TS220",
    "missing-additional-properties-false",
    Severity.INFORMATION,
    "An object schema without `additionalProperties: false`: the model may send keys the tool ignores (advice "
    "outside a strict dialect, where TS263 is the error).",
    FAMILY,
    "add `additionalProperties: false` (safe when the object lists its properties)",
)


def describe(entry: SchemaNode) -> str:
    if not entry.pointer:
        return "The input schema's root object"
    if entry.property_name is not None:
        return f"Object '{entry.property_name}'"
    if entry.via in ("$defs", "definitions"):
        return f"Definition '{entry.pointer[-1]}'"
    if entry.via == "items":
        parent = entry.pointer[-2] if len(entry.pointer) >= 2 else "array"
        return f"The items of '{parent}'"
    if entry.via in ("anyOf", "oneOf"):
        return f"{entry.via} branch {entry.pointer[-1]}"
    return "The object at '" + "/".join(str(p) for p in entry.pointer) + "'"


@CATALOG.unit_check("tool")
def closed_objects(unit: Unit, ctx: CheckContext) -> tuple[Finding, ...]:
    view = tool_view(unit)
    if view is None or not isinstance(view.schema, dict):
        return ()
    if strict_profiles(view, ctx.settings) or "gemini" in active_profiles(view, ctx.settings):
        return ()
    if NO_ADDITIONAL_PROPERTIES & set(ctx.settings.targets):
        return ()  # a chosen target refuses the keyword (TS264): the advice would make the tool fail there
    if view.dialect == "gemini" and view.schema_pointer == ("parameters",):
        return ()  # Gemini's OpenAPI subset has no additionalProperties: the advice would be rejected
    limits = ctx.settings.limits
    return _MEMO.get((unit_key(unit), unit.dialect, limits), lambda: tuple(_open_objects(unit, limits)))


NO_ADDITIONAL_PROPERTIES = frozenset({"gemini-api", "vertex-ai"})
"""Targets whose `parameters` refuse `additionalProperties`, or may (docs/compat.md: gemini-unknown-keyword,
vertex-additional-properties)."""

_MEMO: ContentMemo[tuple[Finding, ...]] = ContentMemo(4096)
_COMPOSED = frozenset({"allOf", "anyOf", "oneOf"})


def _declares(node: JsonObject | None) -> bool:
    return node is not None and (bool(node.get("properties")) or bool(node.get("patternProperties")))


def _open_objects(unit: Unit, limits: LimitsSettings) -> Iterator[Finding]:
    view = tool_view(unit)
    assert view is not None
    walk = input_walk(unit, limits.max_schema_depth, limits.max_subschemas)
    nodes = {entry.pointer: entry.node for entry in walk.nodes}
    for entry in walk.nodes:
        node = entry.node
        if entry.conditional or entry.in_all_of or not is_object_schema(node):
            continue
        if not _COMPOSED.isdisjoint(node):
            continue  # its properties come from its branches: closing it would reject every argument
        if entry.via in ("anyOf", "oneOf") and _declares(nodes.get(entry.pointer[:-2])):
            continue  # a branch is checked against the whole object, whose own properties it does not list
        if "additionalProperties" in node or node.get("unevaluatedProperties") is False:
            continue
        pointer = (*view.schema_pointer, *entry.pointer)
        declares = bool(node.get("properties")) or bool(node.get("patternProperties"))
        insert_false = InsertMembers(pointer, (("additionalProperties", "false"),))
        if declares:
            message = f"{describe(entry)} does not say `additionalProperties: false`: unknown keys are accepted"
            fixes: tuple[Fix, ...] = (
                Fix("Add additionalProperties: false", (insert_false,), safe=True, preferred=True),
            )
        else:
            message = (
                f"{describe(entry)} declares no properties and does not say `additionalProperties`: list its "
                "properties and close it, or say `additionalProperties: true` if any keys are meant"
            )
            fixes = (
                Fix(
                    "Add additionalProperties: true (any keys)",
                    (InsertMembers(pointer, (("additionalProperties", "true"),)),),
                ),
                Fix("Add additionalProperties: false (only {})", (insert_false,)),
            )
        yield Finding(OPEN_OBJECT.code, message, pointer, "parent", fixes=fixes)
