"""The **messages** policy: file text quoted in a diagnostic's message keeps legitimate emoji sequences, and no
other invisible or control character ever reaches a message.

A tool's text is written by someone else. Quoted raw, Unicode tag characters (U+E0000–U+E007F) would carry a
hidden instruction into the terminal, JSON, SARIF and pull-request annotations; zero-width and bidi characters
would hide or reorder what a reviewer reads; a newline would start a line (or a GitHub workflow command) of its
own. Here each such character is written `<U+XXXX>`, and a run of tag characters also says what it spells. What
legitimate text needs (❤️, 👩‍💻, flags: `textsafety.invisible`) stays as it is.

Every `Diagnostic` and related location passes its message through `safe_message` (`SafeMessage`), so no rule can
echo an invisible payload. (The CLI's output formats may escape once more on the way out.)
"""

from __future__ import annotations

import re

from .invisible import CONTROL_CHARS, hidden_runs

_CONTROLS = re.compile(f"[{CONTROL_CHARS}]")
_CONTROLS_BUT_LINES = re.compile(f"(?![\n\t])[{CONTROL_CHARS}]")
_TAGS = re.compile("[\U000e0000-\U000e007f]+")


def _code(char: str) -> str:
    return f"<U+{ord(char):04X}>"


def _escaped(text: str, controls: re.Pattern[str]) -> str:
    if text.isascii() and text.isprintable():
        return text
    for run in reversed(hidden_runs(text)):
        text = text[: run.start] + "".join(_code(c) for c in run.text) + text[run.end :]
    return controls.sub(lambda m: _code(m.group()), text)


def escape(text: str) -> str:
    """`text` with every control and hidden character written as `<U+XXXX>`."""
    return _escaped(text, _CONTROLS)


def safe_message(message: str) -> str:
    """A message escaped as `escape` does, but for the newlines and tabs its rule wrote."""
    return _escaped(message, _CONTROLS_BUT_LINES)


def message_is_safe(message: str) -> bool:
    """What `safe_message` guarantees: no control character but newline and tab, no hidden character."""
    return _CONTROLS_BUT_LINES.search(message) is None and not hidden_runs(message)


def visible(text: str, limit: int = 60) -> str:
    """`text` quoted for a message: JSON-like double quotes, hidden and control characters escaped (a run of tag
    characters shown as a count), cut to about `limit` characters of the original."""
    cut = text if len(text) <= limit else text[: limit - 1]
    for run in reversed(hidden_runs(cut)):
        tags = _TAGS.search(run.text)
        count = f"<{len(run.text)} tag characters U+{ord(tags.group()[0]):04X}…>" if tags else ""
        cut = cut[: run.start] + (count or "".join(map(_code, run.text))) + cut[run.end :]
    body = _CONTROLS.sub(lambda m: _code(m.group()), cut).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"' + ("…" if len(text) > limit else "")


class SafeMessage:
    """A base for the dataclasses that carry a message to the user (diagnostics, related locations)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", safe_message(getattr(self, "message")))  # noqa: B009
