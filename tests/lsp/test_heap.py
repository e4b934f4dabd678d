"""Large blocks are mapped on their own only while a large document's first check is due (see `lsp/heap.py`)."""

from __future__ import annotations

import pytest
from checking import context

from toolsense.engine.checker import UnitCache, check_document
from toolsense.lsp import documents, heap
from toolsense.lsp.documents import DocumentStore
from toolsense.settings import Settings

LARGE = '[{"name": "a", "description": "d", "input_schema": {"type": "object"}}' + " " * heap.MAPPED_FROM_BYTES + "]"


def _store(monkeypatch: pytest.MonkeyPatch) -> tuple[DocumentStore, list[bool]]:
    calls: list[bool] = []
    monkeypatch.setattr(documents.heap, "map_large_blocks", calls.append)
    return DocumentStore(Settings), calls


def test_mapped_from_a_large_open_until_its_first_check(monkeypatch: pytest.MonkeyPatch) -> None:
    store, calls = _store(monkeypatch)
    store.open("file:///w/small.tools.json", "[]", 1, "json")
    assert calls == []
    first = store.open("file:///w/a.tools.json", LARGE, 1, "json")
    second = store.open("file:///w/b.tools.json", LARGE, 1, "json")
    assert calls == [True]
    assert first.document is not None
    first.report = check_document(first.document, context(uri=first.uri), "tool", UnitCache())
    store.refresh_index(first)  # its first check is in
    assert calls == [True]  # the second one's first check is still due
    store.close(second.uri)
    assert calls == [True, False]


def test_heap_calls_run_here() -> None:
    heap.map_large_blocks(True)
    heap.map_large_blocks(False)
    heap.trim()
