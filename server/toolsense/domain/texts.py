"""Every text of a JSON value a model may read: each string and each key, at any depth.

The security rules (TS290, TS292) and the review of a live tool's new version read what this yields, so it has no
depth limit: a payload nested 70 arrays deep reaches the model like any other text. Iterative (an explicit stack),
so no nesting raises RecursionError; the order is the document's (a key before its value, members in order).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..document.jsontree import Pointer


def strings(value: Any) -> Iterator[tuple[Pointer, str, bool]]:
    """Every string of a value with its pointer, and every key (`True`: the pointer names the member's key)."""
    if isinstance(value, str):
        yield (), value, False
        return
    # (pointer of the container, the iterator over its members) — one entry per open container
    stack: list[tuple[Pointer, Iterator[tuple[str | int, Any]]]] = []
    if isinstance(value, dict):
        stack.append(((), iter(value.items())))
    elif isinstance(value, list):
        stack.append(((), enumerate(value)))
    while stack:
        base, members = stack[-1]
        member = next(members, None)
        if member is None:
            stack.pop()
            continue
        part, child = member
        pointer = (*base, part)
        if isinstance(part, str):
            yield pointer, part, True
        if isinstance(child, str):
            yield pointer, child, False
        elif isinstance(child, dict):
            stack.append((pointer, iter(child.items())))
        elif isinstance(child, list):
            stack.append((pointer, enumerate(child)))


def string_values(value: Any) -> list[tuple[Pointer, str]]:
    """Every string value (not the keys) with its pointer."""
    return [(pointer, text) for pointer, text, is_key in strings(value) if not is_key]
