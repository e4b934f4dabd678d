"""pygls files the future of each handler it runs under the message's id and took it out only when answering a
request: every notification (two futures per didChange, a generator handler and its step) stayed in
`_request_futures` for as long as the server ran, each pinning the memory around it (issue 26, L1)."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

from toolsense.lsp.app import create_server


def test_handled_notifications_and_requests_leave_no_future_behind() -> None:
    protocol = create_server().protocol
    finished: list[Any] = []

    async def step(value: int) -> int:
        await asyncio.sleep(0)
        return value

    def generator() -> Generator[Any, Any, int]:
        result = yield step, (2,), None
        return int(result)

    def answered(future: Any) -> None:
        protocol._request_futures.pop("request-7", None)  # what answering a request does (pygls)
        finished.append(future.result())

    async def scenario() -> None:
        protocol._execute_handler("notification-1", step, lambda future: finished.append(future.result()), (1,))
        protocol._execute_handler("notification-2", generator, lambda future: finished.append(future.result()))
        protocol._execute_handler("request-7", step, answered, (7,))
        assert "request-7" in protocol._request_futures  # while it runs, a request can be cancelled
        for _ in range(10):
            await asyncio.sleep(0)

    asyncio.run(scenario())
    assert sorted(finished) == [1, 2, 7]
    assert protocol._request_futures == {}


def test_shutdown_cancels_running_handlers_while_they_leave_the_table() -> None:
    """Cancelling a thread's future at shutdown runs its done-callback at once, which takes the future out of the
    table pygls is iterating: shutdown answered "dictionary changed size during iteration" (seen in CI)."""
    import concurrent.futures
    import functools

    protocol = create_server().protocol
    futures = [concurrent.futures.Future[Any]() for _ in range(3)]
    for number, future in enumerate(futures):
        protocol._request_futures[f"job-{number}"] = future
        future.add_done_callback(functools.partial(protocol._forget_future, f"job-{number}"))
    for _ in protocol.lsp_shutdown():
        pass
    assert all(future.cancelled() for future in futures)
    assert protocol._request_futures == {}
