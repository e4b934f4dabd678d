"""Workspace indexing: which files are read from disk, and where."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from toolsense.engine.workspace import json_files
from toolsense.lsp.indexing import LARGE_FILE_BYTES, _read_batch
from toolsense.lsp.server import ToolsenseServer
from toolsense.settings import Settings


class _Scheduler:
    def __init__(self) -> None:
        self.read: list[Path] = []

    async def read_file(self, function: Any, path: Path, *args: Any) -> Any:
        self.read.append(path)
        return function(path, *args)

    async def worker_free(self) -> None:
        """No worker here: nothing to wait for."""


class _Server:
    """What `_read_batch` asks of the server: which files are open, where to read, the settings."""

    def __init__(self) -> None:
        self.open: set[str] = set()
        self.documents: dict[str, Any] = {}
        self.scheduler = _Scheduler()
        self.index_executor = None
        self.settings = Settings()

    def is_open(self, uri: str) -> bool:
        return uri in self.open

    def max_bytes(self) -> int:
        return 10_000_000


async def test_a_large_file_opened_while_indexing_starts_is_never_read_from_disk(tmp_path: Path) -> None:
    large = tmp_path / "big.tools.json"
    large.write_text(
        '[{"name": "a", "description": "d", "input_schema": {"type": "object"}}' + " " * LARGE_FILE_BYTES + "]"
    )
    small = tmp_path / "small.tools.json"
    small.write_text('[{"name": "b", "description": "d", "input_schema": {"type": "object"}}]')
    files = list(json_files([tmp_path], Settings()))
    assert [f.path for f in files] == [large, small]
    server = _Server()
    loop = asyncio.get_running_loop()
    # The editor opens the large file a moment after indexing began, before the grace is over.
    loop.call_soon(server.open.add, files[0].uri)
    read = await _read_batch(cast(ToolsenseServer, server), files, loop.time() + 0.5)
    assert [(uri, kind, [t.name for t in tools]) for uri, kind, tools in read] == [(files[1].uri, "tool", ["b"])]
    assert server.scheduler.read == []
    # Not open: read once the grace is over.
    server.open.clear()
    read = await _read_batch(cast(ToolsenseServer, server), files[:1], loop.time())
    assert [(uri, [t.name for t in tools]) for uri, _, tools in read] == [(files[0].uri, ["a"])]
    assert server.scheduler.read == [large]
