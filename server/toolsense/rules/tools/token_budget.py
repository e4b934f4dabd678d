"""Token budgets (opt-in: `[tokens] max_tool_tokens` / `max_file_tokens`): a tool or a file whose tools cost
more tokens than configured, and a subschema repeated three or more times (its quick fix moves it into `$defs`
and refers to it with `$ref`, offered only where the dialect accepts `$ref`: not Gemini).

Counts are o200k_base tokens of the compact JSON (exact for OpenAI dialects, an estimate elsewhere: see
`toolsense.tokens`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.tool import tool_view
from ...engine.context import CheckContext
from ...engine.findings import MAX_RELATED, Finding, Fix, InsertMembers, Related, ReplaceValue, Severity
from ...engine.units import Unit
from ...jsonvalue import JsonObject, JsonValue
from ...models.definitions import NAME_KEY, SCHEMA_KEY
from ...tokens import TokenCount, count_tool
from ..catalog import CATALOG

FAMILY = "Tool definitions: token budget (opt-in)"

TOOL_OVER_BUDGET = CATALOG.rule(
    "TS296",
    "tool-over-token-budget",
    Severity.WARNING,
    "A tool definition costs more tokens than `tokens.max_tool_tokens` (sent with every request).",
    FAMILY,
)
FILE_OVER_BUDGET = CATALOG.rule(
    "TS297",
    "file-over-token-budget",
    Severity.WARNING,
    "The tools of one file cost more tokens together than `tokens.max_file_tokens`.",
    FAMILY,
)
REPEATED_SUBSCHEMA = CATALOG.rule(
    "TS298",
    "repeated-subschema",
    Severity.INFORMATION,
    "With a token budget set: a subschema written out three or more times in one tool, where the dialect "
    "accepts `$ref` (not Gemini).",
    FAMILY,
    fix="Move it into `$defs` and refer to it with `$ref`",
)

MIN_REPEATS = 3
MIN_CHARS = 40
"""Smaller subschemas cost about what a `$ref` to them costs: moving them saves nothing."""
NO_REF_DIALECTS = frozenset({"gemini"})

_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas")
_SCHEMA_VALUES = ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_DEFINITIONS = ("$defs", "definitions")


def _budgeted(ctx: CheckContext) -> bool:
    budgets = ctx.settings.tokens
    return budgets.max_tool_tokens is not None or budgets.max_file_tokens is not None


def _cost(unit: Unit) -> TokenCount:
    cached = unit.derived.get("tokens")
    if not isinstance(cached, TokenCount):
        cached = count_tool(unit.value, unit.dialect)
        unit.derived["tokens"] = cached
    return cached


@CATALOG.unit_check("tool")
def token_budget(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    if not _budgeted(ctx) or unit.dialect not in SCHEMA_KEY or not isinstance(unit.value, dict):
        return
    limit = ctx.settings.tokens.max_tool_tokens
    if limit is not None:
        cost = _cost(unit)
        if cost.tokens > limit:
            yield Finding(
                TOOL_OVER_BUDGET.code,
                f"This tool definition costs {cost.label()}, over the budget of {limit:,} "
                "(`tokens.max_tool_tokens`); it is sent with every request",
                NAME_KEY[unit.dialect],
            )
    if unit.dialect not in NO_REF_DIALECTS:
        yield from _repeated(unit)


@CATALOG.file_check("tool")
def file_token_budget(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    limit = ctx.settings.tokens.max_file_tokens
    if limit is None:
        return
    tools = [u for u in units if u.kind == "tool" and u.dialect in SCHEMA_KEY and isinstance(u.value, dict)]
    costs = [_cost(u) for u in tools]
    total = sum(cost.tokens for cost in costs)
    if tools and total > limit:
        total_count = TokenCount(total, all(cost.exact for cost in costs))
        heaviest = max(range(len(tools)), key=lambda index: costs[index].tokens)
        unit = tools[heaviest]
        yield Finding(
            FILE_OVER_BUDGET.code,
            f"The {len(tools)} tools of this file cost {total_count.label()} together, over the budget of "
            f"{limit:,} (`tokens.max_file_tokens`); the heaviest is this one ({costs[heaviest].label()})",
            (*unit.pointer, *NAME_KEY[unit.dialect or "anthropic"]),
        )


def _subschemas(node: JsonObject, pointer: Pointer) -> Iterator[tuple[Pointer, JsonObject]]:
    """Every subschema below node (not node itself, nor what `$defs` already holds), outermost first."""
    for key in _SCHEMA_MAPS:
        children = node.get(key)
        if isinstance(children, dict):
            for name, child in children.items():
                if isinstance(child, dict):
                    where = (*pointer, key, name)
                    yield where, child
                    yield from _subschemas(child, where)
    for key in _SCHEMA_VALUES:
        child = node.get(key)
        if isinstance(child, dict):
            yield (*pointer, key), child
            yield from _subschemas(child, (*pointer, key))
    for key in _SCHEMA_LISTS:
        branches = node.get(key)
        if isinstance(branches, list):
            for index, child in enumerate(branches):
                if isinstance(child, dict):
                    yield (*pointer, key, index), child
                    yield from _subschemas(child, (*pointer, key, index))


def _repeated(unit: Unit) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or not isinstance(view.schema, dict):
        return
    schema = view.schema
    groups: dict[str, list[Pointer]] = {}
    values: dict[str, JsonObject] = {}
    for pointer, sub in _subschemas(schema, ()):
        text = json.dumps(sub, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        if len(text) >= MIN_CHARS:
            groups.setdefault(text, []).append(pointer)
            values.setdefault(text, sub)
    chosen: list[Pointer] = []
    taken = {str(key) for key in _existing_definitions(schema)}
    for text, pointers in sorted(groups.items(), key=lambda item: -len(item[0])):
        inside = [p for p in pointers if any(p[: len(c)] == c for c in chosen)]
        if len(pointers) - len(inside) < MIN_REPEATS:
            continue
        outside = [p for p in pointers if p not in inside]
        chosen += outside
        name = _definition_name(outside[0], taken)
        taken.add(name)
        yield _finding(view.schema_pointer, schema, outside, values[text], name, view.dialect)


def _existing_definitions(schema: JsonObject) -> list[str]:
    defs = schema.get("$defs")
    return list(defs) if isinstance(defs, dict) else []


def _definition_name(pointer: Pointer, taken: set[str]) -> str:
    named = [part for index, part in enumerate(pointer) if index and pointer[index - 1] in _SCHEMA_MAPS]
    base = re.sub(r"[^A-Za-z0-9_]+", "_", str(named[-1])).strip("_") if named else ""
    base = base or "shared"
    name, number = base, 2
    while name in taken:
        name, number = f"{base}_{number}", number + 1
    return name


def _finding(
    schema_pointer: Pointer, schema: JsonObject, pointers: list[Pointer], value: JsonValue, name: str, dialect: str
) -> Finding:
    ref = json.dumps({"$ref": f"#/$defs/{name}"})
    edits: list[ReplaceValue | InsertMembers] = [ReplaceValue((*schema_pointer, *p), ref) for p in pointers]
    body = json.dumps(value, ensure_ascii=False)
    if isinstance(schema.get("$defs"), dict):
        edits.append(InsertMembers((*schema_pointer, "$defs"), ((name, body),)))
    else:
        edits.append(InsertMembers(schema_pointer, (("$defs", json.dumps({name: value}, ensure_ascii=False)),)))
    each = count_tool(value, dialect)
    others = pointers[1 : 1 + MAX_RELATED]
    return Finding(
        REPEATED_SUBSCHEMA.code,
        f"This subschema is written out {len(pointers)} times, {each.label()} each: move it into `$defs` "
        "and refer to it with `$ref`",
        (*schema_pointer, *pointers[0]),
        "value",
        fixes=(Fix(f"Move into `$defs/{name}` and use `$ref` ({len(pointers)} places)", tuple(edits)),),
        related=tuple(Related("the same subschema", (*schema_pointer, *p)) for p in others),
    )
