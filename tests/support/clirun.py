"""Running `toolsense` as the user does: `run` in process (capsys captures what it prints), `run_cli` as a child
process (a hang raises subprocess.TimeoutExpired instead of stalling the test run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolsense.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`toolsense check ARGS` in this process: (exit code, stdout, stderr)."""
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_cli(
    args: list[str],
    cwd: Path | None = None,
    timeout: float = 120,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m toolsense ARGS` in a child process, with `env` added to this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "toolsense", *args],
        cwd=None if cwd is None else str(cwd),
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
