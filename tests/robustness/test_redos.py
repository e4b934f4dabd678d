"""Regular-expression denial of service: a schema `pattern` that backtracks catastrophically (or polynomially on a
long text) must not hang the CLI or the server; the check is bounded and a diagnostic says it was cut short."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clirun import run_cli
from hostile import tool, write_json
from rawrpc import ServerProcess

from toolsense.domain.validators import needs_budget, safe_search
from toolsense.engine.units import glob_match

EVIL = "a" * 40 + "1" * 40 + "!"
LINEAR_PATTERNS = {
    # Each takes far more than 3 s on EVIL (or on the long text) with a backtracking engine; RE2 answers exactly.
    "(a+)+$": False,  # the classic: exponential
    "^(a|a?)+$": False,  # alternation under a repetition
    "(.*a){20}$": False,  # a bounded repetition of an unbounded one
    r"\d*\d*\d*\d*\d*\d*\d*x": False,  # polynomial: sequential repetitions
    "^" + "a{0,60}" * 6 + "b$": False,  # runs of bounded repeats (the adversary's second bypass)
    "1!$": True,
}
LONG_TEXT_PATTERNS = {"a+b": False, ".*x": False, "a$": True}
"""Harmless-looking, but a backtracking `re.search` is quadratic in the text: on 300,000 characters, minutes."""
BUDGETED_PATTERNS = {
    # RE2 cannot run these (back-references, lookaround); the backtracking engine runs out of its budget.
    r"^(a|a)+\1$": "a" * 30 + "b",
    "^(?=(a|a)+b)": "a" * 30,
    r"^(?!(a|aa)+c)(a|aa)+\2$": "a" * 40 + "!",
}
BOUNDED_ANYWAY = [r"^(?:(?=(a+))\1)+b$", "(a{1,60}){1,60}b"]
"""ECMA's atomic group (a lookahead and a back-reference: the adversary's first bypass was `(?>…)`, which is not
ECMA-262 and is not run at all) and repeats nested past RE2's limit of 1,000: matched by the backtracking engine
under the budget; whether it answers or runs out, it is bounded."""
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
@pytest.mark.parametrize(("pattern", "expected"), LINEAR_PATTERNS.items())
def test_patterns_in_the_linear_subset_get_exact_answers(pattern: str, expected: bool) -> None:
    assert not needs_budget(pattern, EVIL)
    assert safe_search(pattern, EVIL) is expected


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("pattern", "expected"), LONG_TEXT_PATTERNS.items())
def test_long_texts_are_matched_in_linear_time(pattern: str, expected: bool) -> None:
    assert safe_search(pattern, "a" * 300_000) is expected


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("pattern", "text"), BUDGETED_PATTERNS.items())
def test_backtracking_only_patterns_run_out_of_budget(pattern: str, text: str) -> None:
    assert needs_budget(pattern, text)
    assert safe_search(pattern, text) is None


@pytest.mark.timeout(60)
@pytest.mark.parametrize("pattern", BOUNDED_ANYWAY)
def test_patterns_outside_the_linear_subset_are_bounded(pattern: str) -> None:
    assert needs_budget(pattern, EVIL)
    assert safe_search(pattern, EVIL) in (None, False)
    assert safe_search(pattern, "aaab") is True


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
        (r"^(?=.*[A-Z])(?=.*\d).{8,}$", "Passw0rdX"),
        (r"^(?=.*[A-Z])(?=.*\d).{8,}$", "password"),
        (r"^(\w)\1$", "xx"),
    ],
)
def test_safe_search_agrees_with_re_on_ordinary_input(pattern: str, text: str) -> None:
    assert safe_search(pattern, text) == (re.search(pattern, text) is not None)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        # Where ECMA-262 (JSON Schema's regex dialect) and Python's `re` disagree, the linear engine follows ECMA.
        (r"^\d$", "\u0663", False),  # \d is ASCII digits only
        (r"^\w+$", "\u00e9", False),  # \w is ASCII only
        ("^abc$", "abc\n", False),  # $ is the end of the text, not "before a final newline"
        ("^.$", "\u2028", False),  # . excludes every line terminator
        (r"^\s$", "\u00a0", True),  # \s includes Unicode spaces
        (r"^\u00e9$", "\u00e9", True),
        (r"^\uD83D\uDE00$", "\U0001f600", True),  # a surrogate pair is one character
        (r"^\u{1F600}$", "\U0001f600", True),
        (r"^\cJ$", "\n", True),
        (r"^[\b]$", "\b", True),
        ("^[^]$", "\n", True),
        ("[]", "anything", False),
        (r"^\e$", "e", True),  # an identity escape
    ],
)
def test_patterns_follow_ecma_262(pattern: str, text: str, expected: bool) -> None:
    assert safe_search(pattern, text) is expected


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_is_bounded_exact_where_it_can_be_and_says_cut_short_where_not(tmp_path: Path) -> None:
    budgeted = [_redos_tool(p, t, f"match_budget_{i}") for i, (p, t) in enumerate(BUDGETED_PATTERNS.items())]
    linear = [
        _redos_tool(p, EVIL, f"match_linear_{i}") for i, p in enumerate(LINEAR_PATTERNS) if not LINEAR_PATTERNS[p]
    ]
    write_json(tmp_path / "redos.tools.json", budgeted + linear)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    cut = [d for d in diagnostics if d["code"] == "TS236"]
    assert len(cut) == len(budgeted), [d["message"] for d in diagnostics]
    assert all("cut short" in d["message"] and "regex time budget" in d["message"] for d in cut)
    mismatches = [d for d in diagnostics if "String should match pattern" in d["message"]]
    assert len(mismatches) == len(linear), [d["message"] for d in diagnostics]


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_bounds_the_adversarys_patterns_in_every_keyword(tmp_path: Path) -> None:
    atomic = "(?>(a+)+b)"
    repeats = "a{0,60}" * 6 + "b"
    tools = [
        tool(
            "t_pattern",
            {"type": "object", "properties": {"s": {"type": "string", "pattern": atomic}}},
            [{"s": "a" * 40}],
        ),
        tool("t_keys", {"type": "object", "patternProperties": {atomic: {"type": "string"}}}, [{"a" * 40: "x"}]),
        tool("t_names", {"type": "object", "propertyNames": {"pattern": atomic}}, [{"a" * 40: "x"}]),
        tool(
            "t_repeats",
            {"type": "object", "properties": {"s": {"type": "string", "pattern": repeats}}},
            [{"s": "a" * 150}],
        ),
    ]
    write_json(tmp_path / "tools" / "redos.tools.json", tools)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    # Six bounded repeats run on the linear engine: a definite answer, not a cut-short note.
    assert any(d["code"] != "TS236" and "String should match pattern" in d["message"] for d in diagnostics), diagnostics


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_tool_call_and_pattern_properties_are_bounded(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": r"^(a|a)+\1$", "description": "The text."}},
        "patternProperties": {r"^(?=(x|x)+y)": {"type": "string"}},
        "additionalProperties": False,
    }
    write_json(tmp_path / "tools" / "match.json", [tool("match_thing", schema, [{"x" * 30: "v"}])])
    call = {"type": "tool_use", "id": "toolu_1", "name": "match_thing", "input": {"s": "a" * 30 + "b"}}
    write_json(tmp_path / "calls" / "call.json", call)
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    diagnostics = json.loads(done.stdout)
    codes = {d["code"] for d in diagnostics}
    assert "TS310" in codes, diagnostics  # the call's check was cut short
    assert "TS236" in codes, diagnostics  # the example's key vs patternProperties was cut short


@pytest.mark.timeout(SERVER_BOUND_S + 60)
def test_server_publishes_cut_short_within_a_bound(tmp_path: Path) -> None:
    tools = [_redos_tool(p, t, f"match_thing_{i}") for i, (p, t) in enumerate(BUDGETED_PATTERNS.items())]
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


# --- file globs from a repository's settings --------------------------------------------------------------

HOSTILE_GLOB = "**e" * 12 + "**q"


@pytest.mark.timeout(30)
def test_a_glob_with_many_double_stars_is_linear() -> None:
    assert not glob_match("tools/" + "e" * 60 + ".json", HOSTILE_GLOB)
    assert glob_match("tools/" + "e" * 60 + "q", HOSTILE_GLOB)


@pytest.mark.parametrize(
    ("path", "glob", "expected"),
    [
        ("a/b/x.tools.json", "**/*.tools.json", True),
        ("x.tools.json", "**/*.tools.json", True),
        ("a/tools/x.json", "**/tools/*.json", True),
        ("a/tools/b/x.json", "**/tools/*.json", False),
        ("a/node_modules/b/x.json", "**/node_modules/**", True),
        ("a/b.json", "[!a].json", True),
        ("a/a.json", "[!a].json", False),
        ("a/c.json", "[a-c].json", True),
        ("a/-.json", "[a-].json", True),
        ("x[.json", "x[.json", True),
        ("a/x.json", "a?x.json", False),
    ],
)
def test_globs_mean_what_they_say(path: str, glob: str, expected: bool) -> None:
    assert glob_match(path, glob) is expected


@pytest.mark.timeout(CLI_BOUND_S + 30)
def test_cli_with_a_hostile_glob_in_the_settings_finishes(tmp_path: Path) -> None:
    (tmp_path / "toolsense.toml").write_text(f'[files]\ntool_definitions = ["{HOSTILE_GLOB}"]\n', encoding="utf-8")
    write_json(tmp_path / "tools" / ("e" * 60 + ".json"), tool("t", {"type": "object"}))
    done = run_cli(["check", "--format", "json", "."], tmp_path, timeout=CLI_BOUND_S)
    assert done.returncode in (0, 1), done.stderr
    assert isinstance(json.loads(done.stdout), list)


def test_text_that_is_not_utf8_is_still_matched() -> None:
    # JSON allows lone surrogates ("\ud800") and Linux file names may not be UTF-8 (surrogateescape): RE2 takes
    # only UTF-8, so these go to the budgeted engine, or are matched with the undecodable bytes replaced.
    assert safe_search("^a.$", "a\ud800") is True
    assert safe_search("^b$", "\ud800") is False
    assert glob_match("tools/\udcff.json", "**/tools/*.json")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("pattern", ["[ab]{0,1000}[ab]{0,1000}c", "(.*a){1000}"])
def test_a_large_program_over_a_long_text_is_bounded(pattern: str) -> None:
    # RE2 stays linear, but with a factor of the program's size once its DFA gives up (14 s here unbounded).
    assert not needs_budget(pattern, "a")
    assert safe_search(pattern, "a" * 100_000) in (None, False, True)


@pytest.mark.timeout(SERVER_BOUND_S + 60)
def test_a_tool_of_many_exhausting_strings_does_not_hold_the_server(tmp_path: Path) -> None:
    # 400 strings that each use up the per-match budget (200 ms): 80 s of matching when the budget was per match
    # only, while the server published nothing for another file (the third campaign, F02). The tool's shared
    # budget ends it after a second, and the other file is published.
    exhausting = "a" * 60 + "b"
    hostile = _redos_tool("^(?=a)(a|aa)+(?<!b)$", exhausting)
    hostile["input_examples"] = [{"s": exhausting + str(i)} for i in range(400)]
    path = write_json(tmp_path / "r.tools.json", [hostile])
    other = write_json(tmp_path / "w.tools.json", [_redos_tool("^a$", "a", "other_tool")])
    server = ServerProcess(tmp_path, log_level="INFO")
    try:
        server.initialize(tmp_path, {"diagnostics": {"debounce_ms": 0}})
        server.open(path, path.read_text(encoding="utf-8"))
        uri = server.open(other, other.read_text(encoding="utf-8"))
        published = server.wait_diagnostics(uri, SERVER_BOUND_S, lambda p: p.get("version") == 1)
        assert published["diagnostics"] == []
    finally:
        server.close()
