"""docs/compat.md's tables are the oracle's targets and rules and the fixtures' counts (scripts/compat_doc.py)."""

from __future__ import annotations

from script_loader import load_script


def test_the_compat_page_is_up_to_date() -> None:
    compat_doc = load_script("compat_doc")
    page = compat_doc.PAGE.read_text(encoding="utf-8")
    assert page == compat_doc.render(page), "run: python scripts/compat_doc.py"
