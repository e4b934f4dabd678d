"""Position-free results of rules: a pointer, what to mark there, a code, a message, maybe a fix."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..document.jsontree import Pointer


class Severity(IntEnum):
    """LSP's numbering: lower is more severe."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Severity:
        return cls[label.upper()]


Target = Literal["key", "value", "parent", "member"]
"""What to mark: the member's key, its value, the parent object (for a missing property), the whole member."""


@dataclass(frozen=True)
class ReplaceValue:
    """Replace the JSON value at pointer with `json_text`."""

    pointer: Pointer
    json_text: str


@dataclass(frozen=True)
class RenameKey:
    pointer: Pointer
    new_key: str


@dataclass(frozen=True)
class RemoveMember:
    """Remove an object member or an array element, keeping commas right."""

    pointer: Pointer


@dataclass(frozen=True)
class InsertMembers:
    """Insert `"key": value` members into the object at pointer (value texts may be snippets)."""

    pointer: Pointer
    members: tuple[tuple[str, str], ...]
    snippet_members: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ReplaceInString:
    """Replace decoded characters [start, end) of the string at pointer with `text` (escaped on output)."""

    pointer: Pointer
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class MoveMember:
    """Move the member at pointer into the object at `into`, under the same key (a key in the wrong place)."""

    pointer: Pointer
    into: Pointer


FixEdit = ReplaceValue | RenameKey | RemoveMember | InsertMembers | ReplaceInString | MoveMember


@dataclass(frozen=True)
class Fix:
    """A fix is data; the document layer turns it into text edits, for the CLI and the editor alike.

    `safe` fixes keep meaning (coercing `"80"` to 80, adding `additionalProperties: false` where asked);
    unsafe ones choose for the user (removing a property, picking one of several names).
    """

    title: str
    edits: tuple[FixEdit, ...]
    safe: bool = False
    preferred: bool = False


MAX_RELATED = 10
"""The most related locations a finding carries (more are counted in its message, not listed)."""


@dataclass(frozen=True)
class Related:
    """Another place that explains this finding (e.g. the other duplicate)."""

    message: str
    pointer: Pointer
    uri: str | None = None
    target: Target = "value"


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    pointer: Pointer = ()
    target: Target = "value"
    severity: Severity | None = None
    span: tuple[int, int] | None = None
    """Decoded-character span inside a string value (templates), else None."""
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    data: dict[str, str] = field(default_factory=dict, compare=False)

    def under(self, prefix: Pointer) -> Finding:
        """The same finding with pointers made absolute under prefix."""
        if not prefix:
            return self
        return Finding(
            self.code,
            self.message,
            (*prefix, *self.pointer),
            self.target,
            self.severity,
            self.span,
            tuple(_fix_under(fix, prefix) for fix in self.fixes),
            tuple(
                Related(r.message, (*prefix, *r.pointer) if r.uri is None else r.pointer, r.uri, r.target)
                for r in self.related
            ),
            self.data,
        )


def _fix_under(fix: Fix, prefix: Pointer) -> Fix:
    edits: list[FixEdit] = []
    for edit in fix.edits:
        if isinstance(edit, ReplaceValue):
            edits.append(ReplaceValue((*prefix, *edit.pointer), edit.json_text))
        elif isinstance(edit, RenameKey):
            edits.append(RenameKey((*prefix, *edit.pointer), edit.new_key))
        elif isinstance(edit, RemoveMember):
            edits.append(RemoveMember((*prefix, *edit.pointer)))
        elif isinstance(edit, InsertMembers):
            edits.append(InsertMembers((*prefix, *edit.pointer), edit.members, edit.snippet_members))
        elif isinstance(edit, MoveMember):
            edits.append(MoveMember((*prefix, *edit.pointer), (*prefix, *edit.into)))
        else:
            edits.append(ReplaceInString((*prefix, *edit.pointer), edit.start, edit.end, edit.text))
    return Fix(fix.title, tuple(edits), fix.safe, fix.preferred)


@dataclass(frozen=True)
class Subject:
    """What a diagnostic is about, without positions: the name of the unit it lies in (a tool's name) and its
    pointer inside that unit; for a finding in no named unit, "" and the whole pointer. Baselines, suppressions
    and SARIF fingerprints key on it, so lines that move change none of them."""

    name: str
    pointer: Pointer
