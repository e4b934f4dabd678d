"""Warning precision per rule (issue 30): every warning the default profile gives on the wild corpus is judged in
tests/corpus/wild/warning_judgements.tsv, and the judged set is what toolsense reports (no new unjudged warning,
no judged place that changed severity or went away unnoticed)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from script_loader import load_script

ecosystem = load_script("ecosystem")
precision = load_script("warning_precision")


@dataclass(frozen=True)
class _Found:
    file: str
    pointer: str
    code: str
    severity: str


def _row(severity: str, verdict: str = "advice") -> dict[str, str]:
    return {"file": "a.json", "pointer": "/0/x", "code": "TS101", "severity": severity, "verdict": verdict}


def test_the_wild_corpus_warnings_are_the_judged_ones() -> None:
    rows = ecosystem._manifest()
    found = ecosystem.run_toolsense(rows)
    drift = precision.drift(found, precision.load(), {r["local_file"] for r in rows})
    assert (drift.unjudged, drift.changed, drift.pending) == ([], [], [])


def test_every_judgement_has_a_verdict_and_a_reason() -> None:
    rows = precision.load().values()
    assert rows
    assert {r["verdict"] for r in rows} <= set(precision.VERDICTS)
    assert all(r["reason"].strip() for r in rows)
    assert {r["severity"] for r in rows} <= {"warning", "information", "hint", "none"}


def test_a_new_warning_is_unjudged() -> None:
    new = _Found("a.json", "/1/y", "TS240", "warning")
    drift = precision.drift([new], {}, {"a.json"})
    assert drift.unjudged == [("a.json", "/1/y", "TS240")] and drift.failed


def test_information_nobody_judged_is_not_drift() -> None:
    assert not precision.drift([_Found("a.json", "/1/y", "TS241", "information")], {}, {"a.json"}).failed


@pytest.mark.parametrize(
    ("judged_as", "reported", "expected_now"),
    [("warning", [], "none"), ("warning", ["information"], "information"), ("information", ["warning"], "warning")],
)
def test_a_judged_place_that_changed_is_drift(judged_as: str, reported: list[str], expected_now: str) -> None:
    found = [_Found("a.json", "/0/x", "TS101", s) for s in reported]
    drift = precision.drift(found, {("a.json", "/0/x", "TS101"): _row(judged_as)}, {"a.json"})
    assert drift.changed == [(("a.json", "/0/x", "TS101"), judged_as, expected_now)]


def test_a_place_no_longer_reported_stays_judged_as_gone() -> None:
    judged = {("a.json", "/0/x", "TS933"): _row("none", "false")}
    assert not precision.drift([], judged, {"a.json"}).failed


def test_a_row_not_judged_yet_fails() -> None:
    judged = {("a.json", "/0/x", "TS101"): _row("warning", "?")}
    drift = precision.drift([_Found("a.json", "/0/x", "TS101", "warning")], judged, {"a.json"})
    assert drift.pending == [("a.json", "/0/x", "TS101")]


def test_the_table_counts_verdicts_per_rule() -> None:
    judged = {
        ("a.json", "/0/x", "TS101"): _row("information"),
        ("a.json", "/1/x", "TS101"): _row("warning", "real"),
        ("b.json", "/t", "TS933"): {**_row("none", "false"), "code": "TS933"},
    }
    lines = precision.markdown(judged)
    assert "| TS101 | 2 | 1 | 1 | 0 | 50 % | 1 | 1 | 0 |" in lines
    assert "| TS933 | 1 | 0 | 0 | 1 | 0 % | 0 | 0 | 1 |" in lines
    assert "| **all** | 3 | 1 | 1 | 1 | 33 % | 1 | 1 | 1 |" in lines
    assert lines[-1] == (
        "The judged places that are still warnings: 1, of which 1 real, 0 advice and 0 false (precision 100 %)."
    )
