#!/usr/bin/env python3
"""The `cli-startup` case: how long a fresh `toolsense` process takes for the commands people run most often (a
pre-commit hook, an editor's on-save task, an agent after every edit), against the targets of issue 25, and where
the import time goes (`python -X importtime`).

    python bench/startup.py --runs 15            # or: python bench/run.py --sizes --cases cli-startup

Each command runs `--runs` times after one warm-up run (which also writes the bytecode caches: a bytecode-less
run measures the compiler, not toolsense); the table gives the median wall time, the median CPU time (user +
system, which the load of a shared machine inflates less), and the target. Then, per command, the modules whose
own import took longest in one `-X importtime` run, with their cumulative time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import tools_text

TARGETS: tuple[tuple[str, tuple[str, ...], float], ...] = (
    ("--version", ("--version",), 0.15),
    ("--help", ("--help",), 0.15),
    ("rules", ("rules",), 0.3),
    ("check (one small file)", ("check", "small.tools.json"), 0.6),
)
"""Label, arguments after `python -m toolsense`, target wall time in seconds."""

HEAVY = ("numpy", "pydantic", "jsonschema", "tree_sitter", "pygls", "regex", "importlib.metadata", "multiprocessing")
"""Imports worth naming when a command loads them."""


@dataclass
class Timing:
    label: str
    wall_s: list[float]
    cpu_s: list[float]
    target_s: float


@dataclass
class ImportEntry:
    module: str
    self_ms: float
    cumulative_ms: float


def _environment() -> dict[str, str]:
    """The caller's environment, but with bytecode caches written and read as a user's install has them."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _small_folder() -> Path:
    """A folder outside any repository with one small tools file (three tools, a few findings)."""
    folder = Path(tempfile.mkdtemp(prefix="toolsense-startup-"))
    (folder / "small.tools.json").write_text(tools_text(3), encoding="utf-8")
    return folder


def time_command(python: str, args: tuple[str, ...], folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of `runs` fresh processes (after one warm-up run)."""
    env = _environment()
    walls: list[float] = []
    cpus: list[float] = []
    for round_ in range(runs + 1):
        started = time.perf_counter()
        process = subprocess.Popen(
            [python, "-m", "toolsense", *args],
            cwd=folder,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            raise RuntimeError(f"toolsense {' '.join(args)} exited with {process.returncode}")
        if round_:
            walls.append(wall)
            cpus.append(usage.ru_utime + usage.ru_stime)
    return walls, cpus


def import_profile(python: str, args: tuple[str, ...], folder: Path) -> list[ImportEntry]:
    """One `-X importtime` run of the command: every module with its own and cumulative import time."""
    done = subprocess.run(
        [python, "-X", "importtime", "-m", "toolsense", *args],
        cwd=folder,
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    entries: list[ImportEntry] = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        entries.append(ImportEntry(name.strip(), int(own) / 1000, int(cumulative) / 1000))
    return entries


def timings_table(timings: list[Timing]) -> str:
    rows = ["| command | median wall | median CPU | target (wall) | met |", "|---|---|---|---|---|"]
    for t in timings:
        wall = statistics.median(t.wall_s)
        rows.append(
            f"| `toolsense {t.label}` | {wall:.3f} s | {statistics.median(t.cpu_s):.3f} s | {t.target_s:.2f} s "
            f"| {'yes' if wall <= t.target_s else 'no'} |"
        )
    return "\n".join(rows)


def imports_table(label: str, entries: list[ImportEntry], top: int) -> str:
    total = sum(e.self_ms for e in entries)
    loaded = {e.module for e in entries}
    heavy = [name for name in HEAVY if name in loaded]
    rows = [
        f"`toolsense {label}`: {len(entries)} modules imported in {total:.0f} ms; "
        f"heavy ones: {', '.join(heavy) or 'none'}",
        "",
        "| module | self | cumulative |",
        "|---|---|---|",
    ]
    for entry in sorted(entries, key=lambda e: e.self_ms, reverse=True)[:top]:
        rows.append(f"| {entry.module} | {entry.self_ms:.1f} ms | {entry.cumulative_ms:.1f} ms |")
    return "\n".join(rows)


def run_case(python: str, runs: int, top: int) -> str:
    """The whole case as markdown: the timings table, then each command's import profile."""
    folder = _small_folder()
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({len(os.sched_getaffinity(0))} cores)", file=sys.stderr)
    timings = [Timing(label, *time_command(python, args, folder, runs), target) for label, args, target in TARGETS]
    parts = [timings_table(timings)]
    for label, args, _ in TARGETS:
        parts.append(imports_table(label, import_profile(python, args, folder), top))
    print(f"load average at end: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    return "\n\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command")
    parser.add_argument("--top", type=int, default=8, help="modules listed per import profile")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs toolsense")
    args = parser.parse_args()
    print(run_case(args.python, args.runs, args.top))


if __name__ == "__main__":
    main()
