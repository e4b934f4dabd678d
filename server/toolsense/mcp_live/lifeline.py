"""A live MCP server never outlives toolsense, however toolsense ends.

toolsense stops a server's process group itself after listing (`stdio._stop`), but it cannot when it is killed
(SIGKILL, SIGTERM from `timeout` or a cancelled CI job) or when the language server leaves with `os._exit`
while a listing runs. A `Lifeline` covers those: a tiny watcher process, in a session of its own, that holds the
read end of a pipe whose write end only toolsense holds. When toolsense ends in any way the kernel closes that
end; the watcher reads end-of-file without the word `released` and sends SIGTERM, then SIGKILL, to the server's
process group. When toolsense has stopped the server itself it writes `released` and the watcher just exits.

A watcher rather than PR_SET_PDEATHSIG: the death signal reaches one process (not the helpers a server starts in
its group), follows the thread that started the child rather than the process, and exists on Linux only. The
watcher is POSIX-wide; on Windows the SDK's job object plays this part.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys

RELEASED = b"released"

_WATCHER = """
import os, signal, sys, time
group = int(sys.argv[1])
if sys.stdin.buffer.read() != b"released":
    for number in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, number)
        except OSError:
            break
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                sys.exit(0)
            except OSError:
                pass
            time.sleep(0.05)
"""


class Lifeline:
    """Kills process group `group` unless `release()`d before toolsense ends."""

    def __init__(self, watcher: subprocess.Popen[bytes]) -> None:
        self.watcher = watcher

    @classmethod
    def watch(cls, group: int) -> Lifeline | None:
        """Start watching (None where it cannot be done: no Python to run the watcher, no process groups)."""
        if sys.platform == "win32" or not sys.executable:
            return None
        try:
            watcher = subprocess.Popen(
                # -I -S: no user site, no site-packages, no environment variables: it starts in milliseconds.
                [sys.executable, "-I", "-S", "-c", _WATCHER, str(group)],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C or a kill of toolsense's own group does not reach it
                close_fds=True,
            )
        except OSError:
            return None
        return cls(watcher)

    def release(self) -> None:
        """The group is stopped: the watcher exits without killing anything (blocks briefly; reaps it)."""
        stdin = self.watcher.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.write(RELEASED)
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            self.watcher.wait(5)
        except subprocess.TimeoutExpired:  # pragma: no cover - the watcher only reads and exits
            self.watcher.kill()
            self.watcher.wait()
