"""The rule pages (docs/rules/TSxxx.md, scripts/rule_pages.py): every rule has one, each is up to date, and each
page's wrong example gets the finding it states while its right example does not, as `toolsense check` sees them."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from script_loader import load_script

from toolsense.rules import CATALOG

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    return load_script("rule_pages")


rule_pages = _load()
DOCS = rule_pages.load_docs()
RUNNABLE = sorted(code for code, doc in DOCS.items() if doc.wrong is not None)

NOT_RUNNABLE = {
    "TS002": "a file that is not UTF-8",
    "TS003": "only the editor stops checking a large file",
    "TS006": "thousands of nested brackets",
    "TS019": "a baseline file from an earlier run",
    "TS107": "reported under TS237, TS309 and TS219",
    "TS266": "129 tool definitions",
    "TS802": "a module that takes seconds to import",
    "TS805": "an untrusted editor workspace",
    "TS900": "a bug in toolsense",
    "TS920": "a live MCP server",
    "TS921": "a live MCP server",
    "TS922": "a live MCP server",
    "TS923": "a live MCP server",
    "TS924": "a live MCP server",
    "TS925": "a live MCP server and a snapshot",
    "TS926": "a live MCP server and a snapshot",
    "TS927": "a live MCP server and a snapshot",
}
"""The pages whose example cannot run here, and why: this list may only shrink."""


def test_every_rule_is_documented_and_the_pages_are_up_to_date() -> None:
    """Regenerate with `python scripts/rule_pages.py`."""
    assert set(DOCS) == set(CATALOG.rules)
    wanted = rule_pages.pages()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "rules").glob("TS*.md")}
    assert sorted(on_disk) == sorted(wanted), "run `python scripts/rule_pages.py`"
    stale = [name for name, text in wanted.items() if on_disk[name] != text]
    assert not stale, f"stale pages (run `python scripts/rule_pages.py`): {stale}"


def test_only_the_listed_pages_have_no_runnable_example() -> None:
    without = {code: doc.not_runnable for code, doc in DOCS.items() if doc.wrong is None or doc.right is None}
    assert sorted(without) == sorted(NOT_RUNNABLE), "a page without a runnable example must be listed, with why"
    assert all(reason for reason in without.values())


@pytest.mark.parametrize("code", RUNNABLE)
def test_the_wrong_example_gets_the_finding(code: str) -> None:
    """`toolsense check` of the example's files (scripts/rule_pages.py `check`: a folder of its own, the example's
    toolsense.toml, run from inside it); the page shows the same findings (kept equal by the test above)."""
    example = DOCS[code].wrong
    found = rule_pages.check(example)
    ours = [d for d in found if d["code"] == code and d["path"] == example.file]
    assert ours, f"{code} not reported in {example.file}: {[(d['code'], d['message']) for d in found]}"
    assert any(example.message in d["message"] for d in ours), [d["message"] for d in ours]


@pytest.mark.parametrize("code", RUNNABLE)
def test_the_right_example_does_not(code: str) -> None:
    found = rule_pages.check(DOCS[code].right)
    assert not [d for d in found if d["code"] == code], [(d["code"], d["message"]) for d in found]


def test_an_example_reports_the_same_whatever_ran_before() -> None:
    """Registered models are imported in process: each example imports its own module (of the same name as the
    next example's), so a page does not depend on the order its examples ran in."""
    example = DOCS["TS701"].wrong
    first = rule_pages.reported("TS701", example)
    assert first == rule_pages.reported("TS701", example)
    assert first == [
        "tools/weather.json:1:95: error TS701 Property 'days' of the model ts701_models:WeatherInput "
        "(ts701_models.py:4) is missing from the schema"
    ]
