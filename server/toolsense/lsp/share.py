"""The first check of a large document on both cores: the server's check thread checks the units from the first
on while the worker process checks the last ones (`WorkerShare`, the `SharedFindings` of that check).

Rules read nothing but the unit and the context, so the worker's findings for a unit are the ones the thread would
make: the published diagnostics are exactly those of one check in the server, whether the worker's findings
arrive, arrive late (the thread has checked those units itself by then) or never (it crashed).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any

from ..engine.context import CheckContext, ToolRegistry
from ..engine.findings import Finding
from ..engine.units import Unit
from .worker import RegistryDelta, UnitsRequest, WorkerPool, same_registry, units_in_worker

SHARE = 0.5
"""The worker's share of the units of the first check of a large document (the check thread takes over what the
worker has not done when it gets there)."""
SHARE_CHUNKS = 6
SHARE_MIN_UNITS = 64
"""Fewer units are all checked on the check thread."""


class WorkerShare:
    """The worker's share of a check the check thread runs (`SharedFindings`): the last `SHARE` of the units,
    sent in `SHARE_CHUNKS` requests from the last units back, so that the findings of the units the thread reaches
    last arrive first. Its findings are used as they arrive, never waited for."""

    def __init__(self, pool: WorkerPool, registry: RegistryDelta, uri: str) -> None:
        self.pool = pool
        self.registry = registry
        self.delivered = False
        """Whether a request took the registry (the pool counts on its arrival; the next ones change nothing)."""
        self.uri = uri
        self.sent: dict[int, tuple[concurrent.futures.Future[list[list[Finding]]], int]] = {}
        """Each unit in the worker's share: the request that has it, and its place there."""
        self.later: list[concurrent.futures.Future[list[list[Finding]]]] = []
        """The requests after the first (which carries the registry, and is never withdrawn)."""
        self.on_failure: Callable[[BaseException], None] = lambda error: None
        self._failed = False

    def offer(self, units: list[Unit], ctx: CheckContext) -> None:
        """On the check thread, once the units are read: send the worker its share (the units with their own
        text, which a rule may parse, instead of the outline node that holds it)."""
        count = len(units)
        if count < SHARE_MIN_UNITS:
            return
        start = count - int(count * SHARE)
        context = dataclasses.replace(ctx, registry=ToolRegistry())  # the request's delta carries it
        size = -(-(count - start) // SHARE_CHUNKS)
        for low in reversed(range(start, count, size)):
            positions = list(range(low, min(low + size, count)))
            sent = [dataclasses.replace(units[p], text=units[p].json_text) for p in positions]
            future = self._send(context, positions, sent)
            if future is None:
                return
            self.sent.update((position, (future, index)) for index, position in enumerate(positions))

    def _send(
        self, context: CheckContext, positions: list[int], units: list[Unit]
    ) -> concurrent.futures.Future[list[list[Finding]]] | None:
        registry = same_registry(self.registry) if self.delivered else self.registry
        future = self.pool.submit_if_running(
            units_in_worker, UnitsRequest(context, registry, self.uri, positions, units)
        )
        if future is None:
            return None
        if self.delivered:
            self.later.append(future)
        self.delivered = True
        future.add_done_callback(self._ended)
        return future

    def findings(self, position: int) -> list[Finding] | None:
        found = self.sent.get(position)
        if found is None:
            return None
        future, index = found
        if not future.done() or future.cancelled() or future.exception() is not None:
            return None
        return future.result()[index]

    def close(self, ctx: CheckContext) -> None:
        """The check is done: the requests the worker has not started are withdrawn; the registry is sent if no
        request took it (a file with few units), as the pool counts on it."""
        if not self.delivered:
            self._send(dataclasses.replace(ctx, registry=ToolRegistry()), [], [])
        for future in self.later:
            future.cancel()

    def _ended(self, future: concurrent.futures.Future[list[list[Finding]]]) -> None:
        if future.cancelled() or (error := future.exception()) is None or self._failed:
            return
        self._failed = True  # one failure of the worker fails the requests after it: handled once
        self.on_failure(error)


def on_loop(loop: asyncio.AbstractEventLoop, function: Callable[..., Any], *args: Any) -> None:
    """From a worker's callback thread: run on the event loop, unless it has closed (the server is ending)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(function, *args)


__all__ = ["SHARE", "SHARE_CHUNKS", "SHARE_MIN_UNITS", "WorkerShare", "on_loop"]
