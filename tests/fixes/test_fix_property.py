"""Property: every fix yields valid JSON — on the example and case files, and on mutated, reformatted copies.

Mutations are the mistakes the rules look for (a typo in a key, a number or boolean written as a string, a
member removed, an unknown key added, an enum value in capitals); formats vary the indentation (none, two,
four, tabs), the separators and the line ends (LF, CRLF). For each diagnostic, each fix alone must apply
and leave text that `json.loads` accepts (and tree-sitter parses without error), with every byte outside its
edits unchanged; and fixing the whole file (unsafe fixes included) must end in valid JSON too.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from checking import EXAMPLES
from fixing import WORKSPACE, assert_outside_unchanged, check_in_workspace, checker, json_paths, loads, value_at
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolsense.document.document import new_parser
from toolsense.fixes import apply_edits, edits_for_fix, fix_document

CASES = Path(__file__).parent / "cases"
SOURCES: list[tuple[Path, str, Any]] = []
for _root, _paths in ((WORKSPACE, sorted(CASES.glob("*.json"))), (EXAMPLES, sorted(EXAMPLES.rglob("*.json")))):
    for _path in _paths:
        _name = _path.name if _root == WORKSPACE else _path.relative_to(EXAMPLES).as_posix()
        SOURCES.append((_root, _name, json.loads(_path.read_text(encoding="utf-8"))))


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 3:
        return word + "x"
    i = rng.randrange(len(word) - 1)
    return rng.choice([word[:i] + word[i + 1 :], word[:i] + word[i + 1] + word[i] + word[i + 2 :], word + "s"])


def mutate(value: Any, rng: random.Random) -> Any:
    value = json.loads(json.dumps(value))
    paths = json_paths(value)
    path = rng.choice(paths)
    parent_path, last = path[:-1], path[-1] if path else None
    parent = value_at(value, parent_path) if path else None
    target = value_at(value, path)
    kind = rng.randrange(6)
    if kind == 0 and isinstance(parent, dict):  # a typo in a key
        parent[_typo(str(last), rng)] = parent.pop(last)
    elif kind == 1 and isinstance(target, (bool, int, float)) and parent is not None:  # "80", "true"
        parent[last] = json.dumps(target)
    elif kind == 2 and parent is not None:  # a member or element removed
        del parent[last]
    elif kind == 3 and isinstance(target, dict):  # an unknown key
        target[rng.choice(["extra", "descripton", "paramters", "typ"])] = rng.choice([1, "x", True, None])
    elif kind == 4 and isinstance(target, str) and parent is not None:  # an enum value in capitals
        parent[last] = target.upper()
    elif kind == 5 and isinstance(target, str) and "{{" in target and parent is not None:
        parent[last] = target.replace("trigger_data", "event_data")
    return value


def render(value: Any, style: int) -> str:
    indent: int | str | None = [None, 2, 4, "\t"][style % 4]
    separators = (",", ":") if style % 3 == 0 and indent is None else None
    text = json.dumps(value, indent=indent, separators=separators, ensure_ascii=style % 5 == 0) + "\n"
    return text.replace("\n", "\r\n") if style % 2 else text


def assert_valid(data: bytes) -> None:
    loads(data)
    assert not new_parser().parse(data).root_node.has_error


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    source=st.sampled_from(SOURCES),
    seed=st.integers(0, 2**32 - 1),
    mutations=st.integers(0, 3),
    style=st.integers(0, 59),
)
def test_every_fix_yields_valid_json(source: tuple[Path, str, Any], seed: int, mutations: int, style: int) -> None:
    root, name, value = source
    rng = random.Random(seed)
    for _ in range(mutations):
        value = mutate(value, rng)
    text = render(value, style)
    document, diagnostics = check_in_workspace(text, name, root)
    for diagnostic in diagnostics:
        for fix in diagnostic.finding.fixes if diagnostic.finding else ():
            for snippets in (False, True):
                edits = edits_for_fix(document, fix, snippets=snippets)
                if edits is None:
                    continue
                new = apply_edits(document.data, edits)
                assert_outside_unchanged(bytes(document.data), new, edits)
                if not snippets:
                    assert_valid(new)
    outcome = fix_document(document, checker(name, root), unsafe=True, diagnostics=diagnostics)
    assert_valid(outcome.data)
    assert apply_edits(document.data, outcome.edits) == outcome.data


def test_the_examples_fix_to_valid_json() -> None:
    """Every source as written, fixed with every fix (unsafe included), stays valid."""
    for root, name, value in SOURCES:
        for style in (2, 7):  # two spaces LF; tabs CRLF
            text = render(value, style)
            document, diagnostics = check_in_workspace(text, name, root)
            outcome = fix_document(document, checker(name, root), unsafe=True, diagnostics=diagnostics)
            assert_valid(outcome.data)
