"""File text inside hover Markdown, shown as text and never rendered.

A description, a name or a value comes from a file someone else wrote. Put into Markdown as it is, an image
(`![](https://…)`) is fetched when the user hovers (a beacon from an editor that never touches the network), and
links, headings, tables and emphasis can dress the hover up as toolsense's own verdict. So file text is either
escaped (`text`: every ASCII punctuation character Markdown reads, and `<` for HTML, behind a backslash, which a
renderer drops) or shown as code (`code`: a code span whose fence no backtick in the text can close).
"""

from __future__ import annotations

import re

_MARKUP = re.compile(r"([\\`*{}\[\]()#!|<>~&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
"""The ASCII punctuation that makes Markdown (CommonMark, GFM tables and strikethrough, HTML, entities) anywhere
in a line (`_` only at a word's edge: `get_weather` emphasises nothing); CommonMark lets each be escaped with a
backslash."""
_LINE_START = re.compile(r"^([ \t]*)([-+=]|\d+[.)])", re.MULTILINE)
"""What makes a list, a rule or a heading underline only at a line's start."""
_AUTOLINK = re.compile(r"(?<=\w)(:)(?=//)|(?<=www)(\.)", re.IGNORECASE)
"""The `://` and `www.` that GFM turns into a link by themselves."""


def text(value: str) -> str:
    """`value` as literal Markdown text: no image, link, heading, list, emphasis, table, HTML or autolink."""
    escaped = _MARKUP.sub(r"\\\1", value)
    escaped = _LINE_START.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], escaped)
    return _AUTOLINK.sub(lambda m: "\\" + m.group(), escaped)


def code(value: str) -> str:
    """`value` as an inline code span: its fence is longer than any run of backticks in it, so it cannot end
    early; newlines are spaces in a code span."""
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    padded = f" {value} " if value.startswith("`") or value.endswith("`") or not value.strip() else value
    return f"{fence}{padded}{fence}"


_PLAIN = re.compile(r"\\([!-/:-@\[-`{-~])|\*\*|`|\n---\n")


def plain(markdown: str) -> str:
    """Hover Markdown for a client that shows plain text: emphasis and code marks dropped, escaped characters as
    themselves."""
    return _PLAIN.sub(lambda m: m.group(1) or ("\n" if m.group() == "\n---\n" else ""), markdown)
