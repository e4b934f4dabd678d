"""`toolsense check | serve | rules | schema` — one engine, same findings as the editor.

Exit codes of `check`: 0 no error-severity diagnostic, 1 at least one, 2 usage / configuration / I/O error,
3 toolsense itself failed (a bug), so CI can tell "your files have errors" from "the tool broke".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from . import __version__
from .engine.checker import Diagnostic
from .engine.findings import Severity
from .settings import ConfigFileError, Settings, SettingsProblem, find_config_file, load_config_file

if TYPE_CHECKING:
    from .engine.parallel import PoolCheck

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolsense", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"toolsense {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="check files and folders (default: the project root)")
    check.add_argument("paths", nargs="*", type=Path)
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    check.add_argument("--config", type=Path, help="a toolsense.toml or pyproject.toml to read settings from")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--diff", action="store_true", help="show the fixes as a diff, write nothing")
    check.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change meaning")
    check.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="worker processes checking files (default: the cores available; one for --fix and --diff)",
    )
    check.add_argument("--stats", action="store_true", help="print files/s on stderr (always on a terminal)")

    serve = sub.add_parser("serve", help="run the language server (stdio by default)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio (for debugging)")
    serve.add_argument("--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR"))

    rules = sub.add_parser("rules", help="list the rules")
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
        if args.command == "check":
            return _check(args, sys.stdout, sys.stderr)
        if args.command == "serve":
            from .lsp.server import run

            return int(run(args.tcp, args.log_level))
        if args.command == "rules":
            return _rules(args.markdown)
        if args.command == "schema":
            from .schema_command import print_schema

            return int(print_schema(args, sys.stdout, sys.stderr))
    except KeyboardInterrupt:
        return 130
    except Exception:
        sys.stderr.write("toolsense: internal error (this is a bug in toolsense, not in your files):\n")
        traceback.print_exc(file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_USAGE


def _rules(markdown: bool) -> int:
    from .engine.catalog import CATALOG
    from .rules import structure  # noqa: F401  (registers the rules)

    if markdown:
        print(CATALOG.markdown())
    else:
        for rule in sorted(CATALOG.rules.values(), key=lambda r: r.code):
            print(f"{rule.code}  {rule.severity.label:<11} {rule.name}: {rule.summary}")
    return EXIT_OK


def load_settings_for(paths: list[Path], config: Path | None, err: TextIO) -> tuple[Settings, Path] | None:
    """Settings from --config or the nearest config file; problems printed (file, key, expected type)."""
    root = paths[0] if paths else Path.cwd()
    root = root if root.is_dir() else root.parent
    config_path = config or find_config_file(root)
    if config is not None and not config.is_file():
        err.write(f"toolsense: configuration file not found: {config}\n")
        return None
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
    return settings, config_path.parent


def _print_problems(problems: list[SettingsProblem], err: TextIO) -> None:
    for problem in problems:
        err.write(f"toolsense: invalid configuration: {problem}\n")


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .engine.workspace import Workspace
    from .rules import structure  # noqa: F401

    paths: list[Path] = list(args.paths)
    loaded = load_settings_for(paths, args.config, err)
    if loaded is None:
        return EXIT_USAGE
    settings, root = loaded
    if not paths:
        paths = [root]
    missing = [p for p in paths if not p.exists()]
    if missing:
        for path in missing:
            err.write(f"toolsense: no such file or directory: {path}\n")
        return EXIT_USAGE
    workspace = Workspace(settings)
    from .usermodels import load_models_for_cli

    workspace.models = load_models_for_cli(settings, root, err)
    started = time.perf_counter()
    pooled = _pool(args, paths, settings, root)
    if pooled is None:
        workspace.add(paths)
    from .engine.registry_files import load_registry_extras

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
    if args.fix or args.diff:
        from .fixes import apply_fixes_to_workspace

        results = apply_fixes_to_workspace(workspace, results, args.diff, args.unsafe_fixes, out, err)
    cwd = Path.cwd()
    shown = {_display(path, cwd): diags for path, diags in sorted(results.items())}
    if args.format == "json":
        out.write(json.dumps([d.to_json(path) for path, diags in shown.items() for d in diags], indent=2) + "\n")
    elif args.format == "sarif":
        from .reporting import sarif

        out.write(json.dumps(sarif(shown), indent=2) + "\n")
    elif args.format == "github":
        for shown_path, shown_diags in shown.items():
            for d in shown_diags:
                out.write(_github(shown_path, d) + "\n")
    else:
        _text(shown, out, file_count)
    internal = sum(1 for diags in results.values() for d in diags if d.code == "TS900")
    if internal:
        # A check crashed: the diagnostics above are incomplete, and that is toolsense's fault, not the files'.
        err.write(
            f"toolsense: internal error in {internal} check{'s' if internal != 1 else ''} (this is a bug in "
            "toolsense, not in your files; see the TS900 diagnostics)\n"
        )
        return EXIT_INTERNAL
    has_error = any(d.severity == Severity.ERROR for diags in results.values() for d in diags)
    return EXIT_FINDINGS if has_error else EXIT_OK


def _pool(args: argparse.Namespace, paths: list[Path], settings: Settings, root: Path) -> PoolCheck | None:
    """Worker processes for the check, or None for one process: one job, little work (unless --jobs says so),
    or fixes (applied and re-checked in place)."""
    if args.fix or args.diff:
        return None
    from .engine.parallel import default_jobs, pool_check

    jobs = args.jobs if args.jobs is not None else default_jobs()
    return pool_check(paths, settings, root, jobs, always=args.jobs is not None)


def _throughput(files: int, seconds: float, jobs: int, err: TextIO) -> None:
    rate = files / seconds if seconds > 0 else float("inf")
    err.write(f"toolsense: {files} file{'s' if files != 1 else ''} in {seconds:.2f} s, {rate:,.0f} files/s")
    err.write(f" ({jobs} process{'es' if jobs != 1 else ''})\n")


def _display(path: Path, cwd: Path) -> str:
    try:
        return str(path.resolve().relative_to(cwd.resolve()))
    except ValueError:
        return str(path)


def _text(shown: dict[str, list[Diagnostic]], out: TextIO, file_count: int) -> None:
    counts = {s: 0 for s in Severity}
    for path, diags in shown.items():
        for d in diags:
            counts[d.severity] += 1
            start = d.range.start
            out.write(f"{path}:{start.line + 1}:{start.character + 1}: {d.severity.label} {d.code} {d.message}\n")
    summary = ", ".join(f"{n} {s.label}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
    out.write(f"Checked {file_count} file{'s' if file_count != 1 else ''}: {summary or 'no problems'}\n")


_GITHUB_LEVEL = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "notice",
    Severity.HINT: "notice",
}


def _github(path: str, d: Diagnostic) -> str:
    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def prop(text: str) -> str:
        return escape(text).replace(":", "%3A").replace(",", "%2C")

    return (
        f"::{_GITHUB_LEVEL[d.severity]} file={prop(path)},line={d.range.start.line + 1},"
        f"col={d.range.start.character + 1},endLine={d.range.end.line + 1},"
        f"endColumn={d.range.end.character + 1},title={prop(d.code)}::{escape(d.message)}"
    )
