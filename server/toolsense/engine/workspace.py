"""Files on disk: finding them, reading them safely, indexing their tools, checking them all (the CLI's core)."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote_from_bytes

from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import LineTable, Position, Range
from ..models.definitions import DESCRIPTION_KEY, NAME_KEY, schema_pointer
from ..models.dialects import Dialect, lower_types
from ..settings import Settings
from .catalog import Catalog, UnitKind
from .checker import Diagnostic, FileReport, UnitCache, check_document, with_severity
from .context import CheckContext, ToolInfo, ToolRegistry
from .findings import Severity
from .suppression import Suppressions
from .toml_config import TOML_NAMES, toml_client
from .units import Unit, forced_dialect, kind_from_path, read_unit, split, with_dialects

if TYPE_CHECKING:
    from ..usermodels import ModelRegistry

JSON_SUFFIXES = (".json", ".jsonc", ".jsonl")


def path_to_uri(path: Path) -> str:
    """The file uri of a path with symlinks resolved; a path that cannot be resolved (a symlink loop) keeps its
    absolute spelling."""
    try:
        return path.resolve().as_uri()
    except (OSError, RuntimeError):
        return path.absolute().as_uri()


def uri_to_path(uri: str) -> Path | None:
    if not uri.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(uri).path))


class NotARegularFile(OSError):
    """A FIFO, socket, device or folder where a file was expected: reading it could block forever or never end."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


class FileTooLarge(OSError):
    def __init__(self, path: Path, size: int) -> None:
        super().__init__(errno.EFBIG, "file too large", str(path))
        self.size = size


def too_large_message(size: int, limit: int) -> str:
    return (
        f"File too large for live checking ({size / 1e6:.1f} MB > {limit / 1e6:.1f} MB limit, setting "
        "limits.max_file_mb); `toolsense check` still checks it"
    )


def read_regular_file(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file. Anything else raises `NotARegularFile` without blocking: the open is
    non-blocking (a FIFO without a writer would hang a plain open) and the type is checked again on the open
    descriptor (the path may have been swapped since the first look)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotARegularFile(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(path)
        if max_bytes is not None and status.st_size > max_bytes:
            raise FileTooLarge(path, status.st_size)
        # Plain reads to the end (a third of a buffered stream's cost for a small file): the size seen, then
        # whatever the file grew by meanwhile.
        parts: list[bytes] = []
        size = 0
        while chunk := os.read(fd, max(status.st_size + 1 - size, 1 << 16)):
            parts.append(chunk)
            size += len(chunk)
            if max_bytes is not None and size > max_bytes:
                raise FileTooLarge(path, size)  # it grew while being read
    finally:
        os.close(fd)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def is_regular_or_unknown(path: Path) -> bool:
    """False only for what is surely not a regular file (FIFO, socket, device); a path that cannot be looked
    at (a symlink loop, no permission) is kept, so reading it reports why."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


@dataclass
class LoadedFile:
    path: Path
    uri: str
    document: Document | None
    problem: Diagnostic | None = None


def load_file(path: Path, max_bytes: int | None = None, uri: str | None = None, outline: bool = False) -> LoadedFile:
    """Read a file as UTF-8 JSON; unreadable, non-UTF-8 or too-large files give one clear diagnostic. `uri`:
    the path's URI when the caller has it already (resolving a path costs a system call per folder). `outline`:
    read the structure from the document's light outline whatever its size (indexing reads a file's tools and
    never asks where they are; the outline answers alike, at a fraction of tree-sitter's cost)."""
    uri = uri if uri is not None else path_to_uri(path)
    try:
        data = read_regular_file(path, max_bytes)
    except FileTooLarge as error:
        size, limit = error.size, max_bytes or 0
        message = too_large_message(size, limit)
        return LoadedFile(path, uri, None, _file_diagnostic("TS003", message, Severity.WARNING))
    except OSError as error:
        return LoadedFile(path, uri, None, _file_diagnostic("TS002", f"Cannot read file: {error.strerror}"))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        prefix = data[: error.start]  # valid UTF-8: the position is exact (LSP lines, UTF-16 columns)
        at = LineTable(prefix).position_at(prefix, len(prefix), "utf-16")
        message = f"File is not valid UTF-8: byte 0x{data[error.start]:02x} at line {at.line + 1}; save it as UTF-8"
        return LoadedFile(path, uri, None, _file_diagnostic("TS002", message, Severity.ERROR, at))
    if outline:
        return LoadedFile(path, uri, Document(uri, bytearray(data), outline_limit=0))
    return LoadedFile(path, uri, Document(uri, bytearray(data)))


def _file_diagnostic(
    code: str, message: str, severity: Severity = Severity.ERROR, at: Position | None = None
) -> Diagnostic:
    at = at or Position(0, 0)
    return Diagnostic(Range(at, at), severity, code, message)


def _value_at(value: Any, pointer: Pointer) -> Any:
    for part in pointer:
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        else:
            return None
    return value


def tool_infos(uri: str, units: Iterable[Unit], requests: bool = False) -> list[ToolInfo]:
    """The registry entries for a file's tool units. A request body's tools are its own (they are checked
    against its calls, `requests=True`), not definitions the workspace shares."""
    infos: list[ToolInfo] = []
    for unit in units:
        own = unit.origin in ("request", "response")  # a request's tools, or those a response echoes
        if unit.kind != "tool" or unit.dialect not in NAME_KEY or (own and not requests):
            continue
        name = _value_at(unit.value, NAME_KEY[unit.dialect])
        if not isinstance(name, str) or not name:
            continue
        schema = _value_at(unit.value, schema_pointer(unit.dialect, unit.value))
        if unit.dialect == Dialect.GEMINI:
            schema = lower_types(schema)  # calls are validated as JSON Schema: OBJECT is object
        output = _value_at(unit.value, ("outputSchema",)) if unit.dialect == "mcp" else None
        description = _value_at(unit.value, DESCRIPTION_KEY[unit.dialect])
        infos.append(
            ToolInfo(
                name=name,
                uri=uri,
                pointer=unit.pointer,
                name_pointer=(*unit.pointer, *NAME_KEY[unit.dialect]),
                dialect=unit.dialect,
                input_schema=schema if isinstance(schema, dict) else None,
                output_schema=output if isinstance(output, dict) else None,
                description=description if isinstance(description, str) else None,
                schema_pointer=(*unit.pointer, *schema_pointer(unit.dialect, unit.value)),
            )
        )
    return infos


def document_tools(document: Document, kind: UnitKind | None, dialect: str | None = None) -> list[ToolInfo]:
    """Tools defined in a document (reads units; used for indexing files that are not open)."""
    return index_document(document, kind, dialect)[1]


def index_document(
    document: Document, kind: UnitKind | None, dialect: str | None = None
) -> tuple[UnitKind | None, list[ToolInfo]]:
    """The kind of a document and the tools it defines, from one split."""
    file_split = split(document, kind, dialect)
    if file_split.kind != "tool":
        return file_split.kind, []
    units = with_dialects([read_unit(document, span) for span in file_split.spans])
    return file_split.kind, tool_infos(document.uri, units)


class FoundFile(NamedTuple):
    """A JSON file found under the given paths, with its canonical uri (symlinks resolved, as `path_to_uri`)
    and its size when it was seen (-1: it could not be looked at; reading it reports why)."""

    path: Path
    uri: str
    size: int


def iter_json_files(paths: Iterable[Path], settings: Settings) -> Iterator[Path]:
    """JSON files under the given paths, skipping excluded folders and symlinks that lead out of the folder;
    explicit files always included."""
    for found in json_files(paths, settings):
        yield found.path


def json_files(paths: Iterable[Path], settings: Settings) -> Iterator[FoundFile]:
    """`iter_json_files` with each file's uri and size, from one look at each file: a folder is listed with
    `os.scandir` (which tells a symlink without a system call) and a file's uri is its folder's resolved path
    and its name (only the root and symlinks are resolved, not each file's every folder)."""
    for path in paths:
        if path.is_file():
            yield FoundFile(path, path_to_uri(path), _size(path))
            continue
        try:
            base = path.resolve().as_uri()
        except (OSError, RuntimeError):
            base = None  # a symlink loop: each file's uri as `path_to_uri` spells it
        yield from _walk(path, str(path), base, settings.files.exclude)


def _walk(root: Path, folder: str, base: str | None, exclude: tuple[str, ...] | list[str]) -> Iterator[FoundFile]:
    """As `os.walk(root)` top-down (symlinked folders not entered, unreadable folders skipped), files of a
    folder in name order before its subfolders in name order. `base`: the folder's resolved uri. Iterative, with
    a stack of folders still to list: a chain of 1,200 nested folders (which git checks out) is as deep as the
    recursion limit would allow."""
    pending: list[tuple[str, str | None]] = [(folder, base)]
    while pending:
        folder, base = pending.pop()
        listed = list(_listed(root, folder, base, exclude))
        yield from (found for found in listed if isinstance(found, FoundFile))
        pending.extend(reversed([sub for sub in listed if not isinstance(sub, FoundFile)]))


def _listed(
    root: Path, folder: str, base: str | None, exclude: tuple[str, ...] | list[str]
) -> Iterator[FoundFile | tuple[str, str | None]]:
    """One folder's JSON files in name order, then its subfolders to enter (path and resolved uri) in name order."""
    from .units import glob_any

    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except OSError:
        return
    dirs: list[os.DirEntry[str]] = []
    files: list[os.DirEntry[str]] = []
    for entry in entries:
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        (dirs if is_dir else files).append(entry)
    prefix = None if base is None else (base if base.endswith("/") else base + "/")
    for entry in sorted(files, key=lambda e: e.name):
        name = entry.name
        if not name.endswith(JSON_SUFFIXES) and (name not in TOML_NAMES or toml_client(f"{folder}/{name}") is None):
            continue
        full = Path(folder) / name
        try:
            link = entry.is_symlink()
        except OSError:
            link = False
        if link and not _inside(root, full):
            continue  # a link out of the folder (to ~/.aws/…): never read what lies outside
        try:
            status = entry.stat()
        except OSError:
            size = -1  # kept: reading it reports why
        else:
            if not stat.S_ISREG(status.st_mode):
                continue  # a FIFO or device named *.json: reading it would block or never end
            size = status.st_size
        if glob_any(str(full), exclude):
            continue
        uri = path_to_uri(full) if link or prefix is None else prefix + quote_from_bytes(os.fsencode(name))
        yield FoundFile(full, uri, size)
    for entry in sorted(dirs, key=lambda e: e.name):
        sub = f"{folder}/{entry.name}" if not folder.endswith("/") else folder + entry.name
        if glob_any(f"{sub}/x", exclude):
            continue
        try:
            if entry.is_symlink():
                continue  # as os.walk: a symlinked folder is not entered
        except OSError:
            continue
        yield sub, None if prefix is None else prefix + quote_from_bytes(os.fsencode(entry.name))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return -1


def _inside(root: Path, path: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):
        return False
    return True


@dataclass
class Workspace:
    """The files given to the CLI: indexed for tools first, then each checked against that registry."""

    settings: Settings
    catalog: Catalog
    registry: ToolRegistry = field(default_factory=ToolRegistry)
    files: dict[Path, LoadedFile] = field(default_factory=dict)
    kinds: dict[Path, UnitKind | None] = field(default_factory=dict)
    models: ModelRegistry | None = None
    suppressions: dict[Path, Suppressions] = field(default_factory=dict)
    """What the settings and the comments suppressed in each file of the last `check_all`."""

    def add(self, paths: Iterable[Path]) -> None:
        for path in iter_json_files(paths, self.settings):
            loaded = load_file(path)
            self.files[path] = loaded
            self.kinds[path] = kind_from_path(str(path.resolve()), self.settings)
            if loaded.document is not None:
                dialect = forced_dialect(str(path.resolve()), self.settings)
                self.registry.set_file(loaded.uri, document_tools(loaded.document, self.kinds[path], dialect))

    def context(self, uri: str) -> CheckContext:
        return CheckContext(
            self.settings, self.registry, uri, True, self.models, root_uri=Path.cwd().as_uri(), catalog=self.catalog
        )

    def check(self, path: Path) -> FileReport | None:
        loaded = self.files[path]
        if loaded.document is None:
            return None
        return check_document(loaded.document, self.context(loaded.uri), self.kinds[path], UnitCache())

    def check_all(self) -> dict[Path, list[Diagnostic]]:
        results: dict[Path, list[Diagnostic]] = {}
        self.suppressions = {}
        for path, loaded in self.files.items():
            if loaded.problem is not None:
                problem = with_severity(loaded.problem, self.context(loaded.uri))
                results[path] = [problem] if problem is not None else []
                continue
            report = self.check(path)
            if report is None:
                continue
            if report.kind is None and self.kinds[path] is None and not report.diagnostics:
                continue  # a JSON file that is none of ours
            results[path] = report.diagnostics
            if report.suppressions:
                self.suppressions[path] = report.suppressions
        return results
