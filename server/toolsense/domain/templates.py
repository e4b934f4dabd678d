"""The template language of automations, read without running anything: `{{path}}` placeholders in strings.

The runtime (nl_to_automation `resolve_template`) replaces each `{{…}}` (regex `\\{\\{([^}]+)\\}\\}`) by the value
at a dotted path, and nothing else: no Handlebars blocks, helpers, partials or Jinja tags. This module finds
every `{{`…`}}` in a decoded string with exact character spans, says what kind of thing it is, and splits a
path into segments (each with its own span, so a fix can touch one segment).

Spans are offsets in the *decoded* string (Python `str` indices); the placement layer maps them to source bytes,
escapes included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

TokenKind = Literal[
    "path",  # {{trigger_data.subject}}
    "block_open",  # {{#if x}} {{#each items}}
    "block_close",  # {{/if}}
    "else",  # {{else}} {{^}}
    "partial",  # {{> header}}
    "comment",  # {{! note}}
    "inverse",  # {{^x}}
    "raw",  # {{{x}}} or {{&x}}
    "jinja",  # {% if x %}
    "expression",  # {{x | upper}}, {{len x}}, {{a + b}}: something that is not a path
    "empty",  # {{}} {{  }}
    "unclosed",  # {{x  (no closing braces)
    "stray_close",  # x}}  (no opening braces)
]


@dataclass(frozen=True)
class Segment:
    text: str
    start: int
    """Offset in the decoded string."""
    end: int

    @property
    def is_index(self) -> bool:
        return _INDEX.fullmatch(self.text) is not None


@dataclass(frozen=True)
class Token:
    kind: TokenKind
    start: int
    end: int
    text: str
    """The token's source text, braces included."""
    inner: str = ""
    """What is between the braces, stripped."""
    inner_start: int = 0
    segments: tuple[Segment, ...] = ()
    """For `path` tokens: the dotted path split into segments."""
    single_brace: bool = False
    """For `unclosed` / `stray_close`: the other side has one brace instead of two (`{{x}`, `{x}}`)."""

    @property
    def path(self) -> str:
        return ".".join(segment.text for segment in self.segments)

    @property
    def root(self) -> str:
        return self.segments[0].text if self.segments else ""


_INDEX = re.compile(r"-?\d+")
_SEGMENT = re.compile(r"[^\s.\[\]{}|()'\"<>=!,+*/\\&^#~`;:?@%]+")
_PATH_RUN = re.compile(r"[\w.\[\]-]*")
_WORD_BEFORE = re.compile(r"[A-Za-z_][\w.\[\]-]*$")
_JINJA = re.compile(r"\{%-?\s*(.*?)\s*-?%\}", re.DOTALL)


def parse_path(text: str, offset: int = 0) -> tuple[Segment, ...] | None:
    """Split a dotted path (`a.b.0.c`, `data[0].score`, `data.-1`) into segments; None when it is not a path."""
    segments: list[Segment] = []
    i = 0
    n = len(text)
    if n == 0:
        return None
    while True:
        match = _SEGMENT.match(text, i)
        if match is None:
            return None
        segments.append(Segment(match.group(), offset + match.start(), offset + match.end()))
        i = match.end()
        while i < n and text[i] == "[":
            close = text.find("]", i)
            if close < 0 or not _INDEX.fullmatch(text[i + 1 : close]):
                return None
            segments.append(Segment(text[i + 1 : close], offset + i + 1, offset + close))
            i = close + 1
        if i == n:
            return tuple(segments)
        if text[i] != ".":
            return None
        i += 1
        if i == n:
            return None


def _classify(inner: str) -> TokenKind:
    if not inner:
        return "empty"
    first = inner[0]
    if first == "#":
        return "block_open"
    if first == "/":
        return "block_close"
    if first == ">":
        return "partial"
    if first == "!":
        return "comment"
    if first == "&" or first == "{":
        return "raw"
    if first == "^":
        return "else" if inner == "^" else "inverse"
    if inner == "else" or inner.startswith("else "):
        return "else"
    return "path" if parse_path(inner) is not None else "expression"


def _stray_closers(text: str, start: int, end: int, found: list[Token]) -> None:
    """`}}` between start and end that closes nothing and looks like the end of a template (`{x}}`, `name}}`)."""
    i = text.find("}}", start, end)
    while i >= 0:
        before = text[start:i]
        word = _WORD_BEFORE.search(before)
        if word is not None:
            word_start = start + word.start()
            lead = text[start:word_start].rstrip(" ")
            single = word_start > start and text[word_start - 1] == "{"
            after_colon = lead.endswith(":") and not single
            quoted = word_start > start and text[word_start - 1] in "\"'"
            if not after_colon and not quoted:
                begin = word_start - 1 if single else word_start
                found.append(Token("stray_close", begin, i + 2, text[begin : i + 2], single_brace=single))
        j = i + 2
        while j < end and text[j] == "}":
            j += 1
        start = j
        i = text.find("}}", start, end)


def scan(text: str) -> list[Token]:
    """Every template-like token in a decoded string, in order, with spans (never raises)."""
    tokens: list[Token] = []
    if "{" not in text and "}}" not in text:
        return tokens
    for match in _JINJA.finditer(text):
        tokens.append(Token("jinja", match.start(), match.end(), match.group(), match.group(1), match.start(1)))
    i = 0
    n = len(text)
    while i < n:
        j = text.find("{{", i)
        if j < 0:
            _stray_closers(text, i, n, tokens)
            break
        _stray_closers(text, i, j, tokens)
        if text.startswith("{{{", j):
            close = text.find("}}}", j + 3)
            following = text.find("{{", j + 3)
            if close >= 0 and (following < 0 or following >= close):
                inner_raw = text[j + 3 : close]
                inner = inner_raw.strip()
                lead = len(inner_raw) - len(inner_raw.lstrip())
                segments = parse_path(inner, j + 3 + lead) or ()
                tokens.append(Token("raw", j, close + 3, text[j : close + 3], inner, j + 3 + lead, segments))
                i = close + 3
                continue
            j += 1  # `{{{`: a literal brace, then a template
        # The runtime's template is `{{[^}]+}}`: it ends at the first `}`, which must be doubled.
        close = text.find("}", j + 2)
        following = text.find("{{", j + 2)
        if close < 0 or (0 <= following < close) or text[close + 1 : close + 2] != "}":
            run = _PATH_RUN.match(text, j + 2)
            run_end = run.end() if run else j + 2
            single = run_end < n and text[run_end] == "}"
            end = run_end + 1 if single else max(run_end, j + 2)
            tokens.append(
                Token("unclosed", j, end, text[j:end], text[j + 2 : run_end].strip(), j + 2, single_brace=single)
            )
            i = end
            continue
        inner_raw = text[j + 2 : close]
        inner = inner_raw.strip()
        lead = len(inner_raw) - len(inner_raw.lstrip())
        kind = _classify(inner)
        segments = parse_path(inner, j + 2 + lead) or () if kind in ("path", "raw") else ()
        if kind == "raw" and inner.startswith("&"):
            rest = inner[1:].lstrip()
            segments = parse_path(rest, j + 2 + lead + (len(inner) - len(rest))) or ()
        tokens.append(Token(kind, j, close + 2, text[j : close + 2], inner, j + 2 + lead, segments))
        i = close + 2
    tokens.sort(key=lambda token: token.start)
    return tokens


def has_template(text: str) -> bool:
    return "{{" in text or "{%" in text


def whole_template(text: str) -> Token | None:
    """The path token when the string is exactly one `{{path}}` (surrounding spaces allowed)."""
    if "{{" not in text:
        return None
    tokens = scan(text)
    if len(tokens) != 1 or tokens[0].kind != "path":
        return None
    token = tokens[0]
    if text[: token.start].strip() or text[token.end :].strip():
        return None
    return token


@dataclass(frozen=True)
class Builtin:
    name: str
    type: str
    description: str


BUILTINS: tuple[Builtin, ...] = (
    Builtin("today", "string (YYYY-MM-DD)", "Today's date in the user's time zone."),
    Builtin("yesterday", "string (YYYY-MM-DD)", "Yesterday's date in the user's time zone."),
    Builtin("tomorrow", "string (YYYY-MM-DD)", "Tomorrow's date in the user's time zone."),
    Builtin("two_days_ago", "string (YYYY-MM-DD)", "The date two days ago in the user's time zone."),
    Builtin("this_week_start", "string (YYYY-MM-DD)", "Monday of the current week."),
    Builtin("this_week_end", "string (YYYY-MM-DD)", "Sunday of the current week."),
    Builtin("now", "string (ISO 8601, UTC)", "The current date and time in UTC, e.g. 2026-03-01T09:00:00Z."),
    Builtin("now_minus_1h", "string (ISO 8601, UTC)", "One hour ago (for data with sync delays)."),
    Builtin("now_minus_6h", "string (ISO 8601, UTC)", "Six hours ago."),
    Builtin("now_minus_12h", "string (ISO 8601, UTC)", "Twelve hours ago."),
    Builtin("now_minus_24h", "string (ISO 8601, UTC)", "24 hours ago."),
    Builtin("today_utc", "string (YYYY-MM-DD)", "Today's date in UTC."),
    Builtin("yesterday_utc", "string (YYYY-MM-DD)", "Yesterday's date in UTC."),
    Builtin("tomorrow_utc", "string (YYYY-MM-DD)", "Tomorrow's date in UTC."),
    Builtin("today_local", "string (YYYY-MM-DD)", "Same as today (kept for older automations)."),
    Builtin("yesterday_local", "string (YYYY-MM-DD)", "Same as yesterday (kept for older automations)."),
    Builtin("tomorrow_local", "string (YYYY-MM-DD)", "Same as tomorrow (kept for older automations)."),
)
BUILTIN_BY_NAME = {builtin.name: builtin for builtin in BUILTINS}

USER_FIELDS: dict[str, str] = {
    "id": "The user's id.",
    "email": "The user's email address.",
    "name": "The user's name (when known).",
    "phone": "The user's phone number (when known).",
    "timezone": "The user's IANA time zone, e.g. 'Europe/Paris'.",
}
"""`{{user.<field>}}`: the automation owner's profile, always available."""

TRIGGER_DATA = "trigger_data"
USER = "user"
RESERVED_ROOTS = frozenset({TRIGGER_DATA, USER})
