"""Start or connect to an MCP server with the official SDK and list its tools, raw.

The tool definitions are kept exactly as the server sent them (the JSON-RPC result, read off the transport),
not as the SDK's models parse them: an invalid definition is what we want to see and place, and the SDK would
reject it (or drop tools it filters). Every way a server can fail — not found, crashing on start, printing
garbage on stdout, waiting for input, hanging, an endless cursor, a huge listing — ends in one `LiveProblem`
within `timeout` seconds; the stdio transport (`stdio.py`) then stops the server's process group (stdin closed,
SIGTERM, SIGKILL), and its `Lifeline` does so when toolsense itself is killed, so nothing is left running. What a
server sends is bounded as it arrives: one message (`stdio.MAX_MESSAGE_BYTES`, an HTTP body too), the tail of
its stderr, and the tools of a page beyond `max_tools`. Values of `env` and `headers` are secrets: they are
redacted from every message, and the SDK's own logger (which would print unparsable stdout lines) is kept quiet.
"""

from __future__ import annotations

import contextlib
import logging
import math
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from .http import bounded_http_transport
from .options import DEFAULT_TIMEOUT_S
from .stdio import MessageTooLarge, StderrTail, stdio_transport
from .targets import HttpTarget as HttpTarget
from .targets import StdioTarget as StdioTarget
from .targets import Target as Target

MAX_PAGES = 1000
MAX_TOOLS = 10_000
_STDERR_TAIL = 600


class SdkMissing(RuntimeError):
    """The optional `mcp` package is not installed."""

    def __init__(self) -> None:
        super().__init__(
            "checking live MCP servers needs the MCP Python SDK: pip install 'toolsense[mcp]' (or: pip install mcp)"
        )


@dataclass(frozen=True)
class LiveProblem:
    """Why nothing (or not everything) could be listed; `code` is a catalog code."""

    code: str
    message: str


@dataclass
class Listing:
    target: Target
    server_name: str | None = None
    server_version: str | None = None
    protocol_version: str | None = None
    tools: list[Any] = field(default_factory=list)
    pages: int = 0
    problem: LiveProblem | None = None
    """A failure: no listing, or a partial one (`tools` holds what came before it)."""
    notes: list[LiveProblem] = field(default_factory=list)
    """Things worth a warning that did not stop the listing (garbage on stdout, a truncated listing)."""


def secrets_of(target: Target) -> list[str]:
    """Values that must never appear in a message or a log: env values, header values, URL credentials."""
    values: list[str] = list(target.hidden)
    if isinstance(target, StdioTarget):
        values += target.env.values()
    else:
        values += target.headers.values()
        values += [part for header in target.headers.values() for part in header.split() if len(part) >= 4]
        match = re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*://([^/@]*)@", target.url)
        if match:
            values += [part for part in re.split("[:]", match.group(1)) if part]
    return sorted({v for v in values if len(v) >= 3}, key=len, reverse=True)


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


def list_tools(
    target: Target, timeout: float = DEFAULT_TIMEOUT_S, max_pages: int = MAX_PAGES, max_tools: int = MAX_TOOLS
) -> Listing:
    """List every tool of a server (blocking; runs its own event loop, so call it from a worker thread in an
    async program). Never raises for a server's misbehaviour; raises `SdkMissing` without the SDK."""
    try:
        import anyio
    except ImportError as error:  # pragma: no cover - anyio comes with mcp
        raise SdkMissing() from error
    _require_sdk()
    _quiet_sdk_logs()
    listing = Listing(target)
    secrets = secrets_of(target)
    errlog = StderrTail()
    try:
        anyio.run(_run, target, listing, timeout, max_pages, max_tools, errlog)
    except BaseException as error:  # every failure becomes one problem
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        stderr = _tail(errlog, secrets)
        listing.problem = _problem_for(_leaf(error), listing, timeout, stderr, _Stage.current(listing))
    # Messages quote what the server printed, cut to length: secrets are redacted before any cut (above, and in
    # `_Tap`), so a secret straddling a cut never shows its first characters; and once more over the whole text.
    if listing.problem is not None:
        listing.problem = LiveProblem(listing.problem.code, redact(listing.problem.message, secrets))
    listing.notes = [LiveProblem(n.code, redact(n.message, secrets)) for n in listing.notes]
    return listing


def _require_sdk() -> None:
    try:
        import mcp  # noqa: F401
    except ImportError as error:
        raise SdkMissing() from error


def _quiet_sdk_logs() -> None:
    # The SDK logs unparsable stdout lines (whatever the server printed, secrets included) with tracebacks.
    sdk_log = logging.getLogger("mcp")
    if sdk_log.level < logging.CRITICAL:
        sdk_log.setLevel(logging.CRITICAL)


class _Stage:
    """What the listing was doing, for the message of a timeout or a failure."""

    @staticmethod
    def current(listing: Listing) -> str:
        if listing.protocol_version is None:
            return "initialize"
        return f"tools/list, page {listing.pages + 1}"


class _Tap:
    """Sees every message the transport delivers: the raw results, and lines that were not JSON-RPC."""

    def __init__(self, secrets: list[str]) -> None:
        self.secrets = secrets
        self.last_result: dict[str, Any] | None = None
        self.room: int | None = None
        """How many more tools the listing takes: a longer `tools` array is cut as it arrives, before the SDK
        validates it or anything else holds it."""
        self.dropped = 0
        self.garbage: list[str] = []
        """The first few lines that were not JSON-RPC (a server may print them forever: bounded)."""
        self.garbage_count = 0

    def see(self, item: Any) -> None:
        if isinstance(item, Exception):
            self.garbage_count += 1
            if len(self.garbage) < 3:
                self.garbage.append(redact(_garbage_text(item), self.secrets))  # before `_short` cuts it
            return
        message = getattr(getattr(item, "message", None), "result", None)
        if isinstance(message, dict):
            tools = message.get("tools")
            if isinstance(tools, list) and self.room is not None and len(tools) > self.room:
                self.dropped += len(tools) - self.room
                del tools[self.room :]
            self.last_result = message


def _garbage_text(error: Exception) -> str:
    errors = getattr(error, "errors", None)
    if callable(errors):
        try:
            found = errors()
        except Exception:  # a description only
            found = []
        for entry in found:
            value = entry.get("input") if isinstance(entry, dict) else None
            if isinstance(value, str):
                return value
    return str(error).splitlines()[0] if str(error) else type(error).__name__


@asynccontextmanager
async def _tapped(transport: Any, tap: _Tap) -> AsyncIterator[Any]:
    import anyio

    async with transport as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[Any](0)

        async def pump() -> None:
            async with send:
                async for item in read_stream:
                    tap.see(item)
                    await send.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            try:
                yield receive, write_stream
            finally:
                group.cancel_scope.cancel()
                receive.close()


async def _run(
    target: Target, listing: Listing, timeout: float, max_pages: int, max_tools: int, errlog: StderrTail
) -> None:
    import anyio
    from mcp import Client
    from mcp.shared.exceptions import MCPError
    from mcp_types import UNSUPPORTED_PROTOCOL_VERSION

    with anyio.fail_after(timeout if math.isfinite(timeout) else None):
        try:
            await _session(target, listing, max_pages, max_tools, errlog, "legacy", Client)
        except MCPError as error:
            if error.code != UNSUPPORTED_PROTOCOL_VERSION or listing.protocol_version is not None:
                raise
            # A server that speaks only the stateless (2026) protocol: negotiate it instead of the handshake.
            await _session(target, listing, max_pages, max_tools, errlog, "auto", Client)


async def _session(
    target: Target, listing: Listing, max_pages: int, max_tools: int, errlog: StderrTail, mode: str, client_cls: Any
) -> None:
    import mcp_types as types
    from pydantic import ValidationError

    tap = _Tap(secrets_of(target))
    listing.notes.clear()

    async def on_message(message: Any) -> None:
        """Notifications and transport errors: the tap has already seen the errors (unparsable lines)."""

    transport = _tapped(_transport(target, errlog), tap)
    from .. import __version__  # the package metadata, read when a server is reached

    info = types.Implementation(name="toolsense", version=__version__)
    try:
        async with client_cls(transport, mode=mode, cache=None, message_handler=on_message, client_info=info) as client:
            server = client.server_info
            listing.server_name = server.name if server is not None else None
            listing.server_version = server.version if server is not None else None
            listing.protocol_version = client.protocol_version
            cursor: str | None = None
            seen: set[str] = set()
            while True:
                params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
                tap.last_result = None
                tap.room = max(0, max_tools - len(listing.tools))
                # The raw result is what we check; the SDK's opinion of it is not needed.
                with contextlib.suppress(ValidationError):
                    await client.session.list_tools(params=params)
                raw = tap.last_result
                listing.pages += 1
                tools = raw.get("tools") if isinstance(raw, dict) else None
                if not isinstance(tools, list):
                    listing.problem = LiveProblem(
                        "TS920", f"tools/list answered without a `tools` array (page {listing.pages})"
                    )
                    return
                listing.tools.extend(tools)
                next_cursor = raw.get("nextCursor") if isinstance(raw, dict) else None
                if (not isinstance(next_cursor, str) or not next_cursor) and not tap.dropped:
                    break
                if len(listing.tools) >= max_tools:
                    listing.notes.append(
                        LiveProblem(
                            "TS923", f"Listing stopped at {len(listing.tools)} tools (the limit is {max_tools})"
                        )
                    )
                    break
                if next_cursor in seen or listing.pages >= max_pages:
                    why = "repeats a cursor" if next_cursor in seen else f"went on past {max_pages} pages"
                    listing.notes.append(
                        LiveProblem(
                            "TS923", f"Listing stopped after {listing.pages} pages: the server's pagination {why}"
                        )
                    )
                    break
                seen.add(next_cursor)
                cursor = next_cursor
    finally:
        if tap.garbage:
            first, count = tap.garbage[0], tap.garbage_count
            listing.notes.append(
                LiveProblem(
                    "TS922",
                    f"The server wrote {count} line{'s' if count != 1 else ''} to stdout that "
                    f"{'are' if count != 1 else 'is'} not JSON-RPC (first: {_short(first)}); stdout "
                    "belongs to the protocol, log to stderr",
                )
            )


def _transport(target: Target, errlog: StderrTail) -> Any:
    if isinstance(target, StdioTarget):
        return stdio_transport(target, errlog)
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(
        headers=dict(target.headers), timeout=httpx2.Timeout(30.0, read=300.0), transport=bounded_http_transport()
    )
    return _closing_http(streamable_http_client(target.url, http_client=http), http)


@asynccontextmanager
async def _closing_http(transport: Any, http: Any) -> AsyncIterator[Any]:
    try:
        async with transport as streams:
            yield streams
    finally:
        await http.aclose()


def _leaf(error: BaseException) -> BaseException:
    """The first real failure inside (nested) exception groups."""
    inner = getattr(error, "exceptions", None)
    while isinstance(inner, tuple) and inner and isinstance(inner[0], BaseException):
        error = inner[0]
        inner = getattr(error, "exceptions", None)
    return error


def _tail(errlog: StderrTail, secrets: list[str]) -> str:
    """The end of the server's stderr, secrets redacted before it is cut. Where the kept tail begins inside a
    secret, the part of it that is left is redacted too."""
    text = errlog.text()
    if errlog.cut:
        for secret in secrets:
            for size in range(len(secret) - 1, 3, -1):
                if text.startswith(secret[-size:]):
                    text = "***" + text[size:]
                    break
    text = redact(text, secrets).strip()
    if len(text) > _STDERR_TAIL:
        text = "…" + text[-_STDERR_TAIL:]
    return text


def _short(text: str, limit: int = 80) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _problem_for(error: BaseException, listing: Listing, timeout: float, stderr: str, stage: str) -> LiveProblem:
    from mcp.shared.exceptions import MCPError

    target = listing.target
    said = f"; its stderr ends with: {stderr.splitlines()[-1][:200]!r}" if stderr else ""
    garbage = next((n.message for n in listing.notes if n.code == "TS922"), "")
    if isinstance(error, TimeoutError):
        message = f"The server did not answer within {timeout:g} s ({stage})"
        if garbage:
            message += f". {garbage}"
        elif isinstance(target, StdioTarget) and listing.protocol_version is None:
            message += "; does it wait for input, or expect other arguments?"
        return LiveProblem("TS921", message + said)
    if isinstance(error, MessageTooLarge):
        return LiveProblem("TS920", f"{stage} failed: {error}")
    if isinstance(error, FileNotFoundError) and isinstance(target, StdioTarget):
        return LiveProblem("TS920", f"Cannot start the server: command {target.command!r} not found")
    if isinstance(error, PermissionError) and isinstance(target, StdioTarget):
        return LiveProblem("TS920", f"Cannot start the server: {target.command!r} is not executable")
    if isinstance(error, MCPError):
        if listing.protocol_version is None and isinstance(target, StdioTarget):
            message = "The server exited or closed stdout before answering initialize"
            if error.code not in (-32000, -32001):
                message = f"initialize failed: {error.message} (code {error.code})"
            return LiveProblem("TS920", message + (f". {garbage}" if garbage else "") + said)
        return LiveProblem("TS920", f"{stage} failed: {error.message} (code {error.code})" + said)
    name = type(error).__name__
    if name in ("ConnectError", "ConnectTimeout") and isinstance(target, HttpTarget):
        return LiveProblem("TS920", f"Cannot connect to {target.label()}: {error}")
    if name.startswith("HTTPStatusError") or "HTTP" in name:
        return LiveProblem("TS920", f"{stage} failed: {error}")
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return LiveProblem("TS920", f"{stage} failed: {name}{': ' + text if text else ''}" + said)
