"""Secrets are redacted before a message is cut to length: a secret that straddles the cut of the stderr tail
(200 characters of its last line) or of the first non-JSON-RPC stdout line (TS922, 80 characters) shows no
prefix (issue 26: M6)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from clirun import run_cli

pytest.importorskip("mcp")

SECRET = "tok_0123456789abcdefSECRETSECRET"


@pytest.mark.parametrize(
    ("stream", "padding"),
    [("stderr", 150), ("stderr", 165), ("stderr", 180), ("stdout", 50), ("stdout", 60), ("stdout", 70)],
)
def test_no_prefix_of_a_secret_is_printed(tmp_path: Path, stream: str, padding: int) -> None:
    script = (
        "import os, sys; "
        f"sys.{stream}.write('leaked ' + '.' * {padding} + os.environ['TOKEN'] + '\\n'); sys.{stream}.flush()"
    )
    command = shlex.join([sys.executable, "-c", script])
    result = run_cli(
        ["check", "--mcp-server", command, "--mcp-env", f"TOKEN={SECRET}", "--mcp-timeout", "10", "--format", "json"],
        cwd=tmp_path,
    )
    output = result.stdout + result.stderr
    assert "leaked ..." in output  # the line is quoted…
    assert SECRET[:8] not in output  # …without any part of the secret
    assert SECRET[-8:] not in output
