"""A low-level SDK server that lists its tools over several pages (`nextCursor`), over stdio or HTTP.

Usage: python paged_server.py [stdio | http PORT_FILE] [--tools N] [--page N] [--name NAME] [--prefix PREFIX]
                              [--invalid] [--stderr-env VAR [--exit-after-stderr]]
The tools are named PREFIX_0, PREFIX_1, … (default get_item_0, …).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server


def tool(index: int, prefix: str = "get_item", suffix: str = "") -> types.Tool:
    return types.Tool(
        name=f"{prefix}_{index}",
        description=f"Get item {index} by id. Use it when you know the id." + (suffix if index == 0 else ""),
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "string", "description": "The item id."}},
            "required": ["id"],
        },
        annotations=types.ToolAnnotations(read_only_hint=True),
    )


def invalid_tools() -> list[types.Tool]:
    return [
        types.Tool(name="bad name", description="Has a space.", input_schema={"type": "object"}),
        types.Tool(
            name="typo_type",
            description="Wrong type name.",
            input_schema={"type": "object", "properties": {"x": {"type": "strin"}}, "required": ["y"]},
        ),
    ]


def build(args: argparse.Namespace) -> Server[Any]:
    tools = [tool(i, args.prefix, args.suffix) for i in range(args.tools)]
    if args.invalid:
        tools += invalid_tools()

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        start = int(params.cursor) if params is not None and params.cursor else 0
        end = start + args.page
        cursor = str(end) if end < len(tools) else None
        return types.ListToolsResult(tools=tools[start:end], next_cursor=cursor)

    return Server(args.name, version="1.2.3", on_list_tools=list_tools)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", nargs="?", default="stdio")
    parser.add_argument("port_file", nargs="?")
    parser.add_argument("--tools", type=int, default=3)
    parser.add_argument("--page", type=int, default=2)
    parser.add_argument("--name", default="paged-demo")
    parser.add_argument("--prefix", default="get_item", help="tool names: PREFIX_0, PREFIX_1, …")
    parser.add_argument("--invalid", action="store_true")
    parser.add_argument("--suffix", default="", help="appended to the first tool's description (a rug pull)")
    parser.add_argument("--stderr-env", default=None, help="print this env variable's value to stderr at start")
    parser.add_argument("--exit-after-stderr", action="store_true", help="then exit with status 1")
    args = parser.parse_args()
    if args.stderr_env:
        sys.stderr.write(f"starting with {os.environ.get(args.stderr_env)}\n")
        sys.stderr.flush()
        if args.exit_after_stderr:
            sys.exit(1)
    server = build(args)
    if args.transport == "stdio":
        from mcp.server.stdio import stdio_server

        async def run() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        anyio.run(run)
        return
    serve_http(server, args.port_file)


def serve_http(server: Server[Any], port_file: str) -> None:
    import socket

    import uvicorn

    app = server.streamable_http_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning")
    instance = uvicorn.Server(config)

    async def announce() -> None:
        while not instance.started:
            await anyio.sleep(0.01)
        with open(port_file + ".tmp", "w") as handle:
            handle.write(str(port))
        os.replace(port_file + ".tmp", port_file)

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(announce)
            await instance.serve(sockets=[sock])

    anyio.run(run)


if __name__ == "__main__":
    main()
