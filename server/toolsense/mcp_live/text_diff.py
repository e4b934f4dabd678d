"""What changed in a tool's text, shown as a word diff, and what the new text says to the model.

A changed description cut at the two versions' common start hides the sentence a rug pull adds at the end; a word
diff shows exactly the span that changed (`[-removed-]{+added+}`, a few words of context), escaped so that no
invisible character reaches the message. The new text is then read as the security rules read a tool's texts
(TS290 hidden characters, TS292 instructions aimed at the model): a changed tool is a new tool to review.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from ..document.jsontree import Pointer
from ..domain.injection import judge
from ..domain.texts import string_values
from ..engine.findings import Finding
from ..textsafety import escape, hidden_runs

CONTEXT_WORDS = 4
MAX_CHANGE = 160
HIDDEN_CODE, INSTRUCTIONS_CODE = "TS290", "TS292"
"""The codes the tool rules report these under (`rules.tools.hidden_text`, `rules.tools.poisoning`)."""

_WORDS = re.compile(r"\s+|[^\s]+")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def word_diff(old: str, new: str) -> str:
    """The changed spans of `new` against `old`: `[-removed-]` and `{+added+}` with a few words around each."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    parts: list[str] = []
    opcodes = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    keep = CONTEXT_WORDS * 2  # tokens: words and the spaces between them
    last = len(opcodes) - 1
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            words = a[i1:i2]
            if len(words) <= keep * (1 if index in (0, last) else 2):
                shown = "".join(words)
            elif index == 0:
                shown = "…" + "".join(words[-keep:])
            elif index == last:
                shown = "".join(words[:keep]) + "…"
            else:
                shown = "".join(words[:keep]) + " … " + "".join(words[-keep:])
            parts.append(escape(shown))
            continue
        if i2 > i1:
            parts.append("[-" + escape(_cut("".join(a[i1:i2]), MAX_CHANGE)) + "-]")
        if j2 > j1:
            parts.append("{+" + escape(_cut("".join(b[j1:j2]), MAX_CHANGE)) + "+}")
    return "".join(parts).replace("\n", " ").strip()


def review_new_version(name: str, tool: Any, where: Pointer) -> list[Finding]:
    """The security findings on the server's new version of a changed tool, placed on the committed entry."""
    texts = string_values(tool)
    findings = []
    hidden = sum(len(run.text) for _, text in texts for run in hidden_runs(text))
    if hidden:
        findings.append(
            Finding(
                HIDDEN_CODE,
                f"The server's new version of tool '{escape(name)}' has {hidden} invisible characters in its texts: "
                "review it before accepting",
                where,
            )
        )
    verdict = judge(texts)
    if verdict.poisoned:
        said = "; ".join(f"{s.category} ({_cut(escape(s.excerpt), 40)!r})" for s in verdict.signals)
        findings.append(
            Finding(
                INSTRUCTIONS_CODE,
                f"The server's new version of tool '{escape(name)}' carries instructions aimed at the model: {said}; "
                "do not accept it",
                where,
            )
        )
    return findings
