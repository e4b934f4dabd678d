"""Waiting for a condition instead of sleeping a fixed time.

A fixed sleep either wastes time on a quiet machine or is too short on a loaded one. Every test that waits for
something the server or a subprocess does asks `until(condition)`: the condition is polled until it is truthy
(its value is returned) or the timeout passes (AssertionError naming what was awaited).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
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
