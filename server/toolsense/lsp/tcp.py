"""`toolsense serve --tcp HOST:PORT`: the language server for one authenticated client over TCP.

Any local user can connect to a TCP port, and a client of the language server can make it start programs (the
MCP check command runs a server entry's `command`). So over TCP:

- a client authenticates with the token the server prints on stderr when it starts (or the one given in the
  `TOOLSENSE_TCP_TOKEN` environment variable), sent as `initializationOptions.tcpToken` in its `initialize`.
  A connection whose first message is not such an `initialize` (within `AUTH_TIMEOUT_S` for the whole
  handshake, however slowly its bytes come, and in at most `AUTH_MAX_BYTES`, headers included) gets an error and
  is closed. Connections authenticate side by side (at most `MAX_AUTHENTICATING` at once), so one that trickles
  bytes or sends header lines for ever does not keep the editor's own connection waiting;
- a client that says nothing about trust is untrusted (over stdio the editor that started the server decides);
- the connection runs over the same hardened framing as stdio (`transport.StdioTransport`), and the server ends
  when its client leaves, as over stdio.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import queue
import secrets
import socket
import sys
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

from .transport import FrameReader

log = logging.getLogger(__name__)

TOKEN_VARIABLE = "TOOLSENSE_TCP_TOKEN"
TOKEN_OPTION = "tcpToken"
AUTH_TIMEOUT_S = 10.0
"""How long a new connection may take to send its `initialize`."""
AUTH_MAX_BYTES = 1 << 20
"""The most a client that has not authenticated yet may send: its `initialize`, headers included."""
MAX_AUTHENTICATING = 32
"""Connections authenticating at once; more are closed at once (each ends within `AUTH_TIMEOUT_S`)."""
MIN_TOKEN_CHARS = 16


def server_token() -> tuple[str, bool]:
    """The token clients must present, and whether it was generated here (then it is printed)."""
    given = os.environ.get(TOKEN_VARIABLE, "")
    if len(given) >= MIN_TOKEN_CHARS:
        return given, False
    if given:
        log.warning("%s is shorter than %d characters: a random token is used instead", TOKEN_VARIABLE, MIN_TOKEN_CHARS)
    return secrets.token_urlsafe(24), True


def authenticated_initialize(body: bytes, token: str) -> bytes | None:
    """The body of an `initialize` request that carries the token, without the token; None for anything else."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    params = message.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    if not isinstance(options, dict) or not isinstance(presented := options.get(TOKEN_OPTION), str):
        return None
    if not hmac.compare_digest(presented.encode("utf-8", "replace"), token.encode("utf-8")):
        return None
    del options[TOKEN_OPTION]  # never stored among the client's options, never logged
    return json.dumps(message).encode("utf-8")


def _refuse(stream: BinaryIO, body: bytes | None) -> None:
    """Answer a refused request with an error (so a client says why), then the connection is closed."""
    ident: Any = None
    try:
        message = json.loads(body) if body is not None else None
        ident = message.get("id") if isinstance(message, dict) else None
    except ValueError:
        pass
    error = {"code": -32600, "message": f"not authenticated: send initializationOptions.{TOKEN_OPTION}"}
    data = json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}).encode("utf-8")
    try:
        stream.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
        stream.flush()
    except OSError:
        pass


@dataclass
class _Client:
    connection: socket.socket
    reader: BinaryIO
    writer: BinaryIO
    first: bytes


class _Bounded:
    """A stream that gives at most `left` bytes in all, then fails (`OSError`): header lines without end, or a
    body, cannot make an unauthenticated connection read more than `AUTH_MAX_BYTES`."""

    def __init__(self, stream: BinaryIO, left: int) -> None:
        self.stream = stream
        self.left = left

    def _allowed(self, size: int) -> int:
        if self.left <= 0:
            raise OSError("the authentication message is too large")
        return self.left if size < 0 else min(size, self.left)

    def readline(self, size: int = -1) -> bytes:
        line = self.stream.readline(self._allowed(size))
        self.left -= len(line)
        return line

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(self._allowed(size))
        self.left -= len(data)
        return data


def serve_tcp(server: Any, host: str, port: int) -> int:
    """Listen on HOST:PORT; serve the first client that authenticates; return the exit code it earned."""
    token, generated = server_token()
    listener = socket.create_server((host, port))
    bound = listener.getsockname()
    note = f"; clients send initializationOptions.{TOKEN_OPTION} = {token}" if generated else ""
    sys.stderr.write(f"toolsense: listening on {bound[0]}:{bound[1]}{note}\n")
    sys.stderr.flush()
    authenticated: queue.Queue[_Client] = queue.Queue()
    served = threading.Event()
    accepting = threading.Thread(
        target=_accept, args=(listener, token, authenticated, served), name="toolsense-tcp-accept", daemon=True
    )
    accepting.start()
    client = authenticated.get()
    served.set()  # a connection that authenticates later is refused
    with contextlib.suppress(OSError):
        listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
    listener.close()
    server.remote = True
    with client.connection, client.reader, client.writer:
        server.start_io(client.reader, client.writer, client.first)
    return int(server.exit_code)


def _accept(listener: socket.socket, token: str, authenticated: queue.Queue[_Client], served: threading.Event) -> None:
    """Accept connections until one is served; each authenticates on a thread of its own."""
    slots = threading.BoundedSemaphore(MAX_AUTHENTICATING)
    while not served.is_set():
        try:
            connection, peer = listener.accept()
        except OSError:
            return  # the listener is closed: a client is served
        if not slots.acquire(blocking=False):
            log.warning("refused a connection from %s: %d others are authenticating", peer[0], MAX_AUTHENTICATING)
            with contextlib.suppress(OSError):
                connection.close()
            continue
        threading.Thread(
            target=_authenticate,
            args=(connection, peer, token, authenticated, served, slots),
            name="toolsense-tcp-auth",
            daemon=True,
        ).start()


def _authenticate(
    connection: socket.socket,
    peer: Any,
    token: str,
    authenticated: queue.Queue[_Client],
    served: threading.Event,
    slots: threading.BoundedSemaphore,
) -> None:
    """Read one connection's first message within `AUTH_TIMEOUT_S` in all: at the deadline its reading side is
    shut (a timeout per read would let one byte every few seconds hold it for ever)."""
    try:
        reader = connection.makefile("rb")
        writer = connection.makefile("wb")
        lock = threading.Lock()
        finished = False

        def deadline() -> None:
            with lock:
                if not finished:
                    with contextlib.suppress(OSError):
                        connection.shutdown(socket.SHUT_RD)  # the blocked read returns: the end of the stream

        timer = threading.Timer(AUTH_TIMEOUT_S, deadline)
        timer.start()
        try:
            body = FrameReader(cast(BinaryIO, _Bounded(reader, AUTH_MAX_BYTES)), lambda: AUTH_MAX_BYTES).next_body()
        except (OSError, ValueError):  # the peer went, or sent too much
            body = None
        finally:
            with lock:
                finished = True
            timer.cancel()
        first = authenticated_initialize(body, token) if body is not None else None
        if first is None or served.is_set():
            log.warning("refused a connection from %s: no initialize with the token", peer[0])
            _refuse(writer, body)
            for stream in (reader, writer, connection):
                with contextlib.suppress(OSError):
                    stream.close()
            return
        authenticated.put(_Client(connection, reader, writer, first))
    finally:
        slots.release()
