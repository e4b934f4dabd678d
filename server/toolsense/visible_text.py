"""File text quoted in a message, made visible: no invisible or control character ever reaches a message.

A tool's text is written by someone else. Quoted raw, Unicode tag characters (U+E0000–U+E007F) would carry a
hidden instruction into the terminal, JSON, SARIF and pull-request annotations; zero-width and bidi characters
would hide or reorder what a reviewer reads; a newline would start a line (or a GitHub workflow command) of its
own. Here each such character is written `U+XXXX`, and a run of tag characters also says what it spells.

(The CLI's output formats escape once more on the way out; this module is about the text a rule builds.)
"""

from __future__ import annotations

import re

UNSAFE = re.compile(
    "["
    "\x00-\x1f\x7f-\x9f"  # C0 and C1 controls, DEL
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"  # soft hyphen, grapheme joiner, fillers, Mongolian
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f"  # zero-width, LRM/RLM, line separators, bidi, invisible operators
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"  # Hangul filler, variation selectors, BOM, annotations
    "\ud800-\udfff"  # lone surrogates (from JSON `\\ud800`)
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"  # format controls of other scripts
    "\U000e0000-\U000e0fff"  # tag characters, variation selectors 17-256
    "]"
)
"""Every character a message must not carry raw: controls, default-ignorable and bidi characters."""

TAGS = re.compile("[\U000e0000-\U000e007f]+")


def tag_spelling(text: str) -> str:
    """What a run of tag characters spells: each tag U+E00xx stands for the ASCII character 0xxx."""
    return "".join(chr(ord(c) - 0xE0000) for c in text if 0xE0020 <= ord(c) <= 0xE007E)


def escape(text: str) -> str:
    """`text` with every unsafe character written as `U+XXXX` (surrounded by spaces where it sits in a word)."""
    return UNSAFE.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def visible(text: str, limit: int = 60) -> str:
    """`text` quoted for a message: JSON-like double quotes, unsafe characters escaped, runs of tag characters
    shown as a count plus what they spell, cut to about `limit` characters of the original."""
    cut = text if len(text) <= limit else text[: limit - 1]
    parts: list[str] = []
    last = 0
    for match in TAGS.finditer(cut):
        parts.append(escape(cut[last : match.start()]))
        run = match.group()
        parts.append(f"<{len(run)} tag characters U+{ord(run[0]):04X}…>")
        last = match.end()
    parts.append(escape(cut[last:]))
    body = "".join(parts).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"' + ("…" if cut is not text else "")


def is_safe(text: str) -> bool:
    """Whether a message may show `text` as it is."""
    return UNSAFE.search(text) is None
