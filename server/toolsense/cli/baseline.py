"""`toolsense check --baseline FILE`: accept the findings a repository already has and fail only on new ones.

The baseline is a JSON file meant to be committed. Each entry names a finding by file, tool name, JSON pointer
inside the tool and code (`finding_keys.FindingKey`), not by line, so edits elsewhere in a file — or moving a
tool — keep it valid. A finding with an entry is not reported; an entry that no finding matches any more is
reported as fixed (TS019, information), so the file is seen to shrink. `--update-baseline` writes the file from
the findings of this check.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..engine.checker import Diagnostic
    from .finding_keys import FindingKey

FORMAT_VERSION = 1
FIXED_CODE = "TS019"
_NOT_BASELINED = frozenset({"TS900"})
"""Internal errors are toolsense's bugs, never a finding of the repository to accept."""
# The module is imported to build `check`'s options (`--help` too): what matching needs is imported when it runs.


class BaselineError(Exception):
    """The baseline file cannot be read or written, or is not a toolsense baseline."""


def add_baseline_options(check: argparse.ArgumentParser) -> None:
    group = check.add_argument_group("baselines")
    group.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="a JSON file of accepted findings: those are not reported, entries no longer found are (as fixed)",
    )
    group.add_argument(
        "--update-baseline",
        action="store_true",
        help="write the findings of this check to the --baseline file (then nothing is new)",
    )


def _relative(path: Path, folder: Path) -> str:
    absolute = path.resolve()
    try:
        return absolute.relative_to(folder).as_posix()
    except ValueError:
        return Path(os.path.relpath(absolute, folder)).as_posix()


def _entry(key: FindingKey, message: str) -> dict[str, str]:
    return {"file": key.file, "tool": key.tool, "pointer": key.pointer, "code": key.code, "message": message}


def read_baseline(path: Path) -> list[FindingKey]:
    from .finding_keys import FindingKey

    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot read baseline {path}: {error.strerror} (--update-baseline writes it)") from error
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"baseline {path} is not JSON: {error}") from error
    entries = data.get("findings") if isinstance(data, dict) and data.get("version") == FORMAT_VERSION else None
    if not isinstance(entries, list):
        raise BaselineError(f'baseline {path} is not a toolsense baseline (version {FORMAT_VERSION}, "findings")')
    keys = []
    for entry in entries:
        fields = [entry.get(name) if isinstance(entry, dict) else None for name in ("file", "tool", "pointer", "code")]
        texts = [value for value in fields if isinstance(value, str)]
        if len(texts) != len(fields):
            raise BaselineError(f"baseline {path}: an entry without file, tool, pointer and code strings: {entry!r}")
        keys.append(FindingKey(*texts))
    return keys


def write_baseline(path: Path, results: dict[Path, list[Diagnostic]]) -> int:
    """Write every finding of the results (sorted, so the file diffs well), keeping the entries of files this
    check did not cover that still exist; the number of entries written."""
    from .finding_keys import finding_key

    folder = path.resolve().parent
    checked = {_relative(file, folder) for file in results}
    entries = sorted(
        (finding_key(_relative(file, folder), d), d.message)
        for file, diagnostics in results.items()
        for d in diagnostics
        if d.code not in _NOT_BASELINED and d.code != FIXED_CODE
    )
    kept = [_entry(key, message) for key, message in entries]
    if path.is_file():
        with contextlib.suppress(BaselineError, OSError, ValueError):  # not a baseline yet: written anew
            keys = read_baseline(path)  # checks the shape the next line reads
            old = json.loads(path.read_text(encoding="utf-8"))["findings"]
            # Kept in the shape toolsense writes: a message that is not a string (`null`, a number) is empty,
            # so that the entries sort (and the file diffs well).
            kept += [
                _entry(key, message if isinstance(message := entry.get("message"), str) else "")
                for entry, key in zip(old, keys, strict=True)
                if _elsewhere(key, checked, folder)
            ]
    kept.sort(key=lambda e: (e["file"], e["tool"], e["pointer"], e["code"], e["message"]))
    document = {"version": FORMAT_VERSION, "findings": kept}
    from ..safe_write import write_file_atomically

    try:  # as --fix writes: a temporary file renamed over the old one, never through a link
        write_file_atomically(path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    except OSError as error:
        raise BaselineError(f"cannot write baseline {path}: {error.strerror}") from error
    return len(kept)


def _elsewhere(key: FindingKey, checked: set[str], folder: Path) -> bool:
    """Whether an entry is about a file this check did not cover, and that still exists (left as it is)."""
    return key.file not in checked and (folder / key.file).exists()


def apply_baseline(
    results: dict[Path, list[Diagnostic]], path: Path, update: bool, err: TextIO, fixed_severity: str | None = None
) -> dict[Path, list[Diagnostic]]:
    """The results less the baselined findings, plus one TS019 per entry of a file checked (or gone) that matched
    no finding (with the severity the settings give TS019; "off": none). With `update`, the file is written
    first."""
    from .finding_keys import finding_key

    if update:
        written = write_baseline(path, results)
        err.write(f"toolsense: wrote {written} finding{'s' if written != 1 else ''} to the baseline {path}\n")
    folder = path.resolve().parent
    files = {_relative(file, folder): file for file in results}
    checked = set(files)
    accepted = Counter(key for key in read_baseline(path) if not _elsewhere(key, checked, folder))
    kept: dict[Path, list[Diagnostic]] = {}
    for file, diagnostics in results.items():
        shown = _relative(file, folder)
        kept[file] = []
        for diagnostic in diagnostics:
            key = finding_key(shown, diagnostic)
            if accepted[key] > 0 and diagnostic.code not in _NOT_BASELINED:
                accepted[key] -= 1
            else:
                kept[file].append(diagnostic)
    if fixed_severity == "off":
        return kept
    for key, left in sorted(accepted.items()):
        for _ in range(left):
            kept.setdefault(files.get(key.file, folder / key.file), []).append(_fixed(key, fixed_severity))
    return kept


def _fixed(key: FindingKey, severity: str | None) -> Diagnostic:
    from ..document.lines import Position, Range
    from ..engine.checker import Diagnostic
    from ..engine.findings import Severity

    where = f"tool '{key.tool}'" if key.tool else "the file"
    at = f" at {key.pointer}" if key.pointer else ""
    message = f"Fixed: {key.code} in {where}{at} is no longer reported; --update-baseline drops its entry"
    start = Position(0, 0)
    level = Severity.from_label(severity) if severity is not None else Severity.INFORMATION
    return Diagnostic(Range(start, start), level, FIXED_CODE, message)
