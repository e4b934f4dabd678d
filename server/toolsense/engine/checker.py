"""The check engine: document → units → rules → findings → placed diagnostics.

Results are cached per unit: after an edit only units whose bytes the edit touched are read and checked
again; the others keep their value and findings (their pointers are relative, so a shift does not matter).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from ..document.document import ByteEdit, Document
from ..document.jsontree import Pointer, locate
from ..document.lines import Range
from .catalog import CATALOG, UnitKind
from .context import CheckContext
from .findings import Finding, Related, Severity
from .placement import place, syntax_errors
from .units import Split, Unit, read_unit, split, with_dialects

log = logging.getLogger(__name__)

SOURCE = "toolsense"

RelatedResolver = Callable[[str, Pointer, str], Range | None]


@dataclass(frozen=True)
class RelatedLocation:
    uri: str
    range: Range
    message: str


@dataclass(frozen=True)
class Diagnostic:
    range: Range
    severity: Severity
    code: str
    message: str
    finding: Finding | None = None
    related: tuple[RelatedLocation, ...] = ()
    source: str = SOURCE

    def to_json(self, path: str) -> dict[str, Any]:
        return {
            "path": path,
            "range": self.range.to_json(),
            "severity": self.severity.label,
            "code": self.code,
            "message": self.message,
            "source": self.source,
        }


@dataclass
class _CachedUnit:
    unit: Unit
    findings: list[Finding] | None = None
    fingerprint: tuple[int, int, int] | None = None


@dataclass
class UnitCache:
    """Per-document memory of the last check, keyed by the units' byte spans at that time."""

    units: dict[tuple[int, int], _CachedUnit] = field(default_factory=dict)
    content: dict[bytes, _CachedUnit] = field(default_factory=dict)


@dataclass
class FileReport:
    kind: UnitKind | None
    diagnostics: list[Diagnostic]
    units: list[Unit]
    unit_nodes: list[Node]
    split: Split
    checked_units: int = 0


def _old_span(start: int, end: int, edits: list[ByteEdit]) -> tuple[int, int] | None:
    """Map a span in the new text back through the edits; None when an edit touched it."""
    for edit in reversed(edits):
        if end < edit.start:
            continue
        if start > edit.new_end:
            shift = edit.new_end - edit.old_end
            start, end = start - shift, end - shift
            continue
        return None
    return start, end


SEVERITY_BY_LABEL = {s.label: s for s in Severity}


def resolve_severity(finding: Finding, ctx: CheckContext) -> Severity | None:
    override = ctx.settings.severity.get(finding.code)
    if override == "off":
        return None
    if override is not None:
        return SEVERITY_BY_LABEL[override]
    if finding.severity is not None:
        return finding.severity
    rule = CATALOG.rules.get(finding.code)
    return rule.severity if rule else Severity.ERROR


def run_unit_checks(unit: Unit, ctx: CheckContext) -> list[Finding]:
    """Every registered check on one unit; a failing check becomes a finding, never an exception."""
    findings: list[Finding] = []
    for check in CATALOG.unit_checks[unit.kind]:
        try:
            findings.extend(check(unit, ctx))
        except RecursionError:
            findings.append(Finding("TS006", "Nesting is too deep to check (Python recursion limit reached)"))
            break
        except Exception as error:  # a rule bug must not take the file down
            log.exception("rule %s failed", getattr(check, "__name__", check))
            findings.append(Finding("TS900", f"Internal error in check {check.__name__}: {error!r}"))
    if not unit.clean:
        findings = [f for f in findings if f.code != "TS102"]
    return findings


def check_document(
    document: Document,
    ctx: CheckContext,
    kind_hint: UnitKind | None,
    cache: UnitCache | None = None,
    related_resolver: RelatedResolver | None = None,
) -> FileReport:
    """Check a document; with a cache, only the units an edit touched are read and checked again."""
    cache = cache if cache is not None else UnitCache()
    edits = list(document.edits_since_check)
    document.edits_since_check.clear()
    file_split = split(document, kind_hint)
    diagnostics: list[Diagnostic] = []
    for start, end, message in syntax_errors(document):
        diagnostics.append(Diagnostic(document.range_of(start, end), Severity.ERROR, "TS001", message))
    problem = _shape_problem(file_split, kind_hint)
    if problem is not None:
        diagnostics.append(_place_file_problem(document, file_split, problem))

    new_units: dict[tuple[int, int], _CachedUnit] = {}
    new_content: dict[bytes, _CachedUnit] = {}
    raw_units: list[Unit] = []
    for span in file_split.spans:
        key = (span.node.start_byte, span.node.end_byte)
        old = _old_span(*key, edits) if not _full_reset(edits) else None
        entry = cache.units.get(old) if old is not None else None
        if entry is None:
            unit = read_unit(document, span)
            content_key = document.slice(*key) if key[1] - key[0] < 1 << 20 else None
            reuse = cache.content.get(content_key) if content_key is not None else None
            entry = _CachedUnit(unit, reuse.findings, reuse.fingerprint) if reuse else _CachedUnit(unit)
            if content_key is not None:
                new_content[content_key] = entry
        else:
            unit = entry.unit
            entry.unit = Unit(unit.kind, span.pointer, unit.value, unit.dialect, key[0], key[1], unit.clean)
        new_units[key] = entry
        raw_units.append(entry.unit)
    units = with_dialects(raw_units)
    fingerprint = ctx.fingerprint()
    checked = 0
    all_findings: list[tuple[Finding, Node]] = []
    for span, unit in zip(file_split.spans, units, strict=True):
        entry = new_units[(span.node.start_byte, span.node.end_byte)]
        if entry.findings is None or entry.fingerprint != fingerprint or entry.unit.dialect != unit.dialect:
            entry.findings = run_unit_checks(unit, ctx)
            entry.fingerprint = fingerprint
            checked += 1
        entry.unit = unit
        all_findings.extend((finding, span.node) for finding in entry.findings)
    cache.units = new_units
    cache.content = new_content

    kind = file_split.kind
    if kind is not None and file_split.root is not None:
        for file_check in CATALOG.file_checks[kind]:
            try:
                all_findings.extend((f, file_split.root) for f in file_check(units, ctx))
            except Exception as error:
                log.exception("file check failed")
                all_findings.append((Finding("TS900", f"Internal error in a file check: {error!r}"), file_split.root))

    unit_pointers = {id(span.node): span.pointer for span in file_split.spans}
    for finding, node in all_findings:
        severity = resolve_severity(finding, ctx)
        if severity is None:
            continue
        relative = finding.pointer
        base: Pointer = unit_pointers.get(id(node), ())
        if node is file_split.root and base == () and id(node) not in unit_pointers:
            relative = finding.pointer
        absolute = (*base, *relative)
        range_ = place(document, node, relative, finding.target, finding.span)
        related = tuple(_related(document, node, base, r, related_resolver) for r in finding.related)
        diagnostics.append(
            Diagnostic(
                range_,
                severity,
                finding.code,
                finding.message,
                Finding(
                    finding.code,
                    finding.message,
                    absolute,
                    finding.target,
                    severity,
                    finding.span,
                    tuple(f for f in finding.under(base).fixes),
                    finding.related,
                    finding.data,
                ),
                tuple(r for r in related if r is not None),
            )
        )
    diagnostics.sort(key=lambda d: (d.range.start, d.code))
    return FileReport(kind, diagnostics, units, [s.node for s in file_split.spans], file_split, checked)


def _full_reset(edits: Iterable[ByteEdit]) -> bool:
    return any(edit.old_end >= 1 << 62 for edit in edits)


def _related(
    document: Document, node: Node, base: Pointer, related: Related, resolver: RelatedResolver | None
) -> RelatedLocation | None:
    if related.uri is None or related.uri == document.uri:
        if related.uri is None:
            range_ = place(document, node, related.pointer, related.target, None)
        else:
            location = locate(document.root, ())
            range_ = place(document, location.value, related.pointer, related.target, None)
        return RelatedLocation(document.uri, range_, related.message)
    if resolver is None:
        return None
    found = resolver(related.uri, related.pointer, related.target)
    return RelatedLocation(related.uri, found, related.message) if found is not None else None


def _shape_problem(file_split: Split, kind_hint: UnitKind | None) -> tuple[str, str] | None:
    if file_split.problem == "empty":
        return ("TS005", f"Empty file: expected {_describe_kind(kind_hint)}") if kind_hint is not None else None
    if file_split.problem is not None:
        found = {"string": "a string", "number": "a number", "true": "true", "false": "false", "null": "null"}
        what = found.get(file_split.problem, file_split.problem)
        return ("TS004", f"Expected {_describe_kind(kind_hint)} (a JSON object or array), found {what}")
    return None


def _describe_kind(kind: UnitKind | None) -> str:
    return {
        "tool": "tool definitions",
        "automation": "an automation",
        "tool_call": "a tool call",
        None: "tool definitions, automations or tool calls",
    }[kind]


def _place_file_problem(document: Document, file_split: Split, problem: tuple[str, str]) -> Diagnostic:
    code, message = problem
    if file_split.root is not None:
        range_ = document.range_of(file_split.root.start_byte, file_split.root.end_byte)
        if range_.end.line != range_.start.line:
            range_ = document.range_of(file_split.root.start_byte, file_split.root.start_byte + 1)
    else:
        range_ = document.range_of(0, 0)
    severity = Severity.WARNING if code == "TS005" else Severity.ERROR
    return Diagnostic(range_, severity, code, message)
