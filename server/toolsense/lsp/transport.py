"""The stdio transport: LSP frames read robustly, every request answered, and a prompt exit when the client goes.

pygls' own stdio loop trusts the stream: a `Content-Length` of 10^12 is allocated (MemoryError, the server
dies), a too-short one leaves the rest of the stream unreadable for good, a request whose params do not fit the
protocol's types or that comes after `shutdown` gets no answer (the client waits forever), and after the client
has gone the process lives until every background thread has finished its work. Here:

- frames are read on a daemon thread. A header without a usable length, or with a length beyond
  `max_body()`, is logged and skipped, and so is everything up to the next `Content-Length:` header, wherever
  it starts (that is also how a too-short frame's spill-over is skipped);
- each body is parsed, structured and handed to pygls on the event loop. A request that cannot be structured
  is answered with InvalidParams (-32602), one that is no JSON-RPC request with InvalidRequest (-32600), and so
  is every request after `shutdown`; `exit` ends the server with 0 after `shutdown`, else 1 (LSP);
- when the stream ends or `exit` arrives, background work is cancelled and a watchdog ends the process after
  `EXIT_GRACE_S` even if a check thread is still busy (it could be for tens of seconds on a large file).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest

log = logging.getLogger(__name__)

EXIT_GRACE_S = 1.0
"""How long the process may take to end by itself after the client has gone or said `exit`."""
MAX_IN_FLIGHT = 8
"""Messages read but not yet handled on the event loop: the reader waits beyond this, so a client that sends
faster than the server handles is slowed by the pipe (as with pygls' own loop) instead of queueing in memory."""
_LINE_LIMIT = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"content-length:[ \t]*(\d+)", re.IGNORECASE)


class FrameReader:
    """LSP frames (`Content-Length: n`, other headers, a blank line, n bytes) from a blocking binary stream."""

    def __init__(
        self, stream: BinaryIO, max_body: Callable[[], int], on_length: Callable[[int], None] | None = None
    ) -> None:
        self.stream = stream
        self.max_body = max_body
        self.on_length = on_length
        """Told each accepted frame's length before its body is read."""
        self.skipped = 0
        """Frames skipped so far (bad or absurd lengths)."""

    def next_body(self) -> bytes | None:
        """The next message body; None at the end of the stream."""
        length: int | None = None
        carry = b""
        while True:
            chunk = self.stream.readline(_LINE_LIMIT)
            if not chunk:
                return None
            line = carry + chunk
            # A header may follow garbage on the same line (the spill-over of a too-short frame) or straddle two
            # reads of an over-long line: keep the end of an unfinished line for the next search.
            carry = b"" if chunk.endswith(b"\n") else line[-64:]
            if line.strip() == b"" and chunk.endswith(b"\n"):
                if length is None:
                    continue  # a blank line without a length before it: nothing to read
                if length > self.max_body():
                    self.skipped += 1
                    log.warning(
                        "refused a message of %d bytes (more than %d); skipping to the next header",
                        length,
                        self.max_body(),
                    )
                    length = None
                    continue
                if self.on_length is not None:
                    self.on_length(length)
                body = self.stream.read(length) if length else b""
                if len(body) < length:
                    return None  # the stream ended inside the body
                return body
            matches = list(_CONTENT_LENGTH.finditer(line))
            if matches:
                digits = matches[-1].group(1)
                length = int(digits) if len(digits) <= 18 else sys.maxsize
                carry = b""
            elif b":" not in line and length is not None:
                # Not a header line: garbage where headers should be. Skip to the next Content-Length.
                self.skipped += 1
                length = None


class StdioTransport:
    """Runs a pygls server over binary stdin/stdout with `FrameReader`; `serve()` returns the exit code."""

    def __init__(
        self,
        server: Any,
        stdin: BinaryIO,
        stdout: BinaryIO,
        max_body: Callable[[], int],
        on_close: Callable[[], None],
        on_length: Callable[[int], None] | None = None,
        first: bytes | None = None,
    ) -> None:
        self.server = server
        self.first = first
        """A message body read before the transport started (by the TCP authentication), handled first."""
        self.protocol = server.protocol
        self.stdin = stdin
        self.stdout = stdout
        self.reader = FrameReader(stdin, max_body, self._announced if on_length is not None else None)
        self.on_length = on_length
        """Called on the event loop with each frame's length before its body is read (a large document is
        coming: the server can start what it will need for it while the body is read and decoded)."""
        self.on_close = on_close
        self.shut_down = False
        self.exit_code = 0
        self._slots = threading.Semaphore(MAX_IN_FLIGHT)
        self._done: asyncio.Future[int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # --- on the reader thread -------------------------------------------------------------------------------

    def _announced(self, length: int) -> None:
        loop, on_length = self._loop, self.on_length
        if loop is not None and on_length is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(on_length, length)

    def _read(self) -> None:
        loop = self._loop
        assert loop is not None
        try:
            while True:
                body, self.first = (self.first, None) if self.first is not None else (self.reader.next_body(), None)
                if body is None:
                    break
                self._slots.acquire()
                # Handed over in a box the handler empties: neither this frame (until the next message) nor the
                # loop's handle (while the message is handled) keeps the bytes of a 20 MB didOpen alive.
                loop.call_soon_threadsafe(self._handle, [body])
                del body
        except Exception:
            log.exception("reading from the client failed")
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is ending anyway
            loop.call_soon_threadsafe(self._finish, self.exit_code, "the client closed the connection")
        self._watchdog()

    def _watchdog(self) -> None:
        """Called on a daemon thread once the client is gone: the process ends within the grace period,
        whatever a check thread is still doing."""
        threading.Event().wait(EXIT_GRACE_S)
        log.warning("still running %.1f s after the client left: exiting", EXIT_GRACE_S)
        hard_exit(self.exit_code)

    # --- on the event loop ----------------------------------------------------------------------------------

    async def serve(self) -> int:
        self._loop = asyncio.get_running_loop()
        self._done = self._loop.create_future()
        threading.Thread(target=self._read, name="toolsense-stdin", daemon=True).start()
        return await self._done

    def _finish(self, code: int, why: str) -> None:
        if self._done is None or self._done.done():
            return
        log.info("stopping: %s", why)
        self.exit_code = code
        try:
            self.on_close()
        except Exception:
            log.exception("cancelling background work failed")
        self._done.set_result(code)

    def _handle(self, box: list[bytes]) -> None:
        self._slots.release()
        body = box.pop()
        if self._done is not None and self._done.done():
            return
        try:
            data = json.loads(body)
        except ValueError:
            log.warning("skipped a message that is not JSON (%d bytes)", len(body))
            return
        del body
        if not isinstance(data, dict):
            log.warning("skipped a message that is not a JSON object")
            return
        method = data.get("method")
        ident = data.get("id")
        is_request = isinstance(method, str) and "id" in data
        answerable = isinstance(ident, (int, str)) and not isinstance(ident, bool)
        if method == types.EXIT:
            self._finish(0 if self.shut_down else 1, "exit")
            threading.Thread(target=self._watchdog, name="toolsense-exit", daemon=True).start()
            return
        if data.get("jsonrpc") != "2.0" or (method is not None and not isinstance(method, str)):
            if answerable and ("method" in data):
                self._error(ident, JsonRpcInvalidRequest("not a JSON-RPC 2.0 request"))
            return
        if self.shut_down and is_request:
            self._error(ident, JsonRpcInvalidRequest("the server is shut down"))
            return
        if self.shut_down and method is not None:
            return  # notifications after shutdown are ignored (LSP)
        if is_request and not answerable:
            log.warning("skipped a request whose id is neither a number nor a string")
            return
        if isinstance(method, str) and "params" not in data and self.protocol.get_message_type(method) is None:
            # JSON-RPC 2.0 lets a message without parameters omit `params`; the generic message type of a method
            # of our own (`toolsense/settle`) would otherwise refuse it. LSP methods keep their own types.
            data["params"] = None
        try:
            message = self.protocol.structure_message(data)
        except JsonRpcException:
            if is_request:
                self._error(ident, JsonRpcInvalidParams(f"Invalid params for {method}"))
            else:
                log.warning("skipped a %s notification whose params do not fit the protocol", method)
            return
        if method == types.SHUTDOWN:
            self.shut_down = True
        try:
            self.protocol.handle_message(message)
        except Exception:
            log.exception("handling %s failed", method if isinstance(method, str) else "a message")

    def _error(self, ident: Any, error: JsonRpcException) -> None:
        try:
            self.protocol._send_response(ident, None, error.to_response_error())
        except Exception:
            log.exception("could not send an error response")


def hard_exit(code: int) -> None:
    """End the process now, whatever other threads are doing (after flushing what is buffered)."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        if stream is not None:
            with contextlib.suppress(Exception):  # nothing left to report to
                stream.flush()
    os._exit(code)
