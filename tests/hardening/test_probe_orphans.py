"""A registered model module that spins at import time must not outlive toolsense when toolsense is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal is Linux-only")
@pytest.mark.timeout(60)
def test_import_probe_dies_with_its_parent(tmp_path: Path) -> None:
    (tmp_path / "spinning_models.py").write_text("while True:\n    pass\n")
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from toolsense.usermodels import probe_modules; "
            f"probe_modules(['spinning_models'], [{str(tmp_path)!r}], 120.0)",
        ],
    )
    probe_pid = None
    deadline = time.monotonic() + 30
    while probe_pid is None and time.monotonic() < deadline:
        children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
        pids = children.read_text().split() if children.exists() else []
        probe_pid = int(pids[0]) if pids else None
        time.sleep(0.1)
    assert probe_pid is not None, "the probe child never started"
    time.sleep(1.0)  # let it reach the spinning import
    assert _alive(probe_pid)
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(probe_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(probe_pid)
    if alive:
        os.kill(probe_pid, signal.SIGKILL)
    assert not alive, "the import probe outlived the killed toolsense process"
