"""Giving freed memory back to the system (glibc's allocator; elsewhere these do nothing).

Opening a large document passes blocks as large as it through the process (the message's bytes and their
decoding, the encoded text, the copy the check reads, the text the outline scans). glibc maps the first such
block on its own and unmaps it when freed, but then raises its mmap threshold past that size, so the later ones
come from the heap, where their space stays in the process's RSS once the values the check reads are placed
around it. So while a large document's first check runs, blocks of 1 MB or more are mapped on their own
(`map_large_blocks`): opening a 22 MB file peaked at 261 MB of RSS, 209 MB so. Not for good: a mapped block
costs its page faults on every use, and each keystroke in that file copies the whole text (~18 ms for 22 MB
mapped afresh against ~1.5 ms from the heap's warm pages). After an idle full garbage collection, `trim` hands
the heap's free pages back.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

MAPPED_FROM_BYTES = 1 << 20
"""While a large document's first check runs, blocks from this size on are mapped on their own."""
HEAP_BELOW_BYTES = 32 << 20
"""Otherwise blocks below this size (glibc's largest dynamic threshold) come from the heap."""
_M_MMAP_THRESHOLD = -3  # glibc's malloc.h


@functools.cache
def _libc() -> Any | None:
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def map_large_blocks(on: bool) -> None:
    """Map every block of `MAPPED_FROM_BYTES` or more on its own (`on`), or take blocks below
    `HEAP_BELOW_BYTES` from the heap again."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_MMAP_THRESHOLD, MAPPED_FROM_BYTES if on else HEAP_BELOW_BYTES)


def trim() -> None:
    """Return the free pages of the C heap to the system (a few milliseconds)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
