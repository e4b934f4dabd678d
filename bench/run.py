#!/usr/bin/env python3
"""Drive the real toolsense server over stdio and time what a user feels, per file size.

    python bench/run.py                    # N = 10, 100, 1000, 5000, then the cases below at N = 5000
    python bench/run.py --sizes 1000 --runs 60 --no-peer
    python bench/run.py --sizes 5000 --cases engine indexing workspace cli
    python bench/run.py --sizes 5000 --cases rules     # each rule's share of a check, without the server

For each N (a generated file of N Anthropic tools, see generate.py) it prints: cold open (didOpen → first
publishDiagnostics), a keystroke (a one-character edit in the middle of the file, debounce 0 → the
publishDiagnostics for that version), completion (an enum value inside a tool's own `input_examples`) and hover
(a property key), median and p95, and the server's peak RSS. When Node and the peer benchmark in
`../shared/peer-bench` are available, it also times the peer — VS Code's JSON language service re-parsing and
re-validating the same file after the same edit — and prints the ratio.

Then, at the largest N, the cases of a workspace under load (`--cases`, all by default), each printed with
median, p95 and peak RSS, and the peer's figure where it does the same work:
- `engine`: the engine alone, in one process (bench/engine.py): a cold check of the file, CPU and wall time.
- `rules`: each rule's share of a check's CPU time (bench/rules.py), on the file and on the wild corpus
  (tests/corpus/wild), as a table sorted by cost; a rule above 10 % is marked.
- `indexing`: keystrokes in the file while the server indexes a second file of the same size.
- `breaking`: keystrokes in the file that break its JSON and heal it again (a `"` typed inside a tool's
  description, then deleted), each to its publishDiagnostics; the peak RSS of the server and of its worker.
- `workspace`: keystrokes in a small file of a workspace of 20,000 small files while it is indexed, and the
  time until indexing ends (`$/progress` end).
- `cli`: `toolsense check --stats` on the 20,000 files with `--jobs 1` and with every core: files/s, the CPU
  time of all its processes and the peak RSS of the largest.
- `cli-startup`: fresh `toolsense --version`, `--help`, `rules` and `check` of one small file, median wall and CPU
  time against their targets, and each command's slowest imports (`-X importtime`); see startup.py. It needs no
  generated file: `python bench/run.py --sizes --cases cli-startup` runs it alone.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import DEFAULT_SIZES, tools_text, write_workspace
from lspclient import LspClient
from startup import run_case as startup_case

PEER_DIR = Path(__file__).resolve().parents[2] / "shared" / "peer-bench"
CASES = ("engine", "rules", "indexing", "breaking", "workspace", "cli", "cli-startup")
WILD = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "wild" / "files"
SHARE_LIMIT = 0.10
"""No rule may cost more than this share of a check (issue 33): the security rules are on by default."""
BENCH_MAX_FILE_MB = 32
"""The 5,000-tool file (22 MB) is above the default size limit (10 MB): the benchmark measures checking it."""


@dataclass
class Result:
    count: int
    size_mb: float
    cold_open_ms: float
    cold_cpu_s: float = 0.0
    """Server CPU from didOpen to the first diagnostics (all threads): what the load of a shared machine does not
    inflate as it does the wall time."""
    rss_open_mb: float | None = None
    """Peak RSS right after the cold open (before completion and hover, which parse the whole document)."""
    keystroke: list[float] = field(default_factory=list)
    first_keystroke_ms: float = 0.0
    """The first keystroke after the open (not in `keystroke`, whose first three are warm-up): issue 33's p95
    target includes it."""
    completion: list[float] = field(default_factory=list)
    hover: list[float] = field(default_factory=list)
    rss_mb: float | None = None
    peer_ms: float | None = None
    diagnostics_after_edit: int = 0
    completion_labels: list[str] = field(default_factory=list)


def position(text: str, index: int) -> dict[str, int]:
    """LSP position of a character index (the generated files are ASCII: UTF-16 columns are characters)."""
    line = text.count("\n", 0, index)
    return {"line": line, "character": index - (text.rfind("\n", 0, index) + 1)}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def targets(text: str) -> tuple[int, int, int]:
    """Character indexes: the keystroke (as the peer does it), an enum value in input_examples, a property key."""
    edit = text.index('"type": "string"', len(text) >> 1) + 14
    tools = json.loads(text)
    middle = len(tools) // 2
    tool = tools[middle]
    properties = tool["input_schema"]["properties"]
    start = text.index(f'"name": "{tool["name"]}"')
    examples = text.index('"input_examples": [', start)
    key = next(k for k in tool["input_examples"][0] if "enum" in properties.get(k, {}))
    value_at = text.index(f'"{key}": "', examples) + len(f'"{key}": "')
    hover_key = next(iter(properties))
    hover_at = text.index(f'"{hover_key}": {{', start) + 2
    return edit, value_at, hover_at


def run_one(path: Path, count: int, runs: int, python: str) -> Result:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    edit, completion_at, hover_at = targets(text)
    client = LspClient([python, "-m", "toolsense", "serve"], cwd=str(path.parent))
    try:
        client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": path.parent.resolve().as_uri(),
                "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True}}},
                "initializationOptions": {
                    "diagnostics": {"debounce_ms": 0},
                    "limits": {"max_file_mb": BENCH_MAX_FILE_MB},
                },
            },
        )
        client.notify("initialized", {})

        def published(version: int) -> Any:
            return lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version
            )

        cpu_before = client.cpu_s()
        sent = client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
        )
        arrived, _ = client.wait(published(1), timeout=600)
        result = Result(count, len(text.encode()) / 1e6, (arrived - sent) * 1000, client.cpu_s() - cpu_before)
        result.rss_open_mb = client.peak_rss_mb()
        start, end = position(text, edit), position(text, edit + 1)
        version = 1
        original = text[edit]
        for round_ in range(runs + 3):
            version += 1
            new = "x" if round_ % 2 == 0 else original
            sent = client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": start, "end": end}, "text": new}],
                },
            )
            arrived, message = client.wait(published(version))
            if round_ == 0:
                result.first_keystroke_ms = (arrived - sent) * 1000
            if round_ >= 3:
                result.keystroke.append((arrived - sent) * 1000)
            if new == "x":
                result.diagnostics_after_edit = len(message["params"]["diagnostics"])
        for round_ in range(runs + 3):
            seconds, response = client.request(
                "textDocument/completion",
                {"textDocument": {"uri": uri}, "position": position(text, completion_at)},
            )
            if round_ >= 3:
                result.completion.append(seconds * 1000)
            items = (response.get("result") or {}).get("items", [])
            result.completion_labels = [item["label"] for item in items]
        for round_ in range(runs + 3):
            seconds, _ = client.request(
                "textDocument/hover", {"textDocument": {"uri": uri}, "position": position(text, hover_at)}
            )
            if round_ >= 3:
                result.hover.append(seconds * 1000)
        result.rss_mb = client.peak_rss_mb()
    finally:
        client.close()
    return result


def peer_keystroke(path: Path, peer_dir: Path = PEER_DIR) -> float | None:
    """The peer's median keystroke (ms) on the same file, or None when Node or the peer is unavailable."""
    node = shutil.which("node")
    if node is None or not (peer_dir / "peer_keystroke.js").is_file():
        return None
    if not (peer_dir / "node_modules" / "vscode-json-languageservice").is_dir():
        npm = shutil.which("npm")
        if npm is None:
            return None
        installed = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund"], cwd=peer_dir, capture_output=True, text=True, timeout=600
        )
        if installed.returncode != 0:
            print(f"(peer: npm install failed: {installed.stderr.strip()[-300:]})", file=sys.stderr)
            return None
    done = subprocess.run(
        [node, str(peer_dir / "peer_keystroke.js"), str(path), "--runs", "7"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        print(f"(peer failed: {done.stderr.strip()[-300:]})", file=sys.stderr)
        return None
    return float(json.loads(done.stdout.strip().splitlines()[-1])["keystroke_median_ms"])


def keystrokes(client: LspClient, uri: str, text: str, edit: int, runs: int, first_version: int) -> list[float]:
    """Milliseconds from a one-character edit (alternating "x" and the original) to its publishDiagnostics."""
    start, end = position(text, edit), position(text, edit + 1)
    original = text[edit]
    times: list[float] = []
    version = first_version
    for round_ in range(runs):
        version += 1
        sent = client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [
                    {"range": {"start": start, "end": end}, "text": "x" if round_ % 2 == 0 else original}
                ],
            },
        )
        arrived, _ = client.wait(_published(version), timeout=600)
        times.append((arrived - sent) * 1000)
    return times


def _published(version: int) -> Any:
    return lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version


@dataclass
class Case:
    name: str
    what: str
    median: str
    p95: str
    rss_mb: float | None = None
    peer: str = "n/a"
    ratio: str = "n/a"


def _start(python: str, root: Path) -> LspClient:
    client = LspClient([python, "-m", "toolsense", "serve"], cwd=str(root))
    client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": root.resolve().as_uri(),
            "capabilities": {
                "textDocument": {"publishDiagnostics": {"versionSupport": True}},
                "window": {"workDoneProgress": True},
            },
            "initializationOptions": {"diagnostics": {"debounce_ms": 0}, "limits": {"max_file_mb": BENCH_MAX_FILE_MB}},
        },
        timeout=600,
    )
    return client


def _open(client: LspClient, path: Path) -> tuple[str, str, float]:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    sent = client.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
    )
    arrived, _ = client.wait(_published(1), timeout=600)
    return uri, text, (arrived - sent) * 1000


def _ms(values: list[float]) -> tuple[str, str]:
    return f"{statistics.median(values):,.1f} ms", f"{pct(values, 0.95):,.1f} ms"


def case_engine(path: Path, python: str, peer_ms: float | None) -> Case:
    done = subprocess.run(
        [python, str(Path(__file__).resolve().parent / "engine.py"), str(path)],
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    wall = figures["wall_s"] * 1000
    return Case(
        "engine",
        f"cold check of {path.name}, one process (CPU {figures['cpu_s']:.2f} s)",
        f"{wall:,.0f} ms",
        "—",
        figures["peak_rss_mb"],
        f"{peer_ms:,.0f} ms" if peer_ms is not None else "n/a",
        f"{peer_ms / wall:.2f}×" if peer_ms is not None else "n/a",
    )


def _rule_costs(paths: list[Path], python: str) -> dict[str, Any]:
    done = subprocess.run(
        [python, str(Path(__file__).resolve().parent / "rules.py"), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def rules_table(path: Path, python: str, wild: Path = WILD) -> str:
    """Each check's CPU time and share of the whole check, on the file and on the wild corpus, by cost."""
    runs = [(path.name, _rule_costs([path], python))]
    if wild.is_dir():
        runs.append((f"wild corpus ({wild.parent.name}, %d files)", _rule_costs([wild], python)))
    labels = sorted(
        {label for _, run in runs for label in run["checks"]}, key=lambda k: -runs[0][1]["checks"].get(k, 0)
    )
    header = "| check (codes) | " + " | ".join(name.replace("%d", str(run["files"])) for name, run in runs) + " |"
    rows = [header, "|---|" + "---|" * len(runs)]

    def cell(seconds: float, total: float) -> str:
        share = seconds / total if total else 0.0
        return f"{seconds:,.2f} s ({share:.1%}){' ⚠ over 10 %' if share > SHARE_LIMIT else ''}"

    for label in labels:
        rows.append(
            f"| {label} | " + " | ".join(cell(run["checks"].get(label, 0.0), run["cpu_s"]) for _, run in runs) + " |"
        )
    engine = [run["cpu_s"] - sum(run["checks"].values()) for _, run in runs]
    rows.append(
        "| the engine (read, parse, units, place) | "
        + " | ".join(f"{e:,.2f} s ({e / run['cpu_s']:.1%})" for e, (_, run) in zip(engine, runs, strict=True))
        + " |"
    )
    rows.append("| **whole check (CPU)** | " + " | ".join(f"**{run['cpu_s']:,.2f} s**" for _, run in runs) + " |")
    return "\n".join(rows)


def case_indexing(path: Path, count: int, runs: int, python: str, peer_ms: float | None) -> Case:
    """Keystrokes while the server indexes a second file of the same size (and checks the open one)."""
    folder = path.parent.parent / f"indexing{count}"
    folder.mkdir(parents=True, exist_ok=True)
    opened = folder / path.name
    if not opened.exists():
        opened.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    other = folder / f"other_{count}.json"
    if not other.exists():
        other.write_text(tools_text(count, seed=11), encoding="utf-8")
    client = _start(python, folder)
    try:
        initialized = client.notify("initialized", {})
        uri, text, _ = _open(client, opened)
        edit, _, _ = targets(text)
        times = keystrokes(client, uri, text, edit, runs, 1)
        ended = client.wait_progress_end()
        rss = client.peak_rss_mb()
    finally:
        client.close()
    median, p95 = _ms(times)
    return Case(
        "while indexing",
        f"keystroke in {path.name} while a second {count:,}-tool file is indexed "
        f"(indexing ended {ended - initialized:.1f} s after start)",
        median,
        p95,
        rss,
        f"{peer_ms:,.0f} ms" if peer_ms is not None else "n/a",
        f"{peer_ms / statistics.median(times):,.0f}×" if peer_ms is not None else "n/a",
    )


def _worker_peak_rss_mb(pid: int) -> float | None:
    """The largest peak RSS among the server's child processes (the check worker), from /proc."""
    peaks: list[float] = []
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii").split()
    except OSError:
        return None
    for child in children:
        try:
            status = Path(f"/proc/{child}/status").read_text(encoding="ascii")
        except OSError:
            continue
        peaks += [int(line.split()[1]) / 1024 for line in status.splitlines() if line.startswith("VmHWM:")]
    return max(peaks, default=None)


def case_breaking(path: Path, runs: int, python: str) -> list[Case]:
    """Keystrokes that break the file's JSON (a `"` typed inside a tool's description) and heal it (deleted)."""
    client = _start(python, path.parent)
    try:
        client.notify("initialized", {})
        uri, text, _ = _open(client, path)
        at = text.index('"description": "', len(text) >> 1) + len('"description": "') + 3
        where = position(text, at)
        breaking: list[float] = []
        healing: list[float] = []
        for version in range(2, 2 * runs + 2):
            broken = version % 2 == 0
            change = (
                {"range": {"start": where, "end": where}, "text": '"'}
                if broken
                else {"range": {"start": where, "end": {**where, "character": where["character"] + 1}}, "text": ""}
            )
            sent = client.notify(
                "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            )
            arrived, _ = client.wait(_published(version), timeout=600)
            (breaking if broken else healing).append((arrived - sent) * 1000)
        rss = client.peak_rss_mb()
        worker = _worker_peak_rss_mb(client.process.pid)
    finally:
        client.close()
    note = f"; worker peak RSS {worker:,.0f} MB" if worker is not None else ""
    cases = []
    for name, times, what in [("breaking", breaking, 'types a `"` inside a tool'), ("healing", healing, "deletes it")]:
        median, p95 = _ms(times)
        what = f"keystroke in {path.name} that {what} (first: {times[0]:,.0f} ms){note}"
        cases.append(Case(name, what, median, p95, rss))
    return cases


def case_workspace(folder: Path, files: int, runs: int, python: str) -> Case:
    """Keystrokes in one small file while a workspace of many small files is indexed; time to index it."""
    client = _start(python, folder)
    try:
        cpu_before = client.cpu_s()
        initialized = client.notify("initialized", {})
        opened = folder / "pkg_0000" / "tools_000000.tools.json"
        uri, text, _ = _open(client, opened)
        edit = text.index('"description": "') + len('"description": "') + 2
        times = keystrokes(client, uri, text, edit, runs, 1)
        ended = client.wait_progress_end()
        cpu = client.cpu_s() - cpu_before
        rss = client.peak_rss_mb()
    finally:
        client.close()
    median, p95 = _ms(times)
    return Case(
        f"{files:,} files",
        f"keystroke in a small file while the workspace is indexed (indexed in {ended - initialized:.1f} s, "
        f"server CPU {cpu:.1f} s)",
        median,
        p95,
        rss,
    )


_MEASURED = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - started, "cpu": usage.ru_utime + usage.ru_stime,
                  "rss_mb": usage.ru_maxrss / 1024, "stderr": done.stderr}))
"""


def case_cli(folder: Path, files: int, jobs: int, python: str) -> Case:
    """The CLI in a fresh parent process, so CPU (all its processes) and peak RSS (its largest) are its own."""
    done = subprocess.run(
        [python, "-c", _MEASURED, python, "-m", "toolsense", "check", ".", "--stats", "--jobs", str(jobs)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=3600,
        check=True,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    stats = figures["stderr"].strip().splitlines()[-1] if figures["stderr"].strip() else "?"
    rate = stats.split(", ")[-1].split(" files/s")[0] if "files/s" in stats else "?"
    return Case(
        "CLI",
        f"`toolsense check --jobs {jobs}` on {files:,} files: {rate} files/s, CPU {figures['cpu']:.1f} s",
        f"{figures['wall']:,.1f} s",
        "—",
        figures["rss_mb"],
    )


def cases_table(cases: list[Case]) -> str:
    rows = [
        "| case | what | median (or total) | p95 | peak RSS | peer | peer ÷ toolsense |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in cases:
        rss = f"{c.rss_mb:,.0f} MB" if c.rss_mb is not None else "n/a"
        rows.append(f"| {c.name} | {c.what} | {c.median} | {c.p95} | {rss} | {c.peer} | {c.ratio} |")
    return "\n".join(rows)


def table(results: list[Result]) -> str:
    rows = [
        "| tools (file) | cold open → diagnostics (server CPU) | keystroke → diagnostics, median / p95 (first) "
        "| completion median / p95 | hover median / p95 | RSS after open / peak | peer keystroke (VS Code JSON) "
        "| peer ÷ toolsense |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        median = statistics.median(r.keystroke)
        peer = f"{r.peer_ms:,.0f} ms" if r.peer_ms is not None else "n/a"
        ratio = f"{r.peer_ms / median:,.0f}×" if r.peer_ms is not None and median > 0 else "n/a"
        rss = f"{r.rss_open_mb or 0:,.0f} / {r.rss_mb:,.0f} MB" if r.rss_mb is not None else "n/a"
        rows.append(
            f"| {r.count:,} ({r.size_mb:.1f} MB) | {r.cold_open_ms:,.0f} ms ({r.cold_cpu_s:.2f} s) "
            f"| {median:.1f} / {pct(r.keystroke, 0.95):.1f} ms ({r.first_keystroke_ms:,.0f} ms) "
            f"| {statistics.median(r.completion):.2f} / {pct(r.completion, 0.95):.2f} ms "
            f"| {statistics.median(r.hover):.2f} / {pct(r.hover, 0.95):.2f} ms | {rss} | {peer} | {ratio} |"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", nargs="*", type=int, default=list(DEFAULT_SIZES))
    parser.add_argument("--runs", type=int, default=40, help="timed repetitions per measurement")
    parser.add_argument("--out", type=Path, default=Path("/tmp/toolsense-bench"), help="where files are generated")
    parser.add_argument("--no-peer", action="store_true", help="skip the VS Code JSON language service column")
    parser.add_argument("--peer-dir", type=Path, default=PEER_DIR, help="the peer benchmark (shared/peer-bench)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the server")
    parser.add_argument(
        "--cases",
        nargs="*",
        default=list(CASES),
        choices=CASES,
        help="the cases at the largest size after the per-size table (none: only the per-size table)",
    )
    parser.add_argument("--files", type=int, default=20_000, help="files of the workspace and CLI cases")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="CLI case: --jobs")
    args = parser.parse_args()
    if "cli-startup" in args.cases:
        print(startup_case(args.python, min(args.runs, 15), 8), end="\n\n")
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({len(os.sched_getaffinity(0))} cores)", file=sys.stderr)
    if args.cases == ["rules"] and args.sizes:
        # alone, the rules case needs no server: the largest generated file and the wild corpus
        count = max(args.sizes)
        path = args.out / f"n{count}" / f"tools_{count}.json"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(tools_text(count), encoding="utf-8")
        print(rules_table(path, args.python))
        print(f"load average at end: {os.getloadavg()[0]:.1f}", file=sys.stderr)
        return
    results = []
    for count in args.sizes:
        folder = args.out / f"n{count}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"tools_{count}.json"
        if not path.exists():
            path.write_text(tools_text(count), encoding="utf-8")
        result = run_one(path, count, args.runs, args.python)
        if not args.no_peer:
            result.peer_ms = peer_keystroke(path, args.peer_dir)
        print(
            f"N={count}: cold {result.cold_open_ms:.0f} ms, keystroke median {statistics.median(result.keystroke):.1f}"
            f" ms ({result.diagnostics_after_edit} diagnostics after the edit), completion "
            f"{statistics.median(result.completion):.2f} ms ({', '.join(result.completion_labels[:4])}), "
            f"peer {result.peer_ms}",
            file=sys.stderr,
        )
        results.append(result)
    if results:
        print(table(results))
    if not args.cases or not results:
        return
    largest = results[-1]
    path = args.out / f"n{largest.count}" / f"tools_{largest.count}.json"
    cases: list[Case] = []
    if "engine" in args.cases:
        cases.append(case_engine(path, args.python, largest.peer_ms))
    if "rules" in args.cases:
        print(rules_table(path, args.python), end="\n\n")
    if "indexing" in args.cases:
        cases.append(case_indexing(path, largest.count, args.runs, args.python, largest.peer_ms))
    if "breaking" in args.cases:
        cases.extend(case_breaking(path, max(args.runs // 2, 5), args.python))
    workspace = args.out / f"ws{args.files}"
    if {"workspace", "cli"} & set(args.cases) and not (workspace / "pkg_0000").is_dir():
        write_workspace(workspace, args.files)
    if "workspace" in args.cases:
        cases.append(case_workspace(workspace, args.files, args.runs, args.python))
    if "cli" in args.cases:
        cases.append(case_cli(workspace, args.files, 1, args.python))
        if args.jobs > 1:
            cases.append(case_cli(workspace, args.files, args.jobs, args.python))
    print()
    print(cases_table(cases))
    print(f"load average at end: {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
