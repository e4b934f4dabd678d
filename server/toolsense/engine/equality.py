"""JSON Schema's equality of JSON values (`enum`, `const`, duplicate enum members, enum drift): numbers by
value (1 == 1.0), booleans apart from numbers (true != 1), objects regardless of key order, arrays in order."""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable

from ..jsonvalue import JsonValue

_KEY_DEPTH = 64


def json_key(value: JsonValue, depth: int = 0) -> Hashable | None:
    """A hashable key equal for JSON-equal values: numbers by value (1 == 1.0), booleans apart from numbers
    (true != 1), objects regardless of key order. None for values nested deeper than `_KEY_DEPTH` or not JSON."""
    if depth > _KEY_DEPTH:
        return None
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        items = [json_key(item, depth + 1) for item in value]
        return None if any(item is None for item in items) else ("array", tuple(items))
    if isinstance(value, dict):
        members = [(name, json_key(item, depth + 1)) for name, item in value.items()]
        return None if any(item is None for _, item in members) else ("object", frozenset(members))
    return None


def value_key(value: JsonValue) -> Hashable:
    """`json_key`, for any value: one nested too deep to key is keyed by its canonical JSON text (numbers as
    written there, so 1 and 1.0 may differ in such a value: never in practice)."""
    key = json_key(value)
    if key is not None:
        return key
    try:
        return ("deep", json.dumps(value, sort_keys=True, allow_nan=True))
    except (TypeError, ValueError, RecursionError):
        return ("deep", repr(value))


def same_value_sets(a: Iterable[JsonValue], b: Iterable[JsonValue]) -> bool:
    """Whether two lists hold the same values, as sets under JSON equality (objects and arrays included)."""
    return {value_key(v) for v in a} == {value_key(v) for v in b}


def json_equal(a: JsonValue, b: JsonValue) -> bool:
    """JSON equality (see `json_key`), for values `json_key` cannot key."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return bool(a == b)
