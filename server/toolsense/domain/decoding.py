"""A text as the model may read it (TS292, TS293): hidden characters spelled or dropped, NFKC and look-alike
letters folded (small capitals from their Unicode names), and base64 / hex / percent / HTML-entity / `\\u`
encodings decoded. Each decoding runs only where the text holds what it decodes: an ASCII text of plain words costs
one pass."""

from __future__ import annotations

import base64
import binascii
import html
import re
import unicodedata
from collections.abc import Callable
from urllib.parse import unquote

from ..textsafety import INVISIBLE, tag_spelling
from .hidden_text import CONFUSABLE_LETTERS

_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{20,}={0,2}")
_HEX = re.compile(r"\b[0-9a-fA-F]{2}(?: ?[0-9a-fA-F]{2}){11,}\b")
"""Twelve bytes or more of hex, written together or spaced (`bytes.fromhex` reads both)."""
_ENCODED = (
    re.compile(r"[A-Za-z0-9+/_-]{20}"),
    re.compile(r"[0-9a-fA-F][0-9a-fA-F] [0-9a-fA-F][0-9a-fA-F] [0-9a-fA-F]"),
)
"""What any base64 or hex run holds: the tests before looking for them (a long hex run is a base64 run too; two
simple searches cost less than one alternation)."""
_ESCAPED = re.compile(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})")


def _printable(data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(ch.isalpha() or ch.isspace() for ch in text)
    # words apart: by spaces, or by newlines or tabs (which `judge` reads as spaces)
    return text if text and letters >= 0.75 * len(text) and any(ch.isspace() for ch in text) else None


def decoded_forms(text: str) -> list[str]:
    """The text as written, then as the model may read it: hidden characters spelled or dropped, folded, and each
    encoded run decoded. Each decoding runs only where the text has what it decodes."""
    forms = [text]
    if text.isascii():
        plain = folded = text  # no tag or invisible character, NFKC and the look-alike folding change nothing
    else:
        spelled = tag_spelling(text)
        if spelled.strip():
            forms.append(spelled)
        plain = unicodedata.normalize("NFKC", INVISIBLE.sub("", text))
        folded = plain.translate(_LOOK_ALIKES)
    forms.append(folded)
    for marker, decode in _DECODERS:
        if marker in plain and (candidate := decode(plain)) != plain:
            forms.append(candidate)
    if len(plain) >= 20 and any(test.search(plain) is not None for test in _ENCODED):
        for match in _BASE64.finditer(plain):
            token = match.group()
            try:
                raw = base64.b64decode(
                    token + "=" * (-len(token) % 4), altchars=b"-_" if "-" in token or "_" in token else None
                )
            except (binascii.Error, ValueError):
                continue
            if (found := _printable(raw)) is not None:
                forms.append(found)
        for match in _HEX.finditer(plain):
            if (found := _printable(bytes.fromhex(match.group()))) is not None:
                forms.append(found)
    return list(dict.fromkeys(forms))


def _unescape(match: re.Match[str]) -> str:
    return chr(int(match.group(1) or match.group(2), 16))


def _small_capitals() -> dict[str, str]:
    """Small capitals (ɪɢɴᴏʀᴇ): letters a model reads as the plain ones, which NFKC leaves as they are. From the
    Unicode names of the IPA, phonetic and Latin extension blocks (`LATIN LETTER SMALL CAPITAL I`)."""
    found: dict[str, str] = {}
    for block in ((0x0250, 0x02B0), (0x1D00, 0x1D80), (0xA720, 0xA800), (0x1DF00, 0x1E000)):
        for code in range(*block):
            name = unicodedata.name(chr(code), "")
            letter = name.removeprefix("LATIN LETTER SMALL CAPITAL ")
            if letter != name and len(letter) == 1:
                found[chr(code)] = letter.lower()
    return found


_LOOK_ALIKES = str.maketrans({**CONFUSABLE_LETTERS, **_small_capitals()})
_DECODERS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("&", html.unescape),
    ("%", unquote),
    ("\\", lambda text: _ESCAPED.sub(_unescape, text)),
)
"""Each decoding, and the character without which it changes nothing."""
