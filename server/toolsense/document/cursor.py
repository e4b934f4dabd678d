"""What is at the cursor: a small token scan that survives half-typed JSON.

tree-sitter's tree loses the path at the cursor in text like `{"a": {"b": "x` or a missing comma; scanning
tokens from the start of the enclosing unit (a tool, an automation) recovers the path, whether the cursor is on
a key or a value, and the partial token, in well under a millisecond.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .jsontree import Pointer, PointerPart

Slot = Literal["key", "value", "none"]

_MAX_FORWARD = 256 * 1024


@dataclass
class _Frame:
    kind: Literal["object", "array"]
    part: PointerPart | None
    """Where this container sits in its parent (None at the top, or after a key-less `{`). Pointers are built
    once at the end from these parts: storing a whole pointer per frame is quadratic in the nesting depth."""
    key: str | None = None
    index: int = 0
    expecting: Literal["key", "colon", "value", "comma"] = "key"
    keys: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CursorContext:
    """The cursor's place in the JSON: `pointer` is the value's pointer (for a value slot) or the object's."""

    slot: Slot
    pointer: Pointer
    container: Literal["object", "array", "none"]
    partial: str
    replace_start: int
    replace_end: int
    in_string: bool
    existing_keys: frozenset[str]
    string_start: int | None = None

    @property
    def key(self) -> PointerPart | None:
        return self.pointer[-1] if self.slot == "value" and self.pointer else None


def _skip_string(data: bytes | bytearray, start: int, limit: int) -> tuple[int, bool]:
    """Index just after the string starting at start (a quote); False when it is unterminated before limit."""
    i = start + 1
    while i < limit:
        byte = data[i]
        if byte == 0x5C:
            i += 2
            continue
        if byte == 0x22:
            return i + 1, True
        if byte in (0x0A, 0x0D):
            return i, False
        i += 1
    return limit, False


def _decode_string(raw: bytes | bytearray) -> str:
    import json

    text = raw.decode("utf-8", "replace")
    try:
        value = json.loads(text if text.endswith('"') and len(text) > 1 else text + '"')
    except ValueError:
        return text.strip('"')
    return value if isinstance(value, str) else text


def _child_part(frame: _Frame) -> PointerPart | None:
    """The part of the value about to start in frame: its index, or its key (None without one)."""
    return frame.index if frame.kind == "array" else frame.key


def _pointer(base: Pointer, stack: list[_Frame]) -> Pointer:
    return (*base, *(frame.part for frame in stack if frame.part is not None))


def cursor_context(data: bytes | bytearray, scan_start: int, base: Pointer, offset: int) -> CursorContext:
    """Scan tokens from scan_start (the start of a JSON value whose pointer is base) up to offset."""
    stack: list[_Frame] = []
    i = scan_start
    limit = min(offset, len(data))
    top_done = False
    token_start: int | None = None
    token_string = False
    while i < limit:
        byte = data[i]
        if byte in b" \t\r\n":
            i += 1
            continue
        if byte == 0x2F and i + 1 < len(data) and data[i + 1] in b"/*":
            if data[i + 1] == 0x2F:
                end = data.find(b"\n", i)
                i = len(data) if end < 0 else end
            else:
                end = data.find(b"*/", i + 2)
                i = len(data) if end < 0 else end + 2
            if i > limit:
                return CursorContext("none", base, "none", "", offset, offset, False, frozenset())
            continue
        frame = stack[-1] if stack else None
        if byte in b"{[":
            part = _child_part(frame) if frame else None
            if frame is not None:
                frame.expecting = "comma"
            elif top_done:
                break
            stack.append(_Frame("object" if byte == 0x7B else "array", part))
            if byte == 0x5B:
                stack[-1].expecting = "value"
            i += 1
            continue
        if byte in b"}]":
            if stack:
                stack.pop()
                if not stack:
                    top_done = True
            i += 1
            continue
        if byte == 0x3A:
            if frame and frame.kind == "object":
                frame.expecting = "value"
            i += 1
            continue
        if byte == 0x2C:
            if frame:
                if frame.kind == "array":
                    frame.index += 1
                    frame.expecting = "value"
                else:
                    frame.expecting = "key"
                    frame.key = None
            i += 1
            continue
        if byte == 0x22:
            end, closed = _skip_string(data, i, len(data))
            if not closed or end > limit:
                token_start, token_string = i, True
                break
            if frame and frame.kind == "object" and frame.expecting in ("key", "comma"):
                # A string where a comma was expected: a missing comma; treat it as the next key.
                frame.key = _decode_string(data[i:end])
                frame.keys.append(frame.key)
                frame.expecting = "colon"
            elif frame:
                frame.expecting = "comma"
            i = end
            continue
        # A bare word: number, true/false/null, or garbage (a lone `/` too: always consume the first byte, or a
        # `/` that starts no comment would loop here forever).
        start = i
        i += 1
        while i < len(data) and data[i] not in b' \t\r\n,:{}[]"/':
            i += 1
        if i >= limit and (i > limit or offset == i):
            token_start, token_string = start, False
            break
        if frame and frame.kind == "object" and frame.expecting in ("key", "comma"):
            frame.key = data[start:i].decode("utf-8", "replace")
            frame.expecting = "colon"
        elif frame:
            frame.expecting = "comma"
    frame = stack[-1] if stack else None
    if frame is None:
        return CursorContext("value" if not top_done else "none", base, "none", "", offset, offset, False, frozenset())

    in_string = token_string
    partial = ""
    replace_start = replace_end = offset
    if token_start is not None:
        replace_start = token_start
        if token_string:
            end, closed = _skip_string(data, token_start, len(data))
            replace_end = end if closed else max(end, offset)
            partial = _decode_string(data[token_start:offset])
        else:
            end = token_start + 1  # the first byte is part of the word (the scan above consumed it too)
            while end < len(data) and data[end] not in b' \t\r\n,:{}[]"/':
                end += 1
            replace_end = end
            partial = data[token_start:offset].decode("utf-8", "replace")

    container = _pointer(base, stack)
    if frame.kind == "array":
        slot: Slot = "value"
        pointer: Pointer = (*container, frame.index)
    elif frame.expecting == "value":
        slot, pointer = "value", (*container, frame.key or "")
    elif frame.expecting == "colon" and token_start is None:
        slot, pointer = "none", container
    else:
        slot, pointer = "key", container
    keys = set(frame.keys)
    if slot == "key" and frame.key is not None and token_start is None:
        keys.discard(frame.key)
    keys.update(_keys_after(data, max(replace_end, offset)))
    if slot == "key" and partial:
        keys.discard(partial)
    return CursorContext(
        slot,
        pointer,
        frame.kind,
        partial,
        replace_start,
        replace_end,
        in_string,
        frozenset(keys),
        token_start if token_string else None,
    )


def _keys_after(data: bytes | bytearray, start: int) -> list[str]:
    """Keys of the current object that follow the cursor (until the object closes)."""
    keys: list[str] = []
    depth = 0
    i = start
    limit = min(len(data), start + _MAX_FORWARD)
    expecting_key = True
    while i < limit:
        byte = data[i]
        if byte == 0x22:
            end, closed = _skip_string(data, i, limit)
            if not closed:
                break
            j = end
            while j < limit and data[j] in b" \t\r\n":
                j += 1
            if depth == 0 and expecting_key and j < limit and data[j] == 0x3A:
                keys.append(_decode_string(data[i:end]))
            expecting_key = False
            i = end
            continue
        if byte in b"{[":
            depth += 1
        elif byte in b"}]":
            if depth == 0:
                break
            depth -= 1
        elif byte == 0x2C and depth == 0:
            expecting_key = True
        i += 1
    return keys
