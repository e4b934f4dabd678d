"""Regular-expression denial of service: a schema `pattern` that backtracks catastrophically (or polynomially on a
long text) must not hang the CLI or the server; the check is bounded and a diagnostic says it was cut short."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hardkit import run_cli, tool, write_json
from hardrpc import ServerProcess

import toolsense.rules  # noqa: F401  (registers the rules)
from toolsense.rules.instances import needs_budget, safe_search

EVIL = "a" * 40 + "1" * 40 + "!"
"""Each pattern below takes far more than 3 s on this text with plain `re.search`."""
EVIL_PATTERNS = [
    "(a+)+$",  # the classic: exponential
    "^(a|a?)+$",  # alternation under a repetition
    "(a{1,60}){1,60}b",  # nested bounded repetitions
    "(.*a){20}$",  # a bounded repetition of an unbounded one
    r"\d*\d*\d*\d*\d*\d*\d*x",  # polynomial: sequential repetitions
]
LONG_TEXT_PATTERNS = ["a+b", ".*x"]
"""Harmless-looking, but `re.search` is quadratic in the text: on a 300,000-character string, minutes."""
CLI_BOUND_S = 90.0
SERVER_BOUND_S = 60.0


def _redos_tool(pattern: str, text: str, name: str = "match_thing") -> dict[str, object]:
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": pattern, "description": "The text."}},
        "required": ["s"],
        "additionalProperties": False,
    }
    return tool(name, schema, [{"s": text}])


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", EVIL_PATTERNS)
def test_safe_search_is_bounded(pattern: str) -> None:
    assert needs_budget(pattern, EVIL)
    started = time.monotonic()
    found = safe_search(pattern, EVIL)
    assert found in (None, False, True)
    assert time.monotonic() - started < 30  # the pytest-timeout above is the real bound; this names the culprit


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", LONG_TEXT_PATTERNS)
def test_long_texts_are_matched_with_a_budget(pattern: str) -> None:
    text = "a" * 300_000
    assert needs_budget(pattern, text)
    assert safe_search(pattern, text) in (None, False)


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        ("^[a-z]+$", "hello"),
        ("^[a-z]+$", "Hello"),
        (r"^\d{4}-\d{2}-\d{2}$", "2026-11-21"),
        (r"(\d{1,3}\.){3}\d{1,3}", "10.0.0.1"),
        (r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$", "bob@example.com"),
        (r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$", "not an email"),
        ("(a+)+$", "aaaa"),
        ("(a+)+$", "b"),
    ],
)
def test_safe_search_agrees_with_re_on_ordinary_input(pattern: str, text: str) -> None:
    assert safe_search(pattern, text) == (re.search(pattern, text) is not None)


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_is_bounded_and_says_cut_short(tmp_path: Path) -> None:
    tools = [_redos_tool(p, EVIL, f"match_thing_{i}") for i, p in enumerate(EVIL_PATTERNS)]
    tools += [_redos_tool(p, "a" * 300_000, f"match_long_{i}") for i, p in enumerate(LONG_TEXT_PATTERNS)]
    write_json(tmp_path / "redos.tools.json", tools)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    cut = [d for d in diagnostics if d["code"] == "TS236"]
    assert len(cut) == len(tools), [d["message"] for d in diagnostics]
    assert all("cut short" in d["message"] for d in cut)
    assert any("regex time budget" in d["message"] for d in cut)


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_tool_call_and_pattern_properties_are_bounded(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": "(a+)+$", "description": "The text."}},
        "patternProperties": {"^(x+x+)+y$": {"type": "string"}},
        "additionalProperties": False,
    }
    write_json(tmp_path / "tools" / "match.json", [tool("match_thing", schema, [{"x" * 30: "v"}])])
    call = {"type": "tool_use", "id": "toolu_1", "name": "match_thing", "input": {"s": EVIL}}
    write_json(tmp_path / "calls" / "call.json", call)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    codes = {d["code"] for d in diagnostics}
    assert "TS310" in codes, diagnostics  # the call's check was cut short
    assert "TS236" in codes, diagnostics  # the example's key vs patternProperties was cut short


@pytest.mark.timeout(SERVER_BOUND_S + 60)
def test_server_publishes_cut_short_within_a_bound(tmp_path: Path) -> None:
    tools = [_redos_tool(p, EVIL, f"match_thing_{i}") for i, p in enumerate(EVIL_PATTERNS)]
    path = write_json(tmp_path / "redos.tools.json", tools)
    server = ServerProcess(tmp_path, log_level="INFO")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        uri = server.open(path, path.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        cut = [d for d in published["diagnostics"] if d.get("code") == "TS236"]
        assert len(cut) == len(tools), published["diagnostics"]
        # ...and the server still answers afterwards.
        assert server.request("textDocument/hover", _hover(uri), timeout=30) is None or True
        assert server.process.poll() is None
    finally:
        server.close()


def _hover(uri: str) -> dict[str, object]:
    return {"textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}}
