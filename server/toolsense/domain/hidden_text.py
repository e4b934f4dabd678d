"""Invisible and deceptive characters in the text a model reads, with what legitimate text needs left alone.

Invisible: Unicode tag characters (U+E0000–U+E007F, which spell ASCII no one sees), zero-width characters, bidi
controls and the other default-ignorable code points. Legitimate, never reported:
- a zero-width joiner between two emoji (family and profession sequences: 👩‍💻);
- the tag sequence of a subdivision flag: U+1F3F4, lowercase letters and digits as tags, U+E007F (🏴 England);
- a zero-width (non-)joiner between two letters of a joining script (Persian می‌خواهم, Hindi, Bengali…);
- one variation selector after a symbol, an emoji or an ideograph (❤️, 1️⃣, 葛󠄀); two in a row are not text
  (they are how data is smuggled behind an emoji).

Confusable tool names: a name that mixes scripts (Latin with Cyrillic or Greek letters that look like Latin
ones), or uses fullwidth forms, reads as one name and is another.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..visible_text import tag_spelling

INVISIBLE = re.compile(
    "["
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
    "]+"
)
"""Runs of default-ignorable code points (the bidi controls among them)."""

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


# --- confusable names ------------------------------------------------------------------------------------------

CONFUSABLE_LETTERS = {
    # Cyrillic
    "а": "a", "в": "B", "е": "e", "к": "k", "м": "M", "н": "H", "о": "o", "р": "p", "с": "c", "т": "T", "у": "y",
    "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J",
    # Greek
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u", "χ": "x",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    # Latin look-alikes outside ASCII
    "ı": "i", "ℓ": "l", "ⅰ": "i", "ⅼ": "l",
}  # fmt: skip
"""Letters that look like an ASCII letter (a subset of Unicode's confusables, for identifiers)."""


@dataclass(frozen=True)
class Confusable:
    """A name that reads as `looks_like` but is spelt with `characters` (code point, Unicode name)."""

    looks_like: str
    characters: tuple[tuple[str, str], ...]
    scripts: tuple[str, ...]


def _script(char: str) -> str:
    try:
        return unicodedata.name(char).split()[0]
    except ValueError:
        return "UNKNOWN"


def confusable(name: str) -> Confusable | None:
    """How `name` deceives, when it mixes scripts or uses look-alike or fullwidth letters; None when it does not."""
    if name.isascii():
        return None
    letters = [c for c in name if c.isalpha()]
    scripts = sorted({_script(c) for c in letters})
    latin = "LATIN" in scripts
    odd: list[str] = []
    skeleton: list[str] = []
    for char in name:
        folded = unicodedata.normalize("NFKC", char)
        if 0xFF01 <= ord(char) <= 0xFF5E or (char in CONFUSABLE_LETTERS and (latin or len(scripts) > 1)):
            odd.append(char)
            skeleton.append(folded if folded.isascii() and folded != char else CONFUSABLE_LETTERS.get(char, folded))
        elif char.isalpha() and latin and _script(char) not in ("LATIN",) and len(scripts) > 1:
            odd.append(char)
            skeleton.append(char)
        else:
            skeleton.append(char)
    if not odd:
        return None
    shown = tuple(dict.fromkeys((f"U+{ord(c):04X}", unicodedata.name(c, "?")) for c in odd))
    return Confusable("".join(skeleton), shown, tuple(scripts))
