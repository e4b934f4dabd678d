"""toolsense's pattern engine against V8, row by row: tests/data/pattern_differential.json holds what V8 answers
(`scripts/pattern_differential.js`: the JSON-Schema-Test-Suite's patterns and ECMA-262 edge cases, each with
strings that tell the semantics apart). No Node is needed for the comparison; when Node is present, the fixture is
generated again and must be unchanged, so it cannot drift from V8."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from toolsense.engine import regexes

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "pattern_differential.json"
SCRIPT = ROOT / "scripts" / "pattern_differential.js"

DISAGREEMENTS: dict[tuple[str, str], str] = {
    (r"\p{Greek}", "p{Greek}"): "V8 rejects `\\p{Greek}` with the `u` flag (a script is `\\p{Script=Greek}`) and "
    "without it reads the letters `p{Greek}`; toolsense (RE2, the regex module) reads the script, as its author "
    "meant: the pattern is valid for toolsense (no TS210), matched as a script",
    (r"\p{Greek}", "\u03b1\u03b2"): "the same pattern: toolsense matches Greek letters, V8 without `u` does not",
}
"""(pattern, string) → why toolsense answers differently from V8 there."""


def _rows() -> list[list[Any]]:
    rows: list[list[Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["rows"]
    return rows


def _toolsense(pattern: str, text: str | None) -> bool | str:
    if not regexes.compiles(pattern):
        return "invalid"
    if text is None:
        return "valid"
    found = regexes.search(pattern, text, budget_ms=5_000)
    assert found is not None, (pattern, text)  # the fixture's patterns all finish well within the budget
    return found


def test_toolsense_matches_as_v8_does() -> None:
    rows = _rows()
    disagreeing: dict[tuple[str, str], tuple[Any, Any]] = {}
    for pattern, _flags, text, v8 in rows:
        mine = _toolsense(pattern, text)
        if mine != v8:
            disagreeing[(pattern, text)] = (v8, mine)
    assert set(disagreeing) == set(DISAGREEMENTS), disagreeing
    assert len(rows) - len(disagreeing) == 7254  # agreed rows (of 7,256: the suite's patterns and edge cases)
    assert any(row[1] == "u" for row in rows) and any(row[1] == "" for row in rows)
    assert sum(row[3] == "invalid" for row in rows) == 17


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_the_fixture_is_what_v8_answers_today() -> None:
    done = subprocess.run(
        ["node", str(SCRIPT)], capture_output=True, text=True, encoding="utf-8", timeout=120, check=True
    )
    fresh = json.loads(done.stdout)["rows"]
    assert fresh == _rows(), "run `node scripts/pattern_differential.js > tests/data/pattern_differential.json`"
