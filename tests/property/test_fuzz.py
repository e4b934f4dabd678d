"""Never crash, always in range (the engine's part).

Every file in examples/ and ../shared/corpus/, mutated (byte flips, truncations, duplicated or deleted spans,
inserted brackets and quotes): no exception escapes `check_document` (nor the CLI's file loading), and every
diagnostic range lies inside the document — start ≤ end, lines that exist, characters within their line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checking import CORPUS, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propkit import EXAMPLES, assert_in_range

from toolsense.document.document import Document
from toolsense.engine.checker import UnitCache, check_document
from toolsense.engine.context import CheckContext, ToolRegistry
from toolsense.engine.units import kind_from_path
from toolsense.engine.workspace import load_file
from toolsense.rules import CATALOG
from toolsense.settings import Settings

SETTINGS = Settings()
CTX = CheckContext(SETTINGS, ToolRegistry(), "file:///w/x.json", catalog=CATALOG)
_MAX_BYTES = 400_000  # mutate files up to this size (larger corpus files are checked unmutated elsewhere)


def _files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl") and p.stat().st_size <= _MAX_BYTES)


EXAMPLE_FILES = _files(ROOT / "examples")
CORPUS_FILES = _files(CORPUS)

mutations = st.lists(
    st.tuples(
        st.sampled_from(["flip", "truncate", "duplicate", "delete", "insert"]),
        st.floats(0, 1),
        st.integers(1, 64),
        st.sampled_from([b"{", b"}", b"[", b"]", b'"', b",", b":", b"\\", b"\r", b"\n", b"\xe2\x80\xa8", b"\xff"]),
    ),
    min_size=1,
    max_size=6,
)


def mutate(data: bytes, steps: list[tuple[str, float, int, bytes]]) -> bytes:
    buffer = bytearray(data)
    for kind, fraction, size, token in steps:
        at = int(fraction * len(buffer))
        if kind == "flip" and buffer:
            at = min(at, len(buffer) - 1)
            buffer[at] ^= 1 << (size % 8)
        elif kind == "truncate":
            del buffer[at:]
        elif kind == "duplicate":
            buffer[at:at] = buffer[at : at + size]
        elif kind == "delete":
            del buffer[at : at + size]
        else:
            buffer[at:at] = token
    return bytes(buffer)


def check_bytes(data: bytes, path: Path) -> None:
    kind = kind_from_path(str(path), SETTINGS)
    document = Document("file:///w/" + path.name, bytearray(data))
    report = check_document(document, CTX, kind, UnitCache())
    assert_in_range(document, report.diagnostics)


FUZZ = settings(
    max_examples=EXAMPLES or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@FUZZ
@given(st.sampled_from(EXAMPLE_FILES), mutations)
def test_mutated_examples(path: Path, steps: list[tuple[str, float, int, bytes]]) -> None:
    check_bytes(mutate(path.read_bytes(), steps), path)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS_FILES, reason=f"the shared corpus is not here ({CORPUS}); examples/ is fuzzed alone")
@FUZZ
@given(st.sampled_from(CORPUS_FILES or [Path("none.json")]), mutations)
def test_mutated_corpus(path: Path, steps: list[tuple[str, float, int, bytes]]) -> None:
    check_bytes(mutate(path.read_bytes(), steps), path)


@pytest.mark.parametrize("path", EXAMPLE_FILES + CORPUS_FILES, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_every_truncation_point_of_a_small_file(path: Path) -> None:
    """Truncating at 24 evenly spread points (the shape of a half-typed file) never crashes."""
    data = path.read_bytes()
    for cut in sorted({len(data) * i // 24 for i in range(24)}):
        check_bytes(data[:cut], path)


@FUZZ
@given(st.sampled_from(EXAMPLE_FILES), mutations)
def test_mutated_files_through_the_cli_loader(
    tmp_path_factory: pytest.TempPathFactory, path: Path, steps: list[tuple[str, float, int, bytes]]
) -> None:
    """Invalid UTF-8 and BOMs go through `load_file`: one TS002 diagnostic or a document, never an exception."""
    target = tmp_path_factory.mktemp("fuzz") / path.name
    target.write_bytes(mutate(path.read_bytes(), steps))
    loaded = load_file(target)
    if loaded.document is None:
        assert loaded.problem is not None and loaded.problem.code in ("TS002", "TS003")
    else:
        assert_in_range(loaded.document, check_document(loaded.document, CTX, None).diagnostics)
