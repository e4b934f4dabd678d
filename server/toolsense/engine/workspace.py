"""Files on disk: finding them, reading them safely, indexing their tools, checking them all (the CLI's core)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..document.document import Document
from ..document.jsontree import Pointer
from ..document.lines import LineTable, Position, Range
from ..models.definitions import DESCRIPTION_KEY, NAME_KEY, SCHEMA_KEY
from ..settings import Settings
from .catalog import UnitKind
from .checker import Diagnostic, FileReport, UnitCache, check_document, with_severity
from .context import CheckContext, ToolInfo, ToolRegistry
from .findings import Severity
from .units import Unit, kind_from_path, read_unit, split, with_dialects

JSON_SUFFIXES = (".json", ".jsonc")


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


def uri_to_path(uri: str) -> Path | None:
    if not uri.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse

    return Path(unquote(urlparse(uri).path))


@dataclass
class LoadedFile:
    path: Path
    uri: str
    document: Document | None
    problem: Diagnostic | None = None


def load_file(path: Path, max_bytes: int | None = None, uri: str | None = None) -> LoadedFile:
    """Read a file as UTF-8 JSON; unreadable, non-UTF-8 or too-large files give one clear diagnostic. `uri`:
    the path's URI when the caller has it already (resolving a path costs a system call per folder)."""
    uri = uri if uri is not None else path_to_uri(path)
    try:
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            message = f"File too large for live checking ({size / 1e6:.1f} MB > {max_bytes / 1e6:.1f} MB limit)"
            return LoadedFile(path, uri, None, _file_diagnostic("TS003", message, Severity.WARNING))
        data = path.read_bytes()
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


def tool_infos(uri: str, units: Iterable[Unit]) -> list[ToolInfo]:
    """The registry entries for a file's tool units."""
    infos: list[ToolInfo] = []
    for unit in units:
        if unit.kind != "tool" or unit.dialect not in NAME_KEY:
            continue
        name = _value_at(unit.value, NAME_KEY[unit.dialect])
        if not isinstance(name, str) or not name:
            continue
        schema = _value_at(unit.value, SCHEMA_KEY[unit.dialect])
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
                schema_pointer=(*unit.pointer, *SCHEMA_KEY[unit.dialect]),
            )
        )
    return infos


def document_tools(document: Document, kind: UnitKind | None) -> list[ToolInfo]:
    """Tools defined in a document (reads units; used for indexing files that are not open)."""
    file_split = split(document, kind)
    if file_split.kind != "tool":
        return []
    units = with_dialects([read_unit(document, span) for span in file_split.spans])
    return tool_infos(document.uri, units)


def iter_json_files(paths: Iterable[Path], settings: Settings) -> Iterator[Path]:
    """JSON files under the given paths, skipping excluded folders and symlinks that lead out of the folder;
    explicit files always included."""
    from .units import glob_match

    for path in paths:
        if path.is_file():
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(
                d for d in dirs if not any(glob_match(f"{folder}/{d}/x", g) for g in settings.files.exclude)
            )
            for name in sorted(files):
                if name.endswith(JSON_SUFFIXES):
                    full = Path(folder) / name
                    if full.is_symlink() and not _inside(path, full):
                        continue  # a link out of the folder (to ~/.aws/…): never read what lies outside
                    if not any(glob_match(str(full), g) for g in settings.files.exclude):
                        yield full


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
    registry: ToolRegistry = field(default_factory=ToolRegistry)
    files: dict[Path, LoadedFile] = field(default_factory=dict)
    kinds: dict[Path, UnitKind | None] = field(default_factory=dict)
    models: Any = None

    def add(self, paths: Iterable[Path]) -> None:
        for path in iter_json_files(paths, self.settings):
            loaded = load_file(path)
            self.files[path] = loaded
            self.kinds[path] = kind_from_path(str(path.resolve()), self.settings)
            if loaded.document is not None:
                self.registry.set_file(loaded.uri, document_tools(loaded.document, self.kinds[path]))

    def context(self, uri: str) -> CheckContext:
        return CheckContext(self.settings, self.registry, uri, True, self.models)

    def check(self, path: Path) -> FileReport | None:
        loaded = self.files[path]
        if loaded.document is None:
            return None
        return check_document(loaded.document, self.context(loaded.uri), self.kinds[path], UnitCache())

    def check_all(self) -> dict[Path, list[Diagnostic]]:
        results: dict[Path, list[Diagnostic]] = {}
        for path, loaded in self.files.items():
            if loaded.problem is not None:
                problem = with_severity(loaded.problem, self.context(loaded.uri))
                results[path] = [problem] if problem is not None else []
                continue
            report = self.check(path)
            if report is None:
                continue
            if report.kind is None and self.kinds[path] is None:
                continue  # a JSON file that is none of ours
            results[path] = report.diagnostics
        return results
