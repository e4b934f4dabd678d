"""JSON values as `json.loads` returns them, and how messages name and show them."""

from __future__ import annotations

import json
from typing import TypeAlias

from .textsafety import escape

JsonValue: TypeAlias = "dict[str, JsonValue] | list[JsonValue] | str | int | float | bool | None"
"""A value decoded from JSON (or TOML): what a unit, a schema or a setting holds."""

JsonObject: TypeAlias = "dict[str, JsonValue]"


def json_type_name(value: object) -> str:
    """The JSON type of a value as JSON Schema names it (`boolean` before `integer`: bool is an int in Python);
    a value JSON cannot hold is named by its Python type."""
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
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def short_repr(value: object, limit: int = 60) -> str:
    """The value as a message shows it: JSON when it is JSON, cut to `limit` characters, invisible and control
    characters written `<U+XXXX>` (a message never carries them: `textsafety.messages`)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return escape(text if len(text) <= limit else text[: limit - 1] + "…")


def loads(text: str | bytes | bytearray) -> JsonValue:
    """`json.loads`, typed: what it returns is JSON."""
    value: JsonValue = json.loads(text)
    return value
