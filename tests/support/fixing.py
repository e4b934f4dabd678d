"""Quick fixes in tests: a text checked in a workspace as `toolsense check` checks it, one fix applied, and the
invariants every fix keeps."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from toolsense.cli.app import load_settings_for
from toolsense.document.document import Document
from toolsense.engine.checker import Diagnostic, UnitCache, check_document
from toolsense.engine.findings import Fix, InsertMembers, ReplaceValue
from toolsense.engine.registry_files import load_registry_extras
from toolsense.engine.units import kind_from_path
from toolsense.engine.workspace import Workspace, path_to_uri
from toolsense.fixes import TextEdit, apply_edits, edits_for_fix
from toolsense.rules import CATALOG
from toolsense.usermodels import load_models_for_cli

WORKSPACE = Path(__file__).resolve().parents[1] / "fixes" / "workspace"
"""A small stable workspace (tools, an automation, two wrong files) the case files are checked in."""


@cache
def workspace_for(root: Path) -> Workspace:
    """The workspace `toolsense check ROOT` builds: settings from its config file, models, every tool."""
    quiet = io.StringIO()
    loaded = load_settings_for([root], None, quiet)
    assert loaded is not None, quiet.getvalue()
    settings, base = loaded
    workspace = Workspace(settings, CATALOG)
    workspace.models = load_models_for_cli(settings, base, quiet)
    workspace.add([root])
    assert not load_registry_extras(workspace.registry, settings, base)
    return workspace


def check_in_workspace(
    text: str | bytes, name: str = "x.tool.json", root: Path = WORKSPACE
) -> tuple[Document, list[Diagnostic]]:
    """The document and its diagnostics, as `toolsense check ROOT` computes them for ROOT/name with this text."""
    workspace = workspace_for(root)
    path = root / name
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    document = Document(path_to_uri(path), bytearray(data))
    kind = kind_from_path(str(path.resolve()), workspace.settings)
    report = check_document(document, workspace.context(document.uri), kind, UnitCache())
    return document, report.diagnostics


def checker(name: str, root: Path = WORKSPACE) -> Callable[[Document], list[Diagnostic]]:
    def run(document: Document) -> list[Diagnostic]:
        return check_in_workspace(bytes(document.data), name, root)[1]

    return run


def key(diagnostic: Diagnostic) -> tuple[str, tuple[str | int, ...]]:
    return diagnostic.code, diagnostic.finding.pointer if diagnostic.finding else ()


def find(diagnostics: Iterable[Diagnostic], code: str, pointer: tuple[str | int, ...] | None = None) -> Diagnostic:
    matches = [d for d in diagnostics if d.code == code and (pointer is None or key(d)[1] == pointer)]
    assert matches, f"no {code} at {pointer} in {[(d.code, key(d)[1], d.message) for d in diagnostics]}"
    return matches[0]


_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"|//[^\r\n]*|/\*.*?\*/', re.S)


def strip_comments(text: str) -> str:
    return _COMMENT.sub(lambda m: m.group() if m.group().startswith('"') else "", text)


def loads(text: str | bytes) -> object:
    """json.loads modulo comments (and JSON Lines: one value per line)."""
    decoded = text.decode("utf-8", "surrogatepass") if isinstance(text, bytes) else text
    stripped = strip_comments(decoded)
    try:
        return json.loads(stripped)
    except ValueError:
        return [json.loads(line) for line in stripped.splitlines() if line.strip()]


def assert_outside_unchanged(old: bytes, new: bytes, edits: list[TextEdit]) -> None:
    """Every byte outside the edits is where it was: before, between and after them, CRLF/tabs/comments too."""
    edits = sorted(edits)
    shift = 0
    previous_end = 0
    for edit in edits:
        assert new[previous_end + shift : edit.start + shift] == old[previous_end : edit.start]
        shift += len(edit.encoded) - (edit.end - edit.start)
        previous_end = edit.end
    assert new[previous_end + shift :] == old[previous_end:]
    assert len(new) == len(old) + shift


def changed_lines(old: bytes, new: bytes) -> tuple[list[bytes], list[bytes]]:
    """The lines that differ (common leading and trailing lines removed), terminators kept."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    while a and b and a[0] == b[0]:
        a.pop(0)
        b.pop(0)
    while a and b and a[-1] == b[-1]:
        a.pop()
        b.pop()
    return a, b


@dataclass
class Applied:
    old: bytes
    new: bytes
    edits: list[TextEdit]
    before: list[Diagnostic]
    after: list[Diagnostic]


def apply_fix(
    text: str | bytes,
    name: str,
    diagnostic: Diagnostic,
    fix: Fix,
    root: Path = WORKSPACE,
    revealed: Callable[[Diagnostic], bool] | None = None,
) -> Applied:
    """Apply one fix of one diagnostic and check again; assert the invariants every fix must keep.

    `revealed` names diagnostics a fix may legitimately bring to light (fixing a tool's name lets its
    parameters be checked); anything else new fails.
    """
    document, before = check_in_workspace(text, name, root)
    edits = edits_for_fix(document, fix)
    assert edits is not None, f"fix {fix.title!r} did not apply"
    old = bytes(document.data)
    new = apply_edits(old, edits)
    assert_outside_unchanged(old, new, edits)
    loads(new)  # valid JSON (modulo comments)
    reparsed, after = check_in_workspace(new, name, root)
    assert not reparsed.root.has_error
    assert not [d for d in after if d.code == "TS001"]
    fixed = key(diagnostic)
    counts_before = Counter(key(d) for d in before)
    counts_after = Counter(key(d) for d in after)
    assert counts_after[fixed] < counts_before[fixed], f"{fixed} still reported after {fix.title!r}"
    expected_left = counts_before.copy()
    expected_left[fixed] -= 1
    new_ones = (
        Counter(key(d) for d in after if not _in_placeholder(d, fix) and not (revealed is not None and revealed(d)))
        - expected_left
    )
    assert not new_ones, (
        f"{fix.title!r} introduced {[(d.code, key(d)[1], d.message) for d in after if key(d) in new_ones]}"
    )
    return Applied(old, new, edits, before, after)


def _in_placeholder(diagnostic: Diagnostic, fix: Fix) -> bool:
    """A diagnostic on content a fix inserted: a placeholder the user fills in (an empty `actions`, a `""`
    name), or a new structure that other rules look into (a `{"type": "string"}` without a description)."""
    pointer = key(diagnostic)[1]
    for edit in fix.edits:
        inserted: list[tuple[str | int, ...]] = []
        if isinstance(edit, InsertMembers):
            inserted = [(*edit.pointer, name) for name, _ in edit.members]
        elif isinstance(edit, ReplaceValue) and edit.json_text.lstrip()[:1] in ("{", "["):
            inserted = [edit.pointer]  # a new structure (e.g. `{"type": "string"}`) is checked like any other
        if any(pointer[: len(place)] == place for place in inserted):
            return True
    return False


def crlf_tabs(text: str) -> str:
    """The same JSON indented with tabs (one per two spaces) and CRLF line ends."""
    lines = []
    for line in text.split("\n"):
        width = len(line) - len(line.lstrip(" "))
        lines.append("\t" * (width // 2) + line.lstrip(" "))
    return "\r\n".join(lines)


def fixed_text(text: str, fix: Fix, uri: str) -> str:
    """The text after one fix, through the same edit layer as `toolsense check --fix` and the editor."""
    document = Document.from_text(uri, text)
    edits = edits_for_fix(document, fix)
    assert edits is not None, f"fix {fix.title!r} does not apply"
    return apply_edits(document.data, edits).decode("utf-8")


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value in a loaded JSON value (keys and indexes), the root's `()` first."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += json_paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += json_paths(child, (*prefix, index))
    return found


def value_at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value
