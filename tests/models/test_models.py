"""The shared strict models and helpers (`toolsense.models`), as users' runtime code imports them."""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError

from toolsense.models import (
    CoercedBool,
    CoercedInt,
    EnumSchemaRegistry,
    StrictModel,
    coercion_for,
    enum_field,
    enum_schema,
    format_validation_errors,
    strict_json_schema,
    validation_issues,
)
from toolsense.models.definitions import Automation, McpTool, condition_form


class Op(str, Enum):
    EQUALS = "="
    LESS = "<"


class Inner(StrictModel):
    op: Op
    n: int


class Outer(StrictModel):
    inner: Inner
    items: list[Inner] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    anything: dict[str, Any] = Field(default_factory=dict)


def test_strict_model_forbids_extra_keys_and_uses_enum_values() -> None:
    value = Outer.model_validate({"inner": {"op": "=", "n": 1}})
    assert value.model_dump()["inner"] == {"op": "=", "n": 1}  # emitted by value
    with pytest.raises(ValidationError) as error:
        Outer.model_validate({"inner": {"op": "EQUALS", "n": 1}, "zz": 1})  # member names are not values
    assert {issue.error_type for issue in validation_issues(error.value)} == {"enum", "extra_forbidden"}


def test_format_validation_errors_lists_every_error_with_path_type_and_value() -> None:
    with pytest.raises(ValidationError) as error:
        Outer.model_validate({"inner": {"op": "EQUALS", "n": "x"}, "zz": 1})
    text = format_validation_errors(error.value, "parameters")
    assert text.splitlines()[:4] == [
        "Invalid parameters - 3 errors:",
        "  • inner.op: Input should be '=' or '<' (received str: 'EQUALS')",
        "  • inner.n: Input should be a valid integer, unable to parse string as an integer (received str: 'x')",
        "  • zz: Extra inputs are not permitted (received int: 1)",
    ]
    with pytest.raises(ValidationError) as one:
        Inner.model_validate({"op": "=", "n": "x"})
    assert format_validation_errors(one.value) == (
        "Invalid parameters: n - Input should be a valid integer, unable to parse string as an integer (received: 'x')"
    )


def test_strict_json_schema_closes_every_object() -> None:
    schema = strict_json_schema(Outer)
    assert schema["additionalProperties"] is False
    assert schema["$defs"]["Inner"]["additionalProperties"] is False
    assert schema["properties"]["counts"]["additionalProperties"] == {"type": "integer"}  # says what it allows
    assert schema["properties"]["anything"]["additionalProperties"] is True
    assert schema["$defs"]["Op"] == {"enum": ["=", "<"], "title": "Op", "type": "string"}
    assert "additionalProperties" not in Outer.model_json_schema()["$defs"]["Op"]  # not mutated in place


def test_one_enum_fragment_for_every_tool_that_uses_the_enum() -> None:
    registry = EnumSchemaRegistry()
    registry.register(Op, "Comparison operator.", default=Op.EQUALS)
    assert registry.fragment(Op) == {"type": "string", "description": "Comparison operator.", "enum": ["=", "<"]}
    assert registry.fragment(Op, include_default=True)["default"] == "="
    assert registry.fragment("Op", description="Override.")["description"] == "Override."
    named = registry.register(("Size", [1, 2, 3]), "A size.")
    assert named.fragment() == {"type": "integer", "description": "A size.", "enum": [1, 2, 3]}
    with pytest.raises(ValueError, match="not one of"):
        registry.register(("Bad", ["a"]), "x", default="b")
    assert enum_schema(Op, "Op.", default=Op.LESS) == {
        "type": "string",
        "description": "Op.",
        "enum": ["=", "<"],
        "default": "<",
    }

    class UsesOp(StrictModel):
        op: Op = enum_field(Op, default=Op.LESS, registry=registry)

    assert UsesOp.model_json_schema()["properties"]["op"]["description"] == "Comparison operator."
    assert UsesOp().op == "<"


def test_opt_in_coercions_and_what_the_checker_reports() -> None:
    class Call(BaseModel):
        port: CoercedInt
        verbose: CoercedBool

    assert Call.model_validate({"port": "80", "verbose": "yes"}).model_dump() == {"port": 80, "verbose": True}
    with pytest.raises(ValidationError):
        Call.model_validate({"port": "eighty", "verbose": "maybe"})
    assert coercion_for("80", {"integer"}) is not None and coercion_for("80", {"integer"}).replacement == 80  # type: ignore[union-attr]
    assert coercion_for("true", {"boolean"}).replacement_json == "true"  # type: ignore[union-attr]
    assert coercion_for("1.5", {"number"}).replacement == 1.5  # type: ignore[union-attr]
    assert coercion_for("80", {"integer", "string"}) is None  # a string is fine there
    assert coercion_for("x", {"integer"}) is None
    assert coercion_for("nan", {"number"}) is None


def test_tool_and_automation_models() -> None:
    mcp = McpTool.model_validate({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"a": 1}})
    assert mcp.meta == {"a": 1}
    assert condition_form({"clauses": []}) == "group"
    assert condition_form({"path": "x", "op": "=="}) == "clause"
    automation = {
        "name": "a",
        "trigger_type": "manual",
        "actions": [
            {"id": "x", "tool": "t", "condition": {"operator": "AND", "clauses": [{"path": "p", "op": "exists"}]}}
        ],
    }
    assert Automation.model_validate(automation).trigger_type == "manual"
    with pytest.raises(ValidationError):
        Automation.model_validate({**automation, "actions": []})  # at least one action
