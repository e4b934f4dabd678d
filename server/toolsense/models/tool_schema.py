"""The strict JSON Schema of a pydantic model, and a whole tool definition made from it, for `toolsense schema`
and the MCP server's `schema_for_model` tool.

Strict: `additionalProperties: false` on every object, enums by value with the description registered in the
enum schema helpers (`ENUM_SCHEMAS`). `examples` in the model's `json_schema_extra` become the Anthropic tool's
`input_examples`, validated by the model first.
"""

from __future__ import annotations

import inspect
from typing import Any

from pydantic import BaseModel, ValidationError

from .base import ENUM_SCHEMAS, EnumSchemaRegistry, strict_json_schema
from .errors import format_validation_errors


def generate_schema(model: type[BaseModel], registry: EnumSchemaRegistry | None = None) -> dict[str, Any]:
    """The model's strict JSON Schema, with registered enum fragments as the enums' definitions."""
    registry = registry or ENUM_SCHEMAS
    schema = strict_json_schema(model)
    defs = schema.get("$defs")
    if isinstance(defs, dict):
        for name, definition in defs.items():
            fragment = _registered(registry, name, definition)
            if fragment is not None:
                definition.update(fragment)
    return schema


def _registered(registry: EnumSchemaRegistry, name: str, definition: Any) -> dict[str, Any] | None:
    if not isinstance(definition, dict) or not isinstance(definition.get("enum"), list):
        return None
    try:
        entry = registry.get(name)
    except KeyError:
        return None
    if list(entry.values) != definition["enum"]:
        return None
    return {"type": entry.json_type, "description": entry.description, "enum": list(entry.values)}


def tool_definition(
    model: type[BaseModel],
    name: str,
    description: str | None,
    dialect: str = "anthropic",
    registry: EnumSchemaRegistry | None = None,
) -> dict[str, Any]:
    """A whole tool definition for the model (raises ValueError when an example is invalid)."""
    schema = generate_schema(model, registry)
    text = description if description is not None else inspect.cleandoc(model.__doc__ or "")
    examples = schema.get("examples") if isinstance(schema.get("examples"), list) else None
    for index, example in enumerate(examples or []):
        try:
            model.model_validate(example)
        except ValidationError as error:
            raise ValueError(format_validation_errors(error, f"example {index + 1} of {model.__name__}")) from error
    if dialect == "mcp":
        return {"name": name, "description": text, "inputSchema": schema}
    if dialect == "openai":
        return {"type": "function", "function": {"name": name, "description": text, "parameters": schema}}
    tool: dict[str, Any] = {"name": name, "description": text}
    if examples is not None:
        del schema["examples"]
    tool["input_schema"] = schema
    if examples:
        tool["input_examples"] = examples
    return tool
