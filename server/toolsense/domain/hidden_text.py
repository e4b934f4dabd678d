"""Confusable tool names: a name that mixes scripts (Latin with Cyrillic or Greek letters that look like Latin
ones), or uses fullwidth forms, reads as one name and is another. (Invisible characters: `textsafety.invisible`.)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

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
