"""Provider profiles: OpenAI strict (Structured Outputs), Anthropic strict tool use, Gemini's OpenAPI subset,
and each provider's name and count limits.

By default only the file's own dialect rules apply. A profile's rules apply when it is enabled in settings
(`profiles = ["openai-strict", …]`), and the strict subsets also apply to a tool that sets `strict: true`
(Anthropic `strict`, OpenAI `function.strict`). Limits are dated defaults (`AS_OF`), each overridable in
`[tool.toolsense.profile_limits.<profile>]`; the tables and the budget maths are in `domain.providers`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

from ...document.jsontree import Pointer
from ...domain.providers import (
    ANTHROPIC_STRICT_FORMATS,
    ANTHROPIC_STRICT_UNSUPPORTED,
    AS_OF,
    GEMINI_KEYWORDS,
    JSON_SCHEMA_KEYS,
    LARGE_ENUM,
    OPENAI_STRICT_FORMATS,
    OPENAI_STRICT_UNSUPPORTED,
    PROFILES,
    VERTEX_EXTRA_KEYWORDS,
    Budget,
    active_profiles,
    enabled_profiles,
    over_limits,
    profile_limits,
    tool_budget,
)
from ...domain.tool import (
    ContentMemo,
    SchemaNode,
    SchemaWalk,
    ToolView,
    is_object_schema,
    tool_view,
    unit_key,
    walk_schema,
)
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, FixEdit, InsertMembers, ReplaceValue, Severity
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...models.definitions import NAME_KEY, SCHEMA_KEY
from ...settings import Settings
from ..catalog import CATALOG
from .schema_root import COMBINATORS

FAMILY = "Tool definitions: provider profiles"
"""When the default limits below were last checked against the providers' documentation."""

NOT_REQUIRED = CATALOG.rule(
    "TS260",
    "strict-property-not-required",
    Severity.ERROR,
    'OpenAI strict: every property must be listed in `required` (make optional ones nullable: `["T", "null"]`).',
    FAMILY,
    "make strict: require every property, optional ones nullable",
)
UNSUPPORTED = CATALOG.rule(
    "TS261",
    "strict-unsupported-keyword",
    Severity.ERROR,
    "A keyword or value the strict subset does not support (OpenAI: allOf, not, if/then/else, dependent*; "
    "Anthropic: min/max, lengths, multipleOf, minItems > 1, external $ref, other formats).",
    FAMILY,
)
LIMIT = CATALOG.rule(
    "TS262",
    "profile-limit-exceeded",
    Severity.ERROR,
    "The tool exceeds a provider limit (properties, nesting, enum values, characters, optional or union "
    "parameters); limits are dated defaults, overridable in `profile_limits`.",
    FAMILY,
)
STRICT_OPEN = CATALOG.rule(
    "TS263",
    "strict-additional-properties",
    Severity.ERROR,
    "Strict mode: an object schema without `additionalProperties: false`.",
    FAMILY,
    "add `additionalProperties: false` (safe)",
)
GEMINI = CATALOG.rule(
    "TS265",
    "gemini-unsupported-keyword",
    Severity.ERROR,
    "Gemini's `parameters` (an OpenAPI 3.0 subset) does not accept this keyword or form.",
    FAMILY,
)
TOO_MANY_TOOLS = CATALOG.rule(
    "TS266",
    "too-many-tools",
    Severity.WARNING,
    "More tools in the file than a provider accepts in one request (OpenAI 128; Anthropic 20 strict tools), "
    "or more optional/union parameters across strict tools than Anthropic allows.",
    FAMILY,
)
RECURSIVE = CATALOG.rule(
    "TS267",
    "strict-recursive-schema",
    Severity.ERROR,
    "Anthropic strict: the schema is recursive (a `$ref` cycle).",
    FAMILY,
)
ENUM_NOT_PRIMITIVE = CATALOG.rule(
    "TS268",
    "strict-enum-not-primitive",
    Severity.ERROR,
    "Anthropic strict: enum values must be strings, numbers, booleans or null.",
    FAMILY,
)


def _why(view: ToolView, profile: str, settings: Settings) -> str:
    if profile in settings.profiles:
        return f"profile '{profile}'"
    return "strict: true"


# --- the rules ---------------------------------------------------------------------------------------------


@CATALOG.unit_check("tool")
def profile_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = tool_view(unit)
    if view is None or not isinstance(view.schema, dict):
        return
    names = active_profiles(view, ctx.settings)
    if not names:
        return
    limits = ctx.settings.limits
    walk = walk_schema(view.schema, limits.max_schema_depth, limits.max_subschemas)
    base = view.schema_pointer
    for name in names:
        why = _why(view, name, ctx.settings)
        if name == "openai-strict":
            yield from _openai_strict(view, walk, base, why)
            yield from _limits(view, name, ctx.settings, why)
        elif name == "anthropic-strict":
            yield from _anthropic_strict(view, walk, base, why)
            yield from _limits(view, name, ctx.settings, why)
        elif name == "gemini" and gemini_subset_applies(view):
            yield from _gemini(walk, base)
    if {"openai-strict", "anthropic-strict"} & set(names):
        yield from _closed(walk, base, names)


def _closed(walk: SchemaWalk, base: Pointer, names: list[str]) -> Iterator[Finding]:
    label = " and ".join(n for n in names if PROFILES[n].strict)
    for entry in walk.nodes:
        if entry.conditional or not is_object_schema(entry.node):
            continue
        if entry.node.get("additionalProperties") is False:
            continue
        pointer = (*base, *entry.pointer)
        present = "additionalProperties" in entry.node
        where = _where(entry)
        if present:
            found_value = short_repr(entry.node["additionalProperties"])
            message = f"{label}: {where} must have `additionalProperties: false`, found {found_value}"
            fix = Fix(
                "Set additionalProperties to false",
                (ReplaceValue((*pointer, "additionalProperties"), "false"),),
                safe=False,
                preferred=True,
            )
            yield Finding(STRICT_OPEN.code, message, (*pointer, "additionalProperties"), fixes=(fix,))
        else:
            message = f"{label}: {where} must have `additionalProperties: false`"
            fix = Fix(
                "Add additionalProperties: false",
                (InsertMembers(pointer, (("additionalProperties", "false"),)),),
                safe=True,
                preferred=True,
            )
            yield Finding(STRICT_OPEN.code, message, pointer, "parent", fixes=(fix,))


def _where(entry: SchemaNode) -> str:
    if not entry.pointer:
        return "the root object"
    if entry.property_name is not None:
        return f"object '{entry.property_name}'"
    if entry.via in ("$defs", "definitions"):
        return f"definition '{entry.pointer[-1]}'"
    return "the object at '" + "/".join(str(p) for p in entry.pointer) + "'"


def _openai_strict(view: ToolView, walk: SchemaWalk, base: Pointer, why: str) -> Iterator[Finding]:
    for entry in walk.nodes:
        node = entry.node
        pointer = (*base, *entry.pointer)
        for keyword in OPENAI_STRICT_UNSUPPORTED:
            if keyword in node and (entry.pointer or keyword not in COMBINATORS):  # at the root: TS269's
                yield Finding(
                    UNSUPPORTED.code,
                    f"OpenAI strict ({why}) does not support '{keyword}'",
                    (*pointer, keyword),
                    "key",
                )
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in OPENAI_STRICT_FORMATS:
            allowed = ", ".join(sorted(OPENAI_STRICT_FORMATS))
            yield Finding(
                UNSUPPORTED.code,
                f"OpenAI strict ({why}) does not support format {short_repr(fmt)} (supported: {allowed})",
                (*pointer, "format"),
            )
        properties = node.get("properties")
        if entry.conditional or not isinstance(properties, dict) or not properties:
            continue
        found = node.get("required")
        required: list[Any] = found if isinstance(found, list) else []
        optional = [name for name in properties if name not in required]
        if not optional:
            continue
        fix = _make_strict_fix(node, pointer, optional)
        for name in optional:
            yield Finding(
                NOT_REQUIRED.code,
                f"OpenAI strict ({why}): property '{name}' must be listed in 'required'; "
                'make it optional with a null type (["T", "null"]) instead',
                (*pointer, "properties", name),
                "key",
                fixes=(fix,),
                data={"property": name},
            )


def _make_strict_fix(node: dict[str, Any], pointer: Pointer, optional: list[str]) -> Fix:
    properties: dict[str, Any] = node["properties"]
    edits: list[FixEdit] = []
    all_names = json.dumps(list(properties))
    if isinstance(node.get("required"), list):
        edits.append(ReplaceValue((*pointer, "required"), all_names))
        inserts: list[tuple[str, str]] = []
    else:
        inserts = [("required", all_names)]
    if node.get("additionalProperties") is not False and "additionalProperties" not in node:
        inserts.append(("additionalProperties", "false"))
    if inserts:
        edits.append(InsertMembers(pointer, tuple(inserts)))
    for name in optional:
        sub = properties.get(name)
        where = (*pointer, "properties", name)
        if not isinstance(sub, dict):
            continue
        kind = sub.get("type")
        if isinstance(kind, str) and kind != "null":
            edits.append(ReplaceValue((*where, "type"), json.dumps([kind, "null"])))
        elif isinstance(kind, list) and "null" not in kind:
            edits.append(ReplaceValue((*where, "type"), json.dumps([*kind, "null"])))
        elif isinstance(sub.get("anyOf"), list) and {"type": "null"} not in sub["anyOf"]:
            edits.append(ReplaceValue((*where, "anyOf"), json.dumps([*sub["anyOf"], {"type": "null"}])))
        elif kind is None and "$ref" in sub:
            edits.append(ReplaceValue(where, json.dumps({"anyOf": [sub, {"type": "null"}]})))
        values = sub.get("enum")
        if isinstance(values, list) and None not in values:
            edits.append(ReplaceValue((*where, "enum"), json.dumps([*values, None])))
    return Fix("Make strict: require every property, optional ones nullable", tuple(edits), safe=False)


def _anthropic_strict(view: ToolView, walk: SchemaWalk, base: Pointer, why: str) -> Iterator[Finding]:
    for entry in walk.nodes:
        node = entry.node
        pointer = (*base, *entry.pointer)
        for keyword in ANTHROPIC_STRICT_UNSUPPORTED:
            if keyword in node:
                yield Finding(
                    UNSUPPORTED.code,
                    f"Anthropic strict ({why}) does not support '{keyword}' (the SDK moves it into the description)",
                    (*pointer, keyword),
                    "key",
                )
        min_items = node.get("minItems")
        if isinstance(min_items, int) and min_items not in (0, 1):
            yield Finding(
                UNSUPPORTED.code,
                f"Anthropic strict ({why}) supports minItems 0 or 1 only, found {min_items}",
                (*pointer, "minItems"),
            )
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt not in ANTHROPIC_STRICT_FORMATS:
            yield Finding(
                UNSUPPORTED.code,
                f"Anthropic strict ({why}) does not support format {short_repr(fmt)}",
                (*pointer, "format"),
            )
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            yield Finding(
                UNSUPPORTED.code,
                f"Anthropic strict ({why}) does not support external $ref {short_repr(ref)}",
                (*pointer, "$ref"),
            )
        values = node.get("enum")
        if isinstance(values, list):
            for index, value in enumerate(values):
                if isinstance(value, (dict, list)):
                    yield Finding(
                        ENUM_NOT_PRIMITIVE.code,
                        f"Anthropic strict ({why}): enum values must be primitives, found {short_repr(value)}",
                        (*pointer, "enum", index),
                    )
    budget = tool_budget(view.schema)
    if budget.recursive:
        yield Finding(
            RECURSIVE.code,
            f"Anthropic strict ({why}) does not support recursive schemas (a $ref cycle)",
            base,
            "key",
        )


def _limits(view: ToolView, profile: str, settings: Settings, why: str) -> Iterator[Finding]:
    limits = profile_limits(profile, settings)
    budget = tool_budget(view.schema, settings.limits.max_schema_depth, settings.limits.max_subschemas)
    provider = PROFILES[profile].provider
    for what, limit, count in over_limits(budget, limits):
        yield Finding(
            LIMIT.code,
            f"{provider} strict ({why}) allows at most {limit} {what}; this tool has {count} "
            f"(limit as of {AS_OF}; override in profile_limits.{profile})",
            view.schema_pointer,
            "key",
        )
    if (
        limits.max_large_enum_chars is not None
        and budget.largest_enum > LARGE_ENUM
        and budget.largest_enum_chars > limits.max_large_enum_chars
    ):
        yield Finding(
            LIMIT.code,
            f"{provider} strict ({why}): an enum of more than {LARGE_ENUM} values may have at most "
            f"{limits.max_large_enum_chars} characters; the largest has {budget.largest_enum_chars}",
            view.schema_pointer,
            "key",
        )


def gemini_subset_applies(view: ToolView) -> bool:
    """Whether the `parameters` subset judges this tool's schema: not a `parametersJsonSchema` (plain JSON Schema),
    nor an MCP tool, which Gemini CLI forwards as `parametersJsonSchema`."""
    return view.dialect != "mcp" and not (view.schema_pointer and view.schema_pointer[-1] in JSON_SCHEMA_KEYS)


def _gemini(walk: SchemaWalk, base: Pointer) -> Iterator[Finding]:
    for entry in walk.nodes:
        node = entry.node
        pointer = (*base, *entry.pointer)
        for keyword in node:
            if keyword in VERTEX_EXTRA_KEYWORDS:
                yield Finding(
                    GEMINI.code,
                    f"The Gemini API's function parameters (OpenAPI 3.0 subset) do not support '{keyword}' (Vertex "
                    "AI's do); for the Gemini API send the schema as `parametersJsonSchema`",
                    (*pointer, keyword),
                    "key",
                )
            elif keyword not in GEMINI_KEYWORDS:
                yield Finding(
                    GEMINI.code,
                    f"Gemini function parameters (OpenAPI 3.0 subset) do not support '{keyword}'",
                    (*pointer, keyword),
                    "key",
                )
        if isinstance(node.get("type"), list):
            yield Finding(
                GEMINI.code,
                'Gemini: `type` must be a single type name; use "nullable": true for null',
                (*pointer, "type"),
            )
        values = node.get("enum")
        if isinstance(values, list) and any(not isinstance(v, str) for v in values):
            yield Finding(GEMINI.code, "Gemini: enum values must be strings", (*pointer, "enum"))


# --- per file: how many tools -----------------------------------------------------------------------------


@CATALOG.file_check("tool")
def tool_counts(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    # Runs on every check of the file, over all its units: counts first, budgets only when they can matter.
    tools = [u for u in units if u.kind == "tool" and u.dialect in SCHEMA_KEY and isinstance(u.value, dict)]
    if not tools:
        return
    enabled = set(enabled_profiles(ctx.settings))
    dialects = {u.dialect for u in tools}
    if enabled & {"openai", "openai-strict"} or dialects & {"openai", "openai-flat"}:
        limit = profile_limits("openai", ctx.settings).max_tools
        if limit is not None and len(tools) > limit:
            yield Finding(
                TOO_MANY_TOOLS.code,
                f"OpenAI accepts at most {limit} tools per request; this file defines {len(tools)} "
                f"(limit as of {AS_OF})",
                _name_pointer(tools[limit]),
            )
    if "anthropic-strict" in enabled:
        strict = tools
    else:
        strict = [u for u in tools if u.dialect == "anthropic" and u.value.get("strict") is True]
    if not strict:
        return
    limits = profile_limits("anthropic-strict", ctx.settings)
    if limits.max_strict_tools is not None and len(strict) > limits.max_strict_tools:
        yield Finding(
            TOO_MANY_TOOLS.code,
            f"Anthropic accepts at most {limits.max_strict_tools} strict tools per request; this file has "
            f"{len(strict)} (limit as of {AS_OF})",
            _name_pointer(strict[limits.max_strict_tools]),
        )
    if len(strict) < 2 or (limits.max_optional_parameters is None and limits.max_union_parameters is None):
        return
    budgets = [_BUDGETS.get((unit_key(u), u.dialect), functools.partial(_budget, u)) for u in strict]
    for total, limit, what in (
        (sum(b.optional_parameters for b in budgets if b), limits.max_optional_parameters, "optional parameters"),
        (sum(b.union_parameters for b in budgets if b), limits.max_union_parameters, "union parameters"),
    ):
        if limit is not None and total > limit:
            yield Finding(
                TOO_MANY_TOOLS.code,
                f"Anthropic strict tools may have at most {limit} {what} in total per request; the strict tools "
                f"in this file have {total} (limit as of {AS_OF})",
                _name_pointer(strict[0]),
            )


def _name_pointer(unit: Unit) -> Pointer:
    return (*unit.pointer, *NAME_KEY[unit.dialect or "anthropic"])


_BUDGETS: ContentMemo[Budget | None] = ContentMemo(4096)


def _budget(unit: Unit) -> Budget | None:
    view = tool_view(unit)
    return tool_budget(view.schema) if view is not None and isinstance(view.schema, dict) else None
