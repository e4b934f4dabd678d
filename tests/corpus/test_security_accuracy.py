"""The security rules' accuracy command (scripts/security_accuracy.py): its targets hold, and its tables are the
ones the integrator appends to docs/accuracy.md. The benign set needs ../shared/corpus; the malicious set is in the
repository (tests/corpus/security)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    return load_script("security_accuracy")


def test_the_malicious_set_meets_its_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["--check", "--malicious-only"]) == 0
    out = capsys.readouterr().out
    assert "| rules 1–3 together | 67 | | 67/67 (100 %) |" in out
    assert "Configuration findings on the negative controls: 0" in out


@pytest.mark.skipif(not (ROOT.parent / "shared" / "corpus").is_dir(), reason="../shared/corpus is not available")
def test_the_benign_set_gets_no_error_and_the_tables_are_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    assert script.main(["--check"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("## MCP security rules (issue 23)\n")
    assert "| TS292 | 0 errors, 0 other |" in table
    assert script.markdown().strip() == table.strip()
