"""The first step of importing registered models: a probe in a child process imports each module, so one that
hangs, loops, exits or crashes is found there and never imported into toolsense (see `usermodels`)."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import sys
import threading
import time

# --- the probe -------------------------------------------------------------------------------------------

_MARK = "@@toolsense-probe@@"
_PROBE = f"""
import importlib, json, os, sys, threading, time, traceback
mark = {_MARK!r}
def _orphan_watch(parent=os.getppid()):
    # A module that loops at import time must not outlive toolsense (killed or crashed parent).
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(3)
threading.Thread(target=_orphan_watch, daemon=True).start()
out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # what the module writes, print() or straight to fd 1, must not mix with the marks
sys.stdout = sys.stderr
try:  # before the clock starts: nearly every model module imports pydantic, which toolsense has loaded already
    import pydantic
except ImportError:
    pass
for module in json.loads(sys.stdin.readline()):
    out.write(mark + json.dumps({{"start": module}}) + "\\n"); out.flush()
    try:
        importlib.import_module(module)
        result = {{"module": module, "ok": True}}
    except BaseException as error:
        lines = traceback.format_exception_only(type(error), error)
        result = {{"module": module, "ok": False, "error": "".join(lines).strip()}}
    out.write(mark + json.dumps(result) + "\\n"); out.flush()
"""


def probe_modules(modules: list[str], paths: list[str], timeout: float) -> dict[str, str | None]:
    """module → None when it imported cleanly in a child process, else why not. Never hangs: each module is
    imported in its own child process (at most `_PARALLEL` at a time), killed when its import does not finish
    within `timeout` (counted from when the child starts importing, so a slow interpreter start is not blamed
    on the module)."""
    results: dict[str, str | None] = {}
    pending = list(dict.fromkeys(modules))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for first in range(0, len(pending), _PARALLEL):
        batch = pending[first : first + _PARALLEL]
        running: list[tuple[str, subprocess.Popen[str]]] = []
        for module in batch:
            try:
                process = subprocess.Popen(
                    [sys.executable, "-c", _PROBE],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=env,
                    cwd=paths[0] if paths else None,
                    preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                )
                assert process.stdin is not None
                process.stdin.write(json.dumps([module]) + "\n")
                process.stdin.close()
            except (OSError, ValueError) as error:
                results[module] = f"cannot start Python to import it: {error}"
                continue
            running.append((module, process))
        for module, process in running:
            try:
                results[module] = _probe_result(module, process, timeout)
            finally:
                if process.poll() is None:
                    process.kill()
                process.wait()
                if process.stdout is not None:
                    process.stdout.close()
    return results


def _die_with_parent() -> None:
    """In the child, before exec: the kernel kills it when toolsense dies. A module spinning in a tight loop
    holds the GIL, so the probe's own watchdog thread cannot be relied on alone."""
    import ctypes
    import signal

    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)


_PARALLEL = 8
_STARTUP_ALLOWANCE = 60.0
"""Seconds a child Python may take to start (a loaded machine) before it begins importing the module."""


def _probe_result(module: str, process: subprocess.Popen[str], timeout: float) -> str | None:
    deadline = time.monotonic() + _STARTUP_ALLOWANCE
    started = False
    while True:
        line = _readline(process, deadline)
        if line is None:
            if started:
                return f"importing it took longer than {timeout:g} s (a loop or a wait at import time?)"
            if process.poll() is None:
                return f"Python did not start within {_STARTUP_ALLOWANCE:g} s"
            return f"the Python process importing it exited (status {process.poll()})"
        if line == "":
            process.wait()
            return f"the Python process importing it exited (status {process.returncode})"
        if not line.startswith(_MARK):
            continue
        try:
            record = json.loads(line[len(_MARK) :])
        except ValueError:
            continue
        if record.get("start") == module and not started:
            started = True
            deadline = time.monotonic() + timeout
        elif record.get("module") == module:
            return None if record.get("ok") else str(record.get("error", "failed"))


def _readline(process: subprocess.Popen[str], deadline: float) -> str | None:
    """The next line of the child's output ("" at its end), or None when the deadline passes first."""
    stdout = process.stdout
    assert stdout is not None
    if os.name != "posix":  # pragma: no cover - selectors on pipes need POSIX; fall back to a reader thread
        box: list[str] = []
        reader = threading.Thread(target=lambda: box.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(max(0.0, deadline - time.monotonic()))
        return box[0] if box else None
    with selectors.DefaultSelector() as selector:
        selector.register(stdout, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                return None
            return stdout.readline()
