"""The two policies of `toolsense.textsafety`, side by side on the same text: a message keeps what legitimate text
needs (an emoji's joiner, a flag's tag characters, a Persian zero-width non-joiner), output escapes all of it; both
escape what only hides (a tag-character payload, a bidi override) and every control character."""

from __future__ import annotations

import pytest

from toolsense import textsafety
from toolsense.textsafety import escape_controls, safe_message

DEVELOPER = "👩\u200d💻"
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
PERSIAN = "می\u200cخواهم"


@pytest.mark.parametrize(
    ("text", "output"),
    [
        (DEVELOPER, "👩<U+200D>💻"),
        (ENGLAND, "🏴<U+E0067><U+E0062><U+E0065><U+E006E><U+E0067><U+E007F>"),
        (PERSIAN, "می<U+200C>خواهم"),
    ],
)
def test_a_message_keeps_legitimate_sequences_and_output_escapes_them(text: str, output: str) -> None:
    assert safe_message(f"name {text}") == f"name {text}"
    assert escape_controls(f"name {text}") == f"name {output}"


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("read\U000e0069\U000e0067", "read<U+E0069><U+E0067>"),  # tag characters after a letter: a payload
        ("abc\u202edef", "abc<U+202E>def"),  # a bidi override
        ("line\x1b[2Kgone", "line<U+001B>[2Kgone"),  # an ESC sequence
    ],
)
def test_both_policies_escape_what_only_hides(text: str, escaped: str) -> None:
    assert safe_message(text) == escaped
    assert escape_controls(text) == escaped


def test_a_message_keeps_its_own_line_breaks_and_output_does_not() -> None:
    assert safe_message("first\nsecond\tthird") == "first\nsecond\tthird"
    assert escape_controls("first\nsecond\tthird") == "first<U+000A>second<U+0009>third"


def test_the_policies_are_the_named_modules() -> None:
    assert textsafety.safe_message is textsafety.messages.safe_message
    assert textsafety.escape_controls is textsafety.output.escape_controls
