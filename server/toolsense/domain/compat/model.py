"""The oracle's vocabulary: verdicts, the evidence a rule rests on, and what a rule says about one tool.

A rule is evidence turned into a check: it names the targets it speaks for, what a hit means there (rejected or
changed), the target's own words (each dated: a target rewords its messages), and where those words were read —
a public issue whose schema and message `tests/corpus/compat/` keeps as a fixture, or a documented limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from ...document.jsontree import Pointer
from ..tool import ToolView

Verdict = Literal["accepted", "rejected", "changed", "unknown"]

SEVERITY: dict[Verdict, int] = {"accepted": 0, "changed": 1, "unknown": 2, "rejected": 3}
"""A tool's verdict at a target is its worst finding's: one rejected keyword rejects the whole tool (the request
fails), a keyword nobody has evidence for leaves the tool unknown."""

POSITION = "N"
"""How a message shows a request position (the tool's index in `tools`): the oracle sees one tool, not the request."""


@dataclass(frozen=True)
class Source:
    """Where a fact was read: a public issue, a documentation page or a client's source file, and its date."""

    url: str
    date: str
    fixture: str = ""
    """`target/slug` of the fixture under tests/corpus/compat/ that keeps this source's schema and message."""


@dataclass(frozen=True)
class Message:
    """What the target says, as a format string over the hit's fields (`{i}` a request position)."""

    template: str
    since: str = ""
    """The date the target was first seen saying this (a target rewords its messages); "" for always."""
    documented: bool = False
    """The words of a documented limit, not a message captured from the target."""


@dataclass(frozen=True)
class Hit:
    """One place a rule fires: where (relative to the tool definition) and the message's fields."""

    pointer: Pointer
    fields: Mapping[str, str] = field(default_factory=dict)
    change: str = ""
    """For a changed verdict: what the target does to the tool."""


Check = Callable[[ToolView, str], Iterator[Hit]]
"""A rule's detector: the tool and the target's id in, hits out."""


@dataclass(frozen=True)
class Rule:
    id: str
    targets: frozenset[str]
    verdict: Verdict
    summary: str
    """What the rule detects, in one line (docs/compat.md lists every rule)."""
    messages: tuple[Message, ...]
    """Oldest first; the oracle quotes the newest."""
    sources: tuple[Source, ...]
    check: Check

    @property
    def message(self) -> Message:
        return self.messages[-1]

    def message_at(self, date: str) -> tuple[Message, ...]:
        """The messages the target could have given on a date (the newest before it, and any later variant of
        the same date)."""
        known = [m for m in self.messages if m.since <= date]
        return tuple(known) if known else self.messages[:1]


@dataclass(frozen=True)
class Finding:
    """What one rule says about one place of one tool at one target."""

    target: str
    verdict: Verdict
    pointer: Pointer
    message: str
    rule: str
    sources: tuple[Source, ...]
    documented: bool = False
    change: str = ""


@dataclass(frozen=True)
class Assessment:
    """One tool at one target: the verdict, the findings behind it, and why when nothing fired."""

    target: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    basis: str = ""
    """For accepted: the documented contract the tool meets. For unknown without findings: why not."""

    def first(self, verdict: Verdict) -> Finding | None:
        return next((f for f in self.findings if f.verdict == verdict), None)
