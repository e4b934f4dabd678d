"""A live server cannot make toolsense hold without bound what it sends (issue 26, M3 and M4): its stderr is kept
as a tail while it is read, one `tools/list` page is cut at the tool limit as it arrives, and one message (a
stdout line, an HTTP body) is refused past its bound."""

from __future__ import annotations

import sys
import threading
import tracemalloc
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from livekit import SERVERS

from toolsense.mcp_live import stdio
from toolsense.mcp_live.client import StdioTarget, list_tools
from toolsense.mcp_live.http import bounded_http_transport
from toolsense.mcp_live.stdio import StderrTail

pytest.importorskip("mcp")


def raw(mode: str, *args: str) -> StdioTarget:
    return StdioTarget(sys.executable, (str(SERVERS / "raw_server.py"), mode, *args))


def test_a_stderr_flood_is_kept_as_its_tail_while_it_is_read() -> None:
    list_tools(raw("one-page", "1"), timeout=20)  # the SDK imported and warmed up before measuring
    tracemalloc.start()
    try:
        listing = list_tools(raw("stderr-flood", "24"), timeout=20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert listing.problem is not None
    assert listing.problem.message == (
        "The server exited or closed stdout before answering initialize; its stderr ends with: 'tail 😀 end'"
    )
    # The old transport read 24 MB of stderr (about 100 MB as text with one emoji) back after the listing.
    assert peak < 4 << 20, peak


def test_the_stderr_tail_holds_the_last_bytes_only() -> None:
    tail = StderrTail(limit=16)
    for _ in range(1000):
        tail.add(b"0123456789abcdef" * 8)
    tail.add("last 😀 line\n".encode())
    assert tail.text() == "flast 😀 line"  # the last 16 bytes


def test_one_page_is_cut_at_the_tool_limit_as_it_arrives() -> None:
    listing = list_tools(raw("one-page", "500"), timeout=20, max_tools=40)
    assert listing.problem is None
    assert [t["name"] for t in listing.tools] == [f"t{i}" for i in range(40)]
    assert [(n.code, n.message) for n in listing.notes] == [("TS923", "Listing stopped at 40 tools (the limit is 40)")]


def test_a_stdout_line_past_the_message_bound_ends_the_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stdio, "MAX_MESSAGE_BYTES", 1 << 20)
    listing = list_tools(raw("long-line", "3"), timeout=20)
    assert listing.problem is not None
    assert (listing.problem.code, listing.problem.message) == (
        "TS920",
        "initialize failed: the server sent a message larger than 1 MB",
    )


@pytest.fixture
def big_body() -> Iterator[str]:
    """A local HTTP server whose every answer is a 3 MB JSON body."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b'{"x": "' + b"a" * (3 << 20) + b'"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def test_an_http_body_past_the_bound_is_refused_as_it_streams_in(big_body: str) -> None:
    import anyio
    import httpx2

    async def fetch(limit: int) -> int:
        async with httpx2.AsyncClient(transport=bounded_http_transport(limit)) as client:
            return len((await client.get(big_body)).content)

    assert anyio.run(fetch, 4 << 20) == (3 << 20) + 9
    with pytest.raises(httpx2.StreamError, match="the server sent a message larger than 1 MB"):
        anyio.run(fetch, 1 << 20)


def test_a_secret_cut_by_the_tail_shows_none_of_its_characters() -> None:
    from toolsense.mcp_live.client import _tail

    secret = "tok_0123456789abcdef"
    tail = StderrTail(limit=24)
    tail.add(b"x" * 100 + f"auth {secret} failed\n".encode())
    assert tail.text() == "0123456789abcdef failed"  # the kept tail begins inside the secret
    assert _tail(tail, [secret]) == "*** failed"
