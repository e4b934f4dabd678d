"""The text report shows a finding repeated over the tools of one file once, with the count and a line per place;
fewer repeats, or repeats within one tool, stay one line each. The totals still count every finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run


def _tools(count: int) -> str:
    tools = [
        {
            "name": f"tool_{i}",
            "description": "Does a thing.",
            "input_schema": {"type": "object", "properties": {"a": {"type": "string", "description": "A."}}},
        }
        for i in range(count)
    ]
    tools.append({"name": "bare", "input_schema": {"type": "object", "properties": {}, "additionalProperties": False}})
    return json.dumps(tools, indent=1)


OPEN = (
    "information TS220 The input schema's root object does not say `additionalProperties: false`: unknown keys "
    "are accepted"
)


def test_a_finding_over_many_tools_is_shown_once_with_a_line_per_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("many.tools.json").write_text(_tools(4), encoding="utf-8")
    _, out, _ = run(capsys, "many.tools.json")
    assert out.splitlines() == [
        f"many.tools.json:5:3: {OPEN} [and 3 more like it in this file, over 4 tools]",
        "    many.tools.json:18:3: the same in tool 'tool_1'",
        "    many.tools.json:31:3: the same in tool 'tool_2'",
        "    many.tools.json:44:3: the same in tool 'tool_3'",
        "many.tools.json:55:3: information TS240 Tool 'bare' has no description: say what it does and when to use it",
        "Checked 1 file: 5 informations",
    ]


def test_two_repeats_stay_two_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("two.tools.json").write_text(_tools(2), encoding="utf-8")
    _, out, _ = run(capsys, "two.tools.json")
    assert out.splitlines()[:2] == [f"two.tools.json:5:3: {OPEN}", f"two.tools.json:18:3: {OPEN}"]


def test_messages_that_name_each_tool_are_one_shape() -> None:
    from toolsense.cli.reporting import repeated
    from toolsense.document.lines import Position, Range
    from toolsense.engine.checker import Diagnostic
    from toolsense.engine.findings import Severity, Subject

    def missing(name: str, line: int) -> Diagnostic:
        at = Range(Position(line, 0), Position(line, 1))
        message = f"Tool '{name}' has no description"
        return Diagnostic(at, Severity.WARNING, "TS240", message, subject=Subject(name, ()))

    diags = [missing("a", 1), missing("b", 2), missing("c", 3)]
    ((first, repeats),) = repeated(diags)
    assert first is diags[0] and repeats == diags[1:]
