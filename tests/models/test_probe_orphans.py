"""A registered model module that spins at import time must not outlive toolsense when toolsense is killed."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import alive, until


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal is Linux-only")
@pytest.mark.timeout(60)
def test_import_probe_dies_with_its_parent(tmp_path: Path) -> None:
    (tmp_path / "spinning_models.py").write_text("while True:\n    pass\n")
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from toolsense.modelprobe import probe_modules; "
            f"probe_modules(['spinning_models'], [{str(tmp_path)!r}], 120.0)",
        ],
    )

    def probe() -> int | None:
        children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
        pids = children.read_text().split() if children.exists() else []
        return int(pids[0]) if pids else None

    probe_pid = until(probe, "the probe child started")
    # It has reached the spinning import once it has burnt more CPU than starting Python takes.
    until(lambda: _cpu_seconds(probe_pid) >= 0.5 or not alive(probe_pid), "the probe spinning")
    assert alive(probe_pid)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    with contextlib.suppress(AssertionError):
        until(lambda: not alive(probe_pid), "the probe gone", timeout=10)
    survived = alive(probe_pid)
    if survived:
        os.kill(probe_pid, signal.SIGKILL)
    assert not survived, "the import probe outlived the killed toolsense process"
