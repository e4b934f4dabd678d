#!/usr/bin/env python3
"""What each rule costs: every check of the catalog timed inside a cold check, as a share of the check's CPU time.

    python bench/rules.py FILE_OR_FOLDER ...     # one JSON line: total CPU, and per check its CPU seconds

The paths are checked as the CLI checks them (one workspace: indexed for tools, then each file checked), with
`--jobs 1`. Each unit and file check of the catalog is wrapped in a timer (its findings are consumed inside it, so
a lazy check pays for itself). A check is named by its module and function and the codes its module declares; the
rest of the time (reading, parsing, units, placement of findings) is the engine's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

CheckFn = Callable[[Any, Any], Iterable[Any]]


def _label(check: CheckFn) -> str:
    from toolsense.engine.catalog import Rule

    module = sys.modules.get(check.__module__)
    codes = sorted({v.code for v in vars(module).values() if isinstance(v, Rule)}) if module is not None else []
    name = f"{check.__module__.removeprefix('toolsense.rules.')}.{getattr(check, '__name__', '?')}"
    return f"{name} ({', '.join(codes)})" if codes else name


def _timed(check: CheckFn, spent: dict[str, float], label: str) -> CheckFn:
    def timed(subject: Any, ctx: Any) -> list[Any]:
        started = time.process_time()
        try:
            return list(check(subject, ctx))
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - started

    timed.__name__ = getattr(check, "__name__", "check")
    return timed


def measure(paths: list[Path]) -> dict[str, Any]:
    from toolsense.engine.workspace import Workspace
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    spent: dict[str, float] = {}
    for table in (CATALOG.unit_checks, CATALOG.file_checks):
        for kind, checks in table.items():
            table[kind] = [_timed(c, spent, _label(c)) for c in checks]  # type: ignore[assignment]
    settings = Settings.model_validate({"limits": {"max_file_mb": 32}})
    started, wall = time.process_time(), time.perf_counter()
    workspace = Workspace(settings, CATALOG)
    workspace.add(paths)
    workspace.check_all()
    total = time.process_time() - started
    return {
        "cpu_s": round(total, 3),
        "wall_s": round(time.perf_counter() - wall, 3),
        "files": len(workspace.files),
        "checks": {label: round(seconds, 4) for label, seconds in sorted(spent.items(), key=lambda kv: -kv[1])},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()
    print(json.dumps(measure(args.paths)))


if __name__ == "__main__":
    main()
