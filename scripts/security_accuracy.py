#!/usr/bin/env python3
"""Accuracy of the MCP security rules (issue 23), measured rather than guessed.

    python scripts/security_accuracy.py            print the tables (Markdown)
    python scripts/security_accuracy.py --check    also exit 1 when a target is missed

Benign set: every tool and configuration in ../shared/corpus (when present), the wild corpus (tests/corpus/wild,
or --wild DIR), the hand-written benign cases of text in other languages and emoji that carry invisible characters
legitimately (tests/corpus/security/benign) and the hand-written benign set of instructions-like wording
(tests/corpus/security_benign), each repository its own workspace (every .json, .jsonl and .snap file, named
explicitly), checked with the `mcp-security` profile on: every finding of the security rules is counted by
severity (target: no error; warnings listed to be judged).
Malicious set: tests/corpus/security but its benign folder (MANIFEST.tsv says which rule must find which tool
or server entry), checked as one workspace (so a tool can shadow another server's). Targets: rules 1–3
(TS290–TS293) find at least 90 % of their rows, every configuration row is found, and the negative controls of the
configuration files (the entries the manifest does not name) get nothing.

`markdown()` returns the tables; the integrator appends them to docs/accuracy.md.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from toolsense.engine.checker import Diagnostic  # noqa: E402
from toolsense.engine.workspace import Workspace  # noqa: E402
from toolsense.jsonvalue import loads  # noqa: E402
from toolsense.rules import CATALOG  # noqa: E402
from toolsense.settings import Settings  # noqa: E402

SECURITY = ROOT / "tests" / "corpus" / "security"
MANIFEST = SECURITY / "MANIFEST.tsv"
BENIGN = SECURITY / "benign"
"""Benign cases written by hand next to the malicious ones: what ordinary text needs and a rule must not report."""
JUDGED = SECURITY / "benign_judged.tsv"
"""Findings on the benign set judged right: files there that are malicious on purpose (a scanner's fixtures)."""
SHARED = ROOT.parent / "shared" / "corpus"
WILD = ROOT / "tests" / "corpus" / "wild"
HAND_BENIGN = ROOT / "tests" / "corpus" / "security_benign"
"""Benign texts an earlier version of a rule reported (the adversarial campaigns' false positives)."""
TEXT_RULES = ("TS290", "TS291", "TS292", "TS293")
CONFIG_RULES = ("TS940", "TS941", "TS942", "TS943", "TS944")
COMBINATION_RULES = ("TS295",)
CODES = TEXT_RULES + COMBINATION_RULES + CONFIG_RULES
RECALL_TARGET = 0.9


def _settings() -> Settings:
    return Settings.model_validate({"profiles": ["mcp-security"]})


def _check(paths: list[Path]) -> dict[Path, list[Diagnostic]]:
    workspace = Workspace(_settings(), CATALOG)
    workspace.add(paths)
    return workspace.check_all()


@dataclass
class Benign:
    name: str
    files: int = 0
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    warnings: list[str] = field(default_factory=list)
    judged_real: list[str] = field(default_factory=list)


def _judged() -> set[tuple[str, str]]:
    with JUDGED.open(encoding="utf-8") as handle:
        return {(r["file"], r["code"]) for r in csv.DictReader(handle, delimiter="\t") if r["verdict"] == "real"}


def _blind(folder: Path) -> set[str]:
    """The wild corpus's test half (issue 30's blind split): judged once, at the end, so its findings stay unread."""
    manifest = folder / "MANIFEST.tsv"
    if not manifest.exists():
        return set()
    with manifest.open(newline="", encoding="utf-8") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return {r["local_file"].split("/")[1] for r in rows if r.get("split") == "test"}


def repositories(folder: Path) -> list[Path]:
    """Each repository of a corpus folder, checked as its own workspace (as its owner would): a collection keeps
    them in `files/<repository>`; any other folder is one repository, or a folder of them. The wild corpus's
    test half is left out (see `_blind`)."""
    if (folder / "files").is_dir():
        blind = _blind(folder)
        return sorted(p for p in (folder / "files").iterdir() if p.is_dir() and p.name not in blind)
    children = sorted(p for p in folder.iterdir() if p.is_dir())
    if any((child / "files").is_dir() for child in children):
        return [repository for child in children for repository in repositories(child)]
    return [folder]


def benign(sources: list[tuple[str, Path]]) -> list[Benign]:
    results = []
    judged = _judged()
    for name, root in sources:
        found = Benign(name)
        for folder in repositories(root) if root.is_dir() else []:
            files = sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl", ".snap") and p.is_file())
            for path, diagnostics in sorted(_check(files).items()):
                found.files += 1
                for diagnostic in diagnostics:
                    where = path.relative_to(root).as_posix()
                    if diagnostic.code in CODES and (where, diagnostic.code) in judged:
                        found.judged_real.append(f"{diagnostic.code} {where}: {diagnostic.message}")
                    elif diagnostic.code in CODES:
                        found.counts[(diagnostic.code, diagnostic.severity.label)] += 1
                        if diagnostic.severity.label != "error":
                            found.warnings.append(f"{diagnostic.code} {where}: {diagnostic.message}")
        results.append(found)
    return results


@dataclass(frozen=True)
class Row:
    file: str
    subject: str
    expected: str
    style: str


def _rows() -> list[Row]:
    with MANIFEST.open(encoding="utf-8") as handle:
        return [Row(r["file"], r["tool"], r["expected"], r["style"]) for r in csv.DictReader(handle, delimiter="\t")]


def _subject(path: Path, pointer: tuple[str | int, ...]) -> str | None:
    """The tool name (a `{"tools": […]}` file) or the server entry name (a configuration file) a finding is on."""
    value = loads(path.read_bytes())
    if len(pointer) >= 2 and pointer[0] == "tools" and isinstance(pointer[1], int) and isinstance(value, dict):
        tool = value["tools"][pointer[1]]
        return str(tool.get("name")) if isinstance(tool, dict) else None
    if len(pointer) >= 2 and pointer[0] in ("mcpServers", "servers"):
        return str(pointer[1])
    return None


@dataclass
class Malicious:
    rows: list[Row]
    found: set[tuple[str, str, str]]
    """(file, subject, code) of every security finding."""

    def hit(self, row: Row, codes: tuple[str, ...] = ()) -> bool:
        return any((row.file, row.subject, code) in self.found for code in (codes or (row.expected,)))

    def unexpected(self) -> list[tuple[str, str, str]]:
        """Findings of the configuration rules on entries the manifest does not name for that rule."""
        named = {(row.file, row.subject, row.expected) for row in self.rows}
        return sorted(f for f in self.found if f[2] in CONFIG_RULES and f not in named)


def malicious() -> Malicious:
    found: set[tuple[str, str, str]] = set()
    for path, diagnostics in _check(sorted(p for p in SECURITY.iterdir() if p.is_dir() and p != BENIGN)).items():
        relative = path.relative_to(SECURITY).as_posix()
        for diagnostic in diagnostics:
            if diagnostic.code in CODES and diagnostic.finding is not None:
                subject = _subject(path, diagnostic.finding.pointer)
                if subject is not None:
                    found.add((relative, subject, diagnostic.code))
    return Malicious(_rows(), found)


def _percent(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f} %)" if total else "—"


def _tables(benign_results: list[Benign], result: Malicious) -> tuple[str, list[str]]:
    failures: list[str] = []
    out = io.StringIO()
    out.write("## MCP security rules (issue 23)\n\n")
    out.write("Generated by `python scripts/security_accuracy.py` (the `mcp-security` profile on).\n\n")
    out.write("### Benign set: findings of the security rules\n\n")
    out.write(
        "| code | "
        + " | ".join(f"{b.name} ({b.files} file{'s' if b.files != 1 else ''})" for b in benign_results)
        + " |\n"
    )
    out.write("|---|" + "---|" * len(benign_results) + "\n")
    for code in CODES:
        cells = []
        for b in benign_results:
            errors, warnings = (
                b.counts[(code, "error")],
                sum(n for (c, s), n in b.counts.items() if c == code) - (b.counts[(code, "error")]),
            )
            cells.append(f"{errors} errors, {warnings} other")
            if errors:
                failures.append(f"{code}: {errors} errors on the benign set {b.name}")
        out.write(f"| {code} | " + " | ".join(cells) + " |\n")
    out.write("\n### Malicious set: recall (tests/corpus/security)\n\n")
    out.write("| rule | rows | found by that rule | found by any of TS290–TS293 |\n|---|---|---|---|\n")
    text_rows = [row for row in result.rows if row.expected in TEXT_RULES]
    for code in CODES:
        rows = [row for row in result.rows if row.expected == code]
        own = sum(result.hit(row) for row in rows)
        family = sum(result.hit(row, TEXT_RULES) for row in rows) if code in TEXT_RULES else own
        out.write(f"| {code} | {len(rows)} | {_percent(own, len(rows))} | {_percent(family, len(rows))} |\n")
    overall = sum(result.hit(row, TEXT_RULES) for row in text_rows)
    out.write(f"| rules 1–3 together | {len(text_rows)} | | {_percent(overall, len(text_rows))} |\n")
    if text_rows and overall < RECALL_TARGET * len(text_rows):
        failures.append(f"rules 1-3 recall {overall}/{len(text_rows)} under {RECALL_TARGET:.0%}")
    missed_config = [row for row in result.rows if row.expected in CONFIG_RULES and not result.hit(row)]
    failures += [f"{row.expected} missed on {row.file} {row.subject} ({row.style})" for row in missed_config]
    missed = [row for row in text_rows if not result.hit(row, TEXT_RULES)]
    if missed:
        out.write("\nMissed by rules 1–3: " + "; ".join(f"{row.subject} ({row.style})" for row in missed) + "\n")
    unexpected = result.unexpected()
    out.write(f"\nConfiguration findings on the negative controls: {len(unexpected)}\n")
    failures += [f"{code} on the negative control {file} {subject}" for file, subject, code in unexpected]
    real = [w for b in benign_results for w in b.judged_real]
    if real:
        out.write(
            "\nFindings on the benign set judged right (deliberately malicious fixtures, `benign_judged.tsv`):\n\n"
        )
        out.writelines(f"- {w}\n" for w in real)
    warnings = [w for b in benign_results for w in b.warnings]
    if warnings:
        out.write("\nWarnings on the benign set (read and judged: see the report of issue 23):\n\n")
        out.writelines(f"- {w}\n" for w in warnings[:40])
    return out.getvalue(), failures


def _sources(wild: Path) -> list[tuple[str, Path]]:
    return [
        ("../shared/corpus", SHARED),
        ("wild corpus", wild),
        ("hand-written benign cases", BENIGN),
        ("hand-written benign", HAND_BENIGN),
    ]


def markdown(wild: Path = WILD) -> str:
    return _tables(benign(_sources(wild)), malicious())[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--wild", type=Path, default=WILD, help="the wild corpus's files folder")
    parser.add_argument("--malicious-only", action="store_true", help="skip the benign set")
    args = parser.parse_args(argv)
    sources = [] if args.malicious_only else _sources(args.wild)
    text, failures = _tables(benign(sources), malicious())
    print(text)
    if args.check and failures:
        print("\n".join(f"FAILED: {f}" for f in failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
