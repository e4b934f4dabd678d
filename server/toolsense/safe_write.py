"""Writing files without losing them and without following links: what `check --fix` and the MCP snapshots use.

A file is never truncated and then rewritten in place: the new bytes go to a temporary file in the same folder,
are flushed to disk, and the temporary file is renamed over the old one. A write that fails part-way (disk full,
a quota, a file-size limit) or is interrupted (a kill) leaves the old file whole. Nothing is written through a
symbolic link: a link (or a folder, a FIFO, a device) where the file goes is refused, and the rename replaces a
name, it never follows one. Failures are `OSError`s whose `strerror` says what happened, for a message.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Sequence
from pathlib import Path

_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)


class RefusedPath(OSError):
    """A path toolsense will not write to (a link, a folder, not a regular file)."""

    def __init__(self, path: Path, why: str, code: int = errno.EPERM) -> None:
        super().__init__(code, why, str(path))


def _kind(mode: int) -> str | None:
    """Why a file of this mode is not written to (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "it is a symbolic link (toolsense never writes through a link)"
    if stat.S_ISDIR(mode):
        return "it is a folder"
    return "it is not a regular file"


def write_file_atomically(path: Path, data: bytes) -> None:
    """Replace (or create) the regular file `path` with `data`, all or nothing; keep an existing file's mode and,
    when allowed, its owner. Raises OSError (RefusedPath for a link or anything but a regular file at `path`)."""
    try:
        existing: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None:
        why = _kind(existing.st_mode)
        if why is not None:
            raise RefusedPath(path, why, errno.ELOOP if stat.S_ISLNK(existing.st_mode) else errno.EISDIR)
    folder = path.parent
    temp = folder / f".{path.name}.toolsense-{secrets.token_hex(4)}.tmp"
    fd = os.open(temp, _TEMP_FLAGS, 0o666)  # the umask applies, as for any new file
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
            if existing is not None:
                _keep_mode_and_owner(stream.fileno(), existing)
        os.replace(temp, path)  # replaces the name: a link put there meanwhile is replaced, never followed
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(folder)


def _keep_mode_and_owner(fd: int, existing: os.stat_result) -> None:
    if hasattr(os, "fchown") and hasattr(os, "geteuid") and existing.st_uid != os.geteuid():
        with contextlib.suppress(OSError):  # only root may give a file away; the mode is kept anyway
            os.fchown(fd, existing.st_uid, existing.st_gid)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; elsewhere a no-op)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def real_folder(base: Path, parts: Sequence[str]) -> Path:
    """`base/parts[0]/parts[1]/…`, each folder created when missing; one that is a symbolic link or not a folder
    is refused (RefusedPath), so a committed link cannot send what is written below it elsewhere."""
    folder = base
    for part in parts:
        folder = folder / part
        if not _is_real_folder(folder):
            with contextlib.suppress(FileExistsError):  # created meanwhile: inspected again
                folder.mkdir()
            _is_real_folder(folder)
    return folder


def real_folder_exists(base: Path, parts: Sequence[str]) -> bool:
    """Whether `base/parts…` exists as real folders (RefusedPath for a link or a file on the way)."""
    folder = base
    for part in parts:
        folder = folder / part
        if not _is_real_folder(folder):
            return False
    return True


def _is_real_folder(folder: Path) -> bool:
    """True for a folder, False when nothing is there, RefusedPath for anything else."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISDIR(mode):
        why = _kind(mode) if stat.S_ISLNK(mode) else "it is a file, not a folder"
        raise RefusedPath(folder, str(why), errno.ELOOP if stat.S_ISLNK(mode) else errno.ENOTDIR)
    return True


def regular_file_exists(path: Path) -> bool:
    """Whether a regular file is at `path`, not following a link (RefusedPath for a link, a folder, a FIFO…)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return False
    why = _kind(mode)
    if why is not None:
        raise RefusedPath(path, why, errno.ELOOP if stat.S_ISLNK(mode) else errno.EISDIR)
    return True


def leaves_through_a_link(path: Path, start: Path) -> bool:
    """Whether `path`, inside the folder `start` as written, is really elsewhere: a folder on the way is a
    symbolic link out of `start` (a path written outside `start` is the user's to give)."""
    real_start = start.resolve()
    written = Path(os.path.normpath(path if path.is_absolute() else start / path))
    if not (written.is_relative_to(start) or written.is_relative_to(real_start)):
        return False
    return not written.parent.resolve().is_relative_to(real_start)


def folder_below(path: Path, start: Path) -> tuple[Path, tuple[str, ...]]:
    """Split a folder path the user gave into the part taken as it is and the folders to check with
    `real_folder`: for a path inside `start` (relative, or absolute below it), every folder below `start`; for a
    path elsewhere (absolute, or through `..`), the last folder only (its parents are what the user typed). A
    relative path stays relative, so messages name it as it was given."""
    if path.is_absolute():
        try:
            inside = path.relative_to(start)
        except ValueError:
            return path.parent, (path.name,) if path.name else ()
        base = start
    else:
        inside, base = path, Path()
    parts = tuple(part for part in inside.parts if part != ".")
    if ".." in parts:
        return path.parent, (path.name,)
    return base, parts
