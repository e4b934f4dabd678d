"""Ending a pytest-lsp server so that a test's teardown can never hang.

pytest-lsp's own teardown waits, without a time limit, for the server process to exit, and the server exits when
it is told `exit` or its stdin closes. If the polite `shutdown` + `exit` does not get through (a loaded machine, a
server busy past the time limit), the stream is closed and, failing that, the process is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from pygls.client import JsonRPCClient

SHUTDOWN_TIMEOUT_S = 20.0
EXIT_TIMEOUT_S = 10.0


async def stop_server(client: JsonRPCClient) -> None:
    """`shutdown` and `exit`; then make sure the server process is gone."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.shutdown_session(), SHUTDOWN_TIMEOUT_S)  # type: ignore[attr-defined]
    process: Any = getattr(client, "_server", None)
    if process is None or process.returncode is not None:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(process.wait(), EXIT_TIMEOUT_S)
    if process.returncode is None and process.stdin is not None:
        process.stdin.close()  # end of stream: the server leaves within its grace period
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait(), EXIT_TIMEOUT_S)
    if process.returncode is None:
        process.kill()
        await process.wait()
