"""Helpers for the live MCP server tests: the SDK test servers in `servers/`, the CLI's JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVERS = HERE / "servers"


def server_command(script: str, *args: str) -> str:
    """A `--mcp-server` value that starts one of the test servers with this interpreter."""
    import shlex

    return shlex.join([sys.executable, str(SERVERS / script), *args])


def json_diagnostics(result: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found
