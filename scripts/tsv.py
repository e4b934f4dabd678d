"""Tab-separated tables the corpus scripts keep (manifests, verdicts, the harvest log): read and written one way."""

from __future__ import annotations

import csv
from pathlib import Path


def read_tsv(path: Path) -> list[dict[str, str]]:
    """The rows of a table with a header line; none when the file is not there yet."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def write_tsv(path: Path, fields: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fields, delimiter="\t", lineterminator="\n", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
