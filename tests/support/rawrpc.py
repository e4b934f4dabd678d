"""The real `python -m toolsense serve` over stdio, spoken to by bench's raw JSON-RPC client (bench/lspclient.py).

No pygls on the client side: what goes over the pipe is exactly what the test wrote, the server is a separate
process (so its memory can be read from /proc and a hang cannot take the test runner with it), and everything
the server says — messages, notifications, stderr — is recorded for later assertions.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from lspclient import LspClient

Message = dict[str, Any]


class ServerProcess(LspClient):
    """`python -m toolsense serve` as a child process. bench's client frames and reads the messages; every one
    is recorded here (with the time it arrived, `time.perf_counter`) and requests from the server are answered."""

    def __init__(
        self,
        cwd: Path,
        log_level: str = "DEBUG",
        env: dict[str, str] | None = None,
    ) -> None:
        self.received: list[tuple[float, Message]] = []
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self.configuration: dict[str, Any] | None = None
        """What to answer `workspace/configuration` with (None: null per item)."""
        self.raw_stdout = bytearray()
        """Every byte the server wrote to stdout, framing and anything that is not a message included."""
        # `env` adds to the test's environment and then runs the server in its own process (same pid).
        variables = [f"{name}={value}" for name, value in {**(env or {}), "PYTHONUNBUFFERED": "1"}.items()]
        command = ["env", *variables, sys.executable, "-m", "toolsense", "serve", "--log-level", log_level]
        super().__init__(command, cwd=str(cwd))
        threading.Thread(target=self._record, daemon=True, name="rpc-record").start()

    @property
    def pid(self) -> int:
        return self.process.pid

    # --- reading ------------------------------------------------------------------------------------------

    def _read(self) -> None:
        assert self.process.stdout is not None
        self.process.stdout = _Recorded(self.process.stdout, self.raw_stdout)  # type: ignore[assignment]
        super()._read()

    def _record(self) -> None:
        while True:
            arrived, message = self.messages.get()
            if "method" in message and "id" in message:
                self._answer(message)
            with self._cond:
                self.received.append((arrived, message))
                self._cond.notify_all()

    def _answer(self, message: Message) -> None:
        """Requests from the server get plain valid answers."""
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [self.configuration for _ in message["params"]["items"]]
        self.send({"id": message["id"], "result": result})

    # --- writing ------------------------------------------------------------------------------------------

    def send(self, message: Message) -> float:
        with self._write_lock:  # the test and the recording thread (answers) both write
            return super().send(message)

    def request_async(self, method: str, params: Any) -> int:
        """Send a request; the answer is found later with `response(id)`."""
        with self._write_lock:
            self.next_id += 1
            ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        return ident

    def request(self, method: str, params: Any, timeout: float = 60.0) -> Any:  # type: ignore[override]
        ident = self.request_async(method, params)
        message = self.response(ident, timeout)
        if "error" in message:
            raise RuntimeError(f"{method} failed: {message['error']}")
        return message.get("result")

    def settle(self, timeout: float = 180.0) -> None:
        """Have the server run every pending check now and wait for its background work (`toolsense/settle`):
        whatever those publish has arrived when this returns."""
        self.request("toolsense/settle", None, timeout)

    def response(self, ident: int, timeout: float) -> Message:
        return self.response_at(ident, timeout)[1]

    def response_at(self, ident: int, timeout: float) -> tuple[float, Message]:
        """The answer to request `ident` and when it arrived (time.perf_counter)."""
        return self.wait_for(lambda m: m.get("id") == ident and "method" not in m, timeout)

    def wait_for(self, accept: Callable[[Message], bool], timeout: float, start: int = 0) -> tuple[float, Message]:
        """The first received message (from index `start`) that `accept` likes, waiting at most `timeout` s."""
        deadline = time.perf_counter() + timeout
        with self._cond:
            index = start
            while True:
                while index < len(self.received):
                    arrived, message = self.received[index]
                    index += 1
                    if accept(message):
                        return arrived, message
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise TimeoutError(f"no matching message within {timeout} s")
                if self.process.poll() is not None and index >= len(self.received):
                    raise ConnectionError(f"server exited with status {self.process.returncode}")
                self._cond.wait(min(remaining, 0.5))

    def notifications(self, method: str) -> list[Message]:
        with self._cond:
            return [m for _, m in self.received if m.get("method") == method and "id" not in m]

    def diagnostics_for(self, uri: str) -> list[Message]:
        return [m["params"] for m in self.notifications("textDocument/publishDiagnostics") if m["params"]["uri"] == uri]

    def wait_diagnostics(
        self, uri: str, timeout: float, accept: Callable[[Message], bool] = lambda params: True
    ) -> Message:
        """The first publishDiagnostics for uri that `accept(params)` likes."""

        def wanted(message: Message) -> bool:
            if message.get("method") != "textDocument/publishDiagnostics":
                return False
            params = message["params"]
            return bool(params["uri"] == uri and accept(params))

        params: Message = self.wait_for(wanted, timeout)[1]["params"]
        return params

    # --- the LSP life cycle -------------------------------------------------------------------------------

    def initialize(
        self,
        root: Path,
        options: dict[str, Any] | None = None,
        capabilities: dict[str, Any] | None = None,
        timeout: float = 60.0,
    ) -> Any:
        params = {
            "processId": os.getpid(),
            "rootUri": root.resolve().as_uri(),
            "workspaceFolders": [{"uri": root.resolve().as_uri(), "name": root.name}],
            "capabilities": capabilities if capabilities is not None else _DEFAULT_CAPABILITIES,
            "initializationOptions": options,
        }
        result = self.request("initialize", params, timeout)
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str, version: int = 1, language_id: str = "json") -> str:
        uri = path.resolve().as_uri()
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language_id, "version": version, "text": text}},
        )
        return uri

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}
        )

    def completion_async(self, uri: str, line: int, character: int) -> int:
        position = {"line": line, "character": character}
        return self.request_async("textDocument/completion", {"textDocument": {"uri": uri}, "position": position})

    def rss_kb(self) -> int:
        return read_status(self.pid, "VmRSS")

    def stderr_text(self) -> str:
        return b"".join(list(self.stderr)).decode("utf-8", "replace")

    def stdout_text(self) -> str:
        return bytes(self.raw_stdout).decode("utf-8", "replace")

    def close(self) -> None:
        if self.process.poll() is None:
            super().close()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class _Recorded:
    """The server's stdout as bench's client reads it, every byte read also kept in `into`."""

    def __init__(self, stream: IO[bytes], into: bytearray) -> None:
        self.stream = stream
        self.into = into

    def readline(self) -> bytes:
        line = self.stream.readline()
        self.into.extend(line)
        return line

    def read(self, size: int) -> bytes:
        data = self.stream.read(size)
        self.into.extend(data)
        return data

    def close(self) -> None:
        self.stream.close()


def read_status(pid: int, field: str) -> int:
    """A `/proc/<pid>/status` field in kB (VmRSS, VmHWM)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


_DEFAULT_CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        "synchronization": {"didSave": True},
        "completion": {"completionItem": {"snippetSupport": False}},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
    },
    "window": {"workDoneProgress": False},
    "workspace": {"configuration": False},
}


def position_of(text: str, index: int) -> dict[str, int]:
    """LSP position of a character index in ASCII text (UTF-16 columns are characters)."""
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}
