"""Waiting for a condition instead of sleeping a fixed time.

A fixed sleep either wastes time on a quiet machine or is too short on a loaded one. Every test that waits for
something the server or a subprocess does asks `until(condition)`: the condition is polled until it is truthy
(its value is returned) or the timeout passes (AssertionError naming what was awaited). `alive(pid)` is the
condition the process tests wait on.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT = 30.0


def until(
    condition: Callable[[], T], what: str = "condition", timeout: float = DEFAULT_TIMEOUT, interval: float = 0.01
) -> T:
    """Poll `condition` until it returns a truthy value and return that value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


async def until_async(
    condition: Callable[[], T], what: str = "condition", timeout: float = DEFAULT_TIMEOUT, interval: float = 0.01
) -> T:
    """`until` for asyncio tests: yields to the event loop between polls."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(interval)


def alive(pid: int) -> bool:
    """Whether process `pid` runs: it exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers signal 0; it is dead for our purpose.
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status
