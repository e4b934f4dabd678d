"""The server as `toolsense serve` runs it: a fresh `ToolsenseServer` with every feature module registered.

The feature modules are imported plainly, so a missing or broken one fails at start-up, loudly.
"""

from __future__ import annotations

import logging
import sys
from typing import BinaryIO

from . import (
    code_actions,
    completion,
    configuration,
    definition,
    diagnostics,
    folding,
    hover,
    indexing,
    mcp_check_command,
    mcp_code_lens,
    models,
    settle,
    symbols,
    sync,
)
from .server import NoMessageBodies, ToolsenseServer
from .tcp import serve_tcp
from .transport import hard_exit

FEATURES = (
    sync,
    configuration,
    diagnostics,
    indexing,
    completion,
    hover,
    symbols,
    folding,
    definition,
    code_actions,
    models,
    settle,
    mcp_code_lens,
    mcp_check_command,
)
"""Each registers its handlers with `register(server)`, in this order."""


def create_server() -> ToolsenseServer:
    """A fresh server with every feature module registered."""
    server = ToolsenseServer()
    for module in FEATURES:
        module.register(server)
        server.feature_modules.append(module.__name__.rpartition(".")[2])
    return server


def run(
    tcp: str | None, log_level: str = "WARNING", stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """`toolsense serve`: stdio by default (`stdin`/`stdout`: the protocol's own streams, kept apart from the
    process's by the CLI), `--tcp HOST:PORT` for debugging (one authenticated client, `lsp/tcp.py`). Logs go
    to stderr, without message bodies (`NoMessageBodies`)."""
    logging.basicConfig(
        level=getattr(logging, log_level.upper(), logging.WARNING),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    for handler in logging.getLogger().handlers:
        handler.addFilter(NoMessageBodies())
    if logging.getLogger().level >= logging.WARNING:
        # pygls warns about routine protocol events (a cancel for a request already answered), and editors show
        # every stderr line as an error: in a normal run, only its errors.
        logging.getLogger("pygls").setLevel(logging.ERROR)
    server = create_server()
    if tcp:
        host, _, port = tcp.rpartition(":")
        if not port.isdigit():
            sys.stderr.write(f"toolsense: --tcp expects HOST:PORT, got {tcp!r}\n")
            return 2
        serve_tcp(server, host or "127.0.0.1", int(port))
        hard_exit(server.exit_code)  # as over stdio: a check thread still busy is not waited for
        return server.exit_code
    server.start_io(stdin, stdout)
    # The stdin reader is a daemon thread blocked in a read: a normal interpreter shutdown would wait for check
    # threads still busy and then abort on the reader's lock. Everything worth keeping is flushed: leave now.
    hard_exit(server.exit_code)
    return server.exit_code
