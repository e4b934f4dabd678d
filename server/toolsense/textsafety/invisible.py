"""Which characters of a text are invisible, and which of those legitimate text needs (the rules, the message
escaping and the diagnostics all ask).

Invisible: Unicode tag characters (U+E0000–U+E007F, which spell ASCII no one sees), zero-width characters, bidi
controls and the other default-ignorable code points. Legitimate, never reported nor escaped, judged from Unicode's
own data (the `emoji` package's RGI list, `unicodedata`, the `regex` module's Line_Break property):
- what an RGI emoji sequence holds: the joiners of 👩‍💻 and 🙂‍↔️, the tags of 🏴 England, a keycap's selector;
- a zero-width joiner between two emoji (a sequence newer than the list);
- a zero-width (non-)joiner between two letters of a joining script (Persian می‌خواهم, Hindi, Bengali…);
- one zero-width space between two letters of a script written without spaces (Thai, Khmer, Lao, Myanmar:
  Line_Break=SA), where it separates words;
- one bidi mark (LRM, RLM, ALM; not an override or isolate) in a text with right-to-left letters;
- one soft hyphen inside a word (a hyphenation point: Donau\u00addampf);
- one variation selector after an emoji (❤️, text style ✔︎), a math symbol or letter with standardized variants
  (≩︀), or an ideograph (葛󠄀) — but a text with more than `MAX_VARIANTS` of the last two carries data (one selector
  per byte is the "emoji smuggling" encoding), and two in a row are never text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
)
"""The default-ignorable code points (the bidi controls among them), as the body of a regex character class:
the one list the rules (TS290), the message policy (`messages`) and the output policy (`output`) use."""
CONTROL_CHARS = "\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff"
"""C0 and C1 controls, DEL, the line and paragraph separators and lone surrogates, likewise as a class body."""
INVISIBLE = re.compile(f"[{INVISIBLE_CHARS}]+")
"""Runs of default-ignorable code points."""

_ZWNJ, _ZWJ, _ZWSP, _SHY = "\u200c", "\u200d", "\u200b", "\u00ad"
_BIDI_MARKS = "\u200e\u200f\u061c"
_PRESENTATION = "\ufe0e\ufe0f"
"""Text and emoji presentation selectors: after an emoji they choose how it is drawn, and carry no data."""
_KEYCAP = "\u20e3"
_NO_SPACES = r"\p{Line_Break=SA}"
"""Letters of the scripts written without spaces between words (Thai, Lao, Khmer, Myanmar, Tai Tham…)."""
MAX_VARIANTS = 4
"""Variation sequences of symbols and ideographs one text may hold (a name or two written with its registered
glyph); more are read as smuggled bytes, one selector each."""
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
    if char in _BIDI_MARKS or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
        return "bidi controls"
    if char in "\u200b\u200c\u200d\u2060\ufeff":
        return "zero-width characters"
    if is_selector(char):
        return "variation selectors"
    return "invisible characters"


def is_selector(char: str) -> bool:
    """A variation selector: VS1–VS16 (U+FE00–FE0F) or VS17–VS256 (U+E0100–E01EF)."""
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF


def _emoji(char: str) -> bool:
    """An emoji character, or one with an emoji presentation (the RGI list)."""
    import emoji  # on first use: its data takes a fifth of a second to import, and most text needs none

    return char in emoji.EMOJI_DATA or char + "\ufe0f" in emoji.EMOJI_DATA


def _joining_letter(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _JOINING_SCRIPTS) and unicodedata.category(char)[0] in "LM"


def _ideograph(char: str) -> bool:
    return unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH")


_EMOJI_INSIDES = re.compile("[\u200d\U000e0020-\U000e007f]")
"""What only an emoji sequence explains (a joiner, a flag's tags): runs without one are judged without the list."""
_LONGEST_EMOJI = 12
"""Code points of the longest RGI emoji sequence, and some (a kiss with two skin tones has 10): the window around
a run in which the sequence holding it lies."""


class _Text:
    """One text and what judging its invisible characters needs, each read once and only when asked."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._right_to_left: bool | None = None
        self._no_spaces: Any = None

    def in_emoji(self, start: int, end: int) -> bool:
        """Whether [start, end) lies inside one RGI emoji sequence: some slice around it, starting at an emoji and
        at most `_LONGEST_EMOJI` long, is one (dictionary look-ups only, so each run costs a bounded amount)."""
        import emoji

        data, text = emoji.EMOJI_DATA, self.text
        if end - start >= _LONGEST_EMOJI:
            return False
        for first in range(start - 1, max(-1, start - _LONGEST_EMOJI), -1):
            if not _emoji(text[first]):
                continue
            last = min(len(text), first + _LONGEST_EMOJI)
            if any(text[first:stop] in data for stop in range(end, last + 1)):
                return True
        return False

    def no_spaces(self, char: str) -> bool:
        """A letter of a script written without spaces between words (Line_Break=SA)."""
        if self._no_spaces is None:
            import regex  # type: ignore[import-untyped]  # Unicode's Line_Break property, which `re` does not know

            self._no_spaces = regex.compile(_NO_SPACES)
        return self._no_spaces.match(char) is not None

    @property
    def right_to_left(self) -> bool:
        if self._right_to_left is None:
            self._right_to_left = any(c.isalpha() and unicodedata.bidirectional(c) in ("R", "AL") for c in self.text)
        return self._right_to_left


_TEXT, _VARIANT, _HIDDEN = "text", "variant", "hidden"


def _judged(text: _Text, start: int, end: int) -> str:
    """Text (legitimate), a variant (legitimate alone, data in numbers) or hidden. The characters ordinary text
    of other languages needs are judged first: they need no emoji data."""
    whole = text.text
    run = whole[start:end]
    before = whole[start - 1] if start > 0 else ""
    after = whole[end] if end < len(whole) else ""
    if not before:
        return _HIDDEN
    if run == _ZWSP:
        return _TEXT if after and text.no_spaces(before) and text.no_spaces(after) else _HIDDEN
    if run in _BIDI_MARKS:
        return _TEXT if text.right_to_left else _HIDDEN
    if run == _SHY:
        return _TEXT if after and before.isalpha() and after.isalpha() else _HIDDEN
    if run in (_ZWJ, _ZWNJ) and after and _joining_letter(before) and _joining_letter(after):
        return _TEXT
    if before in "0123456789#*":
        return _TEXT if run in _PRESENTATION and after == _KEYCAP else _HIDDEN
    emoji_before = _emoji(before)
    if run == _ZWJ and after and (emoji_before or before in _PRESENTATION) and _emoji(after):
        return _TEXT
    if run in _PRESENTATION:
        return _TEXT if emoji_before else _HIDDEN
    if (emoji_before or before in _PRESENTATION) and _EMOJI_INSIDES.search(run) and text.in_emoji(start, end):
        return _TEXT  # a flag's tags, or joiners and selectors together, inside an RGI sequence
    if len(run) != 1 or not is_selector(run):
        return _HIDDEN
    if ord(run) <= 0xFE0D:  # standardized variants: math symbols, and letters of Myanmar, Phags-pa, CJK…
        return _VARIANT if unicodedata.category(before) in ("Sm", "Lo") and not before.isascii() else _HIDDEN
    return _VARIANT if _ideograph(before) else _HIDDEN  # ideographic variation sequences


def hidden_runs(text: str) -> list[HiddenRun]:
    """The runs of invisible characters in text that no legitimate text needs."""
    if text.isascii():
        return []
    judged = _Text(text)
    runs: list[HiddenRun] = []
    variants: list[HiddenRun] = []
    for match in INVISIBLE.finditer(text):
        start, end = match.span()
        # a legitimate ZWJ can sit inside a run only as its whole; a variation selector may end an emoji then a
        # ZWJ follows (❤️‍🔥): judge each character's own neighbourhood
        verdict = _judged(judged, start, end)
        pieces = [(start, end, verdict)] if verdict != _HIDDEN else _split(judged, start, end)
        for piece_start, piece_end, piece_verdict in pieces:
            piece = HiddenRun(piece_start, piece_end, text[piece_start:piece_end])
            if piece_verdict == _HIDDEN:
                runs.append(piece)
            elif piece_verdict == _VARIANT:
                variants.append(piece)
    if len(variants) > MAX_VARIANTS:
        runs = sorted(runs + variants, key=lambda run: run.start)
    return _merged(runs)


def _split(text: _Text, start: int, end: int) -> list[tuple[int, int, str]]:
    if text.text[start] in _PRESENTATION and end - start == 2 and text.text[start + 1] == _ZWJ:
        return [(start, start + 1, _judged(text, start, start + 1)), (start + 1, end, _judged(text, start + 1, end))]
    return [(start, end, _HIDDEN)]


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


def spelling(runs: list[HiddenRun]) -> str:
    """What the runs spell: their tag characters, else their variation selectors read as one byte each (the
    256-selector encoding), when those bytes are printable UTF-8; empty otherwise."""
    tags = "".join(spelled(run) for run in runs)
    if tags.strip():
        return tags
    data = bytes(_selector_byte(c) for run in runs for c in run.text if is_selector(c))
    decoded = data.decode("utf-8", "replace")
    return decoded if len(decoded) > 1 and decoded.isprintable() and decoded.strip() else ""


def _selector_byte(char: str) -> int:
    code = ord(char)
    return code - 0xFE00 if code <= 0xFE0F else code - 0xE0100 + 16


def tag_spelling(text: str) -> str:
    """What a run of tag characters spells: each tag U+E00xx stands for the ASCII character 0xxx."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)
