"""The README is a guide of at most 400 lines; its tour of what toolsense finds quotes the rule pages (whose examples
tests/docs/test_rule_pages.py runs through the checker), so the tour stays what toolsense prints."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_at_most_400_lines() -> None:
    assert len(README.splitlines()) <= 400


def test_each_tour_example_is_its_rule_pages_example_and_finding() -> None:
    tour = README.split("\n## What it finds\n", 1)[1].split("\n## ", 1)[0]
    entries = re.findall(
        r"\(\[(TS\d{3})\]\(docs/rules/\1\.md\)\)\. `([^`]+)`:\n\n```json\n(.*?)```\n\n```text\n(.*?)```", tour, re.S
    )
    assert len(entries) == 7, tour
    for code, file, example, printed in entries:
        page = (ROOT / "docs" / "rules" / f"{code}.md").read_text(encoding="utf-8")
        wrong = page.split("Wrong:", 1)[1].split("Right:", 1)[0]
        assert f"`{file}`:\n\n```json\n{example}```" in wrong, code
        assert f"```text\n{printed}```" in wrong, code
