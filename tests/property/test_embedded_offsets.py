"""Every character of a JSON string's decoded text maps back to where the file spells it, through any mix of raw
characters and escapes (`\\"`, `\\n`, `\\/`, `\\u00e9`, surrogate pairs, lone surrogates)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from propkit import EXAMPLES

from toolsense.document.document import new_parser
from toolsense.document.embedded import Embedding

PIECES = ["a", "é", "東", "😀", '"', "\\", "/", "\n", "\t", "\x01", "\ud800", "\udc00", "{", " "]


def _spelled(text: str, ascii_only: bool, slash: bool) -> bytes:
    token = json.dumps(text, ensure_ascii=ascii_only)
    if slash:
        token = token.replace("/", "\\/")  # JSON allows an escaped solidus; json.dumps never writes one
    return token.encode("utf-8", "surrogatepass")


def _reference(token: bytes) -> list[int]:
    """Where each decoded character starts in the token, read independently of the code under test."""
    starts: list[int] = []
    at = 1
    while at < len(token) - 1:
        starts.append(at)
        if token[at] == 0x5C:  # a backslash
            if token[at + 1 : at + 2] == b"u":
                code = int(token[at + 2 : at + 6], 16)
                pair = 0xD800 <= code < 0xDC00 and token[at + 6 : at + 8] == b"\\u"
                pair = pair and 0xDC00 <= int(token[at + 8 : at + 12], 16) < 0xE000
                at += 12 if pair else 6
            else:
                at += 2
        else:
            first = token[at]
            at += 1 if first < 0x80 else 2 if first < 0xE0 else 3 if first < 0xF0 else 4
    starts.append(at)  # the closing quote
    return starts


@settings(max_examples=EXAMPLES or 300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.booleans(), st.booleans(), st.integers(0, 50))
def test_each_character_maps_to_its_spelling(pieces: list[str], ascii_only: bool, slash: bool, base: int) -> None:
    text = "".join(pieces)
    token = _spelled(text, ascii_only, slash)
    decoded = json.loads(token)
    embedding = Embedding(token, base, decoded, new_parser)
    expected = _reference(token)
    offsets = [len(decoded[:k].encode("utf-8", "surrogatepass")) for k in range(len(decoded) + 1)]
    assert len(expected) == len(offsets)
    assert [embedding.outer(offset) - base for offset in offsets] == expected
    assert [embedding.outer(offset, end=True) - base for offset in offsets] == expected
