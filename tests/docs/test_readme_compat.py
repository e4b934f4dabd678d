"""The README's `toolsense compat` example is what the command prints (run here, from the repository's root)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from toolsense.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_shows_real_compat_output(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```text\n\$ toolsense (compat [^\n]+)\n(.*?)```", readme, re.S)
    assert match is not None
    monkeypatch.chdir(ROOT)
    code = main(match.group(1).split())
    assert code == 1  # targets chosen, and Gemini rejects both tools
    assert capsys.readouterr().out == match.group(2)
