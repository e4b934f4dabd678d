"""The compat oracle against its evidence: every fixture under tests/corpus/compat/ (a schema a target rejected or
changed, the target's message, its public source and date) gets that verdict and that message from the oracle.

A message matches when it is the rule's message in force on the fixture's date (targets reword their messages),
request positions (`tools.7.`, `[5]`) being any number and a quote cut short counting (issues paste first lines).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolsense.domain.compat import RULES, TARGETS, assess, message_matches, rules_for
from toolsense.domain.tool import ToolView, tool_view
from toolsense.engine.units import Unit

FIXTURES = Path(__file__).parent / "compat"
PATHS = sorted(FIXTURES.rglob("*.json"))
FIELDS = {"target", "schema", "verdict", "message", "source", "date"}
OPTIONAL = {"keyword_pointer", "reproduction", "note"}


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def view_of(data: dict[str, Any]) -> ToolView:
    view = tool_view(Unit("tool", (), data["schema"], "mcp", 0, 0, True))
    assert view is not None
    return view


def pointer(text: str) -> tuple[str | int, ...]:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in text.split("/")[1:]]
    return tuple(int(p) if p.isdigit() else p for p in parts)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_oracle_gives_the_fixture_its_verdict_and_message(path: Path) -> None:
    data = load(path)
    assert FIELDS <= set(data) <= FIELDS | OPTIONAL, sorted(data)
    assert data["target"] == path.parent.name and data["target"] in TARGETS
    assert data["verdict"] in ("rejected", "changed")
    assert re.fullmatch(r"https://github\.com/[^/]+/[^/]+/(issues|pull)/\d+", data["source"])
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", data["date"])
    view = view_of(data)
    assessment = assess(view, data["target"])
    assert assessment.verdict == data["verdict"], [(f.rule, f.message) for f in assessment.findings]
    matched = [
        (rule.id, hit.pointer)
        for rule in rules_for(data["target"])
        if rule.verdict == data["verdict"]
        for hit in rule.check(view, data["target"])
        if message_matches(rule, view, hit, data["message"], data["date"])
    ]
    assert matched, f"no finding says {data['message']!r}: {[f.message for f in assessment.findings]}"
    if "keyword_pointer" in data:
        assert pointer(data["keyword_pointer"]) in [where for _, where in matched], matched
    cited = {
        source.fixture for rule in RULES if rule.id in {rule_id for rule_id, _ in matched} for source in rule.sources
    }
    assert f"{data['target']}/{path.stem}" in cited, "the rule that matched does not cite this fixture"


def test_the_evidence_holds_at_least_30_rejections_from_5_targets() -> None:
    rejections = [load(p) for p in PATHS if load(p)["verdict"] == "rejected"]
    assert len(rejections) >= 30
    assert len({r["target"] for r in rejections}) >= 5


def test_every_cited_fixture_exists_and_every_rule_has_dated_sources() -> None:
    names = {f"{p.parent.name}/{p.stem}" for p in PATHS}
    for rule in RULES:
        assert rule.sources, rule.id
        for source in rule.sources:
            assert source.url.startswith("https://") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", source.date), rule.id
            assert not source.fixture or source.fixture in names, (rule.id, source.fixture)
        captured = [m for m in rule.messages if not m.documented]
        if captured and rule.verdict != "unknown":
            # A captured message was read somewhere: an issue or pull request among the sources.
            assert any("/issues/" in s.url or "/pull/" in s.url for s in rule.sources), rule.id
        assert all(rule.targets <= set(TARGETS) for rule in RULES)
