"""Walking JSON Schemas along a JSON pointer: the subschemas that apply at a place, their properties, enums.

Completion, hover and the rules' messages all ask "what does the schema say here?"; this is the one answer.
Local `$ref`s are followed (bounded); remote ones are not (they are never fetched).
"""

from __future__ import annotations

import difflib
import functools
import operator
import re
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..document.jsontree import Pointer
from ..jsonvalue import JsonValue
from .equality import json_equal, json_key
from .formats import conforms

_MAX_REF_HOPS = 32
_BRANCHES = ("anyOf", "oneOf", "allOf")


def resolve_local_ref(root: JsonValue, ref: str) -> JsonValue:
    """`#/$defs/X` inside root; None when it does not resolve or is not local."""
    if not ref.startswith("#"):
        return None
    node: JsonValue = root
    fragment = ref[1:]
    if not fragment:
        return root
    if not fragment.startswith("/"):
        return None
    for raw in fragment[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def expand(schema: JsonValue, root: JsonValue) -> list[dict[str, Any]]:
    """The schema itself plus its `$ref` target and `anyOf`/`oneOf`/`allOf` branches, flattened."""
    result: list[dict[str, Any]] = []
    stack: list[tuple[Any, int]] = [(schema, 0)]
    seen: set[int] = set()
    while stack:
        node, hops = stack.pop()
        if not isinstance(node, dict) or id(node) in seen or hops > _MAX_REF_HOPS:
            continue
        seen.add(id(node))
        result.append(node)
        ref = node.get("$ref")
        if isinstance(ref, str):
            stack.append((resolve_local_ref(root, ref), hops + 1))
        for keyword in _BRANCHES:
            branches = node.get(keyword)
            if isinstance(branches, list):
                stack.extend((branch, hops) for branch in reversed(branches))
    return result


def subschemas_at(schema: JsonValue, pointer: Pointer, root: JsonValue | None = None) -> list[dict[str, Any]]:
    """All (expanded) subschemas that apply to the value at pointer."""
    root = schema if root is None else root
    current = expand(schema, root)
    for part in pointer:
        following: list[dict[str, Any]] = []
        for node in current:
            for child in _children(node, part):
                following.extend(expand(child, root))
        current = following
        if not current:
            break
    return current


def _children(node: dict[str, Any], part: str | int) -> Iterator[Any]:
    if isinstance(part, int):
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and part < len(prefix):
            yield prefix[part]
            return
        items = node.get("items")
        if isinstance(items, list):
            if part < len(items):
                yield items[part]
        elif isinstance(items, dict):
            yield items
        return
    properties = node.get("properties")
    if isinstance(properties, dict) and part in properties:
        yield properties[part]
        return
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield extra


@dataclass(frozen=True)
class PropertyInfo:
    name: str
    schema: dict[str, Any]
    required: bool


def properties_of(schemas: Iterable[dict[str, Any]]) -> list[PropertyInfo]:
    """Properties declared by any of the schemas, required ones first, in declaration order."""
    seen: dict[str, PropertyInfo] = {}
    required: set[str] = set()
    for node in schemas:
        names = node.get("required")
        if isinstance(names, list):
            required.update(name for name in names if isinstance(name, str))
    for node in schemas:
        properties = node.get("properties")
        if not isinstance(properties, dict):
            continue
        for name, sub in properties.items():
            if name not in seen:
                seen[name] = PropertyInfo(name, sub if isinstance(sub, dict) else {}, name in required)
    ordered = list(seen.values())
    return [p for p in ordered if p.required] + [p for p in ordered if not p.required]


def enum_values(schemas: Iterable[dict[str, Any]]) -> list[Any]:
    """The values an `enum`/`const` allows, each once (JSON equality: 1 and 1.0 are one value, true and 1 two).

    Linear in the number of values: a 40,000-value enum once took seconds per look with a list scan each."""
    values: list[Any] = []
    seen: set[Hashable] = set()
    unkeyed: list[Any] = []  # values too deep to key: compared one by one (never in practice)

    def add(candidate: JsonValue) -> None:
        key = json_key(candidate)
        if key is None:
            if not any(json_equal(candidate, other) for other in unkeyed):
                unkeyed.append(candidate)
                values.append(candidate)
        elif key not in seen:
            seen.add(key)
            values.append(candidate)

    for node in schemas:
        enum = node.get("enum")
        if isinstance(enum, list):
            for candidate in enum:
                add(candidate)
        if "const" in node:
            add(node["const"])
    return values


def json_types(schemas: Iterable[dict[str, Any]]) -> set[str]:
    kinds: set[str] = set()
    for node in schemas:
        kind = node.get("type")
        if isinstance(kind, str):
            kinds.add(kind)
        elif isinstance(kind, list):
            kinds.update(k for k in kind if isinstance(k, str))
    return kinds


def description_of(schemas: Iterable[dict[str, Any]]) -> str | None:
    for node in schemas:
        text = node.get("description")
        if isinstance(text, str) and text.strip():
            return text
    return None


def type_label(schemas: list[dict[str, Any]]) -> str:
    kinds = sorted(json_types(schemas))
    if kinds:
        return " | ".join(kinds)
    if enum_values(schemas):
        return "enum"
    return "any"


def closest(name: str, candidates: Iterable[str], limit: int = 3, cutoff: float = 0.6) -> list[str]:
    """Candidates close to name, best first: case-insensitive similarity of at least `cutoff` with few edits
    or a shared word (`nmae` → `name`, not `ALL` → `null`), or name inside the candidate or starting with it.

    Bounded work whatever the number of candidates: at most `MAX_SCORED` of them are compared in full, picked
    by an index of their letter pairs (built once per candidate list); so a file with thousands of unknown keys
    against thousands of properties stays linear."""
    lowered = name.lower()
    given = tuple(candidates)
    shortlist = _shortlist(lowered, given) if len(given) > MAX_SCORED else given
    pool = [c for c in dict.fromkeys(shortlist) if c != name]
    scored: list[tuple[float, str]] = []
    for candidate in pool:
        low = candidate.lower()
        ratio = similarity(lowered, low)
        if ratio is None:
            continue
        if ratio >= cutoff:
            scored.append((ratio, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [candidate for _, candidate in scored[:limit]]


MAX_SCORED = 30
"""The most candidates one did-you-mean compares in full (`closest`)."""


def similarity(lowered: str, low: str) -> float | None:
    """How alike two lower-cased names are (1.0: equal); None when they are not close enough to suggest: more
    than about a quarter of the longer one would have to change."""
    if low == lowered:
        return 1.0
    if min(len(lowered), len(low)) >= 2 and (lowered in low or lowered.startswith(low)):
        return max(0.75, _ratio(lowered, low)[0])  # typed part of it (`temp`), or more (`EQUALS` for `eq`)
    ratio, matched = _ratio(lowered, low)
    longer = max(len(lowered), len(low))
    if matched < longer - max(1, longer // 4) and not _words(lowered) & _words(low):
        return None
    return ratio


_WORD = re.compile(r"[a-z0-9]{3,}")


def _words(lowered: str) -> set[str]:
    """The words of a (lower-cased) snake_case, kebab-case or dotted name, 3+ letters each."""
    return set(_WORD.findall(lowered))


def _ratio(a: str, b: str) -> tuple[float, int]:
    """difflib's ratio and the number of matched characters."""
    matcher = difflib.SequenceMatcher(None, a, b)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    total = len(a) + len(b)
    return (2.0 * matched / total if total else 1.0), matched


def _shortlist(lowered: str, pool: tuple[str, ...]) -> list[str]:
    """The `MAX_SCORED` candidates most likely to be close: sharing the most letter pairs with the name, and
    those of about the same length starting with the same letter (a swapped pair shares no letter pair)."""
    index = _pair_index(pool)
    shared: dict[int, int] = {}
    for pair in {lowered[i : i + 2] for i in range(len(lowered) - 1)}:
        for position in index.pairs.get(pair, ()):
            shared[position] = shared.get(position, 0) + 1
    if lowered:
        for length in range(len(lowered) - 1, len(lowered) + 2):
            for position in index.by_start.get((lowered[0], length), ()):
                shared.setdefault(position, 0)
    size = len(lowered)
    best = sorted(shared, key=lambda p: (-shared[p], abs(len(pool[p]) - size), p))[:MAX_SCORED]
    return [pool[p] for p in sorted(best)]


@dataclass(frozen=True)
class _PairIndex:
    pairs: dict[str, list[int]]
    by_start: dict[tuple[str, int], list[int]]


@functools.lru_cache(maxsize=32)
def _pair_index(pool: tuple[str, ...]) -> _PairIndex:
    """Letter pair → candidates containing it; (first letter, length) → candidates. Keyed by the candidates."""
    pairs: dict[str, list[int]] = {}
    by_start: dict[tuple[str, int], list[int]] = {}
    for position, candidate in enumerate(pool):
        low = candidate.lower()
        for pair in {low[i : i + 2] for i in range(len(low) - 1)}:
            pairs.setdefault(pair, []).append(position)
        if low:
            by_start.setdefault((low[0], len(low)), []).append(position)
    return _PairIndex(pairs, by_start)


# --- a value that certainly satisfies a schema: the common case, decided without building a validator ------

_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": operator.ge,
    "maximum": operator.le,
    "exclusiveMinimum": operator.gt,
    "exclusiveMaximum": operator.lt,
}
_LENGTHS: dict[str, tuple[type[str | list[Any] | dict[str, Any]], bool]] = {
    "minLength": (str, False),
    "maxLength": (str, True),
    "minItems": (list, False),
    "maxItems": (list, True),
    "minProperties": (dict, False),
    "maxProperties": (dict, True),
}
_LATER = frozenset({"properties", "required", "additionalProperties", "items"})
"""Checked with the value's members below."""
_MAX_QUICK_DEPTH = 48


def _is_number(value: JsonValue) -> bool:
    return type(value) in (int, float)


def _has_type(value: JsonValue, name: Any) -> bool | None:
    """Whether value is of the JSON type; None when plain Python cannot say it exactly (floats as integers,
    unknown type names)."""
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return _is_number(value)
    if name == "integer":
        return None if type(value) is float else type(value) is int
    return None


def _same(value: JsonValue, allowed: JsonValue) -> bool:
    """Certainly equal under JSON Schema's equality: only for scalars of one exact type (1 ≠ true there)."""
    return type(value) is type(allowed) and type(value) in (str, int, bool, type(None)) and value == allowed


def certainly_valid(schema: JsonValue, value: JsonValue, validating: frozenset[str], depth: int = 0) -> bool:
    """True only when value certainly satisfies schema: every validating keyword present (`validating`, the
    dialect's validator keywords) is one checked here exactly, and passes. False means "ask the validator" —
    never "invalid". Examples and tool calls are mostly valid; this answers them in microseconds, and the
    validator (with its messages) runs only for the rest."""
    if schema is True:
        return True
    if type(schema) is not dict or depth > _MAX_QUICK_DEPTH:
        return False
    for key, argument in schema.items():
        if key not in validating:
            if key == "$id":
                return False  # an $id to resolve: the validator decides
            continue
        check = _QUICK.get(key)  # one lookup per keyword, the common ones first below
        if check is _LATER_CHECK:
            continue
        if check is _TYPE_CHECK:
            if type(argument) is str:
                if _has_type(value, argument) is not True:
                    return False
            elif not _typed(value, argument):
                return False
        elif check is _ENUM_CHECK:
            if type(argument) is not list or not any(_same(value, allowed) for allowed in argument):
                return False
        elif check is _BOUND_CHECK:
            if _is_number(value) and (not _is_number(argument) or not _BOUNDS[key](value, argument)):
                return False
        elif check is _LENGTH_CHECK:
            applies_to, is_max = _LENGTHS[key]
            if type(argument) is not int:
                return False
            if isinstance(value, applies_to):
                size = len(value)  # code points for strings, as jsonschema counts
                if size > argument if is_max else size < argument:
                    return False
        elif check is _FORMAT_CHECK:
            if not conforms(argument, value):
                return False  # the validator decides (it asserts formats only when asked to)
        elif check is _CONST_CHECK:
            if not _same(value, argument):
                return False
        elif check is _ALL_OF_CHECK:
            if type(argument) is not list or not argument:
                return False
            if not all(certainly_valid(branch, value, validating, depth + 1) for branch in argument):
                return False
        elif check is _ANY_OF_CHECK:
            # jsonschema tries the branches in order and stops at the first that passes; a branch before it may
            # fail or break (an invalid subschema), which only the validator can tell apart: the first must pass.
            if type(argument) is not list or not argument:
                return False
            if not certainly_valid(argument[0], value, validating, depth + 1):
                return False
        else:
            return False  # $ref, pattern, oneOf, patternProperties, not, if, …: the validator decides
    if type(value) is dict:
        return _object_valid(schema, value, validating, depth)
    if type(value) is list and "items" in schema:
        items = schema["items"]
        if not isinstance(items, (dict, bool)):
            return False
        return all(certainly_valid(items, item, validating, depth + 1) for item in value)
    return "required" not in schema or type(schema["required"]) is list


(_LATER_CHECK, _TYPE_CHECK, _ENUM_CHECK, _CONST_CHECK, _BOUND_CHECK, _LENGTH_CHECK, _ALL_OF_CHECK, _ANY_OF_CHECK) = (
    object() for _ in range(8)
)
_FORMAT_CHECK = object()
_QUICK: dict[str, object] = {
    **dict.fromkeys(_LATER, _LATER_CHECK),
    "type": _TYPE_CHECK,
    "enum": _ENUM_CHECK,
    "const": _CONST_CHECK,
    "format": _FORMAT_CHECK,
    **dict.fromkeys(_BOUNDS, _BOUND_CHECK),
    **dict.fromkeys(_LENGTHS, _LENGTH_CHECK),
    "allOf": _ALL_OF_CHECK,
    "anyOf": _ANY_OF_CHECK,
}
"""How `certainly_valid` checks each keyword it handles (any other validating keyword: the validator decides)."""


def _typed(value: JsonValue, kind: Any) -> bool:
    if type(kind) is str:
        return _has_type(value, kind) is True
    if type(kind) is not list or not kind:
        return False
    answers = [_has_type(value, k) for k in kind]
    return None not in answers and True in answers


def _object_valid(schema: dict[str, Any], value: dict[str, Any], validating: frozenset[str], depth: int) -> bool:
    required = schema.get("required", [])
    if not isinstance(required, list):
        return False
    for name in required:
        if not isinstance(name, str) or name not in value:
            return False
    properties = schema.get("properties", {})
    if not isinstance(properties, dict):
        return False
    extra = schema.get("additionalProperties", True)
    if not isinstance(extra, (bool, dict)):
        return False
    for key, item in value.items():
        sub = properties.get(key, extra)
        if sub is True:
            continue
        if sub is False and key not in properties:
            return False
        if not certainly_valid(sub, item, validating, depth + 1):
            return False
    return True
