"""HTTP responses of a live MCP server, bounded: the SDK reads a JSON body whole (`response.aread()`), so a
server answering with 200 MB would have all of it in memory. Each response body here is counted as it streams
in and cut off past `stdio.MAX_MESSAGE_BYTES` (the same bound as one stdio message); the SDK then reports the
page as unreadable, and the listing ends with that problem."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from .stdio import MAX_MESSAGE_BYTES, MessageTooLarge


def bounded_http_transport(limit: int = MAX_MESSAGE_BYTES) -> Any:
    """An httpx2 transport (the default one inside) whose response bodies stop at `limit` bytes."""
    import httpx2

    class BoundedBody(httpx2.AsyncByteStream):
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        async def __aiter__(self) -> AsyncIterator[bytes]:
            received = 0
            async for chunk in self.stream:
                received += len(chunk)
                if received > limit:
                    # A StreamError is what the SDK expects of a body it cannot read: the request fails
                    # cleanly (a JSON-RPC error), instead of taking the whole session down.
                    raise httpx2.StreamError(str(MessageTooLarge(limit)))
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    class BoundedTransport(httpx2.AsyncBaseTransport):
        def __init__(self) -> None:
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request: Any) -> Any:
            response = await self.inner.handle_async_request(request)
            return httpx2.Response(
                status_code=response.status_code,
                headers=response.headers,
                stream=BoundedBody(response.stream),
                extensions=response.extensions,
            )

        async def aclose(self) -> None:
            await self.inner.aclose()

    return BoundedTransport()
