"""Whole fixes: choosing one per diagnostic, planning non-overlapping ones together, and fixing a document
to a fixed point (re-checked after every pass). `toolsense check --fix` and the editor's fix-all share it."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..document.document import Document
from ..document.jsontree import Pointer
from ..engine.checker import Diagnostic
from ..engine.findings import Fix, InsertMembers, MoveMember, RenameKey
from .edits import Source, edits_for
from .text import NotApplicable, TextEdit, apply_edits, parses_clean_after

MAX_PASSES = 10
"""`fix_document` re-checks and fixes again at most this many times (a fix may reveal another)."""


def _overlapping(edits: Sequence[TextEdit]) -> bool:
    """Edits sorted by (start, end) overlap, or two start at the same place (their order would be a guess)."""
    return any(b.start < a.end or b.start == a.start for a, b in itertools.pairwise(edits))


def _errors_inside(errors: Iterable[tuple[int, int]], edits: Sequence[TextEdit]) -> bool:
    return all(any(e.start <= start and end <= e.end for e in edits) for start, end in errors)


def edits_for_fix(
    document: Document, fix: Fix, snippets: bool = False, check_syntax: bool = True
) -> list[TextEdit] | None:
    """The byte edits of a fix, sorted; None when it cannot apply or would leave invalid JSON.

    A file with a syntax error outside the edit is never touched.
    """
    return _fix_edits(Source(document), fix, snippets, check_syntax)


def _fix_edits(source: Source, fix: Fix, snippets: bool, check_syntax: bool) -> list[TextEdit] | None:
    document = source.document
    try:
        edits = sorted(edit for part in fix.edits for edit in edits_for(source, part, snippets))
    except NotApplicable:
        return None
    if not edits or _overlapping(edits):
        return None
    if not _errors_inside(source.syntax_error_spans, edits):
        return None
    if check_syntax and not parses_clean_after(document, edits):
        return None
    return edits


def choose_fix(fixes: Sequence[Fix], unsafe: bool) -> Fix | None:
    """The fix `--fix` applies for one diagnostic: the preferred allowed one, or the only allowed one."""
    allowed = [fix for fix in fixes if fix.safe or unsafe]
    preferred = [fix for fix in allowed if fix.preferred]
    if preferred:
        return preferred[0]
    return allowed[0] if len(allowed) == 1 else None


Checker = Callable[[Document], list[Diagnostic]]
Chooser = Callable[[Diagnostic], Fix | None]


@dataclass
class FixOutcome:
    """The result of fixing one document to a fixed point."""

    data: bytes
    applied: int
    passes: int
    diagnostics: list[Diagnostic]
    changed: bool
    edits: list[TextEdit] = field(default_factory=list)
    """Non-overlapping edits of the original text that give `data` (every pass composed)."""


class _Taken:
    """Accepted edits, sorted, for O(log n) overlap checks (same rule as `_overlapping`)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.edits: list[TextEdit] = []

    def conflicts(self, edit: TextEdit) -> bool:
        index = bisect.bisect_left(self.starts, edit.start)
        if index < len(self.edits):
            after = self.edits[index]
            if after.start == edit.start or after.start < edit.end:
                return True
        if index > 0:
            before = self.edits[index - 1]
            if edit.start < before.end:
                return True
        return False

    def add(self, edit: TextEdit) -> None:
        index = bisect.bisect_left(self.starts, edit.start)
        self.starts.insert(index, edit.start)
        self.edits.insert(index, edit)


def _planned(document: Document, diagnostics: Iterable[Diagnostic], choose: Chooser) -> list[list[TextEdit]]:
    """Non-overlapping edit groups (one per fix) for the chosen fixes, in document order."""
    taken = _Taken()
    groups: list[list[TextEdit]] = []
    seen: set[tuple[TextEdit, ...]] = set()
    claimed: set[tuple[Pointer, str]] = set()
    chosen = [fix for diagnostic in diagnostics if (fix := choose(diagnostic)) is not None]
    # Fixes that keep the user's text (a rename, a replacement) go before those inserting placeholders: with
    # `"titel": "Sleep"` and `title` missing, the rename wins and the insertion is not needed any more.
    chosen.sort(key=lambda fix: any(isinstance(edit, InsertMembers) for edit in fix.edits))
    source = Source(document)  # one locator cache for every fix of this pass
    for fix in chosen:
        edits = _fix_edits(source, fix, snippets=False, check_syntax=False)
        if edits is None or tuple(edits) in seen:
            continue
        claims = _claims(fix)
        if claims & claimed or any(taken.conflicts(edit) for edit in edits):
            continue  # e.g. two fixes that would both create the key "title": the next pass decides
        seen.add(tuple(edits))
        claimed |= claims
        for edit in edits:
            taken.add(edit)
        groups.append(edits)
    return groups


def _claims(fix: Fix) -> set[tuple[Pointer, str]]:
    """The (object, key) pairs a fix creates: two fixes of one pass must not create the same key."""
    claims: set[tuple[Pointer, str]] = set()
    for edit in fix.edits:
        if isinstance(edit, RenameKey) and edit.pointer:
            claims.add((edit.pointer[:-1], edit.new_key))
        elif isinstance(edit, InsertMembers):
            claims.update((edit.pointer, name) for name, _ in edit.members)
        elif isinstance(edit, MoveMember) and edit.pointer:
            claims.add((edit.into, str(edit.pointer[-1])))
    return claims


def _valid_groups(document: Document, groups: list[list[TextEdit]]) -> list[list[TextEdit]]:
    """The groups whose combined result parses; one by one when the whole batch does not."""
    if parses_clean_after(document, [edit for group in groups for edit in group]):
        return groups
    kept: list[list[TextEdit]] = []
    for group in groups:
        candidate = [edit for g in [*kept, group] for edit in g]
        if parses_clean_after(document, candidate):
            kept.append(group)
    return kept


def fix_document(
    document: Document,
    check: Checker,
    unsafe: bool = False,
    diagnostics: list[Diagnostic] | None = None,
    choose: Chooser | None = None,
    max_passes: int = MAX_PASSES,
) -> FixOutcome:
    """Apply the chosen fixes of every diagnostic, re-check, repeat until nothing changes (at most max_passes).

    Overlapping fixes wait for the next pass; a pass that would produce invalid JSON keeps only the fixes
    that do not; a text seen before stops the loop (fixes that undo each other).
    """
    chooser: Chooser = choose or (lambda d: choose_fix(d.finding.fixes, unsafe) if d.finding else None)
    current = document
    remaining = diagnostics if diagnostics is not None else check(document)
    seen = {bytes(document.data)}
    composed = Composed()
    applied = passes = 0
    while passes < max_passes:
        groups = _valid_groups(current, _planned(current, remaining, chooser))
        if not groups:
            break
        edits = sorted(edit for group in groups for edit in group)
        data = apply_edits(current.data, edits)
        if data in seen:
            break
        seen.add(data)
        composed.add(edits)
        passes += 1
        applied += len(groups)
        current = Document(current.uri, bytearray(data), current.version, current.encoding)
        remaining = check(current)
    changed = current is not document
    edits = composed.edits(current.data) if changed else []
    return FixOutcome(bytes(current.data), applied, passes, remaining, changed, edits)


@dataclass
class _Region:
    """A changed region: bytes [old_start, old_end) of the original are [start, end) of the current text."""

    old_start: int
    old_end: int
    start: int
    end: int


class Composed:
    """Edits of successive passes composed into edits of the original text (no diff of the two texts, which
    is quadratic on the repetitive lines of a large tool file)."""

    def __init__(self) -> None:
        self.regions: list[_Region] = []

    def add(self, edits: Sequence[TextEdit]) -> None:
        """Record one pass's edits (sorted, non-overlapping, in the coordinates of the current text)."""
        items: list[tuple[int, int, _Region | TextEdit]] = [(r.start, r.end, r) for r in self.regions]
        items += [(e.start, e.end, e) for e in edits]
        items.sort(key=lambda item: (item[0], item[1]))
        merged: list[_Region] = []
        shift = 0  # current − original length of the regions passed so far (before this pass)
        growth = 0  # new − current length of this pass's edits passed so far
        index = 0
        while index < len(items):
            start, end, _ = items[index]
            group = [items[index]]
            index += 1
            while index < len(items) and items[index][0] <= end:
                end = max(end, items[index][1])
                group.append(items[index])
                index += 1
            region_shift = sum(
                (r.end - r.start) - (r.old_end - r.old_start) for _, _, r in group if isinstance(r, _Region)
            )
            edit_growth = sum(len(e.encoded) - (e.end - e.start) for _, _, e in group if isinstance(e, TextEdit))
            old_start = start - shift
            old_end = end - shift - region_shift
            merged.append(_Region(old_start, old_end, start + growth, end + growth + edit_growth))
            shift += region_shift
            growth += edit_growth
        self.regions = merged

    def edits(self, current: bytes | bytearray) -> list[TextEdit]:
        """The original text's edits: each changed region replaced by its current text."""
        return [
            TextEdit(r.old_start, r.old_end, bytes(current[r.start : r.end]).decode("utf-8", "surrogatepass"))
            for r in self.regions
        ]
