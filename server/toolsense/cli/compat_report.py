"""The tools of some files put to the compat oracle, and the matrix in text, JSON and Markdown."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..document.jsontree import Pointer
from ..domain.compat import TARGETS, Assessment, Finding, assess_all
from ..domain.tool import tool_view
from ..engine.units import forced_dialect, kind_from_path, read_unit, split, with_dialects
from ..engine.workspace import iter_json_files, load_file
from ..settings import Settings

SYMBOL = {"accepted": "✓", "changed": "~", "rejected": "✗", "unknown": "?"}
MARK = {"accepted": "✅", "changed": "⚠️", "rejected": "❌", "unknown": "❔"}


@dataclass(frozen=True)
class ToolRow:
    file: str
    name: str
    pointer: Pointer
    schema_pointer: Pointer
    assessments: list[Assessment]


def collect(paths: Iterable[Path], settings: Settings) -> list[ToolRow]:
    """Every tool definition of the files (content decides which files hold tools), assessed for every target."""
    rows: list[ToolRow] = []
    for path in sorted(iter_json_files(paths, settings)):
        loaded = load_file(path)
        if loaded.document is None:
            continue
        where = str(path.resolve())
        file_split = split(loaded.document, kind_from_path(where, settings), forced_dialect(where, settings))
        if file_split.kind != "tool":
            continue
        for unit in with_dialects([read_unit(loaded.document, span) for span in file_split.spans]):
            view = tool_view(unit)
            if view is None:
                continue
            name = view.name or f"tool {len(rows)}"
            rows.append(ToolRow(_display(path), name, unit.pointer, view.schema_pointer, assess_all(view)))
    return rows


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _where(row: ToolRow, finding: Finding) -> str:
    pointer = finding.pointer
    inside = pointer[: len(row.schema_pointer)] == row.schema_pointer
    return "/" + "/".join(str(p) for p in (pointer[len(row.schema_pointer) :] if inside else pointer))


def _cells(row: ToolRow, targets: Sequence[str]) -> list[Assessment]:
    by_target = {a.target: a for a in row.assessments}
    return [by_target[t] for t in targets]


def _details(row: ToolRow, targets: Sequence[str]) -> list[tuple[str, str, str, str, int]]:
    """(symbol, target, keyword, what, how many more) per target that rejects or changes the tool: its first
    rejection (else change), and how many more findings of that verdict it has."""
    found: list[tuple[str, str, str, str, int]] = []
    for assessment in _cells(row, targets):
        if assessment.verdict not in ("rejected", "changed"):
            continue
        same = [f for f in assessment.findings if f.verdict == assessment.verdict]
        first = same[0]
        what = first.change or first.message
        found.append((SYMBOL[assessment.verdict], assessment.target, _where(row, first), what, len(same) - 1))
    return found


def _more(count: int) -> str:
    return f" (+{count} more)" if count else ""


def write(rows: list[ToolRow], targets: Sequence[str], fmt: str, out: TextIO) -> None:
    if fmt == "json":
        out.write(json.dumps(as_json(rows, targets), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "markdown":
        out.write(as_markdown(rows, targets))
    else:
        out.write(as_text(rows, targets))


def _summary(rows: list[ToolRow], targets: Sequence[str]) -> dict[str, dict[str, int]]:
    counts = {t: {v: 0 for v in SYMBOL} for t in targets}
    for row in rows:
        for assessment in _cells(row, targets):
            counts[assessment.target][assessment.verdict] += 1
    return counts


def as_text(rows: list[ToolRow], targets: Sequence[str]) -> str:
    if not rows:
        return "toolsense compat: no tool definitions found\n"
    lines = [
        f"{len(rows)} tool{'s' if len(rows) != 1 else ''} × {len(targets)} targets "
        "(✓ accepted, ~ changed, ✗ rejected, ? unknown; docs/compat.md)",
        "",
    ]
    label = [f"{row.file} {row.name}" for row in rows]
    width = max(len(text) for text in [*label, "tool"])
    lines.append(f"{'tool':<{width}}  " + " ".join(f"{i + 1:>2}" for i in range(len(targets))))
    for text, row in zip(label, rows, strict=True):
        lines.append(f"{text:<{width}}  " + " ".join(f"{SYMBOL[a.verdict]:>2}" for a in _cells(row, targets)))
    lines.append("")
    summary = _summary(rows, targets)
    for index, target in enumerate(targets, 1):
        counts = summary[target]
        tally = ", ".join(f"{counts[v]} {v}" for v in SYMBOL if counts[v])
        lines.append(f"{index:>2} {target} ({TARGETS[target].label}): {tally}")
    details = [(row, d) for row in rows for d in _details(row, targets)]
    if details:
        lines.append("")
    for row, (symbol, target, where, what, more) in details:
        lines.append(f"{symbol} {row.file} {row.name} {target} {where}: {what}{_more(more)}")
    return "\n".join(lines) + "\n"


def as_markdown(rows: list[ToolRow], targets: Sequence[str]) -> str:
    if not rows:
        return "No tool definitions found.\n"
    lines = [
        "| tool | " + " | ".join(f"`{t}`" for t in targets) + " |",
        "|---|" + ":---:|" * len(targets),
    ]
    for row in rows:
        cells = " | ".join(MARK[a.verdict] for a in _cells(row, targets))
        lines.append(f"| `{row.name}` ({row.file}) | {cells} |")
    lines += ["", "✅ accepted · ⚠️ changed · ❌ rejected · ❔ unknown (no evidence either way): docs/compat.md", ""]
    for row in rows:
        for symbol, target, where, what, more in _details(row, targets):
            kind = "rejected" if symbol == SYMBOL["rejected"] else "changed"
            lines.append(f"- `{row.name}` {kind} by `{target}` at `{where}`: {what}{_more(more)}")
    return "\n".join(lines).rstrip("\n") + "\n"


def as_json(rows: list[ToolRow], targets: Sequence[str]) -> dict[str, Any]:
    return {
        "targets": [{"id": t, "label": TARGETS[t].label, "what": TARGETS[t].what} for t in targets],
        "tools": [
            {
                "file": row.file,
                "name": row.name,
                "pointer": "/" + "/".join(str(p) for p in row.pointer),
                "verdicts": {a.target: _assessment_json(row, a) for a in _cells(row, targets)},
            }
            for row in rows
        ],
        "summary": _summary(rows, targets),
    }


def _assessment_json(row: ToolRow, assessment: Assessment) -> dict[str, Any]:
    result: dict[str, Any] = {"verdict": assessment.verdict}
    if assessment.basis:
        result["basis"] = assessment.basis
    if assessment.findings:
        result["findings"] = [
            {
                "verdict": f.verdict,
                "pointer": _where(row, f),
                "message": f.message,
                **({"change": f.change} if f.change else {}),
                "rule": f.rule,
                "documented": f.documented,
                "sources": [
                    {"url": s.url, "date": s.date, **({"fixture": s.fixture} if s.fixture else {})} for s in f.sources
                ],
            }
            for f in assessment.findings
        ]
    return result
