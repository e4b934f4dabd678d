"""When a unit of the last check may stand for a unit of this one: its bytes traced through the edits, or the
same bytes seen before, read in the same way (the unit cache's keys, `checker.UnitCache`)."""

from __future__ import annotations

import hashlib

from ..document.document import ByteEdit
from .units import Unit, UnitSpan


def old_span(start: int, end: int, edits: list[ByteEdit]) -> tuple[int, int] | None:
    """Map a span in the new text back through the edits; None when an edit touched it (or its edges)."""
    for edit in reversed(edits):
        if end < edit.start:
            continue
        if start > edit.new_end:
            shift = edit.new_end - edit.old_end
            start, end = start - shift, end - shift
            continue
        return None
    return start, end


def digest(data: bytearray, start: int, end: int) -> bytes:
    """A unit's bytes `[start, end)` as a cache key: a digest, so the cache does not hold a second copy of the
    file (read in place: no copy of a large unit's text either)."""
    with memoryview(data) as view:
        return hashlib.blake2b(view[start:end], digest_size=20).digest()


def reads_alike(cached: Unit, span: UnitSpan) -> bool:
    """Whether a cached unit of the same bytes is what reading the span would give: same kind and origin, and
    for a member of a name-keyed map the same key (it supplies the name; a file that breaks may read the same
    object as a plain element)."""
    if cached.kind != span.kind or cached.origin != span.origin:
        return False
    return span.origin != "map" or cached.pointer[-1:] == span.pointer[-1:]


__all__ = ["digest", "old_span", "reads_alike"]
