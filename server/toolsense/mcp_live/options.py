"""The `toolsense check` options for live MCP servers (kept here so the CLI module stays small)."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_TIMEOUT_S = 30.0
"""Time limit per server, start to stop (the editor command uses its own, shorter one)."""


def add_live_options(check: argparse.ArgumentParser) -> None:
    group = check.add_argument_group("live MCP servers")
    group.add_argument(
        "--mcp-server",
        action="append",
        metavar='"CMD ARGS…"',
        help="start an MCP server over stdio, list its tools and check them (repeatable)",
    )
    group.add_argument(
        "--mcp-url", action="append", metavar="URL", help="connect to a Streamable HTTP MCP server (repeatable)"
    )
    group.add_argument("--mcp-env", action="append", metavar="NAME=VALUE", help="environment for --mcp-server")
    group.add_argument("--mcp-header", action="append", metavar="'NAME: VALUE'", help="HTTP header for --mcp-url")
    group.add_argument(
        "--snapshot",
        type=Path,
        metavar="DIR",
        help="write DIR/<server>.tools.json; when it is already there, report drift from it instead",
    )
    group.add_argument("--update-snapshot", action="store_true", help="with --snapshot: overwrite a committed snapshot")
    group.add_argument(
        "--mcp-timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"time limit per server (default {DEFAULT_TIMEOUT_S:g})",
    )
