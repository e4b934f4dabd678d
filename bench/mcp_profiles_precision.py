"""Count what the opt-in `mcp-quality` and `mcp-security` profiles find on the shared corpus, and show samples.

    python bench/mcp_profiles_precision.py [--samples N] [--corpus ../shared/corpus]

Prints, per rule, the findings in `corpus/` (without `realworld/`) and in `corpus/realworld/`, then up to N
samples per rule (file, line, message) spread over the files, for a reviewer to judge: would they act on it?
The judged numbers are in docs/live-mcp-servers.md ("Profile precision"). Reads only; writes nothing.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from toolsense.engine.checker import Diagnostic  # noqa: E402
from toolsense.engine.workspace import Workspace  # noqa: E402
from toolsense.rules import CATALOG  # noqa: E402
from toolsense.rules.tools.mcp_profiles import FAMILY_QUALITY, FAMILY_SECURITY  # noqa: E402
from toolsense.settings import Settings  # noqa: E402


def default_corpus() -> Path:
    # ../shared beside the checkout, or two levels up from a worktree (/work/wt/NAME).
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / "shared" / "corpus").is_dir():
            return base / "shared" / "corpus"
    return ROOT.parent / "shared" / "corpus"


PROFILE_CODES = sorted(c for c, r in CATALOG.rules.items() if r.family in (FAMILY_QUALITY, FAMILY_SECURITY))


def check(files: list[Path]) -> dict[Path, list[Diagnostic]]:
    workspace = Workspace(Settings(profiles=("mcp-quality", "mcp-security")), CATALOG)
    workspace.add(files)
    return workspace.check_all()


def files_under(folder: Path, skip: Path | None = None) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in (".json", ".jsonl", ".snap"):
            continue
        if skip is not None and skip in path.parents:
            continue
        found.append(path)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--samples", type=int, default=0, help="samples per rule to print")
    args = parser.parse_args()
    corpus: Path = args.corpus
    realworld = corpus / "realworld"
    parts = {"corpus": check(files_under(corpus, skip=realworld)), "realworld": check(files_under(realworld))}
    counts: dict[str, collections.Counter[str]] = {name: collections.Counter() for name in parts}
    samples: dict[str, list[tuple[Path, Diagnostic]]] = collections.defaultdict(list)
    for name, results in parts.items():
        for path, diagnostics in results.items():
            for d in diagnostics:
                if d.code in PROFILE_CODES:
                    counts[name][d.code] += 1
                    samples[d.code].append((path, d))
    print("| code | rule | corpus/ | realworld/ |")
    print("|---|---|---:|---:|")
    for code in PROFILE_CODES:
        rule = CATALOG.rules[code]
        print(f"| {code} | `{rule.name}` | {counts['corpus'][code]} | {counts['realworld'][code]} |")
    if args.samples:
        for code in PROFILE_CODES:
            found = samples[code]
            if not found:
                continue
            step = max(1, len(found) // args.samples)
            print(f"\n## {code} {CATALOG.rules[code].name} ({len(found)})")
            for path, d in found[::step][: args.samples]:
                shown = path.relative_to(corpus) if corpus in path.parents else path
                print(f"- {shown}:{d.range.start.line + 1}: {d.message}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
