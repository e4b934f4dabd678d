"""Findings a user has accepted, and what each diagnostic is about.

- A `// toolsense-ignore TS220` comment (several codes: `TS220, TS241`), where the file allows comments, applies
  to the member that starts on its line, and — when the comment stands alone on its line — to the member that
  starts on the next line; a finding is suppressed when it lies in such a member (a comment above a tool covers
  the whole tool).
- The settings' `ignore` table, for plain JSON: `{file glob = {tool name or "*" = [codes]}}`.
- A comment never suppresses a security rule (`Catalog.security_codes`: TS290–TS295, TS940–TS944): a poisoned
  file would carry its own waiver. Only the user's settings (the `ignore` table, a severity) or a baseline can.
- What was suppressed, and by what, is counted (`Suppressions`), with the security findings a comment named and
  that are reported all the same; the CLI's summary says so.
- A diagnostic's `Subject`: the name of the unit it is in and its pointer inside that unit. Baselines and SARIF
  fingerprints key on it (with the file and the code), so moving lines or reordering tools changes neither.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..document.jsontree import locate
from ..document.outline import LightNode
from ..models.definitions import NAME_KEY
from .findings import Subject
from .ownership import uri_path as uri_path  # where the checker finds it
from .units import glob_match, root_value

if TYPE_CHECKING:
    from tree_sitter import Node

    from ..document.document import Document
    from ..document.jsontree import Pointer
    from .context import CheckContext
    from .diagnostic import Diagnostic
    from .units import Split, Unit

IGNORE_MARK = "toolsense-ignore"
ANY_TOOL = "*"
"""The `ignore` table's tool name that stands for every finding of the file."""
_CODES_AFTER_MARK = re.compile(r"toolsense-ignore((?:[\s,]+TS\d{3}\b)+)")
_CODE = re.compile(r"TS\d{3}")

BY_SETTINGS, BY_COMMENT, BY_BASELINE, REFUSED = "settings", "comment", "baseline", "refused"
Suppressions = Counter[str]
"""How many diagnostics were suppressed by the settings' `ignore` table (`BY_SETTINGS`), by comments
(`BY_COMMENT`) and by a baseline (`BY_BASELINE`, counted by the CLI), and how many security diagnostics a comment
named but did not suppress (`REFUSED`)."""


def unit_name(unit: Unit) -> str:
    """A tool's name (where its dialect keeps it), else the unit's own `name` string; "" when it has none."""
    value: Any = unit.value
    path = NAME_KEY.get(unit.dialect or "", ("name",)) if unit.kind == "tool" else ("name",)
    for part in path:
        value = value.get(part) if isinstance(value, dict) else None
    return value if isinstance(value, str) else ""


def with_subjects(diagnostics: list[Diagnostic], units: Iterable[Unit]) -> list[Diagnostic]:
    """Each diagnostic with its subject: the innermost named unit its finding lies in (an unnamed unit, or no
    unit at all, keeps the whole pointer). Names are read only for the units diagnostics lie in (a file of
    thousands of tools is checked on every keystroke)."""
    if not any(d.finding is not None and d.subject is None for d in diagnostics):
        return diagnostics
    by_pointer = {unit.pointer: unit for unit in units}
    lengths = sorted({len(pointer) for pointer in by_pointer}, reverse=True)
    names: dict[Pointer, str] = {}
    result = []
    for diagnostic in diagnostics:
        finding = diagnostic.finding
        if finding is not None and diagnostic.subject is None:
            pointer = finding.pointer
            subject = Subject("", pointer)
            for length in lengths:
                unit = by_pointer.get(pointer[:length]) if length <= len(pointer) else None
                if unit is None:
                    continue
                name = names.get(unit.pointer)
                if name is None:
                    name = names[unit.pointer] = unit_name(unit)
                if name:
                    subject = Subject(name, pointer[length:])
                    break
            # The constructor, not dataclasses.replace (several times slower): a large file has many diagnostics.
            diagnostic = type(diagnostic)(
                diagnostic.range,
                diagnostic.severity,
                diagnostic.code,
                diagnostic.message,
                finding,
                diagnostic.related,
                diagnostic.source,
                subject,
            )
        result.append(diagnostic)
    return result


def ignored_codes(ctx: CheckContext, path: str | None) -> dict[str, set[str]]:
    """The settings' `ignore` entries for this file: tool name (or "*") -> codes."""
    settings = ctx.settings
    if not settings.ignore or path is None:
        return {}
    found: dict[str, set[str]] = {}
    for pattern, tools in settings.ignore.items():
        if glob_match(path, pattern):
            for tool, codes in tools.items():
                found.setdefault(tool, set()).update(codes)
    return found


def _ignored_by_settings(diagnostic: Diagnostic, codes: dict[str, set[str]]) -> bool:
    if diagnostic.code in codes.get(ANY_TOOL, ()):
        return True
    subject = diagnostic.subject
    return subject is not None and subject.name != "" and diagnostic.code in codes.get(subject.name, ())


def may_have_ignore_comments(document: Document) -> bool:
    """Whether a `toolsense-ignore` comment can be in the document. One read from its light outline is strict
    JSON, without a comment anywhere (a large file: its text is not even searched, and no tree is parsed)."""
    if isinstance(document.outline, LightNode):
        return False
    return IGNORE_MARK.encode() in document.data


def comment_codes(document: Document) -> dict[int, set[str]]:
    """Line -> the codes that `toolsense-ignore` comments suppress for a member starting on that line."""
    text = document.data
    mark = IGNORE_MARK.encode()
    found: dict[int, set[str]] = {}
    at = text.find(mark)
    while at >= 0:
        node = document.root.descendant_for_byte_range(at, at + len(mark))
        if node is not None and node.type == "comment":
            comment = bytes(text[node.start_byte : node.end_byte]).decode("utf-8", "replace")
            listed = _CODES_AFTER_MARK.search(comment)
            if listed is not None:
                codes = set(_CODE.findall(listed.group(1)))
                line = document.position_at(node.start_byte).line
                found.setdefault(line, set()).update(codes)
                line_start = max(text.rfind(b"\n", 0, node.start_byte), text.rfind(b"\r", 0, node.start_byte)) + 1
                if not bytes(text[line_start : node.start_byte]).strip():  # alone on its line: the next member
                    found.setdefault(line + 1, set()).update(codes)
            at = text.find(mark, max(node.end_byte, at + 1)) if node is not None else -1
        else:
            at = text.find(mark, at + 1)
    return found


def member_lines(document: Document, base: Node | None, pointer: Pointer) -> set[int]:
    """The lines on which the members that hold the pointer start, from the root down to it."""
    lines: set[int] = set()
    if base is None:
        return lines
    for length in range(len(pointer) + 1):
        location = locate(base, pointer[:length])
        if not location.complete:
            break
        node = location.key if location.key is not None else location.value
        lines.add(document.position_at(node.start_byte).line)
    return lines


def _commented(
    diagnostic: Diagnostic, document: Document, base: Node | None, codes: dict[int, set[str]], prefix: Pointer
) -> bool:
    lines = {diagnostic.range.start.line}
    if diagnostic.finding is not None:
        lines |= member_lines(document, base, (*prefix, *diagnostic.finding.pointer))
    return any(diagnostic.code in codes.get(line, ()) for line in lines)


def _by_comments(
    document: Document,
    diagnostics: list[Diagnostic],
    base: Node | None,
    prefix: Pointer,
    security: frozenset[str],
    counts: Suppressions,
) -> list[Diagnostic]:
    """The diagnostics but those a comment suppresses; a security diagnostic a comment names is kept (counted)."""
    if not diagnostics or not may_have_ignore_comments(document):
        return diagnostics
    by_comment = comment_codes(document)
    if not by_comment:
        return diagnostics
    kept = []
    for diagnostic in diagnostics:
        if not _commented(diagnostic, document, base, by_comment, prefix):
            kept.append(diagnostic)
        elif diagnostic.code in security:
            counts[REFUSED] += 1
            kept.append(diagnostic)
        else:
            counts[BY_COMMENT] += 1
    return kept


def suppressed(
    document: Document,
    diagnostics: list[Diagnostic],
    units: Iterable[Unit],
    ctx: CheckContext,
    path: str | None,
    file_split: Split,
    counts: Suppressions | None = None,
) -> list[Diagnostic]:
    """The diagnostics, each with its subject, but those the settings' `ignore` table or a comment suppresses
    (counted in `counts`)."""
    counts = Counter() if counts is None else counts
    diagnostics = with_subjects(diagnostics, units)
    by_settings = ignored_codes(ctx, path)
    if by_settings:
        kept = [d for d in diagnostics if not _ignored_by_settings(d, by_settings)]
        counts[BY_SETTINGS] += len(diagnostics) - len(kept)
        diagnostics = kept
    return _by_comments(document, diagnostics, file_split.base, (), ctx.catalog.security_codes, counts)


def suppressed_in_file(
    document: Document, diagnostics: list[Diagnostic], unit_pointer: Pointer, security: frozenset[str]
) -> list[Diagnostic]:
    """Diagnostics of one unit checked alone (pointers inside the unit), placed back in its file: those that a
    comment in the file suppresses (one above the unit, which the unit's own text does not hold) left out, but
    the `security` codes."""
    if not diagnostics or not may_have_ignore_comments(document):
        return diagnostics
    return _by_comments(document, diagnostics, root_value(document.root), unit_pointer, security, Counter())
