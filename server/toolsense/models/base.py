"""StrictModel, the enum schema helpers and `strict_json_schema` — importable by users' runtime code."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..jsonvalue import json_type_name


class StrictModel(BaseModel):
    """extra="forbid": unknown keys are errors, so the JSON Schema says `additionalProperties: false`.

    Enums are validated by value (`"="`, never the member name `"EQUALS"`) and emitted by value.
    """

    model_config = ConfigDict(extra="forbid", use_enum_values=True, populate_by_name=True, defer_build=True)


@dataclass(frozen=True)
class EnumSchema:
    """The one JSON Schema fragment for an enum: every tool that uses the enum gets exactly this."""

    values: tuple[Any, ...]
    description: str
    default: Any = None
    meanings: dict[Any, str] = field(default_factory=dict)
    source: type[Enum] | None = None

    @property
    def json_type(self) -> str:
        kinds = {json_type_name(value) for value in self.values}
        return kinds.pop() if len(kinds) == 1 else "string"

    def fragment(self, *, include_default: bool = False, description: str | None = None) -> dict[str, Any]:
        """`{"type", "description", "enum"}` (+ `"default"` when asked and known)."""
        result: dict[str, Any] = {
            "type": self.json_type,
            "description": description or self.description,
            "enum": list(self.values),
        }
        if include_default and self.default is not None:
            result["default"] = self.default
        return result


class UnregisteredEnumError(KeyError):
    """An enum was looked up (e.g. by `enum_field`) before it was registered. A KeyError, so callers that probe the
    registry with `except KeyError` keep working; its message says how to register the enum."""

    def __init__(self, name: str, registry_name: str) -> None:
        super().__init__(name)
        self.name = name
        self.registry_name = registry_name

    def __str__(self) -> str:
        where = " (from toolsense.models import ENUM_SCHEMAS)" if self.registry_name == "ENUM_SCHEMAS" else ""
        return (
            f"enum {self.name} is not registered in {self.registry_name}: register it once, before the models that "
            f'use it, with {self.registry_name}.register({self.name}, "<description>"){where}; '
            f'for a one-off schema fragment without registering, use enum_schema({self.name}, "<description>")'
        )


class EnumSchemaRegistry:
    """Maps an enum (a Python Enum class or a named list of values) to its single schema fragment."""

    def __init__(self) -> None:
        self._by_name: dict[str, EnumSchema] = {}

    def register(
        self,
        source: type[Enum] | tuple[str, Iterable[Any]],
        description: str,
        *,
        default: Any = None,
        meanings: dict[Any, str] | None = None,
    ) -> EnumSchema:
        """Register an Enum class (values taken from its members) or `(name, values)`."""
        if isinstance(source, tuple):
            name, raw_values = source
            values = tuple(raw_values)
            enum_class = None
        else:
            name, enum_class = source.__name__, source
            values = tuple(member.value for member in source)
            if meanings is None:
                meanings = {m.value: _member_doc(m) for m in source if _member_doc(m)}
        if isinstance(default, Enum):
            default = default.value
        if default is not None and default not in values:
            raise ValueError(f"default {default!r} is not one of {name}'s values")
        schema = EnumSchema(values, description, default, dict(meanings or {}), enum_class)
        self._by_name[name] = schema
        return schema

    def get(self, source: type[Enum] | str) -> EnumSchema:
        name = source if isinstance(source, str) else source.__name__
        try:
            return self._by_name[name]
        except KeyError:
            registry_name = "ENUM_SCHEMAS" if self is ENUM_SCHEMAS else "registry"
            raise UnregisteredEnumError(name, registry_name) from None

    def fragment(self, source: type[Enum] | str, **options: Any) -> dict[str, Any]:
        return self.get(source).fragment(**options)

    def names(self) -> list[str]:
        return sorted(self._by_name)


def _member_doc(member: Enum) -> str:
    doc = getattr(member, "__doc__", None)
    class_doc = type(member).__doc__
    return doc.strip() if doc and doc != class_doc else ""


ENUM_SCHEMAS = EnumSchemaRegistry()
"""The default registry. `ENUM_SCHEMAS.register(CalcOp, "Calculation operation")`."""


def enum_schema(enum_class: type[Enum], description: str, *, default: Any = None) -> dict[str, Any]:
    """One-off fragment for an enum without registering it: values, never member names."""
    values = [member.value for member in enum_class]
    result: dict[str, Any] = {
        "type": json_type_name(values[0]) if values else "string",
        "description": description,
        "enum": values,
    }
    if default is not None:
        result["default"] = default.value if isinstance(default, Enum) else default
    return result


def enum_field(enum_class: type[Enum], *, default: Any = ..., registry: EnumSchemaRegistry | None = None) -> Any:
    """A pydantic Field whose description comes from the enum's registered fragment (one source of truth)."""
    schema = (registry or ENUM_SCHEMAS).get(enum_class)
    if isinstance(default, Enum):
        default = default.value
    return Field(default=default, description=schema.description)


def strict_json_schema(model: type[BaseModel], *, by_alias: bool = True) -> dict[str, Any]:
    """`model.model_json_schema()` with `additionalProperties: false` on every object schema.

    Nested models, `$defs`, `items` and `anyOf` branches included. Objects that explicitly allow extra keys
    (`dict[str, Any]` → `additionalProperties: true`, or a schema for the values) keep what they say.
    """
    schema = copy.deepcopy(model.model_json_schema(by_alias=by_alias))
    close_objects(schema)
    return schema


_SCHEMA_MAPS = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})


def close_objects(schema: Any) -> None:
    """In place: every object schema without an `additionalProperties` gets `false`."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            is_object = node.get("type") == "object" or (
                "properties" in node and "type" not in node and "$ref" not in node
            )
            if is_object and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for key, child in node.items():
                if key in ("enum", "const", "default", "examples", "required"):
                    continue
                if key in _SCHEMA_MAPS and isinstance(child, dict):
                    stack.extend(child.values())
                else:
                    stack.append(child)
        elif isinstance(node, list):
            stack.extend(node)
