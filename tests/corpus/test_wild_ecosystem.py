"""The ecosystem check on the wild corpus (tests/corpus/wild, committed: it runs on a clean CI too).

The corpus is files from public repositories nobody here wrote; `scripts/ecosystem.py` checks them and compares
every error (and every finding on a file that is not ours) with its judged verdict. This test fails on an error
judged false, on a finding not judged yet, and when docs/accuracy.md no longer says what the corpus shows.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from checking import CORPUS

ROOT = Path(__file__).resolve().parents[2]
WILD = ROOT / "tests" / "corpus" / "wild"
PERMISSIVE = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "ISC", "0BSD", "Unlicense", "MIT-0"}
KINDS = {"ours", "look-alike", "nonstandard"}


def _manifest() -> list[dict[str, str]]:
    with (WILD / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def test_the_corpus_is_what_its_manifest_says() -> None:
    rows = _manifest()
    assert len(rows) >= 300
    assert len({r["repo"] for r in rows}) >= 150
    assert {r["licence"] for r in rows} <= PERMISSIVE
    assert {r["kind"] for r in rows} <= KINDS
    assert sum(r["kind"] != "ours" for r in rows) * 3 >= len(rows), "at least a third are look-alikes"
    assert all(len(r["commit"]) == 40 for r in rows)
    listed = {r["local_file"] for r in rows}
    assert len(listed) == len(rows)
    on_disk = {p.relative_to(WILD).as_posix() for p in (WILD / "files").rglob("*") if p.is_file()}
    assert on_disk == listed


def test_no_repository_of_the_shared_corpora_is_in_it() -> None:
    shared = CORPUS / "realworld" / "MANIFEST.tsv"
    if not shared.exists():
        return  # a clean CI has no ../shared: the manifest was compared when the corpus was collected
    with shared.open(newline="", encoding="utf-8") as handle:
        taken = {row["repo"].lower() for row in csv.DictReader(handle, delimiter="\t")}
    taken_text = (CORPUS / "MANIFEST.md").read_text(encoding="utf-8").lower()
    overlap = {r["repo"] for r in _manifest() if r["repo"].lower() in taken or f" {r['repo'].lower()} " in taken_text}
    assert overlap == set()


def test_the_ecosystem_check_passes_and_the_accuracy_page_is_current() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ecosystem.py"), "--check-docs"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
