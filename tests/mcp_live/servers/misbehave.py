"""An SDK server that misbehaves in one chosen way, for the robustness tests.

Usage: python misbehave.py MODE [PID_FILE]
- crash: exits with status 3 before reading anything, after a traceback on stderr;
- garbage: prints a banner on stdout, then serves one tool correctly;
- needs-input: asks for an API key on stdout and reads it from stdin before serving (it takes the client's
  first message as the key, so initialize is never answered).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

ONE_TOOL = types.Tool(
    name="echo_text",
    description="Echo the given text back unchanged; use it to test the connection.",
    input_schema={
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to echo."}},
        "required": ["text"],
        "additionalProperties": False,
    },
    annotations=types.ToolAnnotations(read_only_hint=True),
)


async def serve(list_tools: Any) -> None:
    server = Server("misbehave", version="0.0.1", on_list_tools=list_tools)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def one_tool(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ONE_TOOL])


def main() -> None:
    mode = sys.argv[1]
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as handle:
            handle.write(str(os.getpid()))
    if mode == "crash":
        sys.stderr.write("Traceback (most recent call last):\nRuntimeError: DATABASE_URL is not set\n")
        sys.exit(3)
    elif mode == "garbage":
        print("Starting misbehave server v0.0.1 ...", flush=True)
        anyio.run(serve, one_tool)
    elif mode == "needs-input":
        sys.stdout.write("Enter API key: ")
        sys.stdout.flush()
        sys.stdin.readline()
        anyio.run(serve, one_tool)
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
