"""`toolsense/settle` (a request of our own, no parameters, answers null): run every pending check now and
answer once nothing is left to publish.

Debounced checks wait on wall-clock timers, so a client cannot otherwise tell "nothing will be published" from
"not yet": scripted clients and the tests ask `settle` first. It fires the pending debounce timers at once
(the check they would have run, as a full check), waits for background checks and their re-runs, workspace
indexing, model loading and background tasks, and answers after everything those published: messages go out
in order, so every diagnostic they caused reaches the client before the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from .server import ToolsenseServer

log = logging.getLogger(__name__)

METHOD = "toolsense/settle"
SETTLE_LIMIT_S = 120.0
"""The longest `settle` waits: past it, it answers anyway (a client must never hang on it)."""


async def settle(server: ToolsenseServer, limit_s: float = SETTLE_LIMIT_S) -> bool:
    """Run pending checks now and wait for background work; True when everything settled within `limit_s`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while loop.time() < deadline:
        busy = False
        if not server.started or server.handlers_running:
            # `initialized` or a configuration change is still pulling settings (what follows starts after it)
            busy = True
            await asyncio.sleep(0.01)
        if server.indexed is not None and not server.indexed.is_set():
            busy = True
            await _wait(server.indexed.wait(), deadline - loop.time())
        loading = server.model_loading
        if loading is not None and not loading.done:
            busy = True
            await asyncio.sleep(0.01)
        for od in list(server.documents.values()):
            if od.job is not None:
                busy = True
                await _wait(asyncio.shield(od.job), deadline - loop.time())
            elif od.timer is not None:
                busy = True
                server.scheduler.cancel_timer(od)
                try:
                    server.check(od, "settle-request")
                except Exception:
                    log.exception("checking %s failed", od.uri)
        others = [task for task in server.background if task is not asyncio.current_task()]
        if others:
            busy = True
            await asyncio.wait(others, timeout=max(0.0, deadline - loop.time()))
        # Callbacks queued by what just finished (a background check's result, a finished load) run first.
        await asyncio.sleep(0)
        if not busy:
            return True
    return False


async def _wait(awaitable: Any, timeout: float) -> None:
    with contextlib.suppress(Exception):  # a timeout, or a failed check (logged where it ran)
        await asyncio.wait_for(awaitable, max(0.0, timeout))


def register(server: ToolsenseServer) -> None:
    @server.feature(METHOD)
    async def on_settle(params: Any) -> None:
        if not await settle(server):
            log.warning("%s: still busy after %.0f s", METHOD, SETTLE_LIMIT_S)
