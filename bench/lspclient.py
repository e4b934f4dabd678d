"""A plain JSON-RPC client for a language server over subprocess pipes: enough to time the server, and no
more (no pygls on the client side, so the client's own overhead stays out of the figures)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from typing import Any

Message = dict[str, Any]


class LspClient:
    def __init__(self, command: list[str], cwd: str | None = None) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd
        )
        self.messages: queue.Queue[tuple[float, Message]] = queue.Queue()
        self.next_id = 0
        self.stderr: list[bytes] = []
        self.progress_ended: float | None = None
        """When the last `$/progress` "end" arrived (indexing done), whatever was being waited for."""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr.append(line)

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers: dict[str, str] = {}
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put((time.perf_counter(), json.loads(body)))

    def send(self, message: Message) -> float:
        payload = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stream = self.process.stdin
        assert stream is not None
        sent = time.perf_counter()  # before writing: the answer may arrive before the write call returns
        stream.write(b"Content-Length: %d\r\n\r\n" % len(payload) + payload)
        stream.flush()
        return sent

    def notify(self, method: str, params: Any) -> float:
        return self.send({"method": method, "params": params})

    def _answer(self, message: Message) -> None:
        """Requests from the server get the dullest valid answers."""
        method = message["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [None for _ in message["params"]["items"]]
        self.send({"id": message["id"], "result": result})

    def wait(self, accept: Any, timeout: float = 120.0) -> tuple[float, Message]:
        """The first message `accept(message)` is true for, with the time it arrived."""
        deadline = time.perf_counter() + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError("no matching message from the server")
            arrived, message = self.messages.get(timeout=remaining)
            if "method" in message and "id" in message:
                self._answer(message)
            if message.get("method") == "$/progress" and message["params"]["value"].get("kind") == "end":
                self.progress_ended = arrived
            if accept(message):
                return arrived, message

    def request(self, method: str, params: Any, timeout: float = 120.0) -> tuple[float, Message]:
        """Send a request; returns the round-trip seconds and the response."""
        self.next_id += 1
        ident = self.next_id
        sent = self.send({"id": ident, "method": method, "params": params})
        arrived, message = self.wait(lambda m: m.get("id") == ident and "method" not in m, timeout)
        return arrived - sent, message

    def wait_progress_end(self, timeout: float = 900.0) -> float:
        """The time indexing ended (`$/progress` end), waiting for it when it has not arrived yet."""
        if self.progress_ended is None:
            self.wait(lambda _: self.progress_ended is not None, timeout)
        assert self.progress_ended is not None
        return self.progress_ended

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the server process has used so far (all its threads)."""
        with open(f"/proc/{self.process.pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self) -> float | None:
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()
