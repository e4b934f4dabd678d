"""`toolsense compat [PATHS]`: which clients and APIs accept each tool, as a matrix of tools × targets.

Every tool definition the files hold (content decides, as for `check`) is put to the compat oracle for each target:
accepted, changed (and how), rejected (with the target's message) or unknown. `--targets` (else the settings'
`targets`, else all) picks the columns; with targets chosen, a rejection makes the exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

NAME = "compat"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        NAME,
        help="which clients and APIs accept each tool (a matrix of tools × targets; docs/compat.md)",
        description="Put each tool definition to the compat oracle: accepted, changed, rejected (with the "
        "target's message) or unknown, each verdict with its evidence.",
    )
    parser.add_argument("paths", nargs="*", type=Path, default=[Path(".")], help="files or folders (default: .)")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format")
    parser.add_argument(
        "--targets",
        default=None,
        help="comma-separated targets (default: the settings' `targets`, else every target)",
    )
    parser.add_argument("--config", type=Path, default=None, help="a toolsense.toml or pyproject.toml to use")


def run(args: argparse.Namespace, out: TextIO) -> int:
    from ..domain.compat import TARGET_IDS
    from .app import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, load_settings_for
    from .compat_report import collect, write

    loaded = load_settings_for(list(args.paths), args.config, sys.stderr)
    if loaded is None:
        return EXIT_USAGE
    settings, _ = loaded
    chosen: tuple[str, ...]
    if args.targets is not None:
        chosen = tuple(t.strip() for t in args.targets.split(",") if t.strip())
        unknown = [t for t in chosen if t not in TARGET_IDS]
        if unknown or not chosen:
            sys.stderr.write(
                f"toolsense compat: unknown target {', '.join(map(repr, unknown)) or '(none given)'}; "
                f"the targets are: {', '.join(TARGET_IDS)}\n"
            )
            return EXIT_USAGE
    else:
        chosen = tuple(settings.targets)
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        sys.stderr.write(f"toolsense compat: no such file or folder: {missing[0]}\n")
        return EXIT_USAGE
    rows = collect(args.paths, settings)
    targets = chosen or TARGET_IDS
    write(rows, targets, args.format, out)
    rejected = any(a.verdict == "rejected" for row in rows for a in row.assessments if a.target in targets)
    return EXIT_FINDINGS if chosen and rejected else EXIT_OK
