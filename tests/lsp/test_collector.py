"""When the server runs Python's full garbage collection: only when the event loop was really idle."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from toolsense.lsp import collector
from toolsense.lsp.collector import IdleCollector


def _ticked(idle_collector: IdleCollector, monkeypatch: pytest.MonkeyPatch) -> int:
    """Run one tick on a loop with plenty of garbage counted, and say how many full collections it ran."""
    runs: list[int] = []
    monkeypatch.setattr(collector.gc, "collect", lambda *args: runs.append(1) or 0)
    monkeypatch.setattr(collector.gc, "get_count", lambda: (0, 0, collector.FULL_COLLECT_AFTER))

    async def tick() -> None:
        idle_collector._tick()
        idle_collector.stop()

    asyncio.run(tick())
    return len(runs)


def test_a_quiet_loop_collects(monkeypatch: pytest.MonkeyPatch) -> None:
    quiet = IdleCollector()
    quiet.last_activity = time.monotonic() - 2 * collector.IDLE_COLLECT_S
    quiet._due = time.monotonic()
    assert _ticked(quiet, monkeypatch) == 1


def test_background_work_in_flight_is_not_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    waiting = IdleCollector(busy=lambda: True)
    waiting.last_activity = time.monotonic() - 2 * collector.IDLE_COLLECT_S
    waiting._due = time.monotonic()
    assert _ticked(waiting, monkeypatch) == 0


def test_a_late_tick_means_the_loop_was_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    held = IdleCollector()
    held.last_activity = time.monotonic() - 2 * collector.IDLE_COLLECT_S
    held._due = time.monotonic() - 10 * collector.LATE_TICK_S  # the loop ran something long past the tick
    assert _ticked(held, monkeypatch) == 0
    assert not held.idle(time.monotonic())


def test_collection_thresholds_come_back_on_stop() -> None:
    before = gc.get_threshold()

    async def run() -> None:
        taken = IdleCollector()
        taken.start()
        assert gc.get_threshold()[2] > before[2]
        taken.stop()

    asyncio.run(run())
    assert gc.get_threshold() == before


def test_an_idle_collection_gives_the_free_heap_back(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(collector.heap, "trim", lambda: trims.append(1))
    quiet = IdleCollector()
    quiet.last_activity = time.monotonic() - 2 * collector.IDLE_COLLECT_S
    quiet._due = time.monotonic()
    assert _ticked(quiet, monkeypatch) == 1
    assert trims == [1]
