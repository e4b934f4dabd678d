"""A pydantic model's JSON Schema as toolsense reads it: by alias, with each enum's Python member names beside its
values (`x-enum-names`), so `"EQUALS"` can be fixed to `"="`. Here, below every layer that needs it: the structure
rules (`domain.validation`), completion and hover (`features`) and the schemas of registered user models
(`usermodels`)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from enum import Enum
from typing import Any, get_args

from pydantic import BaseModel


@functools.lru_cache(maxsize=256)
def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema by alias, with enum member names beside their values (read-only: shared)."""
    schema = model.model_json_schema(by_alias=True)
    _add_enum_names(model, schema)
    return schema


def _add_enum_names(model: type[BaseModel], schema: dict[str, Any]) -> None:
    """Record Python member names beside enum values, so `"EQUALS"` can be fixed to `"="`."""
    defs = schema.get("$defs", {})
    seen: set[type[Enum]] = set()
    visited: set[type[BaseModel]] = set()
    stack: list[type[BaseModel]] = [model]
    while stack:
        current = stack.pop()
        if current in visited:
            continue
        visited.add(current)
        for field in current.model_fields.values():
            for annotation in _flatten(field.annotation):
                if isinstance(annotation, type) and issubclass(annotation, Enum) and annotation not in seen:
                    seen.add(annotation)
                    target = defs.get(annotation.__name__)
                    if isinstance(target, dict):
                        target["x-enum-names"] = [m.name for m in annotation]
                elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
                    stack.append(annotation)


def _flatten(annotation: Any) -> Iterator[Any]:
    yield annotation
    for arg in get_args(annotation):
        yield from _flatten(arg)
