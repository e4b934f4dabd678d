"""When Python's full garbage collections run in the server process."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

from . import heap

IDLE_COLLECT_S = 1.0
LATE_TICK_S = 0.05
"""A tick this late means the event loop was busy (a check, a whole-file parse) until just now: not idle."""
FULL_COLLECT_AFTER = 10
"""Young collections since the last full one before an idle full collection is worth it (Python's own default)."""


class IdleCollector:
    """Python's full (generation 2) collection walks every tracked object: with a large file open that takes a
    few hundred milliseconds, and one keystroke in ten waited for one. In the server process automatic
    collection is left to the young generations, and the full one runs when nothing happened for
    `IDLE_COLLECT_S` (and garbage has been building up)."""

    def __init__(self, busy: Callable[[], bool] = lambda: False) -> None:
        self.busy = busy
        """Whether background work is under way (a check whose result the user waits for): never idle then."""
        self.last_activity = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Take over full collections (only in a real server process: it changes the interpreter's settings)."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, 1 << 30)
        self._arm()

    def _arm(self) -> None:
        self._due = time.monotonic() + IDLE_COLLECT_S
        self._timer = asyncio.get_event_loop().call_later(IDLE_COLLECT_S, self._tick)

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self._due > LATE_TICK_S:
            # The loop was held past the tick: the last message may be a second old, but work (and the user's
            # next keystroke, likely queued) follows it. Idle means a full period with nothing to do.
            self.last_activity = now
        if self.idle(now) and gc.get_count()[2] >= FULL_COLLECT_AFTER:
            gc.collect()
            heap.trim()  # what the collection freed, and what a check left free, goes back to the system
        self._arm()

    def idle(self, now: float) -> bool:
        return now - self.last_activity >= IDLE_COLLECT_S and not self.busy()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
