"""Recall by mutation (issue 30): scripts/mutants.py on a fixed sample, and its operators on hand-made files.

The sample is the committed corpus only (the wild corpus's files of ours without its test half, and examples/),
at most 8 mutants per operator drawn with the script's seed, so it runs on a clean CI in seconds. The floors are
the figures measured when the sample was fixed: a change that loses a finding on a mutated place fails here.
docs/accuracy.md ("Recall by mutation") has the full run over every corpus.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = 8
FLOORS = {
    # operator: (found, mutants) measured on the sample; the share found may not fall below found / mutants
    "misspelt key": (8, 8),
    "Python type name": (7, 8),
    "`required` beside the schema": (8, 8),
    "string where an array belongs": (8, 8),
    "enum value not in the list": (8, 8),
    "call argument of the wrong type": (7, 7),
    "template naming a missing field": (3, 5),
    "duplicate tool name": (8, 8),
    "top-level `oneOf`": (8, 8),
}
ELSEWHERE_CEILING = (3, 17)
"""Of the sample's mutants of clean files, at most this share gets a new finding away from the mistake."""


def _script() -> ModuleType:
    return load_script("mutants")


@pytest.fixture(scope="module")
def mutants() -> ModuleType:
    return _script()


@pytest.fixture(scope="module")
def sample(mutants: ModuleType) -> dict[str, Any]:
    return dict(mutants.measure(mutants.sources(shared=False), SAMPLE))


def test_every_operator_is_in_the_sample(sample: dict[str, Any]) -> None:
    assert list(sample) == list(FLOORS)
    assert all(t.mutants >= 5 for t in sample.values()), {k: t.mutants for k, t in sample.items()}


@pytest.mark.parametrize("operator", list(FLOORS))
def test_the_share_found_stays_at_its_floor(sample: dict[str, Any], operator: str) -> None:
    tally = sample[operator]
    found, mutants = FLOORS[operator]
    assert tally.found * mutants >= found * tally.mutants, (
        f"{operator}: {tally.found}/{tally.mutants} found, the floor is {found}/{mutants}; missed: {tally.missed}"
    )


def test_clean_files_get_no_more_noise_than_recorded(sample: dict[str, Any]) -> None:
    clean = sum(t.clean for t in sample.values())
    elsewhere = sum(t.elsewhere for t in sample.values())
    most, of = ELSEWHERE_CEILING
    assert clean > 0
    assert elsewhere * of <= most * clean, f"{elsewhere} of {clean} mutants of clean files got findings elsewhere"


TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Today's weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "The city."},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit."},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "The time in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The city."}},
                "required": ["city"],
            },
        },
    },
]


def _mutated(mutants: ModuleType, operator: str, value: Any, name: str = "weather.tools.json") -> list[Any]:
    source = mutants.Source("hand-made", name, value)
    base = mutants._check(name, value)
    assert base.units and not [d for d in base.diagnostics if d.severity.label == "error"]
    return [m for m, _ in mutants.mutants([source]) if m.operator == operator]


def test_a_python_type_name_replaces_the_json_schema_type_where_it_says(mutants: ModuleType) -> None:
    [first, second] = _mutated(mutants, "Python type name", TOOLS)
    assert first.places == ((0, "function", "parameters", "properties", "city"),)
    assert first.value[0]["function"]["parameters"]["properties"]["city"]["type"] == "str"
    assert second.value[1]["function"]["parameters"]["properties"]["city"]["type"] == "str"


def test_required_moves_beside_the_schema(mutants: ModuleType) -> None:
    [mutant, _] = _mutated(mutants, "`required` beside the schema", TOOLS)
    function = mutant.value[0]["function"]
    assert function["required"] == ["city"] and "required" not in function["parameters"]
    assert mutant.places == ((0, "function", "required"),)


def test_a_duplicate_name_has_both_tools_for_its_place(mutants: ModuleType) -> None:
    [mutant] = _mutated(mutants, "duplicate tool name", TOOLS)
    assert [t["function"]["name"] for t in mutant.value] == ["get_weather", "get_weather"]
    assert mutant.places == ((1,), (0,))


def test_an_enum_value_not_in_the_list_is_a_near_miss(mutants: ModuleType) -> None:
    [mutant] = _mutated(mutants, "enum value not in the list", TOOLS)  # only get_weather has an enum
    assert mutant.value[0]["function"]["parameters"]["properties"]["unit"]["default"] == "CELSIUS"


def test_a_found_mutant_and_a_missed_one_are_told_apart(mutants: ModuleType) -> None:
    """The Python type name gets TS214 on the property: found. A finding the file had before the mutation is not
    new, so a mutant judged against a base that already holds its finding counts as missed, not as found. The
    file is not clean (TS220 advice on each tool), so no mutant of it counts for `elsewhere`."""
    found = mutants.Tally()
    for mutant in _mutated(mutants, "Python type name", TOOLS):
        mutants.judge(mutant, mutants._check("weather.tools.json", TOOLS), found)
    assert (found.mutants, found.found, found.clean, found.elsewhere) == (2, 2, 0, 0)
    missed = mutants.Tally()
    for mutant in _mutated(mutants, "misspelt key", TOOLS):
        mutants.judge(mutant, mutants._check("weather.tools.json", mutant.value), missed)
    assert (missed.mutants, missed.found) == (2, 0)
    assert missed.missed == [
        "hand-made /0/function/parameters",
        "hand-made /1/function/parameters",
    ]
