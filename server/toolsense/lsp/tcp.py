"""`toolsense serve --tcp HOST:PORT`: the language server for one authenticated client over TCP.

Any local user can connect to a TCP port, and a client of the language server can make it start programs (the
MCP check command runs a server entry's `command`). So over TCP:

- a client authenticates with the token the server prints on stderr when it starts (or the one given in the
  `TOOLSENSE_TCP_TOKEN` environment variable), sent as `initializationOptions.tcpToken` in its `initialize`.
  A connection whose first message is not such an `initialize` (within `AUTH_TIMEOUT_S`, in at most
  `AUTH_MAX_BYTES`) gets an error and is closed, and the server waits for the next one;
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
import secrets
import socket
import sys
from typing import Any, BinaryIO

from .transport import FrameReader

log = logging.getLogger(__name__)

TOKEN_VARIABLE = "TOOLSENSE_TCP_TOKEN"
TOKEN_OPTION = "tcpToken"
AUTH_TIMEOUT_S = 10.0
"""How long a new connection may take to send its `initialize`."""
AUTH_MAX_BYTES = 1 << 20
"""The largest `initialize` read from a client that has not authenticated yet."""
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


def serve_tcp(server: Any, host: str, port: int) -> int:
    """Listen on HOST:PORT; serve the first client that authenticates; return the exit code it earned."""
    token, generated = server_token()
    with socket.create_server((host, port)) as listener:
        bound = listener.getsockname()
        note = f"; clients send initializationOptions.{TOKEN_OPTION} = {token}" if generated else ""
        sys.stderr.write(f"toolsense: listening on {bound[0]}:{bound[1]}{note}\n")
        sys.stderr.flush()
        while True:
            connection, peer = listener.accept()
            reader = connection.makefile("rb")
            writer = connection.makefile("wb")
            connection.settimeout(AUTH_TIMEOUT_S)
            try:
                body = FrameReader(reader, lambda: AUTH_MAX_BYTES).next_body()
            except OSError:  # the time ran out, or the peer went
                body = None
            first = authenticated_initialize(body, token) if body is not None else None
            if first is None:
                log.warning("refused a connection from %s: no initialize with the token", peer[0])
                _refuse(writer, body)
                for stream in (reader, writer, connection):
                    with contextlib.suppress(OSError):
                        stream.close()
                continue
            connection.settimeout(None)
            break
    server.remote = True
    with connection, reader, writer:
        server.start_io(reader, writer, first)
    return int(server.exit_code)
