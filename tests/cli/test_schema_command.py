"""`toolsense schema MODULE:MODEL [--tool NAME --description …] [--dialect] [--python-path]`."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from checking import MODEL_FIXTURES

from toolsense.cli.schema_command import generate_schema, print_schema, tool_definition
from toolsense.domain.tool import is_object_schema, walk_schema
from toolsense.models import ENUM_SCHEMAS


def print_schema_of(
    model: str,
    *,
    tool: str | None = None,
    description: str | None = None,
    dialect: str = "anthropic",
    python_path: tuple[str, ...] = (str(MODEL_FIXTURES),),
) -> tuple[int, str, str]:
    args = argparse.Namespace(
        model=model, tool=tool, description=description, dialect=dialect, python_path=list(python_path)
    )
    out, err = io.StringIO(), io.StringIO()
    code = print_schema(args, out, err)
    return code, out.getvalue(), err.getvalue()


def test_the_strict_schema_of_a_model() -> None:
    code, out, err = print_schema_of("tsfx_good:WeatherInput")
    assert (code, err) == (0, "")
    schema = json.loads(out)
    assert schema["required"] == ["place"]
    assert schema["$defs"]["Unit"]["enum"] == ["celsius", "fahrenheit"]
    assert "x-enum-names" not in out  # editor-only metadata never leaks into what users publish
    for entry in walk_schema(schema).nodes:
        if is_object_schema(entry.node):
            assert entry.node["additionalProperties"] is False


@pytest.mark.parametrize(
    ("dialect", "shape"),
    [
        ("anthropic", ["name", "description", "input_schema"]),
        ("mcp", ["name", "description", "inputSchema"]),
        ("openai", ["type", "function"]),
    ],
)
def test_a_whole_tool_definition_in_each_dialect(dialect: str, shape: list[str]) -> None:
    code, out, _ = print_schema_of("tsfx_good:WeatherInput", tool="get_weather", dialect=dialect)
    assert code == 0
    definition = json.loads(out)
    assert list(definition) == shape
    description = definition["function"]["description"] if dialect == "openai" else definition["description"]
    assert description == "Input of get_weather."  # the model's docstring when no --description


def test_registered_enum_fragments_define_the_enums() -> None:
    from enum import Enum

    from pydantic import BaseModel

    class Color(str, Enum):
        RED = "red"
        BLUE = "blue"

    class Paint(BaseModel):
        """Paint."""

        color: Color

    ENUM_SCHEMAS.register(Color, "The one description of Color")
    schema = generate_schema(Paint)
    assert schema["$defs"]["Color"] == {
        "enum": ["red", "blue"],
        "title": "Color",
        "type": "string",
        "description": "The one description of Color",
    }


def test_examples_in_the_model_become_input_examples_after_validation() -> None:
    from pydantic import BaseModel, ConfigDict

    class Good(BaseModel):
        """Good."""

        model_config = ConfigDict(json_schema_extra={"examples": [{"n": 1}]})
        n: int

    definition = tool_definition(Good, "good", None)
    assert definition["input_examples"] == [{"n": 1}] and "examples" not in definition["input_schema"]

    class Bad(BaseModel):
        """Bad."""

        model_config = ConfigDict(json_schema_extra={"examples": [{"n": "x", "m": 2}]})
        n: int

    with pytest.raises(ValueError, match=r"Invalid example 1 of Bad: n - Input should be a valid integer"):
        tool_definition(Bad, "bad", None)


def test_usage_and_import_errors_exit_2_with_a_message() -> None:
    assert print_schema_of("tsfx_good")[0::2] == (
        2,
        "toolsense schema: expected package.module:Model, got 'tsfx_good'\n",
    )
    code, _, err = print_schema_of("tsfx_raises:M")
    assert code == 2 and err == (
        "toolsense schema: tsfx_raises:M: cannot import 'tsfx_raises': RuntimeError: database not configured\n"
    )
    code, _, err = print_schema_of("tsfx_good:NotAModel")
    assert code == 2 and "is not a pydantic model class" in err
