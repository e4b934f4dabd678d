"""Size: a 50 MB file gets a clear "file too large for live checking" diagnostic from the server (above the
configurable `limits.max_file_mb`) and is still checked by the CLI; a 1 MB single-line file below the limit is
checked normally and completion on it answers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from clirun import run_cli
from rawrpc import ServerProcess
from toolgen import tool, tools_text

SERVER_BOUND_S = 120.0
CLI_BOUND_S = 600.0


def _with_error_in_last_tool(text: str) -> str:
    """The same tools, the last one with a misspelt known key, an error (so "checked" is observable at the end of
    the file)."""
    last = text.rindex('"name": "tool_number_')
    return text[:last] + '"cache_contrl": {}, ' + text[last:]


@pytest.mark.timeout(SERVER_BOUND_S * 2)
def test_server_declines_a_50mb_file_with_a_clear_diagnostic(tmp_path: Path) -> None:
    text = tools_text(50_000_000)
    path = tmp_path / "huge.tools.json"
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        assert [d.get("code") for d in published["diagnostics"]] == ["TS003"], published
        message = published["diagnostics"][0]["message"]
        assert "too large for live checking" in message and "50." in message and "10.0 MB limit" in message, message
        assert "limits.max_file_mb" in message and "toolsense check" in message
        # Requests on it are answered (empty), and an edit is applied without checking.
        server.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": _pos(5, 10)}, 60)
        server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": _pos(5, 10)}, 60)
        server.change(uri, 2, [{"range": {"start": _pos(0, 0), "end": _pos(0, 0)}, "text": " "}])
        again = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 2)
        assert [d.get("code") for d in again["diagnostics"]] == ["TS003"]
        assert server.process.poll() is None
    finally:
        server.close()


@pytest.mark.timeout(CLI_BOUND_S + 60)
def test_cli_still_checks_a_50mb_file(tmp_path: Path) -> None:
    text = _with_error_in_last_tool(tools_text(50_000_000))
    (tmp_path / "huge.tools.json").write_text(text, encoding="utf-8")
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode == 1, done.stderr[-2000:]
    diagnostics = json.loads(done.stdout)
    assert [d["code"] for d in diagnostics] == ["TS101"], diagnostics[:5]
    assert diagnostics[0]["range"]["start"]["line"] > 1_000_000  # found at the very end of the file


def _one_line_tools(size: int) -> str:
    rng = random.Random(5)
    tools: list[dict[str, object]] = []
    length = 0
    while length < size:
        tools.append(tool(rng, len(tools)))
        length += len(json.dumps(tools[-1])) + 2
    return json.dumps(tools)


@pytest.mark.timeout(SERVER_BOUND_S * 2)
def test_a_1mb_single_line_is_checked_and_completed(tmp_path: Path) -> None:
    text = _with_error_in_last_tool(_one_line_tools(1_000_000))
    assert "\n" not in text and len(text) >= 1_000_000
    path = tmp_path / "one-line.tools.json"
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        codes = [d.get("code") for d in published["diagnostics"]]
        assert codes == ["TS101"], published["diagnostics"][:5]
        start = published["diagnostics"][0]["range"]["start"]
        assert start == _pos(0, text.index('"cache_contrl"'))  # ASCII: UTF-16 columns are characters
        # Completion of an enum value inside the last tool's own example, on the same 1 MB line.
        last = text.rindex('"input_examples": [')
        value_at = text.index('"field_0": "', last) + len('"field_0": "')
        answer = server.request(
            "textDocument/completion", {"textDocument": {"uri": uri}, "position": _pos(0, value_at)}, 60
        )
        labels = [item["label"] for item in (answer or {}).get("items", [])]
        expected = text[value_at : text.index('"', value_at)]
        assert any(expected in label for label in labels), labels
        # A keystroke at the end of the line is checked too.
        server.change(uri, 2, [{"range": {"start": _pos(0, value_at), "end": _pos(0, value_at)}, "text": "x"}])
        again = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 2)
        assert "TS233" in [d.get("code") for d in again["diagnostics"]]  # "xcelsius" is no enum value
    finally:
        server.close()


@pytest.mark.timeout(SERVER_BOUND_S * 2)
def test_the_size_limit_is_configurable_and_followed_across_edits(tmp_path: Path) -> None:
    text = _one_line_tools(300_000)
    path = tmp_path / "medium.tools.json"
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}, "limits": {"max_file_mb": 0.5}})
        uri = server.open(path, text)
        first = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        assert first["diagnostics"] == []
        # Grow it past 0.5 MB: too large; shrink it back: checked again.
        padding = " " * 300_000
        end = _pos(0, len(text))
        server.change(uri, 2, [{"range": {"start": end, "end": end}, "text": padding}])
        grown = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 2)
        assert [d.get("code") for d in grown["diagnostics"]] == ["TS003"]
        assert "0.5 MB limit" in grown["diagnostics"][0]["message"]
        server.change(uri, 3, [{"range": {"start": end, "end": _pos(0, len(text) + len(padding))}, "text": ""}])
        shrunk = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 3)
        assert shrunk["diagnostics"] == []
    finally:
        server.close()


def _pos(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


@pytest.mark.timeout(SERVER_BOUND_S * 2)
@pytest.mark.parametrize("depth", [10_000, 200_000])
def test_absurd_nesting_is_answered_within_bounds(tmp_path: Path, depth: int) -> None:
    """`[[[[…]]]]` and `{"a":{"a":…}}` far deeper than anything real: TS006, and every request is answered."""
    arrays = "[" * depth + "]" * depth
    objects = '{"a":' * (depth // 10) + "1" + "}" * (depth // 10)
    text = f'[{{"name": "deep", "description": "x", "input_schema": {{"type": "object"}}, "x": {arrays}}}, {objects}]'
    path = tmp_path / "deep.tools.json"
    path.write_text(text, encoding="utf-8")
    server = ServerProcess(tmp_path, log_level="WARNING")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, text)
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        assert "TS006" in [d.get("code") for d in published["diagnostics"]]
        document = {"textDocument": {"uri": uri}}
        for character in (60 + depth // 2, len(text) - depth // 20, len(text) - 2):
            at = {**document, "position": _pos(0, character)}
            server.request("textDocument/completion", at, SERVER_BOUND_S)
            server.request("textDocument/hover", at, SERVER_BOUND_S)
            server.request("textDocument/definition", at, SERVER_BOUND_S)
        server.request("textDocument/documentSymbol", document, SERVER_BOUND_S)
        server.request("textDocument/foldingRange", document, SERVER_BOUND_S)
        middle = _pos(0, 60 + depth // 2)
        server.change(uri, 2, [{"range": {"start": middle, "end": middle}, "text": "[]"}])
        server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 2)
        assert server.process.poll() is None
    finally:
        server.close()
