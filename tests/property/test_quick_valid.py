"""The instance fast path (`engine.schemas.certainly_valid`) never says "valid" where jsonschema finds an error.

It only ever skips building a validator, so when it answers True, the full check must find nothing — no issue,
no cut-short note — for every dialect it is used with.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator
from propkit import EXAMPLES

from toolsense.domain.instances import instance_issues
from toolsense.engine.schemas import certainly_valid

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 1.5, -2.5, float("nan")]),
    st.sampled_from(["", "a", "ab", "abc", "é😀", "x" * 9]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), inner, max_size=3)
    ),
    max_leaves=8,
)
type_names = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array", "dict", 5])


def _keywords(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(type_names, st.lists(type_names, max_size=3)),
            "enum": st.one_of(st.lists(scalars, max_size=4), scalars),
            "const": scalars,
            "minimum": st.one_of(st.integers(-3, 3), st.none(), st.booleans()),
            "maximum": st.one_of(st.integers(-3, 3), st.just(1.5)),
            "exclusiveMinimum": st.one_of(st.integers(-3, 3), st.booleans()),
            "exclusiveMaximum": st.integers(-3, 3),
            "minLength": st.one_of(st.integers(0, 3), st.just("2")),
            "maxLength": st.integers(0, 3),
            "minItems": st.integers(0, 2),
            "maxItems": st.integers(0, 2),
            "minProperties": st.integers(0, 2),
            "maxProperties": st.integers(0, 2),
            "required": st.one_of(st.lists(st.sampled_from(["a", "b", "c"]), max_size=2), st.just("a")),
            "properties": st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
            "additionalProperties": st.one_of(st.booleans(), inner, st.just(None)),
            "items": st.one_of(inner, st.lists(inner, max_size=2)),
            "allOf": st.lists(inner, max_size=2),
            "anyOf": st.lists(inner, max_size=2),
            "oneOf": st.lists(inner, max_size=2),
            "pattern": st.just("^a"),
            "format": st.just("email"),
            "$id": st.one_of(st.just(5), st.just("urn:x")),
            "description": st.just("d"),
            "uniqueItems": st.booleans(),
        },
    )


schemas = st.recursive(st.one_of(st.booleans(), st.just({})), _keywords, max_leaves=6)


@pytest.mark.parametrize("validator", [Draft7Validator, Draft202012Validator], ids=["draft-07", "2020-12"])
@settings(max_examples=EXAMPLES or 1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(schema=schemas, value=values)
def test_certainly_valid_agrees_with_jsonschema(validator: Any, schema: Any, value: Any) -> None:
    if not certainly_valid(schema, value, frozenset(validator.VALIDATORS)):
        return
    dialect = "mcp" if validator is Draft202012Validator else "anthropic"
    full = instance_issues(schema, dialect, value)
    assert full.issues == [] and full.cut_short == []
    assert list(validator(schema).iter_errors(value)) == []


def test_the_common_shapes_take_the_fast_path() -> None:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "maxLength": 64, "description": "x"},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
            "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "boolean"}}}},
        },
        "required": ["city"],
        "additionalProperties": False,
    }
    keywords = frozenset(Draft7Validator.VALIDATORS)
    assert certainly_valid(schema, {"city": "Paris", "unit": "c", "days": 3, "tags": [{"k": True}]}, keywords)
    # Anything doubtful is left to the validator (False means "ask", not "invalid").
    assert not certainly_valid(schema, {"city": "Paris", "extra": 1}, keywords)
    assert not certainly_valid(schema, {"city": "Paris", "days": 3.0}, keywords)
    assert not certainly_valid(schema, {"city": "Paris", "unit": "k"}, keywords)
    assert not certainly_valid({"$ref": "#/x"}, {}, keywords)
