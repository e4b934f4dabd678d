#!/usr/bin/env python3
"""The ecosystem check: toolsense over the wild corpus (tests/corpus/wild), compared with the judged verdicts.

Like ruff's ecosystem check, it shows what a change does to real files nobody here wrote:

    python scripts/ecosystem.py              check: fail on an error judged false, or on a finding not judged yet
    python scripts/ecosystem.py --record     add every finding not judged yet to verdicts.tsv as "?" (to judge),
                                             and drop the verdicts of findings no longer reported
    python scripts/ecosystem.py --write-docs regenerate docs/accuracy.md (precision and recall)

Each repository of the manifest is rebuilt in its own folder layout (folder globs look at paths) and checked as
its own workspace with default settings, as its owner would run `toolsense check` in it.

What must be judged: every error, and every finding of any severity on a file that is not ours (`look-alike`,
`nonstandard`). A verdict is `real` (the provider or client rejects it, or the model gets a wrong contract; for a
note on a look-alike: the note is right), `false`, or `debatable`, with a one-line reason citing the rule.
`missed.tsv` lists real defects toolsense does not report (recall); a row that toolsense now finds is reported.
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

sys.path.insert(0, str(ROOT / "server"))


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
    if not MISSED.exists():
        return []
    with MISSED.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _write_tsv(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fields, delimiter="\t", lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


@dataclass
class Comparison:
    counted: collections.Counter[tuple[str, str, str, str]]
    examples: dict[tuple[str, str, str, str], Found]
    unjudged: list[tuple[str, str, str, str]]
    judged_false: list[tuple[str, str, str, str]]
    gone: list[tuple[str, str, str, str]]
    missed_now_found: list[dict[str, str]]


def compare(found: list[Found], kinds: dict[str, str]) -> Comparison:
    verdicts = load_verdicts()
    counted: collections.Counter[tuple[str, str, str, str]] = collections.Counter()
    examples: dict[tuple[str, str, str, str], Found] = {}
    for f in found:
        if must_judge(f, kinds):
            key = _key(f.file, f.code, f.severity, f.pointer)
            counted[key] += 1
            examples.setdefault(key, f)
    unjudged = sorted(k for k in counted if k not in verdicts or verdicts[k]["verdict"] not in VERDICTS_ALLOWED)
    judged_false = sorted(k for k in counted if k in verdicts and verdicts[k]["verdict"] == "false")
    gone = sorted(k for k in verdicts if k not in counted)
    errors_at = {(f.file, f.pointer) for f in found if f.severity == "error"}
    missed_now_found = [m for m in load_missed() if (m["file"], m["pointer"]) in errors_at]
    return Comparison(counted, examples, unjudged, judged_false, gone, missed_now_found)


def _by_code(keys: list[tuple[str, str, str, str]], weights: collections.Counter[tuple[str, str, str, str]]) -> str:
    per_code: collections.Counter[str] = collections.Counter()
    for key in keys:
        per_code[f"{key[1]} ({key[2]})"] += max(weights.get(key, 1), 1)
    return ", ".join(f"{code} ×{n}" for code, n in sorted(per_code.items())) or "none"


def report(comparison: Comparison) -> int:
    verdicts = load_verdicts()
    print(f"wild corpus: {sum(comparison.counted.values())} findings to judge at {len(comparison.counted)} places")
    print(f"  new (not judged yet): {_by_code(comparison.unjudged, comparison.counted)}")
    gone_weights = collections.Counter({k: int(verdicts[k].get("count") or 1) for k in comparison.gone})
    print(f"  gone (judged, no longer reported): {_by_code(comparison.gone, gone_weights)}")
    for key in comparison.unjudged:
        f = comparison.examples[key]
        print(f"  NEW   {f.file} {f.pointer} {f.severity} {f.code}: {f.message}")
    for key in comparison.judged_false:
        f = comparison.examples[key]
        print(f"  FALSE {f.file} {f.pointer} {f.severity} {f.code}: {f.message} ({verdicts[key]['reason']})")
    for key in comparison.gone:
        row = verdicts[key]
        print(f"  GONE  {row['file']} {row['pointer']} {row['severity']} {row['code']} (was {row['verdict']})")
    for m in comparison.missed_now_found:
        print(f"  FOUND {m['file']} {m['pointer']}: a missed defect is now reported ({m['what']}); judge it")
    failed = bool(comparison.unjudged or comparison.judged_false)
    print("ecosystem check: " + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


def record(comparison: Comparison) -> None:
    verdicts = load_verdicts()
    for key in comparison.unjudged:
        f = comparison.examples[key]
        verdicts[key] = {
            "file": f.file,
            "code": f.code,
            "severity": f.severity,
            "pointer": f.pointer,
            "count": str(comparison.counted[key]),
            "verdict": "?",
            "reason": f.message.replace("\t", " ").replace("\n", " "),
        }
    for key, count in comparison.counted.items():
        if key in verdicts:
            verdicts[key]["count"] = str(count)
    for key in comparison.gone:  # no longer reported: the verdict stays in git's history, not in the file
        del verdicts[key]
    _write_tsv(VERDICTS, VERDICT_FIELDS, [verdicts[k] for k in sorted(verdicts)])
    if not MISSED.exists():
        _write_tsv(MISSED, MISSED_FIELDS, [])
    print(f"recorded {len(comparison.unjudged)} new places in {VERDICTS.relative_to(ROOT)}")


def _ratio(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "—"


def accuracy_markdown(found: list[Found], rows: list[dict[str, str]]) -> str:
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
    ]
    return "\n".join(lines)


SECURITY_MARK = "\n<!-- The security tables below: scripts/security_accuracy.py, appended by --write-docs. -->\n\n"


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
    args = parser.parse_args(argv)
    rows = _manifest()
    missing = [r["local_file"] for r in rows if not (WILD / r["local_file"]).is_file()]
    if missing:
        print(f"manifest names files that are not there: {missing[:5]}", file=sys.stderr)
        return 2
    found = run_toolsense(rows)
    kinds = {r["local_file"]: r["kind"] for r in rows}
    comparison = compare(found, kinds)
    if args.record:
        record(comparison)
        comparison = compare(found, kinds)
    status = report(comparison)
    markdown = accuracy_markdown(found, rows)
    if args.write_docs:
        ACCURACY.write_text(markdown + SECURITY_MARK + _security_markdown(), encoding="utf-8")
        print(f"wrote {ACCURACY.relative_to(ROOT)}")
    elif args.check_docs:
        # The security tables' benign set includes ../shared/corpus where it exists, so only this part is
        # compared here; tests/corpus/test_security_accuracy.py holds the other.
        written = ACCURACY.read_text(encoding="utf-8").split(SECURITY_MARK)[0] if ACCURACY.exists() else ""
        if written != markdown:
            print("docs/accuracy.md is out of date: run `python scripts/ecosystem.py --write-docs`")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
