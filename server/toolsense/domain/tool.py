"""What every tool-definition rule asks of a unit: where the name, description, schema and examples are, per
dialect; and a bounded walk over every subschema of a JSON Schema.

Pure helpers (no findings): the rule families in `names`, `json_schema`, `strictness`, `examples`,
`descriptions`, `mcp`, `profiles` and `drift` share them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from ..document.jsontree import Pointer
from ..engine.units import Unit
from ..jsonvalue import JsonObject, JsonValue
from ..models.definitions import DESCRIPTION_KEY, EXAMPLES_KEY, NAME_KEY, SCHEMA_KEY, schema_pointer
from ..models.dialects import Dialect, lower_types

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

STRICT_KEY: dict[str, Pointer] = {
    "anthropic": ("strict",),
    "openai": ("function", "strict"),
    "openai-flat": ("strict",),
    "bedrock": ("toolSpec", "strict"),
}

DIALECT_LABEL: dict[str, str] = {dialect: dialect.label for dialect in Dialect}
"""The word for a unit of each dialect in messages ("OpenAI function", "Gemini function declaration")."""


def value_at(value: JsonValue, pointer: Pointer) -> JsonValue:
    """The value at pointer, or None when the path does not exist."""
    node = value
    for part in pointer:
        if isinstance(node, dict) and isinstance(part, str):
            if part not in node:
                return None
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def has_path(value: JsonValue, pointer: Pointer) -> bool:
    node = value
    for part in pointer:
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            node = node[part]
            continue
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            continue
        return False
    return True


@dataclass(frozen=True)
class ToolView:
    """A function tool's parts, with pointers relative to the unit."""

    dialect: str
    value: JsonObject
    name: str | None
    name_pointer: Pointer
    schema: JsonValue
    schema_pointer: Pointer
    description: JsonValue
    description_pointer: Pointer
    strict: bool
    strict_pointer: Pointer | None

    @property
    def label(self) -> str:
        base = DIALECT_LABEL.get(self.dialect, "tool")
        return f"{base} '{self.name}'" if self.name else base

    @property
    def examples(self) -> JsonValue:
        key = EXAMPLES_KEY.get(self.dialect)
        return value_at(self.value, key) if key else None

    @property
    def examples_pointer(self) -> Pointer | None:
        return EXAMPLES_KEY.get(self.dialect)

    @property
    def has_schema(self) -> bool:
        return has_path(self.value, self.schema_pointer)


def tool_view(unit: Unit) -> ToolView | None:
    """The tool's parts; None for units that are not function tools of a known dialect (kept with the unit:
    every family asks)."""
    derived = unit.derived
    if "view" not in derived:
        derived["view"] = _tool_view(unit)
    view: ToolView | None = derived["view"]
    return view


def _tool_view(unit: Unit) -> ToolView | None:
    dialect = unit.dialect
    if unit.kind != "tool" or dialect not in SCHEMA_KEY or not isinstance(unit.value, dict):
        return None
    value = unit.value
    name = value_at(value, NAME_KEY[dialect])
    strict_pointer = STRICT_KEY.get(dialect)
    strict = strict_pointer is not None and value_at(value, strict_pointer) is True
    pointer = schema_pointer(dialect, value)
    schema = value_at(value, pointer)
    if dialect == Dialect.GEMINI and pointer == SCHEMA_KEY[dialect]:
        # Gemini's OpenAPI subset spells types in upper case (OBJECT); the schema rules read JSON Schema.
        schema = lower_types(schema)
    return ToolView(
        dialect=dialect,
        value=value,
        name=name if isinstance(name, str) else None,
        name_pointer=NAME_KEY[dialect],
        schema=schema,
        schema_pointer=pointer,
        description=value_at(value, DESCRIPTION_KEY[dialect]),
        description_pointer=DESCRIPTION_KEY[dialect],
        strict=strict,
        strict_pointer=strict_pointer,
    )


def _digest(unit: Unit) -> bytes:
    # marshal format 0 (no references, no interning flags) encodes equal JSON values as equal bytes and tells
    # 1, 1.0 and true apart, four times faster than json.dumps; too deep for marshal falls back to the JSON text.
    try:
        data = marshal.dumps(unit.value, 0)
    except ValueError:
        text = json.dumps(unit.value, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
        data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=20).digest()


def unit_key(unit: Unit) -> bytes:
    """A digest of the unit's value (compact JSON): the key under which rules memoise their findings by content
    (a keystroke re-checks one unit; a file that breaks and heals re-checks them all, at the cost of a lookup).
    A digest, not the text, so a memo of thousands of units stays small."""
    key: bytes | None = unit.derived.get("key")
    if key is None:
        key = unit.derived["key"] = _digest(unit)
    return key


T = TypeVar("T")


class ContentMemo(Generic[T]):
    """Results by content (a unit's key and the settings they depend on), the `size` most recently used kept. A
    cache: losing it changes nothing but time. Computations get the live unit, so nothing is parsed twice."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._data: dict[Hashable, T] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        found = self._data.pop(key, _MISSING)
        if found is not _MISSING:
            self._data[key] = found  # type: ignore[assignment]  # most recently used last
            return found  # type: ignore[return-value]
        value = compute()
        if len(self._data) >= self._size:
            with contextlib.suppress(StopIteration, KeyError, RuntimeError):
                del self._data[next(iter(self._data))]
        self._data[key] = value
        return value


_MISSING = object()
_WALKS: ContentMemo[SchemaWalk] = ContentMemo(64)


def input_walk(unit: Unit, max_depth: int, max_nodes: int) -> SchemaWalk:
    """The walk of a tool's input schema, done once for all the families that need it."""

    def walk() -> SchemaWalk:
        view = tool_view(unit)
        return walk_schema(view.schema if view is not None else None, max_depth, max_nodes)

    return _WALKS.get((unit_key(unit), unit.dialect, max_depth, max_nodes), walk)


# --- walking a JSON Schema -------------------------------------------------------------------------------

SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_SINGLES = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "contentSchema",
)
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems", "items")


class SchemaNode(NamedTuple):
    """One subschema: its pointer (relative to the walked schema), nesting depth, and how it was reached (a
    tuple: a walk makes one per subschema of every tool, and a tuple is made several times faster than a frozen
    dataclass)."""

    pointer: Pointer
    node: JsonObject
    depth: int
    via: str
    """The keyword that led here: "" for the root, "properties", "items", "$defs", "anyOf", …"""
    conditional: bool = False
    """Reached through `not`, `if`, `propertyNames`, `contains` or `dependentSchemas`: not a value's own shape."""
    in_all_of: bool = False
    """Reached through an `allOf` branch (closing such a branch would forbid its siblings' properties)."""

    @property
    def property_name(self) -> str | None:
        if self.via == "properties" and self.pointer and isinstance(self.pointer[-1], str):
            return self.pointer[-1]
        return None


@dataclass(frozen=True)
class SchemaWalk:
    nodes: list[SchemaNode]
    truncated: str | None
    """Why the walk stopped early (too deep, too many subschemas), or None."""
    keys: frozenset[str]
    """Every key of every walked subschema: a rule looking for a keyword (`$ref`, `enum`) no subschema has skips
    the walk."""


def walk_schema(schema: JsonValue, max_depth: int = 64, max_nodes: int = 20_000) -> SchemaWalk:
    """Every object subschema, depth first in document order, bounded by depth and count."""
    nodes: list[SchemaNode] = []
    keys: set[str] = set()
    truncated: str | None = None
    new = tuple.__new__  # each stack entry is made as the node it may become (the NamedTuple's own __new__ is slower)
    stack: list[SchemaNode] = [new(SchemaNode, ((), schema, 0, "", False, False))]
    kinds = _CHILD_KINDS
    while stack:
        entry = stack.pop()
        pointer, node, depth, _, conditional, in_all_of = entry
        if not isinstance(node, dict):
            continue
        if depth > max_depth:
            truncated = f"nested deeper than {max_depth} levels (limits.max_schema_depth)"
            continue
        if len(nodes) >= max_nodes:
            truncated = f"more than {max_nodes} subschemas (limits.max_subschemas)"
            break
        nodes.append(entry)
        keys.update(node)
        children: list[SchemaNode] | None = None
        below = depth + 1
        for key, child in node.items():
            kind = kinds.get(key)
            if kind is None:
                continue  # most keys of a schema are not subschemas: one lookup skips them
            if kind in (_MAP, _SINGLE):
                if not isinstance(child, dict):
                    continue
            elif kind == _LIST:
                if not isinstance(child, list):
                    continue
            elif not isinstance(child, (dict, list)):  # "items": a list of schemas, or one
                continue
            cond = conditional or key in _CONDITIONAL
            all_of = in_all_of or key == "allOf"
            if children is None:
                children = []
            if isinstance(child, list):
                children.extend(
                    new(SchemaNode, ((*pointer, key, i), sub, below, key, cond, all_of)) for i, sub in enumerate(child)
                )
            elif kind == _MAP:
                children.extend(
                    new(SchemaNode, ((*pointer, key, name), sub, below, key, cond, all_of))
                    for name, sub in child.items()
                )
            else:
                children.append(new(SchemaNode, ((*pointer, key), child, below, key, cond, all_of)))
        if children is not None:
            stack.extend(reversed(children))
    return SchemaWalk(nodes, truncated, frozenset(keys))


_MAP, _SINGLE, _LIST, _LIST_OR_SINGLE = 1, 2, 3, 4
_CHILD_KINDS: dict[str, int] = {
    **{key: _MAP for key in SCHEMA_MAPS},
    **{key: _SINGLE for key in SCHEMA_SINGLES},
    **{key: _LIST for key in SCHEMA_LISTS},
    "items": _LIST_OR_SINGLE,
}
"""What each subschema keyword holds: a map of schemas, one schema, a list of schemas, or either (`items`)."""
_CONDITIONAL = frozenset({"not", "if", "propertyNames", "contains", "dependentSchemas"})


def is_object_schema(node: JsonObject) -> bool:
    """A schema that describes objects: `type: object` (or a list with it), or properties without a type."""
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        return True
    return kind is None and isinstance(node.get("properties"), dict) and "$ref" not in node


def types_of(node: JsonObject) -> list[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        return [kind]
    if isinstance(kind, list):
        return [k for k in kind if isinstance(k, str)]
    return []


def iter_refs(walk: SchemaWalk) -> Iterator[tuple[Pointer, str]]:
    for entry in walk.nodes:
        ref = entry.node.get("$ref")
        if isinstance(ref, str):
            yield (*entry.pointer, "$ref"), ref
