"""Invisible and deceptive text in a tool definition (on by default, every dialect): TS290, TS291.

Every string and every key of a tool is text a model may read (names, titles, descriptions at any depth, enum
values, defaults, examples), so all are read. What legitimate text needs (RGI emoji sequences, joiners inside
Persian or Indic words, word separators in Thai or Khmer, bidi marks in Hebrew or Arabic, soft hyphens, one
variation selector after an emoji) is left alone:
`textsafety.invisible` says which. Messages show the characters escaped and what tag characters (or variation
selectors, one byte each) spell.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...domain.hidden_text import confusable
from ...domain.texts import strings as strings  # re-exported: the poisoning rules read the same texts
from ...domain.tool import tool_view
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, RenameKey, ReplaceValue, Severity
from ...engine.units import Unit
from ...textsafety import HiddenRun, hidden_runs, spelling, visible, without_hidden
from ..catalog import CATALOG

FAMILY = CATALOG.security_family("Tool definitions: hidden and deceptive text")

HIDDEN = CATALOG.rule(
    "TS290",
    "invisible-characters",
    Severity.ERROR,
    "Invisible characters in text a model reads (Unicode tag characters, zero-width characters, bidi controls, "
    "other default-ignorable code points): the model reads what a reviewer cannot see. RGI emoji sequences, joiners "
    "inside Persian or Indic words, zero-width spaces between Thai or Khmer words, bidi marks in right-to-left "
    "text, soft hyphens inside words and a variation selector after an emoji are not reported; selectors after "
    "many characters, or tags after a black flag that are no RGI flag, are.",
    FAMILY,
    "remove the invisible characters",
)
CONFUSABLE = CATALOG.rule(
    "TS291",
    "confusable-tool-name",
    Severity.WARNING,
    "A tool name that mixes scripts or uses look-alike letters (Cyrillic `а` for Latin `a`, fullwidth forms): "
    "it reads as another tool's name.",
    FAMILY,
)


def dotted(pointer: Pointer) -> str:
    """A pointer as a message shows it: `inputSchema.properties.mode.enum[2]` (keys escaped)."""
    text = ""
    for part in pointer:
        text += f"[{part}]" if isinstance(part, int) else ("." if text else "") + part
    if len(text) > 80:  # a deep pointer: its start and its end say where, the middle repeats
        text = text[:40] + "…" + text[-39:]
    return visible(text, 80)[1:-1] if text else "the tool"


def describe(runs: list[HiddenRun]) -> str:
    """What the runs hold, for a message: how many of which kind, the first few code points, what tags (or
    selectors, one byte each) spell."""
    count = sum(len(run.text) for run in runs)
    kinds = sorted({kind for run in runs for kind in run.kinds})
    points = [f"U+{ord(c):04X}" for run in runs for c in run.text]
    shown = " ".join(points[:4]) + (" …" if len(points) > 4 else "")
    spelt = spelling(runs)
    said = f" spelling {visible(spelt, 80)}" if spelt.strip() else ""
    noun = ", ".join(kinds) if count > 1 else kinds[0].removesuffix("s").replace("characters", "character")
    return f"{count} {noun} ({shown}){said}"


def _unseen(count: int) -> str:
    return (
        "the model reads it, a reviewer does not see it"
        if count == 1
        else "the model reads them, a reviewer does not see them"
    )


@CATALOG.unit_check("tool")
def hidden_text_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    if not isinstance(unit.value, dict):
        return
    for pointer, text, is_key in strings(unit.value):
        runs = hidden_runs(text)
        if not runs:
            continue
        cleaned = without_hidden(text)
        if is_key:
            fix = Fix("Remove the invisible characters", (RenameKey(pointer, cleaned),), safe=True, preferred=True)
            where, target = f"the key {visible(cleaned, 40)} ({dotted(pointer[:-1])})", "key"
            span = None
        else:
            json_text = json.dumps(cleaned, ensure_ascii=False)
            fix = Fix("Remove the invisible characters", (ReplaceValue(pointer, json_text),), safe=True, preferred=True)
            where, target = f"`{dotted(pointer)}`", "value"
            span = (runs[0].start, runs[-1].end)
        yield Finding(
            HIDDEN.code,
            f"{describe(runs)} in {where}: " + _unseen(sum(len(run.text) for run in runs)),
            pointer,
            target,  # type: ignore[arg-type]
            span=span,
            fixes=(fix,),
        )
    view = tool_view(unit)
    name = view.name if view is not None else None
    if view is not None and isinstance(name, str) and (found := confusable(name)) is not None:
        letters = ", ".join(f"{code} {title}" for code, title in found.characters[:3])
        yield Finding(
            CONFUSABLE.code,
            f"The tool name {visible(name, 40)} reads as {visible(found.looks_like, 40)} but is spelt with {letters} "
            f"({' and '.join(s.lower() for s in found.scripts) or 'fullwidth forms'})",
            view.name_pointer,
        )
