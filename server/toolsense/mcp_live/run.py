"""List a live server, write or compare its snapshot, and turn what happened into diagnostics.

Shared by `toolsense check --mcp-server/--mcp-url` and the editor's "Check this server's tools" command.
"""

from __future__ import annotations

import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..document.document import Document
from ..document.jsontree import LocateCache, Pointer
from ..document.lines import Position, Range
from ..engine.catalog import Catalog
from ..engine.checker import Diagnostic, resolve_severity
from ..engine.context import CheckContext, ToolRegistry
from ..engine.findings import Finding
from ..engine.placement import place_bytes
from ..engine.units import root_value
from ..safe_write import folder_below, real_folder, real_folder_exists, regular_file_exists, write_file_atomically
from ..settings import Settings
from ..textsafety import escape_controls
from .client import HttpTarget, Listing, LiveProblem, StdioTarget, Target, list_tools
from .codes import LISTING_LIMITED, MANY_TOOLS, STDOUT_NOISE
from .drift import drift_findings
from .options import DEFAULT_TIMEOUT_S
from .snapshot import NotASnapshot, read_snapshot_tools, server_file_name, snapshot_text


@dataclass
class LiveOutcome:
    """One server's check: its listing, the snapshot file (written, or committed and compared), and the
    diagnostics that belong to it beyond the ordinary checks of the snapshot file."""

    listing: Listing
    snapshot: Path | None = None
    written: bool = False
    compared: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """On `snapshot` when there is one, else on the server itself (`label`)."""

    @property
    def label(self) -> str:
        return self.listing.target.label()


def parse_command(text: str) -> StdioTarget:
    """`--mcp-server "CMD ARGS…"`: split like a POSIX shell, never run through one."""
    parts = shlex.split(text)
    if not parts:
        raise ValueError("--mcp-server needs a command")
    return StdioTarget(parts[0], tuple(parts[1:]))


def parse_header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise ValueError(f"--mcp-header expects 'Name: value', got {text.split(':', 1)[0]!r}")
    return name.strip(), value.strip()


@dataclass(frozen=True)
class SnapshotFolder:
    """Where snapshots go: `base` as it is, then `parts`, folders that must be real folders (created when
    missing, never a symbolic link), so that a committed link cannot send a snapshot elsewhere."""

    base: Path
    parts: tuple[str, ...] = ()

    @property
    def path(self) -> Path:
        return self.base.joinpath(*self.parts)


class SnapshotError(Exception):
    """The snapshot cannot be read or written where it goes; the message names the file and says why."""


def check_server(
    target: Target,
    folder: SnapshotFolder,
    settings: Settings,
    *,
    catalog: Catalog,
    timeout: float = DEFAULT_TIMEOUT_S,
    update: bool = False,
    compare: bool = True,
) -> LiveOutcome:
    """List the server; write its snapshot (or, when one is committed and `compare`, compare with it). `catalog`:
    the rules' catalog (`rules.CATALOG`), handed down by the front door, as every check gets it."""
    listing = list_tools(target, timeout=timeout)
    return check_listing(listing, folder, settings, catalog=catalog, update=update, compare=compare)


def check_listing(
    listing: Listing,
    folder: SnapshotFolder,
    settings: Settings,
    *,
    catalog: Catalog,
    update: bool = False,
    compare: bool = True,
) -> LiveOutcome:
    """Write the listing's snapshot (or compare it with the committed one) and say what belongs to it. Only a
    regular file inside the snapshot folder is read or written, never through a link; SnapshotError when the
    place is not fit (a link, a folder where the file goes, a file where a folder goes, a committed file that is
    not a snapshot)."""
    outcome = LiveOutcome(listing)
    path = folder.path / server_file_name(listing)
    context = CheckContext(settings, ToolRegistry(), path.resolve().as_uri(), True, catalog=catalog)
    problems: list[LiveProblem] = [listing.problem] if listing.problem is not None else []
    notes = list(listing.notes)
    if listing.problem is None and len(listing.tools) > MANY_TOOLS:
        notes.append(
            LiveProblem(
                LISTING_LIMITED.code,
                f"The server lists {len(listing.tools)} tools: more than a model uses well, and more than OpenAI "
                f"accepts in one request ({MANY_TOOLS})",
            )
        )
    try:
        present = real_folder_exists(folder.base, folder.parts) and regular_file_exists(path)
    except OSError as error:
        if not problems:
            raise SnapshotError(_cannot_use(path, error)) from error
        present = False  # the server's failure is the news; the place is reported once there is a listing
    if problems:
        # Nothing complete to write or compare: the committed snapshot (if any) carries the problem, which
        # already says what the server printed; one diagnostic, not two.
        notes = [note for note in notes if note.code != STDOUT_NOISE.code]
        outcome.snapshot = path if present else None
        outcome.diagnostics = _file_level(problems + notes, context)
        if outcome.snapshot is not None:
            outcome.diagnostics = _placed_at_tools(outcome.snapshot, problems + notes, context)
        return outcome
    outcome.snapshot = path
    if present and compare and not update:
        try:
            committed = read_snapshot_tools(path)
        except NotASnapshot as error:
            raise SnapshotError(f"{path} is not a snapshot: {error}; --update-snapshot replaces it") from error
        outcome.compared = True
        document = _document(path)
        base = _tools_pointer(document)
        findings = drift_findings(committed, listing.tools, base)
        outcome.diagnostics = _place(document, findings, context) + _placed_at_tools(path, notes, context)
        return outcome
    data = snapshot_text(listing).encode("utf-8")
    try:
        if not present or path.read_bytes() != data:
            real_folder(folder.base, folder.parts)
            write_file_atomically(path, data)
            outcome.written = True
    except OSError as error:
        raise SnapshotError(_cannot_use(path, error)) from error
    outcome.diagnostics = _placed_at_tools(path, notes, context)
    return outcome


def _cannot_use(path: Path, error: OSError) -> str:
    where = error.filename if isinstance(error.filename, str) and error.filename else str(path)
    why = error.strerror or type(error).__name__
    return (
        f"cannot use the snapshot {path}: {why}"
        if where == str(path)
        else f"cannot use the snapshot {path}: {where}: {why}"
    )


def _document(path: Path) -> Document:
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return Document(path.resolve().as_uri(), bytearray(data))


def _tools_pointer(document: Document) -> Pointer:
    root = root_value(document.root)
    if root is None:
        return ("tools",)
    from ..document.jsontree import member

    return ("result", "tools") if member(root, "result") is not None and member(root, "tools") is None else ("tools",)


def _place(document: Document, findings: list[Finding], context: CheckContext) -> list[Diagnostic]:
    """Place every finding in one pass: the tables of the tools array (and of any large object on the way) are
    built once and shared, and the byte spans become positions in one vectorised lookup, so 5,000 changed tools
    cost 5,000 table lookups, not 5,000 scans from the root."""
    root = root_value(document.root)
    cache = LocateCache()
    kept = [(finding, severity) for finding in findings if (severity := resolve_severity(finding, context)) is not None]
    if root is None:
        ranges = [Range(Position(0, 0), Position(0, 0))] * len(kept)
    else:
        ranges = document.ranges_of([place_bytes(root, f.pointer, f.target, None, cache) for f, _ in kept])
    return [
        Diagnostic(range_, severity, finding.code, finding.message, finding)
        for range_, (finding, severity) in zip(ranges, kept, strict=True)
    ]


def _placed_at_tools(path: Path, problems: list[LiveProblem], context: CheckContext) -> list[Diagnostic]:
    if not problems:
        return []
    document = _document(path)
    findings = [Finding(p.code, p.message, _tools_pointer(document), "key") for p in problems]
    return _place(document, findings, context)


def _file_level(problems: list[LiveProblem], context: CheckContext) -> list[Diagnostic]:
    result: list[Diagnostic] = []
    for problem in problems:
        finding = Finding(problem.code, problem.message)
        severity = resolve_severity(finding, context)
        if severity is not None:
            result.append(Diagnostic(Range(Position(0, 0), Position(0, 0)), severity, problem.code, problem.message))
    return result


# --- the CLI ----------------------------------------------------------------------------------------------


@dataclass
class CliLive:
    outcomes: list[LiveOutcome]
    snapshot_dir: Path

    @property
    def paths(self) -> list[Path]:
        return [o.snapshot for o in self.outcomes if o.snapshot is not None]

    def merge(self, results: dict[Path, list[Diagnostic]]) -> None:
        """Add each server's own diagnostics to the results (a pseudo path `mcp-server:<command>` when there is
        no snapshot file to point into)."""
        for outcome in self.outcomes:
            # A path keeps no "//": the pseudo path of a URL is written without it.
            pseudo = Path("mcp-server:" + outcome.label.replace("://", ":"))
            key = outcome.snapshot if outcome.snapshot is not None else pseudo
            # One set, not a scan per diagnostic: 5,000 drift findings against 5,000 ordinary ones stay linear.
            own = {(d.range, d.severity, d.code, d.message) for d in outcome.diagnostics}
            found = [d for d in results.get(key, []) if (d.range, d.severity, d.code, d.message) not in own]
            merged = found + outcome.diagnostics
            merged.sort(key=lambda d: (d.range.start, d.code))
            results[key] = merged


def run_cli(args: Any, settings: Settings, catalog: Catalog, err: Any) -> CliLive | None:
    """`check --mcp-server/--mcp-url`: None (after a message) on a usage problem."""
    from .client import SdkMissing

    targets: list[Target] = []
    try:
        env = dict(_pair(item) for item in args.mcp_env or [])
        for command in args.mcp_server or []:
            parsed = parse_command(command)
            targets.append(StdioTarget(parsed.command, parsed.args, env, None))
        headers = dict(parse_header(item) for item in args.mcp_header or [])
        targets.extend(HttpTarget(url, headers) for url in args.mcp_url or [])
    except ValueError as error:
        err.write(f"toolsense: {error}\n")
        return None
    # Without --snapshot the snapshots go to a fresh temporary folder (kept: the diagnostics point into it).
    if args.snapshot is not None:
        folder = SnapshotFolder(*folder_below(Path(args.snapshot), Path.cwd()))
    else:
        folder = SnapshotFolder(Path(tempfile.mkdtemp(prefix="toolsense-mcp-")))
    outcomes: list[LiveOutcome] = []
    for target in targets:
        try:
            outcome = check_server(
                target,
                folder,
                settings,
                catalog=catalog,
                timeout=args.mcp_timeout,
                update=args.update_snapshot,
                compare=args.snapshot is not None,
            )
        except (SdkMissing, SnapshotError) as error:
            err.write(f"toolsense: {escape_controls(str(error))}\n")
            return None
        outcomes.append(outcome)
        if outcome.written:
            count = len(outcome.listing.tools)
            err.write(f"toolsense: wrote {outcome.snapshot} ({count} tool{'' if count == 1 else 's'})\n")
    return CliLive(outcomes, folder.path)


def _pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--mcp-env expects NAME=VALUE, got {name!r}")
    return name, value


__all__ = [
    "CliLive",
    "LiveOutcome",
    "SnapshotError",
    "SnapshotFolder",
    "check_listing",
    "check_server",
    "parse_command",
    "run_cli",
]
