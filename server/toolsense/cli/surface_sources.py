"""Where `toolsense diff` reads each version of a tool surface: a tool file (any dialect the engine reads), a
folder of them (a snapshot folder, `.toolsense/mcp/*.tools.json`, one file per server), or the same path in an
earlier commit (`--base REF`), read with `git show REF:./PATH` and nothing else.

The engine reads every file (`engine.units.split`: content decides whose tools these are); this module only
finds the bytes. A problem is a `SourceError`, whose message the command prints before exiting with 2.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..document.document import Document
from ..engine.units import Unit, read_unit, split, with_dialects
from ..engine.workspace import path_to_uri, read_regular_file

GIT_TIMEOUT_S = 30.0
SNAPSHOT_FOLDER = (".toolsense", "mcp")
MAX_FILE_BYTES = 64 * 1024 * 1024


class SourceError(Exception):
    """A version that cannot be read; the message names it and says why."""


@dataclass(frozen=True)
class SourceFile:
    """One file of a version: its name in reports (the path given, or its name inside a folder), its document
    and the units the engine read from it."""

    label: str
    document: Document
    units: list[Unit]


def read_units(document: Document) -> list[Unit] | None:
    """The tool units of a document, as the engine reads them; None when the file is not one of tools (an empty
    `tools` array is a surface with no tools)."""
    file_split = split(document, None)
    if file_split.kind != "tool":
        return [] if _empty_tools(bytes(document.data)) else None
    return with_dialects([read_unit(document, span) for span in file_split.spans])


def _empty_tools(data: bytes) -> bool:
    """`{"tools": []}` (a snapshot of a server that lists none, or its `tools/list` result)."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return False
    if isinstance(value, dict) and isinstance(value.get("result"), dict):
        value = value["result"]
    return isinstance(value, dict) and value.get("tools") == []


def _document(label: str, uri: str, data: bytes) -> SourceFile | None:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"{label}: not UTF-8 text (byte {error.start})") from error
    document = Document(uri, bytearray(data))
    units = read_units(document)
    return None if units is None else SourceFile(label, document, units)


def read_path(path: Path, label: str | None = None) -> list[SourceFile]:
    """A file (which must hold tools) or a folder (its JSON files that hold tools, by name)."""
    shown = label or str(path)
    if path.is_dir():
        folder = snapshot_folder(path)
        files = []
        for child in sorted(folder.iterdir()):
            if child.suffix == ".json" and child.is_file():
                found = _read_file(child, child.name)
                files.extend([found] if found is not None else [])
        return files
    found = _read_file(path, shown)
    if found is None:
        raise SourceError(f"{shown}: no tool definitions found in this file")
    return [found]


def snapshot_folder(path: Path) -> Path:
    """A project folder stands for its snapshot folder (`.toolsense/mcp`) when it has one."""
    inner = path.joinpath(*SNAPSHOT_FOLDER)
    return inner if inner.is_dir() else path


def _read_file(path: Path, label: str) -> SourceFile | None:
    try:
        data = read_regular_file(path, MAX_FILE_BYTES)
    except OSError as error:
        raise SourceError(f"{label}: cannot read ({error.strerror or error})") from error
    return _document(label, path_to_uri(path), data)


def read_at_ref(ref: str, path: Path) -> list[SourceFile]:
    """The version of `path` (a file, or a folder of tool files) in commit `ref`."""
    if not ref or ref.startswith("-"):
        raise SourceError(f"--base: {ref!r} is not a git revision")
    folder = path.is_dir()
    if folder:
        path = snapshot_folder(path)
    where = path if folder else path.parent
    name = "" if folder else path.name
    shown = f"{ref}:{path}"
    text = git_show(ref, where, name, shown)
    if not folder:
        found = _document(shown, path_to_uri(path), text)
        if found is None:
            raise SourceError(f"{shown}: no tool definitions found in this file")
        return [found]
    if not text.startswith(b"tree "):
        raise SourceError(f"{shown}: a file in {ref}, a folder now")
    files = []
    for line in text.decode("utf-8", "replace").splitlines()[2:]:
        if line.endswith(".json") and "/" not in line:
            found = _document(line, path_to_uri(path / line), git_show(ref, where, line, f"{ref}:{path / line}"))
            files.extend([found] if found is not None else [])
    return files


def git_show(ref: str, folder: Path, name: str, shown: str) -> bytes:
    """`git show REF:./NAME` run in `folder`: the blob's bytes (a folder's listing for a tree). No pager, no
    textconv filter, no shell; git's own message when it fails (an unknown revision, a path not in it)."""
    command = ["git", "--no-pager", "-c", "core.fsmonitor=false", "show", "--no-textconv", f"{ref}:./{name}"]
    try:
        done = subprocess.run(
            command,
            cwd=folder if folder.is_dir() else None,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
            env=_git_env(),
        )
    except FileNotFoundError as error:
        raise SourceError("--base needs git, which is not installed (or not on PATH)") from error
    except subprocess.TimeoutExpired as error:
        raise SourceError(f"{shown}: git show took longer than {GIT_TIMEOUT_S:.0f} s") from error
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().removeprefix("fatal: ") or f"exit {done.returncode}"
        raise SourceError(f"{shown}: {said}")
    return done.stdout


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_TERMINAL_PROMPT"] = "0"  # never wait for a password
    env.pop("GIT_PAGER", None)
    return env
