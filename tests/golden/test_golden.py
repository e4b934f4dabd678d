"""Golden files: exact ranges, codes, severities and messages for the tricky texts (see goldkit.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from goldkit import actual, cases, expected_path, render


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_golden(case: Path) -> None:
    target = expected_path(case)
    got = render(actual(case))
    if os.environ.get("TOOLSENSE_UPDATE_GOLDENS") == "1":
        target.write_text(got, encoding="utf-8")
        pytest.skip(f"updated {target.name}: review the diff")
    assert target.exists(), f"no {target.name}: run `python tests/golden/goldkit.py` and review it"
    assert json.loads(got) == json.loads(target.read_text(encoding="utf-8"))


def test_every_expected_file_has_its_case() -> None:
    inputs = {expected_path(case).name for case in cases()}
    orphans = [p.name for p in Path(__file__).parent.glob("*.expected.json") if p.name not in inputs]
    assert not orphans
