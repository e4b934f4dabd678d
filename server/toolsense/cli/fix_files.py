"""`toolsense check --fix / --diff / --unsafe-fixes`: fix every checked file of the workspace, write it back
(or print a diff) and report what remains."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..document.document import Document
from ..engine.catalog import UnitKind
from ..engine.checker import Diagnostic, UnitCache, check_document
from ..engine.context import CheckContext
from ..engine.workspace import LoadedFile, Workspace, document_tools
from ..fixes import Checker, TextEdit, choose_fix, fix_document
from ..safe_write import RefusedPath, leaves_through_a_link, write_file_atomically
from ..textsafety import escape_controls
from .diff import unified_diff

_BOM = b"\xef\xbb\xbf"


def _display(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def _named(path: Path) -> str:
    """A path for a message: as given, control and invisible characters escaped."""
    return escape_controls(str(path))


@dataclass
class FixOutcome:
    """What `--fix` left: the diagnostics that remain, and whether a file that had fixes could not be written
    (an I/O error: the CLI exits with 2)."""

    remaining: dict[Path, list[Diagnostic]]
    failed: bool = False


def _checker(context: CheckContext, kind: UnitKind | None) -> Checker:
    cache = UnitCache()  # across passes: units a pass did not touch are not checked again

    def check(document: Document) -> list[Diagnostic]:
        return check_document(document, context, kind, cache).diagnostics

    return check


def apply_fixes_to_workspace(
    workspace: Workspace,
    results: dict[Path, list[Diagnostic]],
    diff_only: bool,
    unsafe: bool,
    out: TextIO,
    err: TextIO,
) -> FixOutcome:
    """Fix every checked file (tool files first: fixing a tool may change what automations are checked
    against), write it back atomically (or print a diff) and return the diagnostics that remain. A file that
    cannot be read back or written keeps its old bytes, and is reported."""
    fixed_files = applied = 0
    failed = False
    order = sorted(results, key=lambda p: (workspace.kinds.get(p) != "tool", str(p)))
    for path in order:
        loaded = workspace.files.get(path)
        diagnostics = results[path]
        if loaded is None or loaded.document is None:
            continue
        if not any(choose_fix(d.finding.fixes, unsafe) for d in diagnostics if d.finding is not None):
            continue
        kind = workspace.kinds.get(path)
        outcome = fix_document(loaded.document, _checker(workspace.context(loaded.uri), kind), unsafe, diagnostics)
        if not outcome.changed:
            continue
        try:
            raw = path.read_bytes()
        except OSError as error:
            err.write(f"toolsense: cannot read {_named(path)}: {error.strerror}\n")
            failed = True
            continue
        bom = _BOM if raw.startswith(_BOM) else b""
        if raw != bom + bytes(loaded.document.data):
            err.write(f"toolsense: {_named(path)} changed while it was being checked; not fixed\n")
            failed = True
            continue
        new = bom + outcome.data
        if diff_only:
            shift = len(bom)
            moved = [TextEdit(e.start + shift, e.end + shift, e.text) for e in outcome.edits]
            out.write(unified_diff(raw, new, _display(path), moved))
        else:
            try:
                if leaves_through_a_link(path, Path.cwd()):
                    raise RefusedPath(path, "a folder on the way is a symbolic link out of the current folder")
                write_file_atomically(path, new)
            except OSError as error:
                err.write(f"toolsense: cannot write {_named(path)}: {error.strerror}; the file is unchanged\n")
                failed = True
                continue
        fixed_files += 1
        applied += outcome.applied
        document = Document(loaded.uri, bytearray(outcome.data))
        workspace.files[path] = LoadedFile(path, loaded.uri, document)
        workspace.registry.set_file(loaded.uri, document_tools(document, kind))
    remaining: dict[Path, list[Diagnostic]] = workspace.check_all() if fixed_files else results
    problems = "problem" if applied == 1 else "problems"
    files = "file" if fixed_files == 1 else "files"
    verb = "Would fix" if diff_only else "Fixed"
    err.write(f"{verb} {applied} {problems} in {fixed_files} {files}.\n" if applied else "No fixes applied.\n")
    if not unsafe:
        hidden = sum(
            1
            for diagnostics in remaining.values()
            for d in diagnostics
            if d.finding is not None and choose_fix(d.finding.fixes, True) is not None
        )
        if hidden:
            err.write(f"{hidden} more fix{'es' if hidden != 1 else ''} available with --unsafe-fixes.\n")
    return FixOutcome(remaining, failed)
