"""The workspace's tool definitions on disk: indexed in the background at start-up (with `$/progress`), kept
current through `workspace/didChangeWatchedFiles`; open documents that depend on them are re-checked.

Reading and parsing files happens on the server's own indexing thread; only the registry update runs on the
event loop, so requests keep being answered while a large workspace is indexed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from ..engine.catalog import UnitKind
from ..engine.context import ToolInfo
from ..engine.registry_files import load_registry_extras
from ..engine.units import kind_from_path
from ..engine.workspace import (
    JSON_SUFFIXES,
    FoundFile,
    index_document,
    json_files,
    load_file,
    uri_to_path,
)
from ..settings import Settings
from .configuration import config_root, reload_config_file
from .server import ToolsenseServer

log = logging.getLogger(__name__)

MAX_INDEXED_FILES = 20_000
"""A workspace with more JSON files than this (a home folder opened by mistake) is indexed only this far."""
_PROGRESS_INTERVAL_S = 0.1
_CONFIG_FILES = ("toolsense.toml", "pyproject.toml")
WATCHED_GLOBS = ("**/*.json", "**/*.jsonc", "**/toolsense.toml", "**/pyproject.toml")


_BATCH = 32
"""Files read per task on the indexing thread: one hand-over per file cost more than reading a small file."""

Indexed = tuple[str, UnitKind | None, list[ToolInfo]]


def index_one(path: Path, settings: Settings, max_bytes: int, uri: str | None = None) -> Indexed:
    """Read one file (on the indexing thread): its uri, its kind, and the tools it defines."""
    loaded = load_file(path, max_bytes, uri, outline=True)
    hint = kind_from_path(str(path), settings)
    if loaded.document is None:
        return loaded.uri, hint, []
    kind, tools = index_document(loaded.document, hint)
    return loaded.uri, kind, tools


def index_many(
    files: list[FoundFile], settings: Settings, max_bytes: int, is_open: Callable[[str], bool]
) -> list[Indexed]:
    """Files read on the indexing thread, except those open in the editor (their open text speaks for them; one
    opened meanwhile is left alone by `_record`)."""
    return [index_one(file.path, settings, max_bytes, file.uri) for file in files if not is_open(file.uri)]


LARGE_FILE_BYTES = 1024 * 1024
"""Files from this size on are indexed after the others: the editor opens a large file as it starts, and the
open text speaks for it (reading it from disk at the same time costs the open check its interpreter)."""
LARGE_FILE_GRACE_S = 1.5
"""Large files are read no sooner than this after indexing began: an editor sends `didOpen` for the files it
shows a moment after `initialized`, and a large file read from disk just before (in the worker process, ~1 s
for 20 MB) is work thrown away that also holds the worker the open check would run in."""


def list_files(roots: list[Path], settings: Settings) -> list[FoundFile]:
    files = list(itertools.islice(json_files(roots, settings), MAX_INDEXED_FILES))
    return sorted(files, key=_is_large)  # stable: small files first, in their order


def _is_large(file: FoundFile) -> bool:
    return file.size >= LARGE_FILE_BYTES


async def _read(server: ToolsenseServer, path: Path) -> Indexed:
    return await server.scheduler.read_file(index_one, path, server.settings, server.max_bytes())


async def _read_batch(server: ToolsenseServer, batch: list[FoundFile], large_from: float) -> list[Indexed]:
    """Small files on the indexing thread in one hand-over; a large one on its own, in the worker process when
    it is up (`Scheduler.read_file`), so its parse never holds the interpreter that answers keystrokes, and
    not before the event loop's time `large_from` (`LARGE_FILE_GRACE_S`)."""
    small: list[FoundFile] = []
    large: list[FoundFile] = []
    for file in batch:
        (large if _is_large(file) else small).append(file)
    loop = asyncio.get_running_loop()
    found: list[Indexed] = []
    if small:
        found = await loop.run_in_executor(
            server.index_executor, index_many, small, server.settings, server.max_bytes(), server.is_open
        )
    if large and (wait := large_from - loop.time()) > 0:
        await asyncio.sleep(wait)
    for file in large:
        await server.scheduler.worker_free()  # a file opened meanwhile is not read: its open text speaks for it
        if not server.is_open(file.uri):
            found.append(
                await server.scheduler.read_file(index_one, file.path, server.settings, server.max_bytes(), file.uri)
            )
    return found


def _record(server: ToolsenseServer, uri: str, kind: UnitKind | None, tools: list[ToolInfo]) -> bool:
    """Store what a file on disk holds, unless it is open (then the open text speaks for it)."""
    if kind is not None:
        server.workspace_files[uri] = kind
    else:
        server.workspace_files.pop(uri, None)
    if server.is_open(uri):
        return False
    return server.registry.set_file(uri, tools)


async def index_workspace(server: ToolsenseServer) -> None:
    """Index every JSON file under the workspace folders, reporting progress when the client supports it."""
    server.index_generation += 1
    generation = server.index_generation
    if server.indexed is None:
        server.indexed = asyncio.Event()
    server.indexed.clear()
    loop = asyncio.get_running_loop()
    token: str | None = None
    if server.caps.work_done_progress:
        token = f"toolsense-index-{generation}"
        try:
            await server.work_done_progress.create_async(token)
        except Exception:
            log.warning("window/workDoneProgress/create failed", exc_info=True)
            token = None
    progress = server.work_done_progress
    if token is not None:
        progress.begin(
            token,
            types.WorkDoneProgressBegin(title="toolsense: indexing tool definitions", percentage=0, cancellable=False),
        )
    changed = False
    tools = files = 0
    try:
        paths = await loop.run_in_executor(server.index_executor, list_files, server.roots, server.settings)
        last = loop.time()
        large_from = last + LARGE_FILE_GRACE_S
        for start in range(0, len(paths), _BATCH):
            if generation != server.index_generation:
                return  # settings changed: a newer indexing run has started
            await server.scheduler.open_checks_done()
            batch = paths[start : start + _BATCH]
            read = await _read_batch(server, batch, large_from)
            # Indexing is activity: a full collection (it walks every object, the index's too) waits for its end.
            server.scheduler.collector.last_activity = time.monotonic()
            for uri, kind, found in read:
                changed |= _record(server, uri, kind, found)
                if found:
                    files += 1
                    tools += len(found)
            number = min(start + _BATCH, len(paths))
            if token is not None and loop.time() - last > _PROGRESS_INTERVAL_S:
                last = loop.time()
                progress.report(
                    token,
                    types.WorkDoneProgressReport(
                        message=f"{number}/{len(paths)} files", percentage=number * 100 // len(paths)
                    ),
                )
        before = server.registry.version
        problems = load_registry_extras(server.registry, server.settings, config_root(server))
        changed |= server.registry.version != before
        for problem in problems:
            server.show(f"toolsense: {problem}")
    finally:
        if token is not None:
            progress.end(token, types.WorkDoneProgressEnd(message=f"{tools} tools in {files} files"))
        if generation == server.index_generation:
            server.indexed.set()
    if changed:
        server.dependents_changed()


def in_workspace(server: ToolsenseServer, path: Path) -> bool:
    """Whether a file (symlinks followed) lies inside a workspace folder; without folders, any file does."""
    if not server.roots:
        return True
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        return False
    return any(resolved.is_relative_to(root.resolve()) for root in server.roots)


async def reindex_file(server: ToolsenseServer, uri: str) -> None:
    """A file closed in the editor or changed on disk: read it again (or forget it, when it is not a file of
    the workspace)."""
    path = uri_to_path(uri)
    uri = server.canonical(uri)
    if path is None or not in_workspace(server, path) or not path.is_file():
        # No workspace file speaks for this uri (an untitled buffer, a file outside the folders or a symlink out
        # of them, which is never read, a file never saved): what its open text defined goes with it.
        server.workspace_files.pop(uri, None)
        changed = not server.is_open(uri) and server.registry.remove_file(uri)
    else:
        changed = _record(server, *(await _read(server, path)))
    if changed:
        server.dependents_changed()


async def register_watchers(server: ToolsenseServer) -> None:
    if not server.caps.watched_files_dynamic:
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED_GLOBS]
    )
    registration = types.Registration(
        id="toolsense-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    try:
        await server.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
    except Exception:
        log.warning("could not register file watchers", exc_info=True)


def _settings_changed(server: ToolsenseServer, old: Settings, new: Settings) -> None:
    """New globs, excludes or registry sources change what is indexed: index again."""
    if (old.files, old.registry, old.samples) != (new.files, new.registry, new.samples):
        server.spawn(index_workspace(server), "reindex after settings change")


def register(server: ToolsenseServer) -> None:
    async def start_indexing() -> None:
        await register_watchers(server)
        await index_workspace(server)

    server.startup_hooks.append(start_indexing)
    server.settings_hooks.append(lambda old, new: _settings_changed(server, old, new))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @server.guard(lambda: None)
    async def did_change_watched_files(params: types.DidChangeWatchedFilesParams) -> None:
        config_changed = False
        changed = False
        for event in params.changes:
            path = uri_to_path(event.uri)
            if path is None:
                continue
            if path.name in _CONFIG_FILES:
                config_changed = True
                continue
            if not path.name.endswith(JSON_SUFFIXES):
                continue
            try:
                changed |= await _file_event(server, event, path)
            except Exception:
                # One odd path (a symlink loop, a file that vanished) never costs the rest of the batch.
                log.exception("watched file change failed")
        if config_changed:
            await reload_config_file(server)
        if changed:
            server.dependents_changed()


async def _file_event(server: ToolsenseServer, event: types.FileEvent, path: Path) -> bool:
    """Apply one watched-file event to the index; True when the registry changed."""
    uri = server.canonical(event.uri)
    server.disk_documents.pop(uri, None)
    if event.type == types.FileChangeType.Deleted:
        server.workspace_files.pop(uri, None)
        return not server.is_open(uri) and server.registry.remove_file(uri)
    if not in_workspace(server, path):
        return False  # a symlink out of the workspace: never read
    return _record(server, *(await _read(server, path)))
