"""`toolsense schema MODULE:MODEL [--tool NAME --description …] [--dialect …] [--python-path …]`

Prints the strict JSON Schema of a pydantic model — `additionalProperties: false` on every object, enums by
value with the description registered in the enum schema helpers (`ENUM_SCHEMAS`) — or, with `--tool`, a whole
tool definition in the chosen dialect, so tool definitions are regenerated from the models instead of being
hand-edited (and drifting). `examples` in the model's `json_schema_extra` become the Anthropic tool's
`input_examples`, validated by the model first.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from ..models.tool_schema import generate_schema, tool_definition
from ..settings import Settings
from ..usermodels import load_models, split_target

EXIT_OK, EXIT_USAGE = 0, 2
__all__ = ["generate_schema", "print_schema", "tool_definition"]


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
