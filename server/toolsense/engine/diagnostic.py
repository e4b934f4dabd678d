"""A finding placed in a file: what every front door shows (the LSP's diagnostics, the CLI's report). Its own
module, below the checker that makes it, so the modules the checker calls (`suppression`) can name it too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..document.lines import Range
from ..textsafety import SafeMessage
from .findings import Finding, Severity, Subject

SOURCE = "toolsense"


@dataclass(frozen=True)
class RelatedLocation(SafeMessage):
    uri: str
    range: Range
    message: str


@dataclass(frozen=True)
class Diagnostic(SafeMessage):
    range: Range
    severity: Severity
    code: str
    message: str
    finding: Finding | None = None
    related: tuple[RelatedLocation, ...] = ()
    source: str = SOURCE
    subject: Subject | None = None

    def to_json(self, path: str) -> dict[str, Any]:
        return {
            "path": path,
            "range": self.range.to_json(),
            "severity": self.severity.label,
            "code": self.code,
            "message": self.message,
            "source": self.source,
        }
