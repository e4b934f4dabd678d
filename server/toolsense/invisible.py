"""Which characters of a text are invisible, and which of those legitimate text needs (no dependencies: the
rules, the message escaping and the diagnostics all ask).

Invisible: Unicode tag characters (U+E0000–U+E007F, which spell ASCII no one sees), zero-width characters, bidi
controls and the other default-ignorable code points. Legitimate, never reported nor escaped:
- a zero-width joiner between two emoji (family and profession sequences: 👩‍💻);
- the tag sequence of a subdivision flag: U+1F3F4, lowercase letters and digits as tags, U+E007F (🏴 England);
- a zero-width (non-)joiner between two letters of a joining script (Persian می‌خواهم, Hindi, Bengali…);
- one variation selector after a symbol, an emoji or an ideograph (❤️, 1️⃣, 葛󠄀); two in a row are not text
  (they are how data is smuggled behind an emoji).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
)
"""The default-ignorable code points (the bidi controls among them), as the body of a regex character class:
the one list the rules (TS290), the message escaping (`visible_text`) and the output escaping (`textsafety`) use."""
CONTROL_CHARS = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"
"""C0 and C1 controls, DEL, the line and paragraph separators and lone surrogates, likewise as a class body."""
INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]+")
"""Runs of default-ignorable code points."""

_ZWNJ, _ZWJ = "\u200c", "\u200d"
_BLACK_FLAG, _CANCEL_TAG = "\U0001f3f4", "\U000e007f"
_SUBDIVISION = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{2,7}\U000e007f")
_KEYCAP = "\u20e3"
_JOINING_SCRIPTS = (
    (0x0590, 0x08FF),  # Hebrew, Arabic, Syriac, Thaana, N'Ko, Arabic supplements
    (0x0900, 0x0DFF),  # Devanagari … Sinhala
    (0x0F00, 0x109F),  # Tibetan, Myanmar
    (0x1780, 0x18AF),  # Khmer, Mongolian
    (0xA8E0, 0xA8FF),  # Devanagari extended
    (0xFB1D, 0xFDFF),  # Hebrew and Arabic presentation forms
    (0xFE70, 0xFEFC),
)


@dataclass(frozen=True)
class HiddenRun:
    """Invisible characters [start, end) of a string."""

    start: int
    end: int
    text: str

    @property
    def kinds(self) -> list[str]:
        return sorted({kind_of(c) for c in self.text})


def kind_of(char: str) -> str:
    code = ord(char)
    if 0xE0000 <= code <= 0xE007F:
        return "tag characters"
    if char in "\u200e\u200f\u061c" or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return "bidi controls"
    if char in "\u200b\u200c\u200d\u2060\ufeff":
        return "zero-width characters"
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return "variation selectors"
    return "invisible characters"


def _emoji_like(char: str) -> bool:
    code = ord(char)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2B00 <= code <= 0x2BFF
        or char in "\ufe0f\u2640\u2642\u2695\u2696\u2708\u2764"
        or 0x1F3FB <= code <= 0x1F3FF
    )


def _joining_letter(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _JOINING_SCRIPTS) and unicodedata.category(char)[0] in "LM"


def _legitimate(text: str, start: int, end: int) -> bool:
    run = text[start:end]
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    if run == _ZWJ and before and after and _emoji_like(before) and _emoji_like(after):
        return True
    if run in (_ZWJ, _ZWNJ) and before and after and _joining_letter(before) and _joining_letter(after):
        return True
    if before == _BLACK_FLAG and _SUBDIVISION.fullmatch(run):
        return True
    if len(run) == 1 and (0xFE00 <= ord(run) <= 0xFE0F or 0xE0100 <= ord(run) <= 0xE01EF) and before:
        if before in "0123456789#*":
            return after == _KEYCAP
        return ord(before) > 0x7F and not INVISIBLE.fullmatch(before)
    return False


def hidden_runs(text: str) -> list[HiddenRun]:
    """The runs of invisible characters in text that no legitimate text needs."""
    if text.isascii():
        return []
    runs: list[HiddenRun] = []
    for match in INVISIBLE.finditer(text):
        start, end = match.span()
        # a legitimate ZWJ can sit inside a run only as its whole; a variation selector may end an emoji then a
        # ZWJ follows (❤️‍🔥): judge each character's own neighbourhood
        pieces = [(start, end)] if _legitimate(text, start, end) else _split(text, start, end)
        for piece_start, piece_end in pieces:
            if not _legitimate(text, piece_start, piece_end):
                runs.append(HiddenRun(piece_start, piece_end, text[piece_start:piece_end]))
    return _merged(runs)


def _split(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if text[start] in "\ufe0f\ufe0e" and end - start == 2 and text[start + 1] == _ZWJ:
        return [(start, start + 1), (start + 1, end)]
    return [(start, end)]


def _merged(runs: list[HiddenRun]) -> list[HiddenRun]:
    merged: list[HiddenRun] = []
    for run in runs:
        if merged and merged[-1].end == run.start:
            last = merged.pop()
            run = HiddenRun(last.start, run.end, last.text + run.text)
        merged.append(run)
    return merged


def without_hidden(text: str) -> str:
    """`text` with the reported invisible characters removed (what the quick fix writes)."""
    runs = hidden_runs(text)
    for run in reversed(runs):
        text = text[: run.start] + text[run.end :]
    return text


def spelled(run: HiddenRun) -> str:
    """What the tag characters of a run spell (empty when it has none)."""
    return tag_spelling(run.text)


def tag_spelling(text: str) -> str:
    """What a run of tag characters spells: each tag U+E00xx stands for the ASCII character 0xxx."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)
