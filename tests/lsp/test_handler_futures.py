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
