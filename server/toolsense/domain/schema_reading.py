"""What a JSON Schema says, read for comparing two versions of it (`schema_diff`): the types it allows, its
allowed values, its constraint keywords by direction, its local `$ref`s, its alternatives (`anyOf`/`oneOf`)."""

from __future__ import annotations

from urllib.parse import unquote

from ..document.jsontree import Pointer
from ..engine.equality import json_equal
from ..jsonvalue import JsonValue, short_repr

MAX_DEPTH = 64
TEXTS = ("description", "title")
UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
EXACT = ("pattern", "format", "multipleOf", "uniqueItems", "contentEncoding", "contentMediaType")
IGNORED = ("$comment", "$schema", "$id", "$defs", "definitions")
"""Not compared as keywords: `$defs` are compared through the `$ref`s that use them."""
HANDLED = frozenset(
    (
        *TEXTS,
        *UPPER,
        *LOWER,
        *EXACT,
        *IGNORED,
        "type",
        "nullable",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "anyOf",
        "oneOf",
        "$ref",
        "default",
        "examples",
    )
)
TYPE_ORDER = ("string", "number", "integer", "boolean", "object", "array", "null")
IMPLY_TYPE = ("properties", "items", "enum", "const", "anyOf", "oneOf", "$ref")


def allowed_types(schema: dict[str, JsonValue]) -> frozenset[str] | None:
    """The JSON types a schema allows by its `type` (and OpenAPI's `nullable`); None: any."""
    declared = schema.get("type")
    if isinstance(declared, str):
        found = {declared}
    elif isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        found = {str(t) for t in declared}
    else:
        return None
    if schema.get("nullable") is True:
        found.add("null")
    return frozenset(found)


def types_within(inner: frozenset[str], outer: frozenset[str]) -> bool:
    return all(t in outer or (t == "integer" and "number" in outer) for t in inner)


def type_text(types: frozenset[str] | None) -> str:
    if types is None:
        return "any"
    return "|".join(sorted(types, key=lambda t: TYPE_ORDER.index(t) if t in TYPE_ORDER else len(TYPE_ORDER)))


def allowed_values(schema: dict[str, JsonValue]) -> list[JsonValue] | None:
    if isinstance(schema.get("enum"), list):
        values: list[JsonValue] = schema["enum"]  # type: ignore[assignment]
        return values
    if "const" in schema:
        return [schema["const"]]
    return None


def values_text(values: list[JsonValue]) -> str:
    shown = ", ".join(short_repr(v, 30) for v in values[:5])
    return shown + (f" and {len(values) - 5} more" if len(values) > 5 else "")


def as_number(value: JsonValue) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def as_schema(value: JsonValue) -> dict[str, JsonValue]:
    """A subschema as an object: `true` or nothing is `{}` (anything); `false` is `{"not": {}}` (nothing)."""
    if isinstance(value, dict):
        return value
    return {"not": {}} if value is False else {}


def resolve_local(root: JsonValue, ref: str) -> tuple[JsonValue, Pointer] | None:
    """A local reference (`#/$defs/Name`, RFC 6901 with percent-decoding) inside root; None when not local."""
    if not ref.startswith("#"):
        return None
    node, pointer = root, list[str | int]()
    for raw in unquote(ref[1:]).split("/")[1:] if ref != "#" else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
            pointer.append(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
            pointer.append(int(part))
        else:
            return None
    return node, tuple(pointer)


def has_ref(value: JsonValue, budget: int = 10_000) -> bool:
    """Whether a `$ref` is anywhere in value (bounded: past `budget` nodes, assume one is)."""
    stack, seen = [value], 0
    while stack:
        node = stack.pop()
        seen += 1
        if seen > budget:
            return True
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def alternatives_of(schema: dict[str, JsonValue]) -> tuple[str, list[JsonValue]] | None:
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            return keyword, branches
    return None


def keyword_at(pointer: Pointer, schema: dict[str, JsonValue], keyword: str) -> Pointer:
    """The keyword's pointer where the schema has it, else the schema's own."""
    return (*pointer, keyword) if keyword in schema else pointer


def keyword_shown(schema: dict[str, JsonValue], keyword: str) -> str:
    return short_repr(schema[keyword], 40) if keyword in schema else "(none)"


def indexed(pointer: Pointer, index: int) -> Pointer:
    return (*pointer, index)


def same_place(pointer: Pointer, index: int) -> Pointer:
    return pointer


def member_map(value: JsonValue) -> dict[str, JsonValue]:
    return value if isinstance(value, dict) else {}


def name_list(value: JsonValue) -> list[str]:
    return [name for name in value if isinstance(name, str)] if isinstance(value, list) else []


def pairs_by_type(
    old: list[JsonValue], new: list[JsonValue], gone: list[int], came: list[int]
) -> list[tuple[int, int]]:
    """Changed branches paired when exactly one on each side has the same `type`: compared in depth, not as a
    branch removed and another added."""
    pairs = []
    for i in gone:
        kind = as_schema(old[i]).get("type")
        if kind is None:
            continue
        olds = [x for x in gone if json_equal(as_schema(old[x]).get("type"), kind)]
        news = [j for j in came if json_equal(as_schema(new[j]).get("type"), kind)]
        if len(olds) == 1 and len(news) == 1:
            pairs.append((i, news[0]))
    return pairs
