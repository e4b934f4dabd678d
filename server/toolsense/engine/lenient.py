"""What readers more lenient than JSON take: comments (blanked before `json.loads`, at unchanged offsets), and
the trailing commas VS Code's JSONC parser accepts in the files it reads as JSONC."""

from __future__ import annotations

import re


def accepts_trailing_commas(path: str | None) -> bool:
    """Whether the file's reader takes a comma before `]` or `}`: VS Code reads `.jsonc` files and those in a
    `.vscode` folder (`mcp.json`, `settings.json`) with its JSONC parser, which accepts them. Claude Desktop,
    Claude Code and other clients read plain JSON, where a trailing comma is a syntax error."""
    if path is None:
        return False
    normalized = path.replace("\\", "/")
    return normalized.endswith(".jsonc") or "/.vscode/" in normalized or normalized.startswith(".vscode/")


_COMMENT_OR_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*(?:[^*]|\*(?!/))*(?:\*/)?')
_NOT_LINE_BREAK = re.compile(rb"[^\r\n]")


def strip_comments(raw: bytes) -> bytes:
    """raw with every `//` and `/* */` comment replaced by spaces (line breaks kept): offsets do not move."""

    def blank(match: re.Match[bytes]) -> bytes:
        token = match.group()
        return token if token.startswith(b'"') else _NOT_LINE_BREAK.sub(b" ", token)

    return _COMMENT_OR_STRING.sub(blank, raw)


_STRING_OR_TRAILING_COMMA = re.compile(rb'"(?:[^"\\\n]|\\.)*"|,(?=[ \t\r\n]*[\]}])')


def lenient_json(raw: bytes) -> bytes:
    """`strip_comments`, and each comma right before a `]` or `}` replaced by a space: what a JSONC reader
    (VS Code's) takes as the value, at unchanged offsets."""
    return _STRING_OR_TRAILING_COMMA.sub(
        lambda match: match.group() if match.group().startswith(b'"') else b" ", strip_comments(raw)
    )
