"""`toolsense diff OLD NEW` / `toolsense diff --base REF PATH…`: what changed in a tool surface, sorted by what it
breaks (breaking, risky, additive), with the version bump it calls for.

(Not `cli/diff.py`, which is the unified diff of `check --diff`.) OLD and NEW are tool files of any dialect the
engine reads, or folders of them (a snapshot folder: one `<server>.tools.json` per server, compared by name); with
`--base REF` each PATH is compared with its version in commit REF (`git show`, nothing else runs).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

if TYPE_CHECKING:
    from ..domain.changes import Change
    from .surface_report import DiffReport
    from .surface_sources import SourceFile

NAME = "diff"
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
FAIL_ON = ("breaking", "risky", "additive", "never")

_EPILOG = """
Each change is sorted into:
  breaking  a caller that worked before may fail: a tool removed or renamed, a required parameter added, a
            parameter removed, a type narrowed, an enum value removed, additionalProperties closed, the output
            giving less than it promised
  risky     callers keep working, but what the model reads changed (a description, an annotation, a default;
            re-checked by the security rules), or the tool is newly destructive or open-world
  additive  what worked still works, and more does: a new tool, an optional parameter, a widened type

exit status:
  0  nothing at or above --fail-on (default: no breaking change)
  1  a change at or above --fail-on
  2  usage error, or a version that cannot be read (an unknown revision, a path not in it, not a tool file)
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        NAME,
        help="compare two versions of a tool surface: breaking, risky and additive changes",
        description="Compare two versions of tool definitions (files, snapshot folders, or a git revision) and "
        "sort every change by what it breaks; suggest a semantic version bump.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths",
        nargs="+",
        type=Path,
        metavar="PATH",
        help="OLD NEW (two files or two folders); with --base, the files or folders to compare with REF",
    )
    parser.add_argument("--base", metavar="REF", help="compare each PATH with its version in this git revision")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="default: %(default)s")
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="breaking",
        help="exit 1 when a change of this class or a worse one is found (default: %(default)s)",
    )


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ..textsafety import EscapedLines
    from .surface_sources import SourceError

    err = cast(TextIO, EscapedLines(sys.stderr))
    try:
        report = build_report(args.paths, args.base)
    except (UsageError, SourceError) as error:
        err.write(f"toolsense diff: {error}\n")
        return EXIT_USAGE
    from .surface_report import FORMATS

    out.write(FORMATS[args.format](report))
    return EXIT_FAIL if fails(report.changes, args.fail_on) else EXIT_OK


class UsageError(Exception):
    """Arguments that name no comparison; the message says what was expected."""


def fails(changes: list[Change], fail_on: str) -> bool:
    """Whether a change of class `fail_on` or a worse one is there ("never": never)."""
    from ..domain.changes import CLASS_ORDER

    if fail_on == "never":
        return False
    limit = [klass.value for klass in CLASS_ORDER].index(fail_on)
    return any(CLASS_ORDER.index(change.klass) <= limit for change in changes)


def build_report(paths: list[Path], base: str | None) -> DiffReport:
    """The report comparing the versions the arguments name."""
    from ..domain.changes import CLASS_ORDER, suggest_bump
    from ..domain.surface import unit_surfaces
    from ..domain.surface_diff import compare_surfaces
    from .surface_report import DiffReport
    from .surface_review import new_security_findings

    versions = _versions(paths, base)
    changes: list[Change] = []
    for label in sorted(set(versions.old) | set(versions.new)):
        before, after = versions.old.get(label), versions.new.get(label)
        old_tools = unit_surfaces(before.units) if before else []
        new_tools = unit_surfaces(after.units) if after else []
        found = compare_surfaces(old_tools, new_tools)
        changes.extend(found if versions.single else [change.in_file(label) for change in found])
    renamed = {str(c.now): str(c.was) for c in changes if c.kind == "tool-renamed"}
    old_files, new_files = list(versions.old.values()), list(versions.new.values())
    changes.extend(new_security_findings(old_files, new_files, renamed, versions.single))
    changes.sort(key=lambda change: CLASS_ORDER.index(change.klass))  # stable: each class keeps the files' order
    return DiffReport(versions.old_label, versions.new_label, changes, suggest_bump(changes))


@dataclass
class Versions:
    """The files of each version by their label in reports ("" when each version is one file)."""

    old: dict[str, SourceFile]
    new: dict[str, SourceFile]
    old_label: str
    new_label: str
    single: bool


def _versions(paths: list[Path], base: str | None) -> Versions:
    from .surface_sources import read_at_ref, read_path, snapshot_folder

    if base is None:
        if len(paths) != 2:
            raise UsageError(f"expected OLD and NEW (two paths), got {len(paths)}; or --base REF PATH")
        old, new = paths
        if old.is_dir() != new.is_dir():
            raise UsageError(f"compare a file with a file, or a folder with a folder ({old}, {new})")
        if not old.is_dir():
            return Versions({"": read_path(old)[0]}, {"": read_path(new)[0]}, str(old), str(new), True)
        old_files = {f.label: f for f in read_path(old)}
        return Versions(old_files, {f.label: f for f in read_path(new)}, str(old), str(new), False)
    single = len(paths) == 1 and not paths[0].is_dir()
    versions = Versions({}, {}, f"{base}:{' '.join(map(str, paths))}", " ".join(map(str, paths)), single)
    for path in paths:
        folder = path.is_dir()

        def label(file: SourceFile, path: Path = path, folder: bool = folder) -> str:
            if single:
                return ""
            return f"{snapshot_folder(path)}/{file.label}" if folder else str(path)

        versions.old.update((label(f), f) for f in read_at_ref(base, path))
        if path.exists():  # deleted since: every tool it had is removed
            versions.new.update((label(f), f) for f in read_path(path))
    return versions
