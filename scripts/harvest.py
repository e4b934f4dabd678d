#!/usr/bin/env python3
"""The harvest of the wild corpus's second round (issue 30): hits in a seeded order, a log, and a blind split.

Hand-picking is what missed whole classes of files, so the files are taken in an order nobody chose:

    python scripts/harvest.py hits       rebuild harvest/hits.tsv from harvest/queries.txt (the query answers)
    python scripts/harvest.py queue N    the next N hits to look at, in the seeded order, skipping those logged
    python scripts/harvest.py take REPO PATH COMMIT ID LICENCE CHARS < text
                                         store a file read from the public file index and log it as taken
    python scripts/harvest.py skip REPO PATH REASON
                                         log a hit as looked at and not taken (licence, size, not text...)
    python scripts/harvest.py split      assign each new repository to the dev or the test half (seeded)

The order: the hits of each query stratum (a dialect key or a file name of issue 30) are shuffled with a fixed
seed, then the strata are interleaved round-robin, so no stratum floods the sample; repositories already in a
corpus (this one's first round, ../shared/corpus and its realworld/) are dropped before the shuffle. A hit is
taken when its repository has a permissive LICENSE and the file is at most MAX_CHARS characters (the files are
copied through the index's read_file answers; the cap is the harvest's budget, and a stated bias toward small
files). At most one file per repository and query stratum is taken, so repositories count more than files.

The split puts whole repositories, never single files, into `dev` (fixed against) or `test` (judged once, at the
end, by the lead). Rows of the first round keep `split` = `seen`.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tsv import read_tsv, write_tsv

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "tests" / "corpus" / "wild"
HARVEST = WILD / "harvest"
QUERIES = HARVEST / "queries.txt"
HITS = HARVEST / "hits.tsv"
LOG = HARVEST / "log.tsv"
MANIFEST = WILD / "MANIFEST.tsv"
SHARED = ROOT.parent / "shared" / "corpus"
SEED = 30  # the number: fixed before any hit was looked at
MAX_CHARS = 6000
BATCHES = (362, 385)
"""Where each batch of the harvest ends in the log's order (the hits after the last entry are the last batch): each
batch was split when it was taken, before any of its findings was looked at."""
HIT_FIELDS = ["stratum", "query", "repo", "path"]
LOG_FIELDS = ["order", "stratum", "query", "repo", "path", "outcome", "commit", "id", "licence", "chars", "reason"]


def taken_repositories() -> set[str]:
    """Repositories already in a corpus: the wild corpus's first round and the shared corpora."""
    taken = {r["repo"].lower() for r in read_tsv(MANIFEST) if r.get("split", "seen") == "seen"}
    taken |= {r["repo"].lower() for r in read_tsv(SHARED / "realworld" / "MANIFEST.tsv")}
    text = (SHARED / "MANIFEST.md").read_text(encoding="utf-8") if (SHARED / "MANIFEST.md").exists() else ""
    taken |= {word.strip("`|,;()").lower() for word in text.split() if word.count("/") == 1}
    return taken


def build_hits() -> list[dict[str, str]]:
    """queries.txt holds each query's answer as given: a `## stratum<TAB>query<TAB>path` line, then repositories."""
    hits: list[dict[str, str]] = []
    stratum = query = path = ""
    for line in QUERIES.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            stratum, query, path = line[3:].split("\t")
        elif line.strip():
            hits.extend({"stratum": stratum, "query": query, "repo": r, "path": path} for r in line.split())
    return hits


def queue() -> list[dict[str, str]]:
    """Every hit in the seeded order: each stratum shuffled, then the strata interleaved round-robin."""
    taken = taken_repositories()
    seen: set[tuple[str, str]] = set()
    strata: dict[str, list[dict[str, str]]] = {}
    for hit in read_tsv(HITS):
        key = (hit["repo"].lower(), hit["path"])
        if hit["repo"].lower() in taken or key in seen:
            continue
        seen.add(key)
        strata.setdefault(hit["stratum"], []).append(hit)
    rng = random.Random(SEED)
    for name in sorted(strata):
        rng.shuffle(strata[name])
    ordered: list[dict[str, str]] = []
    lists = [strata[name] for name in sorted(strata)]
    for i in range(max((len(x) for x in lists), default=0)):
        ordered.extend(x[i] for x in lists if i < len(x))
    return ordered


def _log_row(repo: str, path: str, **values: str) -> None:
    rows = read_tsv(LOG)
    order = {(h["repo"], h["path"]): (i, h) for i, h in enumerate(queue())}
    index, hit = order.get((repo, path), (-1, {"stratum": "?", "query": "?"}))
    rows = [r for r in rows if (r["repo"], r["path"]) != (repo, path)]
    rows.append(
        {"order": str(index), "stratum": hit["stratum"], "query": hit["query"], "repo": repo, "path": path, **values}
    )
    rows.sort(key=lambda r: int(r["order"]))
    write_tsv(LOG, LOG_FIELDS, rows)


def local_name(repo: str, path: str) -> str:
    return f"files/{repo.replace('/', '__')}/{path.replace('/', '__')}"


def take(repo: str, path: str, commit: str, file_id: str, licence: str, chars: str) -> None:
    text = sys.stdin.read()
    reason = ""
    if len(text) + text.count("\n") == int(chars) and "\r" not in text:
        # The index shows CRLF files without their \r; the stored length proves them, so they are put back.
        text, reason = text.replace("\n", "\r\n"), "CRLF line ends restored (the stored length counts them)"
    if len(text) != int(chars):
        sys.exit(f"{repo} {path}: {len(text)} characters read, the index says {chars}")
    target = WILD / local_name(repo, path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(text.encode("utf-8"))
    _log_row(repo, path, outcome="taken", commit=commit, id=file_id, licence=licence, chars=chars, reason=reason)


def split() -> dict[str, str]:
    """Whole repositories into two halves, each batch in a seeded order of its sorted names. A batch is the hits
    looked at up to an entry of BATCHES: a later batch is split on its own, so no repository already split (and
    perhaps judged) moves to the other half; a repository already split keeps its half."""
    taken = [r for r in read_tsv(LOG) if r["outcome"] == "taken"]
    halves: dict[str, str] = {}
    start = 0
    for end in (*BATCHES, len(read_tsv(LOG))):
        repos = sorted({r["repo"] for r in taken if start <= int(r["order"]) < end} - set(halves))
        random.Random(SEED).shuffle(repos)
        first = (len(repos) + 1) // 2
        halves.update({repo: ("dev" if i < first else "test") for i, repo in enumerate(repos)})
        start = end
    return halves


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "queue"
    if command == "hits":
        write_tsv(HITS, HIT_FIELDS, build_hits())
    elif command == "queue":
        done = {(r["repo"], r["path"]) for r in read_tsv(LOG)}
        count = int(argv[1]) if len(argv) > 1 else 20
        pending = [h for h in queue() if (h["repo"], h["path"]) not in done]
        for hit in pending[:count]:
            print(f"{hit['stratum']}\t{hit['repo']}\t{hit['path']}")
    elif command == "take":
        take(*argv[1:7])
    elif command == "skip":
        _log_row(argv[1], argv[2], outcome="skipped", commit="", id="", licence="", chars="", reason=argv[3])
    elif command == "split":
        for repo, half in sorted(split().items()):
            print(f"{half}\t{repo}")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
