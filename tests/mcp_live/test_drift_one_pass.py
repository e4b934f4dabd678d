"""Drift is placed in one pass: when every tool of a large server changed, the tools array is indexed once, not
scanned from the root for each finding, and merging the drift with the snapshot's own diagnostics is one set
lookup per diagnostic (issue 26: M10). Counted in operations, not timed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from toolsense.document import jsontree
from toolsense.document.lines import Position, Range
from toolsense.engine.checker import Diagnostic
from toolsense.engine.findings import Severity
from toolsense.mcp_live.client import Listing, StdioTarget
from toolsense.mcp_live.run import CliLive, LiveOutcome, SnapshotFolder, check_listing
from toolsense.mcp_live.snapshot import snapshot_text
from toolsense.rules import CATALOG
from toolsense.settings import Settings

TOOLS = 2000


def _listing() -> Listing:
    tools = [
        {"name": f"t{i}", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {}}}}
        for i in range(TOOLS)
    ]
    return Listing(StdioTarget("server"), server_name="fake", protocol_version="2025-06-18", tools=tools)


def test_every_changed_tool_is_placed_with_one_index_of_the_array(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing = _listing()
    committed = json.loads(snapshot_text(listing))
    for tool in committed["tools"]:
        tool["description"] = "reworded"
    snapshot = tmp_path / "snap" / "fake.tools.json"
    snapshot.parent.mkdir()
    text = json.dumps(committed, indent=2)
    snapshot.write_text(text)
    visited = 0
    children = jsontree.value_children

    def counting(node: Any) -> Iterator[Any]:
        nonlocal visited
        for child in children(node):
            visited += 1
            yield child

    monkeypatch.setattr(jsontree, "value_children", counting)
    outcome = check_listing(listing, SnapshotFolder(tmp_path, ("snap",)), Settings(), catalog=CATALOG)
    drift = [d for d in outcome.diagnostics if d.code == "TS927"]
    assert outcome.compared and len(drift) == TOOLS
    assert {d.code for d in outcome.diagnostics} == {"TS927", "TS923"}  # and "more tools than a model uses well"
    assert visited <= 2 * TOOLS  # one index of the array; a scan per finding visits TOOLS² / 2
    lines = text.splitlines()
    reworded = [i for i, line in enumerate(lines) if '"reworded"' in line]
    assert sorted(d.range.start.line for d in drift) == reworded


def test_merging_drift_with_the_files_own_diagnostics_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    def diagnostic(i: int, code: str) -> Diagnostic:
        return Diagnostic(Range(Position(i, 0), Position(i, 1)), Severity.WARNING, code, f"message {i}")

    path = Path("snap/fake.tools.json")
    own = [diagnostic(i, "TS927") for i in range(TOOLS)]
    checked = [diagnostic(i, "TS241") for i in range(TOOLS)] + [diagnostic(0, "TS927")]  # one the same as ours
    outcome = LiveOutcome(_listing(), snapshot=path, compared=True, diagnostics=own)
    comparisons = 0
    range_eq, diagnostic_eq = Range.__eq__, Diagnostic.__eq__

    def counted(original: Any) -> Any:
        def eq(self: Any, other: Any) -> Any:
            nonlocal comparisons
            comparisons += 1
            return original(self, other)

        return eq

    monkeypatch.setattr(Range, "__eq__", counted(range_eq))
    monkeypatch.setattr(Diagnostic, "__eq__", counted(diagnostic_eq))
    results = {path: checked}
    CliLive([outcome], path.parent).merge(results)
    assert len(results[path]) == 2 * TOOLS  # the duplicate is dropped, the rest kept
    assert comparisons <= 4 * TOOLS
