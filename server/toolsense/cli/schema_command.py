"""`toolsense schema MODULE:MODEL [--tool NAME --description …] [--dialect …] [--python-path …]`

Prints the strict JSON Schema of a pydantic model — `additionalProperties: false` on every object, enums by
value with the description registered in the enum schema helpers (`ENUM_SCHEMAS`) — or, with `--tool`, a whole
tool definition in the chosen dialect, so tool definitions are regenerated from the models instead of being
hand-edited (and drifting). `examples` in the model's `json_schema_extra` become the Anthropic tool's
`input_examples`, validated by the model first.
"""

from __future__ import annotations

import argparse
import inspect
import json
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError

from ..models.base import ENUM_SCHEMAS, EnumSchemaRegistry, strict_json_schema
from ..models.errors import format_validation_errors
from ..settings import Settings
from ..usermodels import load_models, split_target

EXIT_OK, EXIT_USAGE = 0, 2


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


def print_schema(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    target: str = args.model
    if split_target(target) is None:
        err.write(f"toolsense schema: expected package.module:Model, got {target!r}\n")
        return EXIT_USAGE
    key = args.tool or "model"
    root = Path.cwd()
    settings = Settings(models={key: target}, python_path=tuple(args.python_path or ()) or (".",))
    registry = load_models(settings, root)
    for problem in registry.problems:
        err.write(f"toolsense schema: {target}: {problem.message}\n")
    loaded = registry.model_for(key)
    if loaded is None:
        return EXIT_USAGE
    if not args.tool:
        result: dict[str, Any] = generate_schema(loaded.model)
    else:
        description = args.description
        if description is None and not (loaded.model.__doc__ or "").strip():
            err.write("toolsense schema: the model has no docstring; give --description\n")
            return EXIT_USAGE
        try:
            result = tool_definition(loaded.model, args.tool, description, args.dialect or "anthropic")
        except ValueError as error:
            err.write(f"toolsense schema: {error}\n")
            return EXIT_USAGE
    out.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK
