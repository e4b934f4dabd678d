"""Issue 34 §2, "works on the wild corpus's servers": `toolsense diff` reads every tool file of the wild corpus
(tests/corpus/wild, real files of every dialect), finds no change between a file and itself, and exactly the tool
that was taken out when the last entry of its tools is dropped. Files of ours that hold no tool definitions (calls,
client configurations) are refused with exit 2, as a usage error."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from toolsense.cli.surface_diff import build_report
from toolsense.cli.surface_sources import SourceError, read_path
from toolsense.domain.surface import unit_surfaces

WILD = Path(__file__).resolve().parent / "wild"


def _ours() -> list[Path]:
    with (WILD / "MANIFEST.tsv").open(newline="", encoding="utf-8") as handle:
        return [WILD / row["local_file"] for row in csv.DictReader(handle, delimiter="\t") if row["kind"] == "ours"]


def _tools_list(value: Any) -> list[Any] | None:
    if isinstance(value, dict) and isinstance(value.get("result"), dict):
        value = value["result"]
    if isinstance(value, dict):
        value = value.get("tools")
    return value if isinstance(value, list) and value else None


def test_every_tool_file_of_the_wild_corpus(tmp_path: Path) -> None:
    read, refused, dropped = 0, 0, 0
    for path in _ours():
        try:
            (source,) = read_path(path)
        except SourceError as error:
            assert str(error).endswith("no tool definitions found in this file"), error
            refused += 1
            continue
        read += 1
        same = build_report([path, path], None)
        assert same.changes == [] and same.bump.level == "patch", path
        try:
            value = json.loads(path.read_text(encoding="utf-8-sig"))
        except ValueError:
            continue  # JSON Lines, comments: read by the engine, not rewritten here
        tools = _tools_list(value)
        if tools is None:
            continue
        before = {s.name for s in unit_surfaces(source.units)}
        tools.pop()
        if not tools:
            continue
        shorter = tmp_path / f"{read}-{path.name}"
        shorter.write_text(json.dumps(value), encoding="utf-8")
        (after,) = read_path(shorter)
        gone = sorted(before - {s.name for s in unit_surfaces(after.units)})
        report = build_report([path, shorter], None)
        removed = sorted(c.tool for c in report.changes if c.kind == "tool-removed")
        assert (removed, [c.kind for c in report.changes if c.kind != "tool-removed"]) == (gone, []), path
        dropped += bool(removed)
    assert (read, refused) == (READ, REFUSED)
    assert dropped == DROPPED


READ, REFUSED = 28, 134  # tool files (9 MCP listings, 7 OpenAI requests, …); calls, recordings, configurations
DROPPED = 18  # files whose last tool was taken out (the others are JSON Lines or hold one tool)
