#!/usr/bin/env python3
"""Drive the real toolsense server over stdio and time what a user feels, per file size.

    python bench/run.py                    # N = 10, 100, 1000, 5000
    python bench/run.py --sizes 1000 --runs 60 --no-peer

For each N (a generated file of N Anthropic tools, see generate.py) it prints: cold open (didOpen → first
publishDiagnostics), a keystroke (a one-character edit in the middle of the file, debounce 0 → the
publishDiagnostics for that version), completion (an enum value inside a tool's own `input_examples`) and hover
(a property key), median and p95, and the server's peak RSS. When Node and the peer benchmark in
`../shared/peer-bench` are available, it also times the peer — VS Code's JSON language service re-parsing and
re-validating the same file after the same edit — and prints the ratio.
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

from generate import DEFAULT_SIZES, tools_text
from lspclient import LspClient

PEER_DIR = Path(__file__).resolve().parents[2] / "shared" / "peer-bench"


@dataclass
class Result:
    count: int
    size_mb: float
    cold_open_ms: float
    keystroke: list[float] = field(default_factory=list)
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
                "initializationOptions": {"diagnostics": {"debounce_ms": 0}},
            },
        )
        client.notify("initialized", {})

        def published(version: int) -> Any:
            return lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version
            )

        sent = client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
        )
        arrived, _ = client.wait(published(1), timeout=600)
        result = Result(count, len(text.encode()) / 1e6, (arrived - sent) * 1000)
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


def peer_keystroke(path: Path) -> float | None:
    """The peer's median keystroke (ms) on the same file, or None when Node or the peer is unavailable."""
    node = shutil.which("node")
    if node is None or not (PEER_DIR / "peer_keystroke.js").is_file():
        return None
    if not (PEER_DIR / "node_modules" / "vscode-json-languageservice").is_dir():
        npm = shutil.which("npm")
        if npm is None:
            return None
        installed = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund"], cwd=PEER_DIR, capture_output=True, text=True, timeout=600
        )
        if installed.returncode != 0:
            print(f"(peer: npm install failed: {installed.stderr.strip()[-300:]})", file=sys.stderr)
            return None
    done = subprocess.run(
        [node, str(PEER_DIR / "peer_keystroke.js"), str(path), "--runs", "7"],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        print(f"(peer failed: {done.stderr.strip()[-300:]})", file=sys.stderr)
        return None
    return float(json.loads(done.stdout.strip().splitlines()[-1])["keystroke_median_ms"])


def table(results: list[Result]) -> str:
    rows = [
        "| tools (file) | cold open → diagnostics | keystroke → diagnostics, median / p95 | completion median / p95 "
        "| hover median / p95 | peak RSS | peer keystroke (VS Code JSON) | peer ÷ toolsense |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        median = statistics.median(r.keystroke)
        peer = f"{r.peer_ms:,.0f} ms" if r.peer_ms is not None else "n/a"
        ratio = f"{r.peer_ms / median:,.0f}×" if r.peer_ms is not None and median > 0 else "n/a"
        rss = f"{r.rss_mb:,.0f} MB" if r.rss_mb is not None else "n/a"
        rows.append(
            f"| {r.count:,} ({r.size_mb:.1f} MB) | {r.cold_open_ms:,.0f} ms "
            f"| {median:.1f} / {pct(r.keystroke, 0.95):.1f} ms "
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
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the server")
    args = parser.parse_args()
    results = []
    for count in args.sizes:
        folder = args.out / f"n{count}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"tools_{count}.json"
        if not path.exists():
            path.write_text(tools_text(count), encoding="utf-8")
        result = run_one(path, count, args.runs, args.python)
        if not args.no_peer:
            result.peer_ms = peer_keystroke(path)
        print(
            f"N={count}: cold {result.cold_open_ms:.0f} ms, keystroke median {statistics.median(result.keystroke):.1f}"
            f" ms ({result.diagnostics_after_edit} diagnostics after the edit), completion "
            f"{statistics.median(result.completion):.2f} ms ({', '.join(result.completion_labels[:4])}), "
            f"peer {result.peer_ms}",
            file=sys.stderr,
        )
        results.append(result)
    print(table(results))


if __name__ == "__main__":
    main()
