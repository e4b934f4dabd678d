"""Bad input: each gets one clear diagnostic or error message — never a traceback, never a hang."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from checking import brief, diagnostics
from positions import span

from toolsense.cli import main
from toolsense.settings import settings_from_mapping


def check_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]], str]:
    code = main(["check", *args, "--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty.tool.json").write_bytes(b"")
    code, found, err = check_json(capsys, str(tmp_path / "empty.tool.json"))
    assert (code, err) == (0, "")
    assert [(d["code"], d["severity"], d["message"]) for d in found] == [
        ("TS005", "warning", "Empty file: expected tool definitions")
    ]


def test_whitespace_and_comments_only_is_empty_too() -> None:
    assert [d.code for d in diagnostics("  // nothing here\n/* yet */\n")] == ["TS005"]


def test_garbage_is_a_syntax_error_not_an_empty_file() -> None:
    assert brief(diagnostics("garbage")) == [("TS001", (0, 0, 0, 7), "Syntax error: unexpected 'garbage'")]


def test_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.tool.json"
    path.write_bytes(b'{\n  "name": "' + "😀 caf".encode() + b'\xe9"}')  # a Latin-1 é after an emoji
    code, found, err = check_json(capsys, str(path))
    assert code == 1 and err == ""
    assert found == [
        {
            "path": str(path),
            "range": {"start": {"line": 1, "character": 17}, "end": {"line": 1, "character": 17}},
            "severity": "error",
            "code": "TS002",
            "message": "File is not valid UTF-8: byte 0xe9 at line 2; save it as UTF-8",
            "source": "toolsense",
        }
    ]


def test_a_utf8_bom_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.tool.json"
    path.write_bytes(b'\xef\xbb\xbf{"name": "a", "input_schema": {"type": "object"}, "colour": 1}')
    _, found, _ = check_json(capsys, str(path))
    unknown = [d for d in found if d["code"] == "TS101"]
    assert unknown[0]["range"] == {"start": {"line": 0, "character": 50}, "end": {"line": 0, "character": 58}}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"just a string"', "Expected tool definitions (a JSON object or array), found a string"),
        ("42", "Expected tool definitions (a JSON object or array), found a number"),
        ("true", "Expected tool definitions (a JSON object or array), found true"),
        ("null", "Expected tool definitions (a JSON object or array), found null"),
    ],
)
def test_a_file_that_is_a_scalar(text: str, message: str) -> None:
    forced, _ = settings_from_mapping({"files": {"tool_definitions": ["**/*.tool.json"]}}, "test")
    assert brief(diagnostics(text, settings=forced)) == [("TS004", (0, 0, 0, len(text)), message)]


def test_a_scalar_a_default_name_glob_points_at_only_gets_the_note() -> None:
    """`*.tool.json` lowers the bar; it does not force: a scalar is none of ours."""
    assert [(d.code, d.severity.label) for d in diagnostics('"just a string"')] == [("TS007", "information")]


def test_a_scalar_in_an_unclassified_file_is_not_ours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "version.json").write_text("42", encoding="utf-8")
    code, found, _ = check_json(capsys, str(tmp_path))
    assert (code, found) == (0, [])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("closed", [True, False])
@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_nesting_10000_levels_deep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opener: str, closed: bool
) -> None:
    closer = "]" if opener == "[" else "}"
    text = opener * 10_000 + ("1" if opener != "[" else "") + (closer * 10_000 if closed else "")
    path = tmp_path / "deep.tool.json"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "toolsense.toml").write_text('[files]\ntool_definitions = ["*.tool.json"]\n', encoding="utf-8")
    started = time.monotonic()
    code, found, err = check_json(capsys, str(path))
    assert time.monotonic() - started < 30
    assert code == 1 and err == ""  # no RecursionError traceback
    assert len(found) == 1
    (diagnostic,) = found
    if closed:
        assert diagnostic["code"] == "TS006"
        assert diagnostic["message"] == (
            "Nesting is too deep to check: more than 128 levels of arrays and objects; nothing in it was read, "
            "not even by the security rules (TS290, TS292)"
        )
        # The 129th opening bracket of the unit (in a root array, the unit is its first element).
        assert diagnostic["range"]["start"]["character"] == 128 * len(opener) + (1 if opener == "[" else 0)
    else:
        assert diagnostic["code"] == "TS001"
        assert diagnostic["message"] == f"Syntax error: unexpected end of input: expected '{closer}'"


def test_moderately_deep_values_are_checked_normally() -> None:
    inner = "[" * 120 + "]" * 120
    text = '{"name": "a", "input_schema": {"type": "object", "default": ' + inner + '}, "colour": 1}'
    assert [d.code for d in diagnostics(text) if d.code.startswith(("TS0", "TS1"))] == ["TS101"]


@pytest.mark.timeout(300)
def test_a_20_mb_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = {
        "name": "tool_0",
        "description": "A tool. " * 20,
        "input_schema": {
            "type": "object",
            "properties": {f"p{i}": {"type": "string", "description": "x" * 40} for i in range(40)},
            "additionalProperties": False,
        },
    }
    tools = []
    for index in range(5600):
        tools.append({**tool, "name": f"tool_{index}"})
    tools[4321]["cache_contrl"] = 1  # a misspelt known key: an error (an app's own key would be a warning)
    text = json.dumps(tools, indent=1)
    assert len(text) > 20_000_000
    path = tmp_path / "big.tools.json"
    path.write_text(text, encoding="utf-8")
    code, found, err = check_json(capsys, str(path))
    assert err == ""
    unknown = [d for d in found if d["code"] == "TS101"]
    assert len(unknown) == 1 and "'cache_contrl'" in str(unknown[0]["message"])
    assert code == 1


def test_unreadable_path_is_one_diagnostic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "x.tool.json"
    folder.mkdir()  # a directory named like a tool file is walked, not read
    (folder / "inner.txt").write_text("x", encoding="utf-8")
    code, found, err = check_json(capsys, str(tmp_path))
    assert (code, found, err) == (0, [], "")


def test_a_raw_control_character_in_a_string() -> None:
    text = '{"name": "a\tb", "input_schema": {"type": "object"}}'
    (syntax,) = [d for d in diagnostics(text) if d.code == "TS001"]
    assert brief([syntax]) == [
        ("TS001", (0, 11, 0, 12), "Syntax error: control character U+0009 must be escaped in a string")
    ]


@pytest.mark.parametrize(
    ("text", "needle", "after"),
    [
        ('{"a": 1 "b": 2}', '"b"', "'\"a\": 1'"),
        ("[1 2]", "2", "'1'"),
        ('[{"a": 1}\n {"b": 2}]', "{", "'{\"a\": 1}'"),
        ('{"a": {"x": 1}\n  "b": [1]}', '"b"', '\'"a": {"x": 1}\''),
    ],
)
def test_a_missing_comma_is_marked_where_the_comma_was_expected(text: str, needle: str, after: str) -> None:
    # As VS Code's JSON support and TypeScript place it: on the next token, not on the whole member before.
    (syntax,) = [d for d in diagnostics(text) if d.code == "TS001"]
    occurrence = 1 if needle == "{" else 0
    assert brief([syntax]) == [("TS001", span(text, needle, occurrence), f"Syntax error: expected ',' after {after}")]
