"""Checking many files on every core: a process pool over files, results identical to one process.

The engine is position-free and its inputs are bytes and settings, so a file is checked the same way in any
process. `Workspace` makes two passes (index every file for its tools, then check every file against all of
them); reading and parsing each file twice would cost the pool most of what a second core gains. So a worker
reads a file once: it indexes it and checks it at once against a registry of the file's own tools that records
every question the check asks (`RecordingRegistry`). When the parent has merged the whole registry, a result
whose questions get the same answers from it is the result of the two passes, and is kept; only the other
files (a call to a tool defined elsewhere, a name defined twice) are read and checked again, in the pool
(each worker reads the registry once). Workers are started with `spawn` (no inherited state, same behaviour
on every platform).
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..settings import Settings
from ..usermodels import ModelRegistry, load_models_for_cli
from .catalog import Catalog, UnitKind
from .checker import Diagnostic
from .context import Question, RecordingRegistry, ToolInfo, ToolRegistry, answers_alike
from .suppression import Suppressions
from .units import kind_from_path
from .workspace import Workspace, document_tools, iter_json_files, load_file

if TYPE_CHECKING:
    # The pool's machinery is imported when a pool starts: most checks run in one process.
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

_CHUNK_FILES = 64
"""Files per task: large enough that pickling and scheduling stay small next to checking, small enough to
keep every worker busy until the end."""

MIN_POOL_FILES = 1000
MIN_POOL_BYTES = 8_000_000
"""By default the pool is used from this many files or bytes on: a worker costs about 0.6 s of CPU to start
(imports), a small file about 1 ms to check, so below that one process finishes first."""


def default_jobs() -> int:
    """The cores this process may run on (its affinity mask, not the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class _Indexed:
    path: Path
    uri: str
    kind: UnitKind | None
    tools: list[ToolInfo] | None
    """None when the file could not be read (it gets its problem diagnostic in the check pass)."""
    diagnostics: list[Diagnostic] | None = None
    """The speculative check's result (None: the file is none of toolsense's, as `Workspace.check_all` omits)."""
    asked: dict[Question, Any] | None = None
    """What that check asked of the registry, with the answers; None when the file was not checked."""
    suppressions: Suppressions | None = None
    """What the settings and the file's comments suppressed in that check."""


class _WorkerState:
    """What one worker process keeps between tasks: the settings and the registry it has read."""

    settings: Settings = Settings()
    catalog: Catalog = Catalog()
    models: ModelRegistry | None = None
    registry: ToolRegistry | None = None
    registry_file: str | None = None


def _init_worker(settings: Settings, catalog: Catalog, root: Path) -> None:
    _WorkerState.settings = settings
    _WorkerState.catalog = catalog
    # Registered models are imported in each worker as in the parent (which printed any problem already).
    _WorkerState.models = load_models_for_cli(settings, root, io.StringIO())


def _index_chunk(paths: Sequence[Path]) -> list[_Indexed]:
    """Each file's tools, and its speculative check against a recording registry of its own tools."""
    settings = _WorkerState.settings
    found: list[_Indexed] = []
    for path in paths:
        loaded = load_file(path)
        kind = kind_from_path(str(path.resolve()), settings)
        tools = document_tools(loaded.document, kind) if loaded.document is not None else None
        registry = RecordingRegistry()
        if tools is not None:
            registry.set_file(loaded.uri, tools)
        workspace = Workspace(settings, _WorkerState.catalog, registry, models=_WorkerState.models)
        workspace.files[path] = loaded
        workspace.kinds[path] = kind
        diagnostics = workspace.check_all().get(path)
        suppressions = workspace.suppressions.get(path)
        found.append(_Indexed(path, loaded.uri, kind, tools, diagnostics, registry.asked, suppressions))
    return found


def _check_chunk(
    registry_file: str, files: Sequence[_Indexed]
) -> list[tuple[Path, list[Diagnostic], Suppressions | None]]:
    if _WorkerState.registry_file != registry_file:
        import pickle

        with open(registry_file, "rb") as stream:
            _WorkerState.registry = pickle.load(stream)
        _WorkerState.registry_file = registry_file
    assert _WorkerState.registry is not None
    workspace = Workspace(
        _WorkerState.settings, _WorkerState.catalog, _WorkerState.registry, models=_WorkerState.models
    )
    for file in files:
        workspace.files[file.path] = load_file(file.path, uri=file.uri)
        workspace.kinds[file.path] = file.kind
    results = workspace.check_all()
    return [(path, diagnostics, workspace.suppressions.get(path)) for path, diagnostics in results.items()]


def _chunks(items: list[T], size: int) -> Iterator[list[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class PoolCheck:
    """A check of many files in worker processes, in the two passes of `Workspace`: `index` (at construction),
    then the caller may extend `registry` (the settings' extra registries), then `check`."""

    def __init__(self, paths: list[Path], settings: Settings, catalog: Catalog, root: Path, jobs: int) -> None:
        self.paths = paths
        self.jobs = jobs
        self.size = max(1, min(_CHUNK_FILES, -(-len(paths) // (jobs * 4))))
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")
        self.pool: ProcessPoolExecutor = ProcessPoolExecutor(
            jobs, mp_context=context, initializer=_init_worker, initargs=(settings, catalog, root)
        )
        self.registry = ToolRegistry()
        self.indexed: list[_Indexed] = []
        self.rechecked = 0
        """How many files the check pass read again (their speculative result did not hold)."""
        self.suppressions: dict[Path, Suppressions] = {}
        """What the settings and the comments suppressed in each file (`Workspace.suppressions`)."""
        try:
            for indexed in self.pool.map(_index_chunk, _chunks(paths, self.size)):
                self.indexed.extend(indexed)
                for entry in indexed:
                    if entry.tools is not None:
                        self.registry.set_file(entry.uri, entry.tools)
        except BaseException:
            self.close()
            raise

    @property
    def file_count(self) -> int:
        return len(self.paths)

    def check(self) -> dict[Path, list[Diagnostic]]:
        """Every file's diagnostics (files that are none of toolsense's left out, as `Workspace.check_all`)."""
        import pickle
        import tempfile

        try:
            registry = self.registry
            with tempfile.NamedTemporaryFile(prefix="toolsense-registry-", suffix=".pickle", delete=False) as out:
                pickle.dump(registry, out, protocol=pickle.HIGHEST_PROTOCOL)
            again = [entry for entry in self.indexed if entry.asked is None or not answers_alike(entry.asked, registry)]
            self.rechecked = len(again)
            rechecked: dict[Path, list[Diagnostic]] = {}
            suppressions: dict[Path, Suppressions | None] = {}
            try:
                size = max(1, min(_CHUNK_FILES, -(-len(again) // (self.jobs * 4))))
                for checked in self.pool.map(_check_chunk, itertools.repeat(out.name), _chunks(again, size)):
                    for path, diagnostics, suppressed in checked:
                        rechecked[path], suppressions[path] = diagnostics, suppressed
            finally:
                os.unlink(out.name)
            redone = {entry.path for entry in again}
            results: dict[Path, list[Diagnostic]] = {}
            for entry in self.indexed:  # in the order of the files, as one process gives them
                if entry.path in redone:
                    if entry.path in rechecked:
                        results[entry.path] = rechecked[entry.path]
                    suppressed = suppressions.get(entry.path)
                elif entry.diagnostics is not None:
                    results[entry.path] = entry.diagnostics
                    suppressed = entry.suppressions
                else:
                    suppressed = None
                if suppressed:
                    self.suppressions[entry.path] = suppressed
            return results
        finally:
            self.close()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def pool_check(
    paths: Sequence[Path], settings: Settings, catalog: Catalog, root: Path, jobs: int, always: bool
) -> PoolCheck | None:
    """A pooled check of the files under paths, or None when one process is the better choice: one job, one
    file, or (unless `always`) less work than `MIN_POOL_FILES` / `MIN_POOL_BYTES`."""
    if jobs < 2:
        return None
    files = list(dict.fromkeys(iter_json_files(paths, settings)))  # as `Workspace.files`: each path once
    if len(files) < 2 or (not always and len(files) < MIN_POOL_FILES and _total_bytes(files) < MIN_POOL_BYTES):
        return None
    return PoolCheck(files, settings, catalog, root, min(jobs, len(files)))


def _total_bytes(files: list[Path]) -> int:
    total = 0
    for path in files:
        try:
            total += path.stat().st_size
        except OSError:
            continue  # reported when the file is read
        if total >= MIN_POOL_BYTES:
            break
    return total
