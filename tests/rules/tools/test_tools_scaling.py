"""Work that grows with the input stays linear: big enums, did-you-mean over many names. The tests count the
work (comparisons, full similarity scores) at n and 2n, never wall time; and did-you-mean only offers close names."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from checking import check, one, only, tool

from toolsense.engine import schemas
from toolsense.engine.schemas import MAX_SCORED, closest, enum_values


class CountingStr(str):
    """A string that counts how often it is compared for equality (a list scan compares every element)."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountingStr.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _comparisons(count: int) -> int:
    CountingStr.comparisons = 0
    values = [CountingStr(f"v{i}") for i in range(count)]
    assert enum_values([{"enum": values}]) == values
    return CountingStr.comparisons


def test_enum_values_are_collected_with_a_set_not_a_list_scan() -> None:
    # A list scan makes n²/2 comparisons (40,000 values: 800 million); a set about none for distinct values.
    small, large = _comparisons(2_000), _comparisons(4_000)
    assert large <= 2 * small + 10
    assert large < 4_000


def test_enum_values_follow_json_equality() -> None:
    values = [1, 1.0, True, "1", None, False, 0, 0.0, [1], [1.0], [True], {"a": 1, "b": [2]}, {"b": [2.0], "a": 1}]
    assert enum_values([{"enum": values}, {"const": 1}, {"const": "x"}]) == [
        1,
        True,
        "1",
        None,
        False,
        0,
        [1],
        [True],
        {"a": 1, "b": [2]},
        "x",
    ]


def test_enum_values_too_deep_to_key_are_still_deduplicated() -> None:
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    assert enum_values([{"enum": [deep, json.loads(json.dumps(deep)), deep, 2]}]) == [deep, 2]


def _counting_ratio(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    original: Callable[[str, str], tuple[float, int]] = schemas._ratio

    def counted(a: str, b: str) -> tuple[float, int]:
        calls[0] += 1
        return original(a, b)

    monkeypatch.setattr(schemas, "_ratio", counted)
    return calls


def test_did_you_mean_scores_a_bounded_number_of_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_ratio(monkeypatch)
    work = {}
    for count in (5_000, 10_000):
        names = [f"p{i}" for i in range(count)]
        calls[0] = 0
        assert closest("p1234x", names)[0] == "p1234"
        work[count] = calls[0]
    assert 0 < work[5_000] <= MAX_SCORED and 0 < work[10_000] <= MAX_SCORED


def test_did_you_mean_in_a_big_pool_still_finds_typos_and_swaps() -> None:
    names = [f"field_{i}" for i in range(3_000)] + ["name", "temperature", "description"]
    assert closest("nmae", names) == ["name"]  # a swapped pair shares no letter pair
    assert closest("temprature", names) == ["temperature"]
    assert closest("descripton", names)[0] == "description"
    assert closest("zzzz", names) == []


def test_did_you_mean_only_when_the_suggestion_is_close() -> None:
    types = ["array", "boolean", "integer", "null", "number", "object", "string"]
    assert closest("all", types, cutoff=0.5) == []
    assert closest("strng", types) == ["string"]
    d = one(check(tool({"type": "object", "properties": {"a": {"type": "ALL", "description": "a"}}})), "TS214")
    assert d.message == ('Unknown type "ALL": expected one of array, boolean, integer, null, number, object, string')
    assert d.fixes == ()


def _wrong_example(count: int) -> str:
    enum = [f"v{i}" for i in range(count)]
    schema = {"type": "object", "properties": {"e": {"type": "string", "enum": enum, "description": "e"}}}
    return json.dumps({"name": "e", "description": "d", "input_schema": schema, "input_examples": [{"e": "nope"}]})


def test_a_wrong_example_value_in_a_big_enum(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_ratio(monkeypatch)
    work = {}
    for count in (20_000, 40_000):
        calls[0] = 0
        diags = only(check(_wrong_example(count)), "TS233")
        assert len(diags) == 1
        shown = ", ".join(f'"v{i}"' for i in range(20))
        assert diags[0].message == f'Invalid value "nope": expected one of {shown}'
        work[count] = calls[0]
    assert work[20_000] <= MAX_SCORED and work[40_000] <= MAX_SCORED


def _unknown_keys(count: int) -> str:
    properties = {f"p{i}": {"type": "string", "description": "x"} for i in range(count)}
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    example = {f"q{i}": "x" for i in range(count // 10)}
    return json.dumps({"name": "t", "description": "d", "input_schema": schema, "input_examples": [example]})


def test_many_unknown_keys_against_many_properties_is_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_ratio(monkeypatch)
    work = {}
    for count in (2_000, 4_000):
        calls[0] = 0
        diags = only(check(_unknown_keys(count)), "TS230")
        assert len(diags) == count // 10
        # 'p0' is one letter away, but a one-letter name with a different letter is no typo of it.
        assert diags[0].message.startswith("Unknown property 'q0' in input example 1. Valid properties: p0, p1,")
        work[count] = calls[0]
        assert work[count] <= (count // 10) * MAX_SCORED  # each unknown key scores a bounded number of names
    assert work[4_000] <= 2.2 * work[2_000]  # twice the input, about twice the work (not four times)
