"""A hostile MCP server without the SDK (newline-delimited JSON-RPC on stdio), quick to start.

Usage: python raw_server.py MODE [ARG] [PID_FILE]
- stderr-flood MB: writes MB megabytes to stderr, then a last line `tail 😀 end`, and exits with status 1;
- one-page N: answers tools/list with N tools in one page;
- long-line MB: answers initialize with one line of MB megabytes (no newline until the end);
- hang: writes its pid and the pid of a helper it started (in its own process group) to PID_FILE, one a line,
  ignores SIGTERM and SIGHUP, and never answers;
- hang-on-list PID_FILE: writes its pid, ignores SIGTERM, answers initialize and never answers tools/list;
- noise-only: prints two lines that are not JSON-RPC and never answers.

Without the SDK's imports it is ready in a fraction of a second even on a loaded machine, so a test of a time
limit measures the limit, not the start-up.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

mode = sys.argv[1]
arg = sys.argv[2] if len(sys.argv) > 2 else ""


def send(message: dict[str, object]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def tool(name: str) -> dict[str, object]:
    return {"name": name, "description": "Echo text back.", "inputSchema": {"type": "object"}}


if mode == "hang":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    helper = subprocess.Popen(
        [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"]
    )
    with open(arg, "w") as handle:
        handle.write(f"{os.getpid()}\n{helper.pid}\n")
    time.sleep(120)
    sys.exit(0)
if mode == "noise-only":
    print("Loading plugins...", flush=True)
    print("Ready? not really", flush=True)
    sys.stdin.read()
    sys.exit(0)
if mode == "hang-on-list":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with open(arg, "w") as handle:
        handle.write(str(os.getpid()))
if mode == "stderr-flood":
    chunk = (("x" * 1023) + "\n").encode() * 1024
    for _ in range(int(arg)):
        os.write(2, chunk)
    os.write(2, "tail 😀 end\n".encode())
    sys.exit(1)
if mode == "long-line":
    sys.stdout.buffer.write(b'{"jsonrpc": "2.0", "id": 0, "result": {"x": "' + b"a" * (int(arg) << 20))
    sys.stdout.buffer.flush()
    time.sleep(120)
    sys.exit(0)

for line in sys.stdin.buffer:
    request = json.loads(line)
    ident = request.get("id")
    if ident is None:
        continue
    if request["method"] == "initialize":
        version = request["params"]["protocolVersion"]
        info = {"name": f"raw-{mode}", "version": "1.0"}
        send(
            {
                "jsonrpc": "2.0",
                "id": ident,
                "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info},
            }
        )
    elif request["method"] == "tools/list" and mode == "hang-on-list":
        continue
    elif request["method"] == "tools/list":
        count = int(arg) if mode == "one-page" else 1
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool(f"t{i}") for i in range(count)]}})
    else:
        send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "no such method"}})
