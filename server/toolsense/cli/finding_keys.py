"""What identifies a finding across commits: its file, the name of the tool it is in, its JSON pointer inside that
tool and its code — never its line. Baselines match on it; SARIF's `partialFingerprints` are its hash."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..document.jsontree import Pointer
    from ..engine.checker import Diagnostic

FINGERPRINT_KEY = "toolsense/v1"
"""The `partialFingerprints` entry (versioned: a new key scheme gets a new name, as SARIF suggests)."""


@dataclass(frozen=True, order=True)
class FindingKey:
    file: str
    """The file's path with `/` separators, relative to where the key is kept (the baseline's folder, the
    current folder for SARIF)."""
    tool: str
    """The name of the tool (or other named unit) the finding is in; "" when it is in none."""
    pointer: str
    """The JSON pointer (RFC 6901) inside that tool, or in the file when there is no tool."""
    code: str


def pointer_text(pointer: Pointer) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in pointer)


def finding_key(file: str, diagnostic: Diagnostic) -> FindingKey:
    subject = diagnostic.subject
    tool, pointer = (subject.name, pointer_text(subject.pointer)) if subject is not None else ("", "")
    return FindingKey(file.replace("\\", "/"), tool, pointer, diagnostic.code)


def fingerprints(keys: list[FindingKey]) -> list[str]:
    """A stable hash per key; the second and later findings with the same key get their rank in it too, so every
    result has its own fingerprint and the first keeps its fingerprint when another one appears."""
    seen: Counter[FindingKey] = Counter()
    found = []
    for key in keys:
        seen[key] += 1
        text = "\0".join((key.file, key.tool, key.pointer, key.code))
        if seen[key] > 1:
            text += f"\0{seen[key]}"
        found.append(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32])
    return found
