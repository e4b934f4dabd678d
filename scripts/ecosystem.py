#!/usr/bin/env python3
"""The ecosystem check: toolsense over the wild corpus (tests/corpus/wild), compared with the judged verdicts.

Like ruff's ecosystem check, it shows what a change does to real files nobody here wrote:

    python scripts/ecosystem.py              check: fail on an error judged false, or on a finding not judged yet
    python scripts/ecosystem.py --record     add every finding not judged yet to verdicts.tsv as "?" (to judge),
                                             and drop the verdicts of findings no longer reported
    python scripts/ecosystem.py --write-docs regenerate docs/accuracy.md (precision and recall)
    python scripts/ecosystem.py --unblind    also print the test half's findings (for the one judgement at the end)

Warnings are judged apart, per rule (issue 30: `scripts/warning_precision.py`, warning_judgements.tsv): the check
also fails on a warning nobody judged or a judged place whose severity changed, and --record adds the new ones.

Each repository of the manifest is rebuilt in its own folder layout (folder globs look at paths) and checked as
its own workspace with default settings, as its owner would run `toolsense check` in it.

What must be judged: every error, and every finding of any severity on a file that is not ours (`look-alike`,
`nonstandard`). A verdict is `real` (the provider or client rejects it, or the model gets a wrong contract; for a
note on a look-alike: the note is right), `false`, or `debatable`, with a one-line reason citing the rule.
`missed.tsv` lists real defects toolsense does not report (recall); a row that toolsense now finds is reported.

The blind split (issue 30): the manifest's `split` column puts each repository of the second harvest in the `dev`
half (fixed against) or the `test` half (judged once, at the end); the first round is `seen`. The test half's
findings are recorded as `?` (to judge) without being shown: the check reports how many there are, fails on any
that is not recorded or is judged false, and prints them only with --unblind.
"""

from __future__ import annotations

import argparse
import collections
import csv
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "tests" / "corpus" / "wild"
MANIFEST = WILD / "MANIFEST.tsv"
VERDICTS = WILD / "verdicts.tsv"
MISSED = WILD / "missed.tsv"
ACCURACY = ROOT / "docs" / "accuracy.md"
VERDICT_FIELDS = ["file", "code", "severity", "pointer", "count", "verdict", "reason"]
MISSED_FIELDS = ["file", "pointer", "family", "dialect", "what"]
VERDICTS_ALLOWED = {"real", "false", "debatable"}
NOT_OURS = {"look-alike", "nonstandard"}
SPLITS = ("seen", "dev", "test")
BLIND = "test"  # the half judged once, at the end: its findings are counted, not shown
PENDING = "?"
TEST_HALF_JUDGEMENT = (
    "Judged once, at the end of the round that fixed against the dev half (2026-12-07, `--unblind`): no error, "
    "before the fixes (d652562) or after; the 4 TS220 findings are advice on valid tools (warnings before, "
    "information now); the 8 TS250 hints are right (MCP: `destructiveHint` and `idempotentHint` mean nothing when "
    "`readOnlyHint` is true). From now on an error on this half fails the check until it is judged."
)
"""The one judgement of the blind half (issue 30): what its findings were when it was read, before and after."""

sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import warning_precision  # noqa: E402  (beside this script)
from tsv import read_tsv, write_tsv  # noqa: E402  (beside this script)


@dataclass(frozen=True)
class Found:
    """One reported finding, keyed as verdicts are: file, code, severity and JSON pointer (or @line:column)."""

    file: str
    code: str
    severity: str
    pointer: str
    dialect: str
    family: str
    message: str


def _pointer(parts: tuple[str | int, ...]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _manifest() -> list[dict[str, str]]:
    with MANIFEST.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def run_toolsense(rows: list[dict[str, str]]) -> list[Found]:
    """Every finding toolsense reports on the manifest's files, each repository checked as its own workspace."""
    from toolsense.engine.workspace import Workspace
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    by_repo: dict[str, list[dict[str, str]]] = collections.defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row)
    found: list[Found] = []
    with tempfile.TemporaryDirectory(prefix="toolsense-wild-") as temp:
        for repo, repo_rows in sorted(by_repo.items()):
            tree = Path(temp) / repo.replace("/", "__")
            local: dict[Path, str] = {}
            for row in repo_rows:
                target = tree / row["path"]
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(WILD / row["local_file"], target)
                local[target] = row["local_file"]
            workspace = Workspace(Settings(), CATALOG)
            workspace.add([tree])
            for path, loaded in workspace.files.items():
                if loaded.problem is not None:
                    diagnostics, units = [loaded.problem], []
                else:
                    report = workspace.check(path)
                    if report is None:
                        continue
                    diagnostics, units = report.diagnostics, report.units
                for d in diagnostics:
                    if d.finding is not None:
                        pointer = _pointer(d.finding.pointer)
                        owner = max(
                            (u for u in units if tuple(d.finding.pointer[: len(u.pointer)]) == tuple(u.pointer)),
                            key=lambda u: len(u.pointer),
                            default=None,
                        )
                        dialect = str(owner.dialect) if owner is not None and owner.dialect else "file"
                    else:
                        pointer = f"@{d.range.start.line + 1}:{d.range.start.character + 1}"
                        dialect = "file"
                    rule = CATALOG.rules.get(d.code)
                    found.append(
                        Found(
                            local.get(path, str(path)),
                            d.code,
                            d.severity.label,
                            pointer,
                            dialect,
                            rule.family if rule is not None else "?",
                            d.message,
                        )
                    )
    return found


def must_judge(found: Found, kinds: dict[str, str]) -> bool:
    return found.severity == "error" or kinds.get(found.file, "ours") in NOT_OURS


def _key(file: str, code: str, severity: str, pointer: str) -> tuple[str, str, str, str]:
    return (file, code, severity, pointer)


def load_verdicts() -> dict[tuple[str, str, str, str], dict[str, str]]:
    if not VERDICTS.exists():
        return {}
    with VERDICTS.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return {_key(r["file"], r["code"], r["severity"], r["pointer"]): r for r in rows}


def load_missed() -> list[dict[str, str]]:
    return read_tsv(MISSED)


@dataclass
class Comparison:
    counted: collections.Counter[tuple[str, str, str, str]]
    examples: dict[tuple[str, str, str, str], Found]
    unjudged: list[tuple[str, str, str, str]]
    judged_false: list[tuple[str, str, str, str]]
    gone: list[tuple[str, str, str, str]]
    missed_now_found: list[dict[str, str]]
    pending: list[tuple[str, str, str, str]]  # the blind half's findings, recorded as "?" and not judged yet


def compare(found: list[Found], kinds: dict[str, str], blind: frozenset[str] = frozenset()) -> Comparison:
    """`kinds` holds the files checked; `blind` the test half's: a finding recorded there as "?" is pending."""
    verdicts = load_verdicts()
    counted: collections.Counter[tuple[str, str, str, str]] = collections.Counter()
    examples: dict[tuple[str, str, str, str], Found] = {}
    for f in found:
        if must_judge(f, kinds):
            key = _key(f.file, f.code, f.severity, f.pointer)
            counted[key] += 1
            examples.setdefault(key, f)
    pending = sorted(k for k in counted if k[0] in blind and verdicts.get(k, {}).get("verdict") == PENDING)
    unjudged = sorted(
        k
        for k in counted
        if (k not in verdicts or verdicts[k]["verdict"] not in VERDICTS_ALLOWED) and k not in set(pending)
    )
    judged_false = sorted(k for k in counted if k in verdicts and verdicts[k]["verdict"] == "false")
    gone = sorted(k for k in verdicts if k not in counted and k[0] in kinds)
    errors_at = {(f.file, f.pointer) for f in found if f.severity == "error"}
    missed_now_found = [m for m in load_missed() if (m["file"], m["pointer"]) in errors_at]
    return Comparison(counted, examples, unjudged, judged_false, gone, missed_now_found, pending)


def _by_code(keys: list[tuple[str, str, str, str]], weights: collections.Counter[tuple[str, str, str, str]]) -> str:
    per_code: collections.Counter[str] = collections.Counter()
    for key in keys:
        per_code[f"{key[1]} ({key[2]})"] += max(weights.get(key, 1), 1)
    return ", ".join(f"{code} ×{n}" for code, n in sorted(per_code.items())) or "none"


def report(comparison: Comparison, blind: frozenset[str] = frozenset()) -> int:
    """Print what changed; the blind half's findings are counted, never shown (`blind` empty shows them)."""
    verdicts = load_verdicts()
    print(f"wild corpus: {sum(comparison.counted.values())} findings to judge at {len(comparison.counted)} places")
    print(f"  new (not judged yet): {_by_code(comparison.unjudged, comparison.counted)}")
    gone_weights = collections.Counter({k: int(verdicts[k].get("count") or 1) for k in comparison.gone})
    print(f"  gone (judged, no longer reported): {_by_code(comparison.gone, gone_weights)}")
    hidden = [k for k in comparison.unjudged if k[0] in blind]
    for key in comparison.unjudged:
        f = comparison.examples[key]
        if key[0] not in blind:
            print(f"  NEW   {f.file} {f.pointer} {f.severity} {f.code}: {f.message}")
    if hidden:
        errors = sum(comparison.counted[k] for k in hidden if k[2] == "error")
        print(f"  NEW   test half: {len(hidden)} places not recorded yet ({errors} errors; shown with --unblind)")
    for key in comparison.judged_false:
        f = comparison.examples[key]
        print(f"  FALSE {f.file} {f.pointer} {f.severity} {f.code}: {f.message} ({verdicts[key]['reason']})")
    for key in comparison.gone:
        row = verdicts[key]
        if key[0] not in blind:
            print(f"  GONE  {row['file']} {row['pointer']} {row['severity']} {row['code']} (was {row['verdict']})")
    for m in comparison.missed_now_found:
        print(f"  FOUND {m['file']} {m['pointer']}: a missed defect is now reported ({m['what']}); judge it")
    if comparison.pending:
        errors = sum(comparison.counted[k] for k in comparison.pending if k[2] == "error")
        print(
            f"  PENDING test half: {sum(comparison.counted[k] for k in comparison.pending)} findings at "
            f"{len(comparison.pending)} places, {errors} of them errors, not judged yet (the lead judges them once, "
            "at the end: --unblind shows them)"
        )
    failed = bool(comparison.unjudged or comparison.judged_false)
    print("ecosystem check: " + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


def record(comparison: Comparison, blind: frozenset[str] = frozenset()) -> None:
    """Add the findings not judged yet as "?"; the blind half's are written, not printed."""
    verdicts = load_verdicts()
    for key in comparison.unjudged:
        f = comparison.examples[key]
        verdicts[key] = {
            "file": f.file,
            "code": f.code,
            "severity": f.severity,
            "pointer": f.pointer,
            "count": str(comparison.counted[key]),
            "verdict": PENDING,
            "reason": f.message.replace("\t", " ").replace("\n", " "),
        }
    for key, count in comparison.counted.items():
        if key in verdicts:
            verdicts[key]["count"] = str(count)
    for key in comparison.gone:  # no longer reported: the verdict stays in git's history, not in the file
        del verdicts[key]
    write_tsv(VERDICTS, VERDICT_FIELDS, [verdicts[k] for k in sorted(verdicts)])
    if not MISSED.exists():
        write_tsv(MISSED, MISSED_FIELDS, [])
    shown = sum(k[0] not in blind for k in comparison.unjudged)
    print(f"recorded {len(comparison.unjudged)} new places in {VERDICTS.name} ({shown} outside the test half)")


def _ratio(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "—"


def accuracy_markdown(all_found: list[Found], all_rows: list[dict[str, str]]) -> str:
    """The first round's tables (the corpus the rules were fixed against), then the blind split's figures."""
    rows = [r for r in all_rows if r.get("split", "seen") == "seen"]
    seen = {r["local_file"] for r in rows}
    found = [f for f in all_found if f.file in seen]
    verdicts = load_verdicts()
    missed = load_missed()
    kinds = {r["local_file"]: r["kind"] for r in rows}
    repos = {r["repo"] for r in rows}
    by_kind = collections.Counter(r["kind"] for r in rows)
    reported = {(f.file, f.pointer) for f in found if f.severity == "error"}
    still_missed = [m for m in missed if (m["file"], m["pointer"]) not in reported]

    def table(label: str, group: str) -> list[str]:
        tally: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for f in found:
            if f.severity != "error":
                continue
            verdict = verdicts.get(_key(f.file, f.code, f.severity, f.pointer), {}).get("verdict", "unjudged")
            tally[getattr(f, group)][verdict] += 1
        for m in still_missed:
            tally[m[group] or "?"]["missed"] += 1
        lines = [
            f"| {label} | errors | real | false | debatable | missed | precision (strict) | precision | recall |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        total: collections.Counter[str] = collections.Counter()
        for counts in tally.values():
            total.update(counts)
        for name in [*sorted(tally), "**all**"]:
            t = tally[name] if name != "**all**" else total
            errors = sum(v for k, v in t.items() if k != "missed")
            lines.append(
                f"| {name} | {errors} | {t['real']} | {t['false']} | {t['debatable']} | {t['missed']} | "
                f"{_ratio(t['real'], errors)} | {_ratio(t['real'], t['real'] + t['false'])} | "
                f"{_ratio(t['real'], t['real'] + t['missed'])} |"
            )
        return lines

    not_ours_findings = [f for f in found if kinds.get(f.file) in NOT_OURS]
    not_ours_by_code = collections.Counter(f"{f.code} ({f.severity})" for f in not_ours_findings)
    lines = [
        "# Accuracy on the wild corpus",
        "",
        "Generated by `python scripts/ecosystem.py --write-docs`; do not edit by hand. The corpus is",
        f"`tests/corpus/wild/` ({len(rows)} files from {len(repos)} public repositories: "
        + ", ".join(f"{n} {k}" for k, n in sorted(by_kind.items()))
        + "), each checked in its repository's folder layout with default settings.",
        "",
        "Every error is judged in `tests/corpus/wild/verdicts.tsv` (real: the provider or client rejects it, or the",
        "model gets a wrong contract; false; debatable), with the documented rule it rests on. Strict precision counts",
        "debatable errors as wrong; precision leaves them out. Recall counts the real defects listed in",
        "`tests/corpus/wild/missed.tsv` that toolsense does not report. The test command runs the same comparison",
        "(`tests/corpus/test_wild_ecosystem.py`) and fails on an error judged false or not judged.",
        "",
        "## Errors by dialect",
        "",
        *table("dialect", "dialect"),
        "",
        "## Errors by rule family",
        "",
        *table("family", "family"),
        "",
        "## Findings on files that are not ours",
        "",
        f"{len(not_ours_findings)} findings on {by_kind.get('look-alike', 0) + by_kind.get('nonstandard', 0)} "
        "look-alike and non-standard files: "
        + (", ".join(f"{code} ×{n}" for code, n in sorted(not_ours_by_code.items())) or "none")
        + ".",
        "",
        *split_markdown(all_found, all_rows),
        *warning_precision.markdown(warning_precision.load()),
        "",
    ]
    return "\n".join(lines)


def warning_drift(found: list[Found], rows: list[dict[str, str]]) -> int:
    """Print how the warnings differ from the judged set (warning_judgements.tsv); 1 when they do."""
    judged = warning_precision.load()
    drift = warning_precision.drift(found, judged, {r["local_file"] for r in rows})
    messages = {warning_precision.key(f.file, f.pointer, f.code): f.message for f in found}
    for k in drift.unjudged:
        print(f"  WARNING NOT JUDGED {k[0]} {k[1]} {k[2]}: {messages.get(k, '')}")
    for k, was, now in drift.changed:
        print(f"  WARNING CHANGED {k[0]} {k[1]} {k[2]}: judged as {was}, reported as {now}")
    for k in drift.pending:
        print(f"  WARNING TO JUDGE {k[0]} {k[1]} {k[2]}")
    print("warning judgements: " + ("FAILED" if drift.failed else "ok"))
    return 1 if drift.failed else 0


def split_markdown(found: list[Found], rows: list[dict[str, str]]) -> list[str]:
    """Issue 30's blind split: each half's files and findings; the dev half judged, the test half only counted."""
    new = [r for r in rows if r.get("split") in ("dev", "test")]
    if not new:
        return []
    verdicts = load_verdicts()
    half_of = {r["local_file"]: r["split"] for r in new}
    log = _read_log()
    looked = len(log)
    skipped = collections.Counter(_skip_reason(r["reason"]) for r in log if r["outcome"] == "skipped")
    lines = [
        "## The blind split (issue 30)",
        "",
        f"A second harvest: {len(new)} files from {len({r['repo'] for r in new})} repositories that are in no corpus "
        "here, found by file-name queries of the public file index and taken in the seeded order of "
        "`scripts/harvest.py` (each query's hits shuffled, the queries interleaved), not picked by hand. "
        f"{looked} hits were looked at in that order: {len(new)} taken, "
        + ", ".join(f"{n} {why}" for why, n in sorted(skipped.items(), key=lambda kv: -kv[1]))
        + " (`tests/corpus/wild/harvest/log.tsv`). The repositories were split at random (seed 30, whole "
        "repositories, each batch of the harvest on its own) into two halves before any finding was looked at; "
        "rules are fixed against the dev half only, and the test half is judged once, at the end. The first "
        "round's files (the tables above) are the `seen` split.",
        "",
        "| half | files | repositories | ours | look-alike | nonstandard | errors | real | false | debatable "
        "| to judge | warnings | notes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for half in ("dev", "test"):
        half_rows = [r for r in new if r["split"] == half]
        kinds = collections.Counter(r["kind"] for r in half_rows)
        half_found = [f for f in found if half_of.get(f.file) == half]
        tally: collections.Counter[str] = collections.Counter()
        for f in half_found:
            if f.severity == "error":
                verdict = verdicts.get(_key(f.file, f.code, f.severity, f.pointer), {}).get("verdict", PENDING)
                tally[verdict if verdict in VERDICTS_ALLOWED else PENDING] += 1
        by_severity = collections.Counter(f.severity for f in half_found)
        lines.append(
            f"| {half} | {len(half_rows)} | {len({r['repo'] for r in half_rows})} | {kinds['ours']} | "
            f"{kinds['look-alike']} | {kinds['nonstandard']} | {by_severity['error']} | "
            + (
                f"{tally['real']} | {tally['false']} | {tally['debatable']} | {tally[PENDING]} | "
                if half != BLIND
                else f"— | — | — | {tally[PENDING]} | "
            )
            + f"{by_severity['warning']} | {by_severity['information'] + by_severity['hint']} |"
        )
    dev_found = [f for f in found if half_of.get(f.file) == "dev"]
    per_rule: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for f in dev_found:
        judged = must_judge(f, {r["local_file"]: r["kind"] for r in new})
        verdict = verdicts.get(_key(f.file, f.code, f.severity, f.pointer), {}).get("verdict", PENDING)
        per_rule[(f.code, f.severity)][verdict if judged else "not judged (a warning on a file of ours)"] += 1
    lines += [
        "",
        "### Dev half: findings per rule",
        "",
        "Every error and every finding on a file that is not ours is judged in `verdicts.tsv`; warnings on files of "
        "ours are counted, not judged.",
        "",
        "| rule | severity | findings | real | false | debatable | not judged |",
        "|---|---|---|---|---|---|---|",
    ]
    for (code, severity), t in sorted(per_rule.items()):
        lines.append(
            f"| {code} | {severity} | {sum(t.values())} | {t['real']} | {t['false']} | {t['debatable']} | "
            f"{sum(v for k, v in t.items() if k not in VERDICTS_ALLOWED)} |"
        )
    test_found = [f for f in found if half_of.get(f.file) == BLIND]
    lines += [
        "",
        "### Test half: judged once",
        "",
        f"{len(test_found)} findings: "
        + (", ".join(f"{n} {sev}" for sev, n in sorted(collections.Counter(f.severity for f in test_found).items())))
        + ". "
        + TEST_HALF_JUDGEMENT,
        "",
    ]
    return lines


def _read_log() -> list[dict[str, str]]:
    path = WILD / "harvest" / "log.tsv"
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _skip_reason(reason: str) -> str:
    if reason.startswith("no LICENSE"):
        return "skipped for want of a LICENSE file"
    if "LICENSE" in reason:
        return "skipped for a licence that is not permissive (or not read)"
    if "cap" in reason:
        return "skipped as over the 6,000-character cap"
    if "credential" in reason:
        return "skipped as holding a credential"
    return "skipped: " + reason


SECURITY_MARK = "\n<!-- The security tables below: scripts/security_accuracy.py, appended by --write-docs. -->\n\n"
MUTATION_MARK = "\n<!-- The mutation table below: scripts/mutants.py --write-docs. -->\n\n"


def _security_markdown() -> str:
    """The MCP security rules' tables (scripts/security_accuracy.py), measured on the same corpora."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("security_accuracy", ROOT / "scripts" / "security_accuracy.py")
    if spec is None or spec.loader is None:
        return ""
    module = importlib.util.module_from_spec(spec)
    sys.modules["security_accuracy"] = module
    spec.loader.exec_module(module)
    return str(module.markdown())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--record", action="store_true", help="add findings not judged yet to verdicts.tsv as '?'")
    parser.add_argument("--write-docs", action="store_true", help="regenerate docs/accuracy.md")
    parser.add_argument("--check-docs", action="store_true", help="fail when docs/accuracy.md is not up to date")
    parser.add_argument("--split", choices=SPLITS, help="check one half only (the docs need the whole corpus)")
    parser.add_argument("--unblind", action="store_true", help="show the test half's findings (the final judgement)")
    args = parser.parse_args(argv)
    if args.split and (args.write_docs or args.check_docs):
        parser.error("--write-docs and --check-docs need the whole corpus, not --split")
    rows = [r for r in _manifest() if args.split in (None, r["split"])]
    missing = [r["local_file"] for r in rows if not (WILD / r["local_file"]).is_file()]
    if missing:
        print(f"manifest names files that are not there: {missing[:5]}", file=sys.stderr)
        return 2
    found = run_toolsense(rows)
    kinds = {r["local_file"]: r["kind"] for r in rows}
    blind = frozenset(r["local_file"] for r in rows if r["split"] == BLIND)
    comparison = compare(found, kinds, blind)
    if args.record:
        record(comparison, frozenset() if args.unblind else blind)
        comparison = compare(found, kinds, blind)
        messages = {warning_precision.key(f.file, f.pointer, f.code): f.message for f in found}
        added = warning_precision.record(found, messages)
        print(f"recorded {added} new warnings in {warning_precision.JUDGEMENTS.name}")
    status = report(comparison, frozenset() if args.unblind else blind)
    status |= warning_drift(found, rows)
    markdown = accuracy_markdown(found, rows)
    written = ACCURACY.read_text(encoding="utf-8") if ACCURACY.exists() else ""
    if args.write_docs:
        # The mutation table is scripts/mutants.py's (it runs for minutes): kept as it is here.
        mutation = MUTATION_MARK + written.split(MUTATION_MARK)[1] if MUTATION_MARK in written else ""
        ACCURACY.write_text(markdown + SECURITY_MARK + _security_markdown() + mutation, encoding="utf-8")
        print(f"wrote {ACCURACY.relative_to(ROOT)}")
    elif args.check_docs and written.split(SECURITY_MARK)[0] != markdown:
        # The security tables' benign set includes ../shared/corpus where it exists, so only this part is
        # compared here; tests/corpus/test_security_accuracy.py holds the other.
        print("docs/accuracy.md is out of date: run `python scripts/ecosystem.py --write-docs`")
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
