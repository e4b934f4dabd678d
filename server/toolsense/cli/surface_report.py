"""`toolsense diff`'s reports: text grouped by class, JSON, and Markdown for a pull request's summary.

Every text from a tool file (names, descriptions, the word diff of a changed text) is escaped on the way out:
invisible characters as `<U+XXXX>` (`textsafety`), and, in Markdown, every punctuation character that could
start a link, an image, HTML or a table cell, so a tool's description cannot write into the job summary.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..document.jsontree import Pointer
from ..domain.changes import CLASS_ORDER, Bump, Change, ChangeClass, summary_label
from ..mcp_live.text_diff import word_diff
from ..textsafety import escape
from .finding_keys import pointer_text

_TOOL_KINDS = {"tool-removed", "tool-added", "tool-renamed"}
_WORD_DIFF_KINDS = {"description-changed", "parameter-text-changed"}


@dataclass(frozen=True)
class DiffReport:
    old: str
    """How the old version is named (`v1/tools.json`, `main:.toolsense/mcp`)."""
    new: str
    changes: list[Change]
    bump: Bump

    def counts(self) -> dict[str, int]:
        return {klass.value: sum(1 for c in self.changes if c.klass is klass) for klass in CLASS_ORDER}


def what(change: Change) -> str:
    """What changed, with the word diff of a changed text; escaped (a keyword or a type name is the file's text)."""
    if change.kind in _WORD_DIFF_KINDS and isinstance(change.was, str) and isinstance(change.now, str):
        return f"{escape(change.message)}: {word_diff(change.was, change.now)}"
    return escape(change.message)


def headline(change: Change) -> str:
    """One line: the file of a folder, the tool, and what changed."""
    tool = escape(change.tool)
    text = f"tool '{tool}' {what(change)}" if change.kind in _TOOL_KINDS else f"{tool}: {what(change)}"
    return f"{escape(change.file)}: {text}" if change.file else text


def place(change: Change, pointer: Pointer | None) -> str | None:
    """`#/tools/0/inputSchema` (a URI fragment: the whole document is `#`), after the file of a folder."""
    if pointer is None:
        return None
    return f"{escape(change.file)}#{escape(pointer_text(pointer))}"


def _places(change: Change) -> str:
    """`at #/a` when the change is at the same place in both versions, else `old #/a; new #/b` (one side only
    for a tool removed or added)."""
    old, new = place(change, change.old), place(change, change.new)
    if old is not None and old == new:
        return f"at {old}"
    return "; ".join(f"{side} {p}" for side, p in (("old", old), ("new", new)) if p)


def text_report(report: DiffReport) -> str:
    lines = [f"toolsense diff: {escape(report.old)} -> {escape(report.new)}"]
    if not report.changes:
        lines.append("no change to the tool surface")
    for klass in CLASS_ORDER:
        group = [c for c in report.changes if c.klass is klass]
        if not group:
            continue
        lines.append(f"{klass.value} ({len(group)})")
        for change in group:
            lines.append(f"  {headline(change)}")
            lines.append(f"      {_places(change)}")
    lines.append(f"suggested version bump: {report.bump.level} ({report.bump.reason})")
    return "\n".join(lines) + "\n"


def json_report(report: DiffReport) -> str:
    def side(change: Change, pointer: Pointer | None) -> dict[str, Any] | None:
        if pointer is None:
            return None
        return (
            {"file": change.file, "pointer": pointer_text(pointer)}
            if change.file
            else {"pointer": pointer_text(pointer)}
        )

    document = {
        "old": report.old,
        "new": report.new,
        "bump": {"level": report.bump.level, "reason": report.bump.reason},
        "summary": summary_label(report.changes),
        "counts": report.counts(),
        "changes": [
            {
                "class": c.klass.value,
                "kind": c.kind,
                "tool": c.tool,
                **({"file": c.file} if c.file else {}),
                "message": headline(c),
                "old": side(c, c.old),
                "new": side(c, c.new),
            }
            for c in report.changes
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~&])")


def md(text: str) -> str:
    """Plain text in Markdown (GitHub's): hidden characters escaped, every punctuation character that means
    something there escaped with a backslash (CommonMark allows it before any ASCII punctuation)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", escape(text))


def md_code(text: str) -> str:
    """A pointer as inline code (a `|` escaped, as GitHub's tables need even there); escaped text when it holds a
    backtick, which would end the code span."""
    shown = escape(text)
    return md(shown) if "`" in shown else "`" + shown.replace("|", "\\|") + "`"


_TITLES = {ChangeClass.BREAKING: "Breaking", ChangeClass.RISKY: "Risky", ChangeClass.ADDITIVE: "Additive"}
_MEANING = {
    ChangeClass.BREAKING: "a caller that worked before may fail",
    ChangeClass.RISKY: "what the model or the user reads changed: review it",
    ChangeClass.ADDITIVE: "what worked still works, and more does",
}


def markdown_report(report: DiffReport) -> str:
    counts = report.counts()
    lines = [f"### Tool surface: {report.bump.level} version bump suggested", ""]
    said = ", ".join(f"{n} {klass}" for klass, n in counts.items())
    lines.append(f"{md(report.old)} → {md(report.new)}: {said}. {md(report.bump.reason)}.")
    if not report.changes:
        lines += ["", "No change to the tool surface."]
    for klass in CLASS_ORDER:
        group = [c for c in report.changes if c.klass is klass]
        if not group:
            continue
        lines += ["", f"#### {_TITLES[klass]} ({len(group)}): {_MEANING[klass]}", ""]
        lines += ["| Tool | Change | Old | New |", "|---|---|---|---|"]
        for change in group:
            tool = md(f"{change.file}: {change.tool}" if change.file else change.tool)
            old, new = place(change, change.old), place(change, change.new)
            old_cell, new_cell = (md_code(p) if p else "—" for p in (old, new))
            lines.append(f"| {tool} | {md(what(change))} | {old_cell} | {new_cell} |")
    lines += ["", "<sub>toolsense diff</sub>"]
    return "\n".join(lines) + "\n"


FORMATS = {"text": text_report, "json": json_report, "markdown": markdown_report}
