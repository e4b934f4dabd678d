"""Where a project's configuration is, and reading it safely: the search upwards from a folder (bounded by the
repository or workspace, never past a file or folder another user could have put there), and the refusal of a
configuration file that is a symbolic link or resolves outside the folder it is in (it could lead anywhere: issue
32, F20/F01/F21). What the file says is validated in `settings`."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONFIG_NAMES = ("toolsense.toml", "pyproject.toml")


@dataclass(frozen=True)
class ConfigSearch:
    """Where configuration was found, and what was deliberately not read (each with the reason)."""

    path: Path | None
    skipped: tuple[str, ...] = ()
    outside_workspace: bool = False
    """Found above the workspace folder (inside the same repository): its settings apply, but it does not make
    toolsense import user code."""


def _config_in(folder: Path) -> Path | None:
    """`toolsense.toml`, or a `pyproject.toml` with a `[tool.toolsense]` table, in folder. A symbolic link by
    either name is returned unread (the caller refuses it): a linked pyproject.toml is not even opened to look
    for the table."""
    candidate = folder / "toolsense.toml"
    if candidate.is_symlink() or candidate.is_file():
        return candidate
    pyproject = folder / "pyproject.toml"
    if pyproject.is_symlink():
        return pyproject
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            return None
        if isinstance(data.get("tool"), dict) and "toolsense" in data["tool"]:
            return pyproject
    return None


LINKED_CONFIG = (
    "it is a symbolic link (toolsense reads no configuration through a link, which could lead outside the "
    "project; name the file itself with --config, or copy it)"
)
ELSEWHERE_CONFIG = "it resolves outside the folder it is in (toolsense reads no configuration from elsewhere)"


def config_link_reason(path: Path) -> str | None:
    """Why a configuration file must not be read because of where it leads: it is a symbolic link (dangling
    or not), or it resolves outside the folder it was found in. None for a regular file in its folder, and for
    a path where nothing is yet."""
    try:
        if path.is_symlink():
            return LINKED_CONFIG
        if path.exists() and path.resolve().parent != path.parent.resolve():
            return ELSEWHERE_CONFIG
    except (OSError, ValueError, RuntimeError) as error:
        return f"cannot be inspected ({getattr(error, 'strerror', None) or type(error).__name__})"
    return None


def untrusted_reason(path: Path) -> str | None:
    """Why a folder or configuration file must not be obeyed: writable by every user (a sticky bit does not
    help: anyone may still create a file there), or owned by another user (root excepted: root can change
    anything anyway). None when it is ours."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - no POSIX ownership (Windows)
        return None
    try:
        st = path.stat()
    except OSError as error:
        return f"cannot be inspected ({error.strerror})"
    kind = "folder" if stat.S_ISDIR(st.st_mode) else "file"
    if st.st_mode & stat.S_IWOTH:
        return f"the {kind} {path} is writable by every user"
    if st.st_uid not in (os.geteuid(), 0):
        return f"the {kind} {path} belongs to another user (uid {st.st_uid})"
    return None


def repository_root(start: Path) -> Path | None:
    """The nearest folder at or above start that holds `.git` (a folder, or a worktree's file), reached through
    folders that are ours only (a `.git` planted in /tmp makes nothing a repository)."""
    for folder in (start, *start.parents):
        if untrusted_reason(folder) is not None:
            return None
        if (folder / ".git").exists():
            return folder
    return None


def discover_config(start: Path, workspace: Path | None = None) -> ConfigSearch:
    """The configuration for start (a file or folder), searched upward from its resolved folder.

    The search never leaves the project: it stops at the repository root (a folder holding `.git`) when start
    is inside one, else at `workspace` (the folder the server was given) or, without one (the CLI), at the home
    folder. A configuration file that is a symbolic link, belongs to another user or lies in or is writable by
    every user, or a folder of that kind on the way, ends the search: it is reported in `skipped`, never read
    (a `pyproject.toml` that is a link is reported and passed over: unread, it may hold no toolsense table).
    A `toolsense.toml` further up that was not read is reported too, so nothing is ignored silently."""
    here = start.resolve()
    if not here.is_dir():
        here = here.parent
    own = workspace.resolve() if workspace is not None else None
    boundary = repository_root(here) or (own if own is not None and own in (here, *here.parents) else _top(here))
    skipped: list[str] = []
    for folder in (here, *here.parents):
        reason = untrusted_reason(folder)
        candidate = _config_in(folder)
        linked = config_link_reason(candidate) if reason is None and candidate is not None else None
        if candidate is not None and candidate.name == "pyproject.toml" and linked is not None:
            # Refused unread, so it may not even be toolsense's: the search goes on above it.
            skipped.append(f"{candidate} is not read: {linked}")
            candidate = linked = None
        if reason is None and candidate is not None:
            reason = linked or untrusted_reason(candidate)
        if reason is not None:
            if candidate is not None:
                skipped.append(f"{candidate} is not read: {reason}")
            return ConfigSearch(None, tuple(skipped))
        if candidate is not None:
            outside = own is not None and folder != own and folder in own.parents
            return ConfigSearch(candidate, tuple(skipped), outside)
        if folder == boundary:
            break
    skipped.extend(_beyond(boundary))
    return ConfigSearch(None, tuple(skipped))


def _top(here: Path) -> Path:
    """Where a search outside any repository and workspace ends: the home folder when here lies in it, else the
    file-system root. Folders on the way are still checked one by one (`untrusted_reason`), so a world-writable
    or foreign folder ends the search before that."""
    home = Path.home().resolve()
    return home if home in (here, *here.parents) else Path(here.anchor)


def _beyond(boundary: Path) -> list[str]:
    """A `toolsense.toml` above the search's boundary (up to the home folder), named with the reason it is not
    read, so that nothing is ignored silently."""
    home = Path.home().resolve()
    if boundary == home:
        return []
    for folder in boundary.parents:
        if folder == folder.parent:
            return []
        reason = untrusted_reason(folder)
        candidate = folder / "toolsense.toml"
        if candidate.is_file():
            why = reason or (
                f"it is above {boundary}, outside the project (the search stops at the repository root, or "
                "without one at the folder checked); check or open that folder, or pass --config, to use it"
            )
            return [f"{candidate} is not read: {why}"]
        if reason is not None or folder == home:
            return []
    return []


def find_config_file(start: Path, workspace: Path | None = None) -> Path | None:
    """The configuration file for start (see `discover_config`), or None."""
    return discover_config(start, workspace).path


class ConfigFileError(Exception):
    """The configuration file cannot be read or parsed at all."""


def read_config_section(path: Path) -> Any:
    """The toolsense section of a toolsense.toml (the whole file) or pyproject.toml (`[tool.toolsense]`), raw.

    A file that is a symbolic link or resolves outside its folder is refused (ConfigFileError), and it is opened
    without following a link, so one swapped in after that check is refused too; so are unreadable files and
    invalid TOML. No message quotes the file's text."""
    reason = config_link_reason(path)
    if reason is not None:
        raise ConfigFileError(f"{path} is not read: {reason}")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            text = handle.read().decode("utf-8")
    except OSError as error:
        raise ConfigFileError(f"{path}: cannot read configuration: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise ConfigFileError(f"{path}: cannot read configuration: not UTF-8 (byte {error.start})") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigFileError(f"{path}: invalid TOML: {error}") from error
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        section = tool.get("toolsense", {}) if isinstance(tool, dict) else {}
    else:
        section = data
    return section
