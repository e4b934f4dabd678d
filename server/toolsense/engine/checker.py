"""The check engine: document → units → rules → findings → placed diagnostics.

Results are cached per unit: after an edit only units whose bytes the edit touched are read and checked
again; the others keep their value and findings (their pointers are relative, so a shift does not matter).
"""

from __future__ import annotations

import dataclasses
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from tree_sitter import Node

from ..document.document import ByteEdit, Document
from ..document.embedded import EmbeddedNode
from ..document.jsontree import LocateCache, Pointer
from ..document.lines import Range
from . import regexes
from .catalog import UnitKind
from .context import CheckContext, Fingerprint
from .diagnostic import SOURCE as SOURCE
from .diagnostic import Diagnostic as Diagnostic
from .diagnostic import RelatedLocation as RelatedLocation
from .filefacts import NO_FACTS, FileFacts, file_facts
from .findings import MAX_RELATED, Finding, Related, Severity, Target
from .placement import place_bytes, syntax_errors
from .records import exchanges
from .suppression import Suppressions, suppressed, uri_path
from .toml_config import TomlConfig, read_toml_config, toml_client, toml_findings
from .unit_keys import digest, old_span, reads_alike
from .unit_rules import run_unit_checks
from .units import Split, Unit, UnitSpan, forced_dialect, read_unit, split, with_dialects

log = logging.getLogger(__name__)

RelatedResolver = Callable[[str, Pointer, str], Range | None]


class SharedFindings(Protocol):
    """Another process checking some units meanwhile (`lsp.share`): rules read only unit and context."""

    def offer(self, units: list[Unit], ctx: CheckContext) -> None:
        """The units are read, with their dialects, and none is checked yet (`ctx` has the file's facts)."""

    def findings(self, position: int) -> list[Finding] | None:
        """Its findings for the unit at this position, if they are there (None: check it here)."""


@dataclass
class _Placed:
    """A unit's finding placed in its text: absolute finding, byte offsets relative to the unit's start."""

    finding: Finding
    start: int
    end: int
    related: tuple[tuple[Related, int, int] | Related, ...]
    """Each related location placed inside the unit (relative offsets), or left to place on every check."""
    resolved: tuple[Severity, Finding] | None = None
    """The finding with its resolved severity (made once, reused while the severity stays the same)."""


@dataclass
class _CachedUnit:
    unit: Unit
    content_key: bytes | None
    findings: list[Finding] | None = None
    fingerprint: Fingerprint | None = None
    checked_as: tuple[str, str | None] | None = None
    """The unit's kind and dialect when its findings were made (a dialect can change with its neighbours)."""
    placed: list[_Placed] | None = None
    placed_pointer: Pointer | None = None


@dataclass
class UnitCache:
    """Per-document memory of the last check: units by byte span (traced through edits) and by content."""

    units: dict[tuple[int, int], _CachedUnit] = field(default_factory=dict)
    content: dict[bytes, _CachedUnit] = field(default_factory=dict)
    """By a digest of the unit's bytes (a file that breaks and heals finds its units again)."""
    document_serial: int | None = None
    seen_edits: int = 0


@dataclass
class FileReport:
    kind: UnitKind | None
    diagnostics: list[Diagnostic]
    units: list[Unit]
    unit_nodes: list[Node]
    split: Split
    checked_units: int = 0
    """How many units this check ran the rules on (the others reused cached findings)."""
    facts: FileFacts = NO_FACTS
    """What the file said about all its units (MCP version, sent as it is)."""
    digests: list[bytes] = field(default_factory=list)
    """Each unit's content digest (the unit cache's key), by which the worker and the server name unit values."""
    suppressions: Suppressions = field(default_factory=Counter)
    """What the settings and the file's comments suppressed (`engine.suppression`)."""


SEVERITY_BY_LABEL = {s.label: s for s in Severity}


def resolve_severity(finding: Finding, ctx: CheckContext) -> Severity | None:
    """Settings first (a severity or "off"), then the finding's own, then the rule's default."""
    override = ctx.settings.severity.get(finding.code)
    if override == "off":
        return None
    if override is not None:
        return SEVERITY_BY_LABEL[override]
    if finding.severity is not None:
        return finding.severity
    rule = ctx.catalog.rules.get(finding.code)
    return rule.severity if rule else Severity.ERROR


def with_severity(diagnostic: Diagnostic, ctx: CheckContext) -> Diagnostic | None:
    """A file-level diagnostic (TS001–TS006) under the settings' severity for its code; None when "off"."""
    override = ctx.settings.severity.get(diagnostic.code)
    if override is None:
        return diagnostic
    if override == "off":
        return None
    return dataclasses.replace(diagnostic, severity=SEVERITY_BY_LABEL[override])


def check_document(
    document: Document,
    ctx: CheckContext,
    kind_hint: UnitKind | None,
    cache: UnitCache | None = None,
    related_resolver: RelatedResolver | None = None,
    facts: FileFacts | None = None,
    shared: SharedFindings | None = None,
) -> FileReport:
    """Check a document; with a cache, only the units an edit touched are read and checked again.

    `facts` are the file's when the document is one unit cut out of it (the editor's keystroke fast path);
    otherwise they are read from the document itself. `shared` checks some units elsewhere meanwhile. The
    file's units share one regex time budget (`regexes.time_budget`)."""
    with regexes.time_budget(regexes.FILE_BUDGET_MATCHES * ctx.settings.limits.regex_timeout_ms, "this file"):
        return _check_document(document, ctx, kind_hint, cache, related_resolver, facts, shared)


def _check_document(
    document: Document,
    ctx: CheckContext,
    kind_hint: UnitKind | None,
    cache: UnitCache | None,
    related_resolver: RelatedResolver | None,
    facts: FileFacts | None,
    shared: SharedFindings | None,
) -> FileReport:
    cache = cache if cache is not None else UnitCache()
    edits = document.edits_since(cache.seen_edits) if cache.document_serial == document.serial else None
    cache.document_serial, cache.seen_edits = document.serial, document.edit_count
    document.checked_edit_count = document.edit_count
    path = uri_path(ctx.uri or document.uri)
    if path and (toml := toml_client(path)) is not None:
        return _toml_report(document, ctx, read_toml_config(bytes(document.data), toml))
    file_split = split(document, kind_hint, forced_dialect(path, ctx.settings) if path else None)
    if not file_split.broken:
        document.claimed_kind = file_split.kind  # the history a broken version of this document is judged by
    if facts is None:
        facts = file_facts(file_split.root if file_split.shape != "lines" else None)
    ctx = dataclasses.replace(ctx, facts=facts)
    diagnostics: list[Diagnostic] = []
    if file_split.kind is None and kind_hint is None:
        # Not ours: nothing at all, except why a file a folder glob points at was not checked (and its syntax).
        diagnostics.extend(_not_ours(document, file_split, ctx) if file_split.hinted or file_split.note else ())
        return FileReport(None, diagnostics, [], [], file_split, 0)
    syntax_severity = resolve_severity(Finding("TS001", ""), ctx)
    if syntax_severity is not None:
        diagnostics.extend(
            Diagnostic(document.range_of(start, end), syntax_severity, "TS001", message)
            for start, end, message in syntax_errors(document, path)
        )
    problem = _shape_problem(file_split, kind_hint or file_split.kind)
    base = file_split.base if problem is None else None
    for message, where in file_split.containers:
        if base is None:
            break
        start, end = place_bytes(base, where, "value", None)
        container = with_severity(Diagnostic(document.range_of(start, end), Severity.ERROR, "TS008", message), ctx)
        diagnostics.extend([container] if container is not None else [])
    shaped = with_severity(_place_file_problem(document, file_split, problem, ctx), ctx) if problem else None
    diagnostics.extend([shaped] if shaped is not None else [])
    entries = _read_units(document, file_split, cache, edits)
    units = with_dialects([entry.unit for entry in entries])
    fingerprint = ctx.fingerprint()
    if shared is not None:
        shared.offer(units, ctx)
    checked = 0
    placer = _Placer(document, file_split, related_resolver)
    batches: list[tuple[list[_Placed], int]] = []
    for position, (entry, unit, span) in enumerate(zip(entries, units, file_split.spans, strict=True)):
        entry.unit = unit
        if entry.findings is None or entry.fingerprint != fingerprint or entry.checked_as != (unit.kind, unit.dialect):
            made = shared.findings(position) if shared is not None else None
            entry.findings = made if made is not None else run_unit_checks(unit, ctx)
            entry.fingerprint, entry.checked_as = fingerprint, (unit.kind, unit.dialect)
            entry.placed = None
            checked += 1
        if isinstance(unit.text, bytes):
            # Read by the unit's own checks only: kept, the texts would hold the file's size again (an outline
            # unit's text is its node, which the report holds anyway).
            unit = units[position] = entry.unit = dataclasses.replace(unit, text=None)
        if unit.problem is not None:
            severity = resolve_severity(Finding(unit.problem.code, unit.problem.message), ctx)
            if severity is not None:
                range_ = document.range_of(unit.problem.start, unit.problem.end)
                diagnostics.append(Diagnostic(range_, severity, unit.problem.code, unit.problem.message))
        placed = entry.placed if entry.placed is not None and entry.placed_pointer == span.pointer else None
        if placed is None:
            placed = [placer.in_unit(span, finding) for finding in entry.findings]
            if unit.clean:
                entry.placed, entry.placed_pointer = placed, span.pointer
        batches.append((placed, unit.start))
    kind = file_split.kind
    if kind is not None and (file_split.base is not None or file_split.spans):
        seen: set[tuple[str, Pointer, str]] = set()
        for group, file_check in ((g, c) for g in exchanges(units) for c in ctx.catalog.file_checks[kind]):
            try:
                file_findings = list(file_check(group, ctx))
            except Exception as error:
                log.exception("file check failed")
                name = getattr(file_check, "__name__", repr(file_check))
                file_findings = [Finding("TS900", f"Internal error in file check {name}: {error!r}", target="parent")]
            # A finding about the file as a whole (its MCP version) is made once, whichever exchange made it.
            file_findings = [f for f in file_findings if (f.code, f.pointer, f.message) not in seen]
            seen.update((f.code, f.pointer, f.message) for f in file_findings)
            batches.append(([placer.absolute(f) for f in file_findings], 0))
    suppressions: Suppressions = Counter()
    diagnostics = suppressed(
        document, diagnostics + placer.diagnostics(batches, ctx), units, ctx, path, file_split, suppressions
    )
    diagnostics.sort(key=lambda d: (d.range.start, d.code))
    nodes = [s.node for s in file_split.spans]
    data = document.data
    digests = [e.content_key or digest(data, n.start_byte, n.end_byte) for e, n in zip(entries, nodes, strict=True)]
    return FileReport(kind, diagnostics, units, nodes, file_split, checked, facts, digests, suppressions)


def _toml_report(document: Document, ctx: CheckContext, config: TomlConfig) -> FileReport:
    """A TOML configuration (Codex's `config.toml`): its own reader and position map, the same rules."""
    found = [
        Diagnostic(document.range_of(start, end), severity, finding.code, finding.message, finding)
        for finding, start, end in toml_findings(config, lambda unit: run_unit_checks(unit, ctx))
        if (severity := resolve_severity(finding, ctx)) is not None
    ]
    return FileReport(config.split.kind, found, config.units, [], config.split, len(config.units))


def _read_units(
    document: Document, file_split: Split, cache: UnitCache, edits: list[ByteEdit] | None
) -> list[_CachedUnit]:
    """The units of the split: reused when their bytes are untouched (traced through edits) or seen before."""
    new_units: dict[tuple[int, int], _CachedUnit] = {}
    new_content: dict[bytes, _CachedUnit] = {}
    entries: list[_CachedUnit] = []
    size = len(document.data)
    for span in file_split.spans:
        key = (span.node.start_byte, span.node.end_byte)
        old = old_span(*key, edits) if edits is not None else None
        entry = cache.units.get(old) if old is not None else None
        if entry is not None and reads_alike(entry.unit, span) and old is not None:
            delta = key[0] - old[0]
            entry.unit = _moved(entry.unit, span.pointer, delta)
        else:
            unit = read_unit(document, span)
            content_key = digest(document.data, *key) if key[1] <= size else None
            reuse = cache.content.get(content_key) if content_key is not None else None
            entry = _CachedUnit(unit, content_key)
            if reuse is not None and reads_alike(reuse.unit, span):
                entry.findings, entry.fingerprint, entry.checked_as = (
                    reuse.findings,
                    reuse.fingerprint,
                    reuse.checked_as,
                )
                entry.placed, entry.placed_pointer = reuse.placed, reuse.placed_pointer
        new_units[key] = entry
        if entry.content_key is not None:
            new_content.setdefault(entry.content_key, entry)
        entries.append(entry)
    cache.units, cache.content = new_units, new_content
    return entries


def _moved(unit: Unit, pointer: Pointer, delta: int) -> Unit:
    # Runs for every cached unit on every keystroke: no copy when nothing moved, and the plain constructor
    # (several times faster than dataclasses.replace) when something did.
    if not delta and pointer == unit.pointer:
        return unit
    problem = unit.problem
    if problem is not None and delta:
        problem = dataclasses.replace(problem, start=problem.start + delta, end=problem.end + delta)
    return Unit(
        unit.kind,
        pointer,
        unit.value,
        unit.dialect,
        unit.start + delta,
        unit.end + delta,
        unit.clean,
        problem,
        unit.origin,
        unit.container_dialect,
    )


class _Placer:
    """Turns findings into byte spans and diagnostics: unit findings from the unit's node, file findings by
    the unit their pointer leads into (or the split's base)."""

    def __init__(self, document: Document, file_split: Split, resolver: RelatedResolver | None) -> None:
        self.document = document
        self.resolver = resolver
        self.base = file_split.base
        self.units = {span.pointer: span.node for span in file_split.spans}
        self.lengths = sorted({len(p) for p in self.units}, reverse=True)
        self.cache = LocateCache()

    def in_unit(self, span: UnitSpan, finding: Finding) -> _Placed:
        node = span.node
        start, end = place_bytes(node, finding.pointer, finding.target, finding.span, self.cache)
        related: list[tuple[Related, int, int] | Related] = []
        for item in finding.related[:MAX_RELATED]:  # bounded whatever a rule made
            if item.uri is None:
                r_start, r_end = place_bytes(node, item.pointer, item.target, None, self.cache)
                related.append((item, r_start - node.start_byte, r_end - node.start_byte))
            else:
                related.append(item)
        absolute = finding.under(span.pointer)
        if isinstance(node, EmbeddedNode) and absolute.fixes:
            absolute = dataclasses.replace(absolute, fixes=())  # edits address the file's JSON, not a string's
        return _Placed(absolute, start - node.start_byte, end - node.start_byte, tuple(related))

    def absolute(self, finding: Finding) -> _Placed:
        """A finding whose pointers are absolute (a file check's): offsets relative to the document start."""
        start, end = self.absolute_bytes(finding.pointer, finding.target, finding.span)
        related: list[tuple[Related, int, int] | Related] = []
        for item in finding.related[:MAX_RELATED]:  # bounded whatever a rule made
            if item.uri is None:
                r_start, r_end = self.absolute_bytes(item.pointer, item.target, None)
                related.append((item, r_start, r_end))
            else:
                related.append(item)
        return _Placed(finding, start, end, tuple(related))

    def absolute_bytes(self, pointer: Pointer, target: Target, span: tuple[int, int] | None) -> tuple[int, int]:
        for length in self.lengths:
            node = self.units.get(pointer[:length]) if length <= len(pointer) else None
            if node is not None:
                return place_bytes(node, pointer[length:], target, span, self.cache)
        if self.base is not None:
            return place_bytes(self.base, pointer, target, span, self.cache)
        return 0, 0

    def diagnostics(self, batches: list[tuple[list[_Placed], int]], ctx: CheckContext) -> list[Diagnostic]:
        """Diagnostics for placed findings, each batch with the byte offset its placements are relative to;
        all ranges are converted in one vectorised pass."""
        document = self.document
        kept: list[tuple[_Placed, Severity, int]] = []
        spans: list[tuple[int, int]] = []
        for placed, origin in batches:
            for item in placed:
                severity = resolve_severity(item.finding, ctx)
                if severity is None:
                    continue
                kept.append((item, severity, origin))
                spans.append((origin + item.start, origin + item.end))
        result: list[Diagnostic] = []
        for (item, severity, origin), range_ in zip(kept, document.ranges_of(spans), strict=True):
            related: list[RelatedLocation] = []
            for entry in item.related:
                if isinstance(entry, tuple):
                    info, r_start, r_end = entry
                    related.append(
                        RelatedLocation(document.uri, document.range_of(origin + r_start, origin + r_end), info.message)
                    )
                elif (located := self._elsewhere(entry)) is not None:
                    related.append(located)
            if item.resolved is None or item.resolved[0] != severity:
                item.resolved = (severity, dataclasses.replace(item.finding, severity=severity))
            finding = item.resolved[1]
            result.append(Diagnostic(range_, severity, finding.code, finding.message, finding, tuple(related)))
        return result

    def _elsewhere(self, related: Related) -> RelatedLocation | None:
        """A related location given by uri: this document (absolute pointer) or another one (the resolver)."""
        if related.uri == self.document.uri:
            start, end = self.absolute_bytes(related.pointer, related.target, None)
            return RelatedLocation(related.uri, self.document.range_of(start, end), related.message)
        if self.resolver is None or related.uri is None:
            return None
        found = self.resolver(related.uri, related.pointer, related.target)
        return RelatedLocation(related.uri, found, related.message) if found is not None else None


def _not_ours(document: Document, file_split: Split, ctx: CheckContext) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    syntax_severity = resolve_severity(Finding("TS001", ""), ctx)
    if syntax_severity is not None and file_split.hinted:  # a broken file nothing claims: its note alone
        found.extend(
            Diagnostic(document.range_of(start, end), syntax_severity, "TS001", message)
            for start, end, message in syntax_errors(document, uri_path(ctx.uri or document.uri))
        )
    if file_split.note is not None and not found:
        # On the first bracket only: a note about the whole file must not underline all of it.
        start = file_split.root.start_byte if file_split.root is not None else 0
        rule = ctx.catalog.rules.get("TS007")
        severity = rule.severity if rule is not None else Severity.INFORMATION
        note = Diagnostic(document.range_of(start, start + 1), severity, "TS007", file_split.note)
        shown = with_severity(note, ctx)
        if shown is not None:
            found.append(shown)
    return found


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


def _place_file_problem(
    document: Document, file_split: Split, problem: tuple[str, str], ctx: CheckContext
) -> Diagnostic:
    code, message = problem
    if file_split.root is not None:
        range_ = document.range_of(file_split.root.start_byte, file_split.root.end_byte)
        if range_.end.line != range_.start.line:
            range_ = document.range_of(file_split.root.start_byte, file_split.root.start_byte + 1)
    else:
        range_ = document.range_of(0, 0)
    rule = ctx.catalog.rules.get(code)
    return Diagnostic(range_, rule.severity if rule is not None else Severity.ERROR, code, message)
