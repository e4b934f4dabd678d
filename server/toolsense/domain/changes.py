"""A change to a tool surface, sorted by what it breaks, and the version bump a set of changes calls for.

- **breaking**: a caller that worked before may fail now (a tool removed or renamed, a required parameter added,
  a parameter removed, a type narrowed, an enum value removed, `additionalProperties` closed, the output giving
  less than it promised);
- **risky**: nothing a caller sends stops working, but what the model or the user reads changed (a description,
  an annotation, a default), or the tool newly says it may destroy or reach the open world: review it;
- **additive**: what worked still works, and more does (a new tool, an optional parameter, a widened type).

Position-free: a change carries the JSON pointer of what changed in the old and in the new version (None where
a version has no such place), never a line.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..document.jsontree import Pointer
from ..jsonvalue import JsonValue


class ChangeClass(enum.Enum):
    BREAKING = "breaking"
    RISKY = "risky"
    ADDITIVE = "additive"


CLASS_ORDER = (ChangeClass.BREAKING, ChangeClass.RISKY, ChangeClass.ADDITIVE)
"""Worst first: the order reports group changes in, and the order `--fail-on` counts down."""


@dataclass(frozen=True)
class Change:
    klass: ChangeClass
    kind: str
    """A stable name for the sort of change (`tool-removed`, `required-parameter-added`, …): JSON output keys on it."""
    tool: str
    """The tool's name (its old name for a rename)."""
    message: str
    """One line, position-free, every quoted text escaped (`textsafety`)."""
    old: Pointer | None
    new: Pointer | None
    was: JsonValue = None
    now: JsonValue = None
    """The values before and after, where a report can show them (a description's two texts for a word diff)."""
    file: str = ""
    """Which file of a folder the tool is in (a snapshot folder holds a file per server); "" for one file."""

    def in_file(self, file: str) -> Change:
        return replace(self, file=file)


KIND_WORDS: dict[str, tuple[str, str]] = {
    "tool-removed": ("removed", "removed"),
    "tool-renamed": ("renamed", "renamed"),
    "required-parameter-added": ("required parameter added", "required parameters added"),
    "parameter-removed": ("parameter removed", "parameters removed"),
    "parameter-now-required": ("parameter now required", "parameters now required"),
    "type-narrowed": ("type narrowed", "types narrowed"),
    "type-changed": ("type changed", "types changed"),
    "enum-value-removed": ("enum value removed", "enum values removed"),
    "enum-introduced": ("values restricted", "values restricted"),
    "constraint-tightened": ("constraint tightened", "constraints tightened"),
    "additional-properties-closed": ("additionalProperties closed", "additionalProperties closed"),
    "variant-removed": ("variant removed", "variants removed"),
    "schema-removed": ("schema removed", "schemas removed"),
    "output-property-removed": ("output property removed", "output properties removed"),
    "output-property-optional": ("output property no longer guaranteed", "output properties no longer guaranteed"),
    "output-type-widened": ("output type widened", "output types widened"),
    "output-type-changed": ("output type changed", "output types changed"),
    "output-values-widened": ("output values widened", "output values widened"),
    "output-variant-added": ("output variant added", "output variants added"),
    "output-schema-removed": ("outputSchema removed", "outputSchema removed"),
    "description-changed": ("description changed", "descriptions changed"),
    "title-changed": ("title changed", "titles changed"),
    "annotation-changed": ("annotation changed", "annotations changed"),
    "newly-destructive": ("newly destructive", "newly destructive"),
    "newly-open-world": ("newly open-world", "newly open-world"),
    "parameter-text-changed": ("parameter text changed", "parameter texts changed"),
    "default-changed": ("default changed", "defaults changed"),
    "keyword-changed": ("schema keyword changed", "schema keywords changed"),
    "member-changed": ("member changed", "members changed"),
    "security-finding": ("new security finding", "new security findings"),
    "output-constraint-loosened": ("output constraint loosened", "output constraints loosened"),
    "tool-added": ("tool added", "tools added"),
    "optional-parameter-added": ("optional parameter added", "optional parameters added"),
    "parameter-now-optional": ("parameter now optional", "parameters now optional"),
    "type-widened": ("type widened", "types widened"),
    "enum-value-added": ("enum value added", "enum values added"),
    "enum-lifted": ("values unrestricted", "values unrestricted"),
    "constraint-loosened": ("constraint loosened", "constraints loosened"),
    "additional-properties-opened": ("additionalProperties opened", "additionalProperties opened"),
    "variant-added": ("variant added", "variants added"),
    "schema-added": ("schema added", "schemas added"),
    "output-property-added": ("output property added", "output properties added"),
    "output-narrowed": ("output narrowed", "outputs narrowed"),
    "output-schema-added": ("outputSchema added", "outputSchema added"),
}
"""How a summary names each kind, one and many ("breaking: 1 removed, 2 required parameters added")."""


def _counted(count: int, words: tuple[str, str]) -> str:
    return f"{count} {words[0] if count == 1 else words[1]}"


def summary_label(changes: Iterable[Change], kinds_shown: int | None = None) -> str:
    """`breaking: 1 removed; risky: 1 description changed; additive: 2 tools added` (worst class first, each
    kind counted in the order it first appears); "" when there is no change. With `kinds_shown`, a class of more
    kinds than that is only counted (`breaking: 4 changes`), for a label that must stay short (a code lens)."""
    by_class: dict[ChangeClass, Counter[str]] = {klass: Counter() for klass in CLASS_ORDER}
    for change in changes:
        by_class[change.klass][change.kind] += 1
    parts = []
    for klass in CLASS_ORDER:
        kinds = by_class[klass]
        if not kinds:
            continue
        if kinds_shown is not None and len(kinds) > kinds_shown:
            counted = _counted(sum(kinds.values()), ("change", "changes"))
        else:
            counted = ", ".join(_counted(n, KIND_WORDS.get(kind, (kind, kind))) for kind, n in kinds.items())
        parts.append(f"{klass.value}: {counted}")
    return "; ".join(parts)


def worst_class(changes: Iterable[Change]) -> ChangeClass | None:
    present = {change.klass for change in changes}
    return next((klass for klass in CLASS_ORDER if klass in present), None)


@dataclass(frozen=True)
class Bump:
    level: str
    """`major`, `minor` or `patch`."""
    reason: str


def suggest_bump(changes: list[Change]) -> Bump:
    """Semantic versioning for a tool surface (https://semver.org/ §6–8, read 2026-12-07): a change a caller can
    break on is major, new capability minor, the rest patch. A risky change alone stays a patch: callers keep
    working, and review, not a version number, is what it needs."""
    counts = Counter(change.klass for change in changes)
    breaking, risky, additive = (counts[k] for k in CLASS_ORDER)
    if breaking:
        said = _counted(breaking, ("breaking change", "breaking changes"))
        return Bump("major", f"{said}: a caller that worked before may fail")
    if additive:
        said = _counted(additive, ("additive change", "additive changes"))
        return Bump("minor", f"{said} and nothing breaking: every caller keeps working")
    if risky:
        said = _counted(risky, ("risky change", "risky changes"))
        return Bump("patch", f"{said} only: every caller keeps working; review what the model now reads")
    return Bump("patch", "no change to the tool surface")
