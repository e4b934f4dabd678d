"""`toolsense check | serve | rules | schema` — one engine, same findings as the editor.

Exit codes of `check`: 0 no error-severity diagnostic, 1 at least one, 2 usage / configuration / I/O error,
3 toolsense itself failed (a bug), so CI can tell "your files have errors" from "the tool broke". Output into a
pipe closed early (`toolsense check | head -1`) ends quietly with 141 (128 + SIGPIPE, what a shell reports for
any program a closed pipe stopped).

Standard output belongs to toolsense alone (the report, or the language server's protocol): user code that
writes to it (a registered model's module that print()s at import, a child process) writes to stderr instead.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO, cast

if TYPE_CHECKING:
    # Each command imports what it needs when it runs: `--version`, `--help` and `rules` start at once.
    from ..engine.parallel import PoolCheck
    from ..settings import Settings, SettingsProblem

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

_CHECK_EPILOG = """
PATHS are files and folders to check (default: the project root, i.e. the folder of the configuration
file, else the current folder). Folders are searched for tool definitions (*.tool.json, *.tools.json,
tools/*.json), automations (*.automation.json, automations/*.json) and tool calls (*.toolcall.json,
calls/*.json, ...); [files] in the configuration adds globs. The configuration is toolsense.toml or
[tool.toolsense] in pyproject.toml, searched upward from the first PATH but never beyond the repository
root (outside a repository: the current folder); --config names one explicitly.

formats:
  text    one line per diagnostic (path:line:column: severity CODE message) and a summary (default)
  json    one JSON array of diagnostics on stdout
  sarif   SARIF 2.1.0, for code-scanning upload
  github  GitHub Actions workflow commands (annotations on the pull request)
  junit   JUnit XML: a test suite per file, a failing test case per error or warning (CI test reports)

exit status:
  0    no diagnostic of error severity (warnings do not fail)
  1    at least one error in the files checked
  2    usage, configuration or I/O error
  3    toolsense itself failed (a bug, including a rule that crashed: TS900)
  141  the output pipe was closed early (e.g. `toolsense check | head -1`)
"""


def package_version() -> str:
    """The installed distribution's version (the package metadata, written from pyproject.toml); the
    package's own `__version__` only when running from a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("toolsense")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


class _VersionAction(argparse.Action):
    """`--version`, reading the package metadata only when asked (argparse's own action reads it up front)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        sys.stdout.write(f"toolsense {package_version()}\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolsense", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser(
        "check",
        help="check files and folders (default: the project root)",
        description="Check tool definitions, tool calls and automations; print the diagnostics.",
        epilog=_CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("paths", nargs="*", type=Path, metavar="PATHS", help="files and folders to check")
    check.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github", "junit"),
        default="text",
        help="output format (default: %(default)s; see below)",
    )
    check.add_argument("--config", type=Path, help="a toolsense.toml or pyproject.toml to read settings from")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--diff", action="store_true", help="show the fixes as a diff, write nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change meaning")
    from ..mcp_live.options import add_live_options

    add_live_options(check)
    check.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes checking files (default: the cores available; one for --fix and --diff)",
    )
    check.add_argument(
        "--stats",
        action="store_true",
        help="print files/s (always on a terminal) and each tool's tokens, per file and server, on stderr",
    )
    from .baseline import add_baseline_options

    add_baseline_options(check)

    serve = sub.add_parser("serve", help="run the language server (stdio by default)")
    serve.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        help="listen on TCP instead of stdio, for debugging: one client, which sends the token printed on stderr "
        "(or TOOLSENSE_TCP_TOKEN) as initializationOptions.tcpToken and is untrusted unless it says trusted",
    )
    serve.add_argument(
        "--log-level",
        default="WARNING",
        choices=LOG_LEVELS,
        help="what the server logs to stderr: %(choices)s (default: %(default)s)",
    )

    mcp = sub.add_parser(
        "mcp",
        help="run toolsense as an MCP server over stdio (for coding agents)",
        description="Serve toolsense's tools over MCP (stdio) for the project in the current folder.",
    )
    mcp.add_argument(
        "--config",
        type=Path,
        help="a toolsense.toml or pyproject.toml to read settings from (the project stays the current folder)",
    )
    mcp.add_argument(
        "--untrusted",
        action="store_true",
        help="never import the project's code (its registered models), as trusted = false in the settings does",
    )

    rules = sub.add_parser("rules", help="list the rules, or explain some (`toolsense rules TS220`)")
    rules.add_argument("codes", nargs="*", metavar="CODE", help="rules to explain, with the link to each one's page")
    rules.add_argument("--markdown", action="store_true", help="print docs/rules.md")

    schema = sub.add_parser("schema", help="print the strict JSON Schema of a pydantic model")
    schema.add_argument("model", help="package.module:Model")
    schema.add_argument("--tool", metavar="NAME", help="print a whole tool definition with this name")
    schema.add_argument("--description", default=None, help="the tool's description (with --tool)")
    schema.add_argument(
        "--dialect",
        choices=("anthropic", "mcp", "openai"),
        default="anthropic",
        help="tool definition dialect",
    )
    schema.add_argument("--python-path", action="append", default=[], help="extra import path (repeatable)")
    from .commands import register_all

    register_all(sub)
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of jobs, got {text!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with own_stdout() as out:
            return _run(args, out)
    except BrokenPipeError:
        # The reader left (`| head`): nothing more can be delivered, and that is not an error of toolsense.
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130
    except Exception:
        sys.stderr.write("toolsense: internal error (this is a bug in toolsense, not in your files):\n")
        traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL


def _run(args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "check":
        from ..textsafety import EscapedLines

        # Its messages quote paths, settings and what servers printed: one line each, escaped.
        return _check(args, out, cast(TextIO, EscapedLines(sys.stderr)))
    if args.command == "serve":
        return _serve(args, out)
    if args.command == "rules":
        return _rules(args.codes, args.markdown, out)
    if args.command == "mcp":
        return _mcp(args, out)
    if args.command == "schema":
        from .schema_command import print_schema

        return int(print_schema(args, out, sys.stderr))
    from .commands import run

    status = run(args, out)
    return EXIT_USAGE if status is None else status


@contextlib.contextmanager
def own_stdout() -> Iterator[TextIO]:
    """Yield the stream for toolsense's own output, and send everything else that writes to standard output to
    stderr meanwhile: `print()` (sys.stdout), and at the file-descriptor level C extensions and child processes
    (fd 1 is pointed at stderr; the real stdout stays reachable only through the yielded stream)."""
    original = sys.stdout
    if original is None:  # started with stdout closed: the report goes nowhere, the exit status still tells
        with open(os.devnull, "w") as nowhere:
            yield nowhere
        return
    try:
        fd = original.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a StringIO or a test's capture
        fd = -1
    if fd != 1:
        sys.stdout = sys.stderr
        try:
            yield original
        finally:
            sys.stdout = original
        return
    original.flush()
    try:
        saved = os.dup(1)  # the real stdout, to give back at the end (the yielded stream may be closed by then)
        os.dup2(2, 1)
    except OSError:  # fd 1 or 2 is closed (`toolsense check >&-`): writes fail as they would have anyway
        yield original
        return
    out = open(os.dup(saved), "w", encoding=original.encoding, errors=original.errors)  # noqa: SIM115
    sys.stdout = sys.stderr
    broken = False
    try:
        yield out
        if not out.closed:
            out.flush()
    except BrokenPipeError:
        broken = True
        raise
    finally:
        sys.stdout = original
        with contextlib.suppress(OSError, ValueError):
            out.close()
        if broken:
            # Nothing more can reach the reader: later flushes (at exit) go nowhere instead of failing again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.close(devnull)
        else:
            os.dup2(saved, 1)
        os.close(saved)


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    from ..lsp.app import run

    if args.tcp:
        return int(run(args.tcp, args.log_level))
    # The protocol owns stdin and stdout. User code reading stdin (input() at import) gets end-of-file instead
    # of the client's messages; its writes go to stderr (see own_stdout).
    private_in = os.dup(0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    with open(private_in, "rb") as protocol_in:
        protocol_out: BinaryIO = out.buffer
        return int(run(args.tcp, args.log_level, stdin=protocol_in, stdout=protocol_out))


def _mcp(args: argparse.Namespace, out: TextIO) -> int:
    """`toolsense mcp`: the project is the folder the agent started it in (or the folder of the configuration
    found above it, inside the repository); `--config` names settings only and never moves the project.
    Untrusted (`--untrusted`, or `trusted = false` in the settings), it imports none of the project's code."""
    loaded = load_settings_for([], args.config, sys.stderr)
    if loaded is None:
        return EXIT_USAGE
    settings, root = loaded
    if args.config is not None:
        root = Path.cwd().resolve()
    from ..mcp_server.server import serve
    from ..mcp_server.service import Project

    project = Project(settings, root)
    if args.untrusted and settings.trusted:
        project = Project(settings.model_copy(update={"trusted": False}), root, "toolsense mcp --untrusted")
    return serve(project, out.buffer)


def _rules(codes: list[str], markdown: bool, out: TextIO) -> int:
    if markdown:  # docs/rules.md, from the catalog in the code
        from ..rules import CATALOG

        out.write(CATALOG.markdown() + "\n")
        return EXIT_OK
    # The rules from the table generated from the catalog (a test keeps the two equal): no rule module imported.
    from .rule_table import listed_rules

    rules = {rule.code: rule for rule in listed_rules()}
    if not codes:
        for rule in rules.values():
            out.write(f"{rule.code}  {rule.severity.label:<11} {rule.name}: {rule.summary}\n")
        return EXIT_OK
    unknown = [code for code in codes if code.upper() not in rules]
    if unknown:
        from ..textsafety import escape_controls

        sys.stderr.write(f"toolsense: no rule {escape_controls(', '.join(unknown))} (`toolsense rules` lists them)\n")
        return EXIT_USAGE
    for code in codes:
        rule = rules[code.upper()]
        out.write(f"{rule.code} {rule.name} ({rule.severity.label}; {rule.family})\n{rule.summary}\n")
        if rule.fix:
            out.write(f"Quick fix: {rule.fix}\n")
        out.write(f"{rule.url}\n")
    return EXIT_OK


def load_settings_for(paths: list[Path], config: Path | None, err: TextIO) -> tuple[Settings, Path] | None:
    """Settings from --config or the project's config file; problems printed (file, key, expected type).

    Paths are resolved first, so `check .` in a subfolder finds what `check "$PWD"` finds. The search stays
    inside the project (the repository root, or the folder toolsense runs in) and skips, saying so on stderr,
    configuration that another user could have written."""
    from ..config_files import ConfigFileError, discover_config
    from ..settings import Settings, cap_repository_limits, load_config_file

    cwd = Path.cwd().resolve()
    start = (paths[0] if paths else cwd).resolve()
    root = start if start.is_dir() else start.parent
    if config is not None and not config.is_file():
        err.write(f"toolsense: configuration file not found: {config}\n")
        return None
    config_path = config
    if config_path is None:
        search = discover_config(start)
        for note in search.skipped:
            err.write(f"toolsense: {note}\n")
        config_path = search.path
        if config_path is not None and config_path.is_relative_to(cwd):
            config_path = config_path.relative_to(cwd)  # messages name it as the user would
    if config_path is None:
        return Settings(), root
    try:
        settings, problems = load_config_file(config_path)
    except ConfigFileError as error:
        err.write(f"toolsense: {error}\n")
        return None
    if problems:
        _print_problems(problems, err)
        return None
    if config is None:
        # The repository's own file (not one the user named): its [limits] stay under their caps.
        settings, capped = cap_repository_limits(settings, str(config_path))
        for lowered in capped:
            err.write(f"toolsense: {lowered}\n")
    return settings, config_path.resolve().parent


def _print_problems(problems: list[SettingsProblem], err: TextIO) -> None:
    for problem in problems:
        err.write(f"toolsense: invalid configuration: {problem}\n")


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..engine.findings import Severity
    from ..engine.workspace import Workspace
    from ..rules import CATALOG
    from .reporting import write_report

    paths: list[Path] = list(args.paths)
    loaded = load_settings_for(paths, args.config, err)
    if loaded is None:
        return EXIT_USAGE
    settings, root = loaded
    live = None
    if args.mcp_server or args.mcp_url:
        from ..mcp_live.run import run_cli

        live = run_cli(args, settings, CATALOG, err)
        if live is None:
            return EXIT_USAGE
        paths += live.paths
    if not paths and live is None:
        paths = [root]
    missing = [p for p in paths if not p.exists()]
    if missing:
        for path in missing:
            err.write(f"toolsense: no such file or directory: {path}\n")
        return EXIT_USAGE
    workspace = Workspace(settings, CATALOG)
    from ..usermodels import load_models_for_cli

    workspace.models = load_models_for_cli(settings, root, err)
    started = time.perf_counter()
    pooled = _pool(args, paths, settings, root)
    if pooled is None:
        workspace.add(paths)
    from ..engine.registry_files import load_registry_extras

    extra_problems = load_registry_extras(pooled.registry if pooled else workspace.registry, settings, root)
    if extra_problems:
        if pooled is not None:
            pooled.close()
        for extra_problem in extra_problems:
            err.write(f"toolsense: invalid configuration: {extra_problem}\n")
        return EXIT_USAGE
    results = pooled.check() if pooled is not None else workspace.check_all()
    file_count = pooled.file_count if pooled is not None else len(workspace.files)
    if args.format == "text" and (args.stats or err.isatty()):
        _throughput(file_count, time.perf_counter() - started, pooled.jobs if pooled is not None else 1, err)
    if live is not None:
        live.merge(results)
    if args.stats:
        from .token_stats import write_token_stats

        write_token_stats(results, settings, err)
    write_failed = False
    if args.fix or args.diff:
        from .fix_files import apply_fixes_to_workspace

        fixed = apply_fixes_to_workspace(workspace, results, args.diff, args.unsafe_fixes, out, err)
        results, write_failed = fixed.remaining, fixed.failed
    from ..engine.suppression import BY_BASELINE

    suppressed: Counter[str] = Counter()  # what the settings, the comments and the baseline suppressed
    for counts in (pooled.suppressions if pooled is not None else workspace.suppressions).values():
        suppressed.update(counts)
    if args.baseline is not None:
        from .baseline import FIXED_CODE, BaselineError, apply_baseline

        before = sum(len(diagnostics) for diagnostics in results.values())
        try:
            fixed_severity = settings.severity.get(FIXED_CODE)
            results = apply_baseline(results, args.baseline, args.update_baseline, err, fixed_severity)
        except BaselineError as error:
            err.write(f"toolsense: {error}\n")
            return EXIT_USAGE
        suppressed[BY_BASELINE] += before - sum(1 for ds in results.values() for d in ds if d.code != FIXED_CODE)
    elif args.update_baseline:
        err.write("toolsense: --update-baseline needs --baseline FILE (the file to write)\n")
        return EXIT_USAGE
    write_report(args.format, results, file_count, out, suppressed)
    internal = sum(1 for diags in results.values() for d in diags if d.code == "TS900")
    if internal:
        # A check crashed: the diagnostics above are incomplete, and that is toolsense's fault, not the files'.
        err.write(
            f"toolsense: internal error in {internal} check{'s' if internal != 1 else ''} (this is a bug in "
            "toolsense, not in your files; see the TS900 diagnostics)\n"
        )
        return EXIT_INTERNAL
    if write_failed:
        return EXIT_USAGE  # an I/O error: a file that --fix should have changed is as it was
    has_error = any(d.severity == Severity.ERROR for diags in results.values() for d in diags)
    return EXIT_FINDINGS if has_error else EXIT_OK


def _pool(args: argparse.Namespace, paths: list[Path], settings: Settings, root: Path) -> PoolCheck | None:
    """Worker processes for the check, or None for one process: one job, little work (unless --jobs says so),
    or fixes (applied and re-checked in place)."""
    if args.fix or args.diff:
        return None
    from ..engine.parallel import default_jobs, pool_check
    from ..rules import CATALOG

    jobs = args.jobs if args.jobs is not None else default_jobs()
    return pool_check(paths, settings, CATALOG, root, jobs, always=args.jobs is not None)


def _throughput(files: int, seconds: float, jobs: int, err: TextIO) -> None:
    rate = files / seconds if seconds > 0 else float("inf")
    err.write(f"toolsense: {files} file{'s' if files != 1 else ''} in {seconds:.2f} s, {rate:,.0f} files/s")
    err.write(f" ({jobs} process{'es' if jobs != 1 else ''})\n")
