"""Subcommands that live in their own modules (`toolsense compat`, `toolsense diff`, ...).

Each module named in `COMMAND_MODULES` defines `NAME`, `register(sub)` (adds its parser to the subparsers) and
`run(args, out) -> int` (the exit status). `app.py` stays the same size however many commands there are, and each
command imports its own dependencies only when it runs.
"""

from __future__ import annotations

import argparse
import importlib
from typing import TextIO

# Module names relative to this package, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = ("compat", "surface_diff")


def register_all(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__package__}.{name}").register(sub)


def run(args: argparse.Namespace, out: TextIO) -> int | None:
    """The exit status of a plugged-in command, or None when `args.command` is not one of them."""
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        if args.command == module.NAME:
            return int(module.run(args, out))
    return None
