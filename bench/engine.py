#!/usr/bin/env python3
"""The engine alone, in this process: a cold check of one file (what the server does on open, without LSP).

    python bench/engine.py FILE                  # one JSON line: cpu_s, wall_s, peak_rss_mb, diagnostics
    python bench/engine.py FILE --profile 40     # cProfile, the 40 top functions by cumulative time
    python bench/engine.py FILE --memory 25      # tracemalloc: peak traced memory, the 25 top allocation sites

The document is built from the file's bytes (tree-sitter parse, line table), then `check_document` runs every
rule on every unit with a fresh cache, as on `didOpen`.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any


def cold_check(data: bytes, uri: str) -> Any:
    from toolsense.document.document import Document
    from toolsense.engine.checker import UnitCache, check_document
    from toolsense.engine.context import CheckContext, ToolRegistry
    from toolsense.rules import CATALOG
    from toolsense.settings import Settings

    document = Document(uri, bytearray(data))
    return check_document(
        document, CheckContext(Settings(), ToolRegistry(), uri, catalog=CATALOG), None, UnitCache(), None
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("file", type=Path)
    parser.add_argument("--profile", type=int, metavar="N", help="print the N top functions (cumulative)")
    parser.add_argument("--sort", default="cumulative", help="cProfile sort key (with --profile)")
    parser.add_argument("--memory", type=int, metavar="N", help="print the N top allocation sites at the end")
    args = parser.parse_args()

    data = args.file.read_bytes()
    uri = args.file.resolve().as_uri()
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(cold_check, data, uri)
        pstats.Stats(profile, stream=sys.stdout).sort_stats(args.sort).print_stats(args.profile)
        return
    if args.memory:
        tracemalloc.start(10)
        report = cold_check(data, uri)
        current, peak = tracemalloc.get_traced_memory()
        print(
            f"traced: {current / 1e6:.1f} MB held after the check, {peak / 1e6:.1f} MB peak; "
            f"file {len(data) / 1e6:.1f} MB"
        )
        for stat in tracemalloc.take_snapshot().statistics("lineno")[: args.memory]:
            print(stat)
        del report
        return
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    report = cold_check(data, uri)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(
        json.dumps(
            {
                "cpu_s": round(cpu, 3),
                "wall_s": round(wall, 3),
                "peak_rss_mb": round(after.ru_maxrss / 1024, 1),
                "file_mb": round(len(data) / 1e6, 2),
                "diagnostics": len(report.diagnostics),
            }
        )
    )


if __name__ == "__main__":
    main()
