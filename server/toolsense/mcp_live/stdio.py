"""Our stdio transport to a live MCP server: the SDK's in what it exchanges, bounded in what it keeps.

The SDK's `stdio_client` sends the server's stderr to a file that grows as long as the server writes (and is
then read whole), reads a stdout line of any length into memory, and stops the server only on the way out of
its context: a toolsense that is killed, or that exits on `exit` or SIGTERM while a listing runs, leaves the
server running. Here:

- stdout is split into lines of at most `MAX_MESSAGE_BYTES` (a longer one ends the listing, `MessageTooLarge`);
- stderr is read as it comes and only its tail is kept (`StderrTail`);
- the server runs in a session (process group) of its own, and a `Lifeline` kills that whole group when
  toolsense ends in any way before it has stopped the server itself; the normal stop closes stdin, waits, then
  sends SIGTERM and SIGKILL to the group, so helpers the server started go with it.

On Windows (no process groups) the SDK's own transport runs, which stops the server's job object.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from .lifeline import Lifeline

if TYPE_CHECKING:
    from .targets import StdioTarget

MAX_MESSAGE_BYTES = 32 << 20
"""One JSON-RPC message from a server, at most (a page of 10,000 tools of 3 KB each)."""
STDERR_TAIL_BYTES = 8192
"""What is kept of a server's stderr: its last bytes, for the message of a failure."""
EXIT_GRACE_S = 2.0
"""How long a server may take to exit after its stdin is closed, before its group gets SIGTERM."""
TERM_GRACE_S = 2.0
"""How long the group may take to exit after SIGTERM, before SIGKILL."""
STDERR_DRAIN_S = 0.5
"""How long the end of stderr is awaited once the server's group is gone."""
_POLL_S = 0.02


class MessageTooLarge(Exception):
    """A server sent one message (a stdout line, an HTTP body) larger than the bound."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the server sent a message larger than {limit >> 20} MB")


class StderrTail:
    """The last `limit` bytes a server wrote to stderr, however much it wrote."""

    def __init__(self, limit: int = STDERR_TAIL_BYTES) -> None:
        self.limit = limit
        self._data = bytearray()
        self._cut = False

    def add(self, chunk: bytes) -> None:
        self._data += chunk
        if len(self._data) > 2 * self.limit:  # trimmed now and then, not on every chunk
            del self._data[: -self.limit]
            self._cut = True

    @property
    def cut(self) -> bool:
        """Whether the server wrote more than the tail holds (its first bytes may be the end of a secret)."""
        return self._cut or len(self._data) > self.limit

    def text(self) -> str:
        return bytes(self._data[-self.limit :]).decode("utf-8", errors="replace").strip()


def stdio_transport(target: StdioTarget, stderr: StderrTail) -> Any:
    """An async context manager giving the (read, write) streams the SDK's client session expects."""
    if sys.platform == "win32":  # pragma: no cover - no process groups there
        return _sdk_transport(target, stderr)
    return _posix_transport(target, stderr)


def _parse(line: bytes) -> Any:
    import mcp_types as types
    from mcp.shared.message import SessionMessage

    try:
        message = types.jsonrpc_message_adapter.validate_json(line.decode("utf-8", errors="replace"), by_name=False)
    except ValueError as error:  # not JSON-RPC: handed on as a value, as the SDK does (garbage on stdout)
        return error
    return SessionMessage(message)


@asynccontextmanager
async def _posix_transport(target: StdioTarget, stderr: StderrTail) -> AsyncIterator[tuple[Any, Any]]:
    import anyio
    from mcp.client.stdio import get_default_environment
    from mcp.shared.message import SessionMessage

    process = await anyio.open_process(
        [target.command, *target.args],
        env=get_default_environment() | dict(target.env),
        cwd=target.cwd,
        start_new_session=True,
    )
    # No await between the start and the lifeline: nothing may end this task in between.
    lifeline = Lifeline.watch(process.pid)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    stdin, stdout, errors = process.stdin, process.stdout, process.stderr
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)

    async def read_stdout() -> None:
        buffer = bytearray()
        async with read_writer:
            with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for chunk in stdout:
                    scanned = len(buffer)
                    buffer += chunk
                    while (end := buffer.find(b"\n", scanned)) >= 0:
                        line = bytes(buffer[:end])
                        del buffer[: end + 1]
                        scanned = 0
                        if line.strip():
                            await read_writer.send(_parse(line))
                    if len(buffer) > MAX_MESSAGE_BYTES:
                        raise MessageTooLarge(MAX_MESSAGE_BYTES)

    stderr_read = anyio.Event()

    async def read_stderr() -> None:
        try:
            with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for chunk in errors:
                    stderr.add(chunk)
        finally:
            stderr_read.set()

    async def write_stdin() -> None:
        try:
            async with write_reader:
                async for item in write_reader:
                    text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send((text + "\n").encode("utf-8", errors="replace"))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # the server is gone: the session sees the end instead of waiting

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(read_stdout)
            group.start_soon(read_stderr)
            group.start_soon(write_stdin)
            try:
                yield read_stream, write_stream
            finally:
                with anyio.CancelScope(shield=True):
                    read_stream.close()
                    write_stream.close()
                    await _stop(process)
                    # What the server wrote last (a crash's traceback) is read before the readers go; a helper
                    # that left the group may hold stderr open: bounded.
                    with anyio.move_on_after(STDERR_DRAIN_S):
                        await stderr_read.wait()
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)  # idempotent; here for a failure before the streams were handed out
            if lifeline is not None:
                await anyio.to_thread.run_sync(lifeline.release)
            for stream in (stdout, errors):
                with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await stream.aclose()
            _close_subprocess_transport(process)


async def _stop(process: Any) -> None:
    """Close stdin, give the server `EXIT_GRACE_S`, then SIGTERM and SIGKILL to its whole process group (what
    it started goes too, even when it exited by itself). Every wait is bounded."""
    import anyio

    with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    group = process.pid
    await _until(lambda: process.returncode is not None, EXIT_GRACE_S)
    for signal_number in (signal.SIGTERM, signal.SIGKILL):
        if not _group_alive(group):
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal_number)
        await _until(lambda: process.returncode is not None and not _group_alive(group), TERM_GRACE_S)


def _close_subprocess_transport(process: Any) -> None:
    """asyncio keeps a subprocess transport open (and warns when it is collected) until it is closed; nothing
    public reaches it."""
    close = getattr(getattr(getattr(process, "_process", None), "_transport", None), "close", None)
    if callable(close):
        with contextlib.suppress(PermissionError):
            close()


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member we may not signal, or a zombie: not provably gone
    return True


async def _until(condition: Any, seconds: float) -> bool:
    import anyio

    with anyio.move_on_after(seconds):
        while not condition():
            await anyio.sleep(_POLL_S)
        return True
    return False


@asynccontextmanager
async def _sdk_transport(target: StdioTarget, stderr: StderrTail) -> AsyncIterator[Any]:  # pragma: no cover
    from mcp.client.stdio import StdioServerParameters, stdio_client

    parameters = StdioServerParameters(
        command=target.command,
        args=list(target.args),
        env=dict(target.env) or None,
        cwd=target.cwd,
        encoding_error_handler="replace",
    )
    with tempfile.TemporaryFile("w+b") as errlog:
        try:
            async with stdio_client(parameters, errlog=errlog) as streams:  # type: ignore[arg-type]
                yield streams
        finally:
            with contextlib.suppress(OSError, ValueError):
                size = errlog.seek(0, os.SEEK_END)
                errlog.seek(max(0, size - stderr.limit))
                stderr.add(errlog.read(stderr.limit))
