"""Warning precision per rule on the wild corpus (issue 30): every warning of the default profile, judged.

`tests/corpus/wild/warning_judgements.tsv` holds one row per warning the default profile gave on the wild corpus
(all splits) when it was judged: file, pointer, code, the severity toolsense reports there *now*, the verdict and
a one-line reason with its source.

- `real`: a real problem (the client or provider rejects or ignores what the author meant, or a security risk);
- `advice`: the file works as it is; the warning suggests something better;
- `false`: the warning is wrong about the file.

A rule whose judged warnings were mostly advice became information by default, and a false warning got its class
fixed (hand-made tests, never a per-file exception); the rows keep the judgement and say what is reported now
(`severity`: `warning`, `information`, or `none` when no longer reported). `drift` compares the judged set with
what toolsense reports: a warning nobody judged, or a row whose severity is no longer what it says, fails
`tests/corpus/test_warning_precision.py`. `--record` (in `scripts/ecosystem.py`) adds the unjudged warnings as "?".
"""

from __future__ import annotations

import collections
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tsv import read_tsv, write_tsv

JUDGEMENTS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "wild" / "warning_judgements.tsv"
FIELDS = ["file", "pointer", "code", "severity", "verdict", "reason"]
VERDICTS = ("real", "advice", "false")
PENDING = "?"
GONE = "none"
"""The `severity` of a judged warning no longer reported (its class was fixed)."""


class Reported(Protocol):
    """What a finding of `scripts/ecosystem.py` gives (its `Found`)."""

    @property
    def file(self) -> str: ...
    @property
    def pointer(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> str: ...


Key = tuple[str, str, str]


def key(file: str, pointer: str, code: str) -> Key:
    return (file, pointer, code)


def load(path: Path = JUDGEMENTS) -> dict[Key, dict[str, str]]:
    return {key(r["file"], r["pointer"], r["code"]): r for r in read_tsv(path)}


@dataclass(frozen=True)
class Drift:
    unjudged: list[Key]
    """Warnings reported now that no row judges."""
    changed: list[tuple[Key, str, str]]
    """Judged places whose reported severity is not the row's (key, row's severity, reported severity or none)."""
    pending: list[Key]
    """Rows recorded as "?" and not judged yet."""

    @property
    def failed(self) -> bool:
        return bool(self.unjudged or self.changed or self.pending)


def reported_severities(found: Iterable[Reported]) -> dict[Key, str]:
    """The most severe finding of each (file, pointer, code)."""
    rank = {"error": 0, "warning": 1, "information": 2, "hint": 3}
    out: dict[Key, str] = {}
    for f in found:
        k = key(f.file, f.pointer, f.code)
        if k not in out or rank.get(f.severity, 9) < rank.get(out[k], 9):
            out[k] = f.severity
    return out


def drift(found: Iterable[Reported], judged: dict[Key, dict[str, str]], files: set[str]) -> Drift:
    """`files`: the corpus files checked (rows of other files are not compared)."""
    now = reported_severities(found)
    unjudged = sorted(k for k, severity in now.items() if severity == "warning" and k not in judged)
    changed = sorted(
        (k, row["severity"], now.get(k, GONE))
        for k, row in judged.items()
        if k[0] in files and now.get(k, GONE) != row["severity"]
    )
    pending = sorted(k for k, row in judged.items() if row["verdict"] not in VERDICTS)
    return Drift(unjudged, changed, pending)


def record(found: Iterable[Reported], messages: dict[Key, str], path: Path = JUDGEMENTS) -> int:
    """Add each unjudged warning as "?" (its message as the reason, to replace), and bring the `severity` of
    judged rows up to date; returns how many rows were added."""
    judged = load(path)
    now = reported_severities(found)
    added = 0
    for k, severity in now.items():
        if severity == "warning" and k not in judged:
            judged[k] = dict(zip(FIELDS, (*k, severity, PENDING, messages.get(k, "")), strict=True))
            added += 1
    for k, row in judged.items():
        row["severity"] = now.get(k, GONE)
    write_tsv(path, FIELDS, [judged[k] for k in sorted(judged)])
    return added


def markdown(judged: dict[Key, dict[str, str]]) -> list[str]:
    """The per-rule table of docs/accuracy.md: the judged warnings, and what toolsense reports at those places now."""
    per_rule: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for (_, _, code), row in judged.items():
        per_rule[code][row["verdict"]] += 1
        per_rule[code]["now:" + row["severity"]] += 1
    total: collections.Counter[str] = collections.Counter()
    lines = [
        "## Warning precision per rule (issue 30)",
        "",
        "Every warning the default profile gave on the wild corpus (all three splits) when it was judged, in "
        "`tests/corpus/wild/warning_judgements.tsv`: *real* (the client or provider rejects or ignores what the "
        "author meant, or a security risk), *advice* (the file works as it is), *false* (the warning is wrong). "
        "Precision is the share that is real. A rule whose warnings were mostly advice became information by "
        "default (or in that context); a false warning had its class fixed. The last three columns say what toolsense "
        "reports at the judged places today; `tests/corpus/test_warning_precision.py` fails when a warning nobody "
        "judged appears or a judged place changes.",
        "",
        "| rule | warnings judged | real | advice | false | precision | now warning | now information | "
        "now not reported |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for code in sorted(per_rule):
        t = per_rule[code]
        total.update(t)
        lines.append(_row(code, t))
    lines.append(_row("**all**", total))
    still = [row["verdict"] for row in judged.values() if row["severity"] == "warning"]
    tally = collections.Counter(still)
    share = f"{100 * tally['real'] / len(still):.0f} %" if still else "—"
    lines += [
        "",
        f"The judged places that are still warnings: {len(still)}, of which {tally['real']} real, "
        f"{tally['advice']} advice and {tally['false']} false (precision {share}).",
    ]
    return lines


def _row(name: str, t: collections.Counter[str]) -> str:
    judged = sum(t[v] for v in (*VERDICTS, PENDING))
    share = f"{100 * t['real'] / judged:.0f} %" if judged else "—"
    return (
        f"| {name} | {judged} | {t['real']} | {t['advice']} | {t['false']} | {share} | {t['now:warning']} | "
        f"{t['now:information']} | {t['now:' + GONE]} |"
    )
