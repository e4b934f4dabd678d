"""Hostile surroundings for the robustness tests: tool files to plant, a network tripwire, a local web server that
counts requests."""

from __future__ import annotations

import http.server
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DESCRIPTION = "Looks up records for the given account so the assistant can answer questions about them."


def tool(name: str, schema: dict[str, Any], examples: list[Any] | None = None) -> dict[str, Any]:
    """An Anthropic tool definition that is otherwise clean."""
    value: dict[str, Any] = {"name": name, "description": DESCRIPTION, "input_schema": schema}
    if examples is not None:
        value["input_examples"] = examples
    return value


def write_json(path: Path, value: Any, indent: int | None = 2) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=indent) + "\n", encoding="utf-8")
    return path


_GUARD = '''
"""Installed by the toolsense robustness tests: every attempt to open a network connection is recorded and refused."""
import os
import socket

_LOG = os.environ.get("TOOLSENSE_NET_LOG", "")


def _record(what, address):
    if _LOG:
        with open(_LOG, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()} {what} {address!r}\\n")


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _record("connect", address)
        raise ConnectionRefusedError("network access is forbidden in this test")
    return _real_connect(self, address)


def _connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6):
        _record("connect_ex", address)
        return 111
    return _real_connect_ex(self, address)


def _getaddrinfo(host, *args, **kwargs):
    _record("getaddrinfo", host)
    raise socket.gaierror("name resolution is forbidden in this test")


socket.socket.connect = _connect
socket.socket.connect_ex = _connect_ex
socket.getaddrinfo = _getaddrinfo
'''


@contextmanager
def network_tripwire(folder: Path) -> Iterator[tuple[dict[str, str], Path]]:
    """Environment for a child Python whose every network connection (and DNS lookup) is logged and refused:
    a `sitecustomize` on PYTHONPATH. Yields (env, log path); the log must stay empty."""
    guard = folder / "netguard"
    guard.mkdir(parents=True, exist_ok=True)
    (guard / "sitecustomize.py").write_text(_GUARD, encoding="utf-8")
    log = folder / "network.log"
    log.write_text("", encoding="utf-8")
    pythonpath = os.pathsep.join(p for p in (str(guard), os.environ.get("PYTHONPATH", "")) if p)
    yield {"PYTHONPATH": pythonpath, "TOOLSENSE_NET_LOG": str(log)}, log


class _CountingHandler(http.server.BaseHTTPRequestHandler):
    requests: list[str]

    def do_GET(self) -> None:
        self.requests.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def local_http_server() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 that serves a schema and records every request: (base url, requests)."""
    requests: list[str] = []
    handler = type("Handler", (_CountingHandler,), {"requests": requests})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host!s}:{port}", requests
    finally:
        server.shutdown()
        server.server_close()


def lsp_json(diagnostics: list[dict[str, Any]]) -> str:
    return json.dumps(diagnostics, ensure_ascii=False)
