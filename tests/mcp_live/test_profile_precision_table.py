"""The profile precision table (docs/live-mcp-servers.md) lists what `bench/mcp_profiles_precision.py` counts on
the corpus."""

from __future__ import annotations

import collections
import re

import pytest
from checking import ROOT

import mcp_profiles_precision as bench

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not bench.default_corpus().is_dir(), reason="the shared corpus is not present"),
]


def _readme_counts() -> dict[str, tuple[int, int]]:
    text = (ROOT / "docs" / "live-mcp-servers.md").read_text(encoding="utf-8")
    table = text[text.index("### Profile precision") :]
    rows = re.findall(r"^\| (TS2[78]\d) \| (\d+) \| (\d+) \|", table, re.MULTILINE)
    return {code: (int(a), int(b)) for code, a, b in rows}


def test_readme_table_matches_the_corpus() -> None:
    corpus = bench.default_corpus()
    counts: dict[str, collections.Counter[str]] = {}
    for name, files in (
        ("corpus", bench.files_under(corpus, skip=corpus / "realworld")),
        ("realworld", bench.files_under(corpus / "realworld")),
    ):
        counter: collections.Counter[str] = collections.Counter()
        for diagnostics in bench.check(files).values():
            counter.update(d.code for d in diagnostics if d.code in bench.PROFILE_CODES)
        counts[name] = counter
    measured = {code: (counts["corpus"][code], counts["realworld"][code]) for code in bench.PROFILE_CODES}
    assert _readme_counts() == measured
