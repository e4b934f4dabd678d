"""The claim decision's other tables (`engine.ownership`): when a list's sampled members make it ours, when a
name-keyed map is, the vetoes of a whole object, and what a broken file holds; and that the readers (`claim`,
`records`, `detect`, `recovery`) take these answers rather than deciding themselves."""

from __future__ import annotations

import json

import pytest
from checking import report

from toolsense.engine import claim, records
from toolsense.engine.ownership import (
    broken_file_kind,
    foreign_tool,
    map_claimed,
    members_claimed,
    provider_echo,
)
from toolsense.models.dialects import Dialect


def _units(text: str) -> list[object]:
    """The units of a file whose name says nothing (its content decides)."""
    return list(report(text, "data.json")[1].units)


TOOL = {"name": "t", "description": "Does it.", "input_schema": {"type": "object", "properties": {}}}


@pytest.mark.parametrize(
    ("recognised", "sampled", "container", "claimed"),
    [
        (0, 0, True, False),
        (0, 5, True, False),
        (1, 16, True, True),  # a `tools` list: one recognised member is enough
        (1, 3, False, False),  # a bare array: fewer than half
        (2, 4, False, True),  # half
        (3, 4, False, True),
        (0, 4, False, False),
    ],
)
def test_a_list_is_ours_on_one_member_in_a_container_else_on_half(
    recognised: int, sampled: int, container: bool, claimed: bool
) -> None:
    assert members_claimed(recognised, sampled, container) is claimed


def test_a_name_keyed_map_is_ours_when_every_sampled_value_is_a_tool_of_one_dialect() -> None:
    assert map_claimed([Dialect.ANTHROPIC, Dialect.ANTHROPIC], {Dialect.ANTHROPIC})
    assert not map_claimed([Dialect.ANTHROPIC, None], {Dialect.ANTHROPIC})
    assert not map_claimed([Dialect.ANTHROPIC, Dialect.MCP], {Dialect.ANTHROPIC, Dialect.MCP})
    assert not map_claimed([], set())


def test_the_vetoes_of_a_whole_object() -> None:
    assert foreign_tool({"type": "function", "name": "t", "inputSchema": {"type": "object"}}) is not None
    assert foreign_tool({"name": "t", "inputSchema": {"type": "object"}}) is None
    assert foreign_tool({"type": "function", "function": {"name": "t"}}) is None
    assert provider_echo({"object": "response", "tools": []})
    assert not provider_echo({"object": "list", "tools": []})


def test_what_a_broken_file_holds_fragments_first_then_members_then_the_fallback() -> None:
    assert broken_file_kind("tool", "automation", "tool_call") == "tool"
    assert broken_file_kind(None, "automation", "tool_call") == "automation"
    assert broken_file_kind(None, None, "tool_call") == "tool_call"
    assert broken_file_kind(None, None, None) is None


def test_the_claimer_takes_the_list_decision_from_ownership(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps([TOOL, {**TOOL, "name": "u"}])
    assert _units(text)
    monkeypatch.setattr(claim, "members_claimed", lambda *_, **__: False)
    assert not _units(text)


def test_the_records_take_the_list_decision_from_ownership(monkeypatch: pytest.MonkeyPatch) -> None:
    line = {"messages": [{"role": "user", "content": "hi"}], "tools": json.dumps([TOOL])}
    text = "\n".join(json.dumps(line) for _ in range(2)) + "\n"
    assert _units(text)
    monkeypatch.setattr(records, "members_claimed", lambda *_, **__: False)
    assert not _units(text)


def test_a_map_takes_its_decision_from_ownership(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps({"get_weather": {"description": "Weather.", "input_schema": {"type": "object"}}})
    assert _units(text)
    monkeypatch.setattr(claim, "map_claimed", lambda *_, **__: False)
    assert not _units(text)
