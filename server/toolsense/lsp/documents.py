"""The open documents and every question about positions: the store of `OpenDocument`s keyed by the client's
uri, the mapping to canonical uris (resolved paths, as indexing names files), read-only copies of files on disk
(cached by modification time), where a pointer lies in any document, and placing check results in an open one.

Edits are applied here (`change`): the text and its tree, the unit index and the diagnostics all move with each
ranged edit, so the keystroke fast path can check the one unit an edit touched and keep the rest as they are.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import cast

from lsprotocol import types

from ..document.document import ByteEdit, Document
from ..document.jsontree import Pointer
from ..document.lines import Position, PositionEncoding, Range
from ..engine.catalog import UnitKind
from ..engine.checker import Diagnostic
from ..engine.findings import Severity, Target
from ..engine.placement import place
from ..engine.unit_check import UnitSlice
from ..engine.units import kind_from_path, root_value
from ..engine.workspace import path_to_uri, read_regular_file, too_large_message, uri_to_path
from ..features.query import UnitIndex, index_for
from ..settings import Settings
from . import heap
from .convert import to_lsp_diagnostic, to_lsp_range
from .state import OpenDocument, RawText

DISK_CACHE_SIZE = 4
MAX_RELATED_FILE_BYTES = 64 * 1024 * 1024
MAX_FAST_UNIT_BYTES = 256 * 1024
"""A unit larger than this is not worth a separate document: the full check reuses the others' results."""


class DocumentStore:
    """Open documents by the uri the client gave, and read-only copies of files on disk."""

    def __init__(self, settings: Callable[[], Settings]) -> None:
        self._settings = settings
        self.documents: dict[str, OpenDocument] = {}
        self.open_canonical: dict[str, str] = {}
        """Canonical uri -> client uri of each open document."""
        self._canonical: dict[str, str] = {}
        self.disk_documents: OrderedDict[str, tuple[tuple[int, int], Document]] = OrderedDict()
        self.encoding: PositionEncoding = "utf-16"
        self.first_checks: set[str] = set()
        """Large documents opened and not checked yet (see `_map_large_blocks`)."""

    # --- uris ---------------------------------------------------------------------------------------------

    def canonical(self, uri: str) -> str:
        """The uri indexing uses for a file (resolved path), so an open file and its copy on disk are one."""
        found = self._canonical.get(uri)
        if found is None:
            path = uri_to_path(uri)
            try:
                found = path_to_uri(path) if path is not None else uri
            except (OSError, RuntimeError, ValueError):
                found = uri
            self._canonical[uri] = found
        return found

    def client_uri(self, canonical_uri: str) -> str:
        """The uri the client opened a file under (for locations we send), else the canonical one."""
        return self.open_canonical.get(canonical_uri, canonical_uri)

    def is_open(self, canonical_uri: str) -> bool:
        return canonical_uri in self.open_canonical

    def max_bytes(self) -> int:
        return int(self._settings().limits.max_file_mb * 1_000_000)

    def kind_hint(self, uri: str) -> UnitKind | None:
        path = uri_to_path(uri)
        return kind_from_path(str(path) if path is not None else uri.split(":", 1)[-1], self._settings())

    # --- open, change, close --------------------------------------------------------------------------------

    def open(self, uri: str, text: str, version: int | None, language_id: str) -> OpenDocument:
        data = bytearray(text.encode("utf-8", "surrogatepass"))
        od = OpenDocument(uri, version, language_id, self.kind_hint(uri), None)
        self._set_text(od, data)
        if od.document is not None and len(data) >= heap.MAPPED_FROM_BYTES:
            self._map_large_blocks(uri, True)
        self.documents[uri] = od
        self.open_canonical[self.canonical(uri)] = uri
        return od

    def _set_text(self, od: OpenDocument, data: bytearray) -> None:
        """Choose between a full `Document` and plain `RawText` by size."""
        history = od.document.claimed_kind if od.document is not None else None
        if len(data) > self.max_bytes():
            od.document, od.raw, od.index = None, RawText(data, self.encoding), None
        else:
            od.document = Document(od.uri, data, od.version, self.encoding)
            od.document.claimed_kind = history  # the same open document, its whole text replaced
            od.raw, od.index = None, None
        od.cache.units.clear()
        od.cache.content.clear()

    def change(
        self, od: OpenDocument, version: int | None, changes: Iterable[types.TextDocumentContentChangeEvent]
    ) -> bool:
        """Apply the changes; True when every one was a ranged edit traced through the tree, the unit index and
        the diagnostics (False: the text was replaced or re-made, and only a full check can tell)."""
        traced = True
        for change in changes:
            range_ = None
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                range_ = Range(Position(start.line, start.character), Position(end.line, end.character))
            if od.document is None:
                assert od.raw is not None
                od.raw.apply_change(change.text, range_)
                traced = False
                continue
            seen = od.document.edit_count
            moved = _replaced(od.document, range_) if range_ is not None else None
            od.document.apply_change(change.text, range_)
            edits = od.document.edits_since(seen)
            if moved is None or edits is None:
                od.index = None  # rebuilt from the tree when next asked
                traced = False
                continue
            if od.index is not None:
                for edit in edits:
                    od.index.shift(edit)
            od.moving.shift(moved[0], change.text, self.encoding, *moved[1:])
            for edit in edits:
                od.touched = touch(od.touched, edit)
        od.version = version
        now = time.perf_counter()
        od.edit_gap_ms = (now - od.last_edit_at) * 1000
        od.last_edit_at = now
        if od.document is not None:
            od.document.version = version
        if (od.document is None) != (len(od.data) > self.max_bytes()):
            self._set_text(od, od.data)
            traced = False
        return traced

    def close(self, uri: str) -> OpenDocument | None:
        od = self.documents.pop(uri, None)
        self._map_large_blocks(uri, False)
        self.open_canonical.pop(self.canonical(uri), None)
        if od is not None and od.timer is not None:
            od.timer.cancel()
            od.timer = None
        return od

    # --- positions and other documents ----------------------------------------------------------------------

    def document_for(self, uri: str) -> Document | None:
        """An open document, or a read-only copy of a file on disk (cached by modification time)."""
        od = self.documents.get(uri) or self.documents.get(self.open_canonical.get(uri, ""))
        if od is not None:
            return od.document
        path = uri_to_path(uri)
        if path is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        cached = self.disk_documents.get(uri)
        stamp = (stat.st_mtime_ns, stat.st_size)  # a float mtime misses rewrites within its resolution
        if cached is not None and cached[0] == stamp:
            self.disk_documents.move_to_end(uri)
            return cached[1]
        try:
            data = read_regular_file(path, min(self.max_bytes(), MAX_RELATED_FILE_BYTES))
        except OSError:
            return None  # gone, unreadable, too large, or a FIFO (which would block the event loop)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        document = Document(uri, bytearray(data), None, self.encoding)
        self.disk_documents[uri] = (stamp, document)
        while len(self.disk_documents) > DISK_CACHE_SIZE:
            self.disk_documents.popitem(last=False)
        return document

    def resolve_range(self, uri: str, pointer: Pointer, target: str) -> Range | None:
        """Where a pointer is in any document (open or on disk): for related information and definitions."""
        document = self.document_for(uri)
        if document is None:
            return None
        root = root_value(document.outline)
        if root is None:
            return None
        return place(document, root, pointer, cast(Target, target), None)

    def unit_index(self, od: OpenDocument) -> UnitIndex | None:
        if od.document is None:
            return None
        if od.index is None:
            od.index = index_for(od.document, od.kind_hint)
        return od.index

    def refresh_index(self, od: OpenDocument, index: UnitIndex | None = None) -> None:
        """The unit index follows the last good split (`index`: one made elsewhere from it); a broken tree
        keeps the shifted earlier index."""
        assert od.document is not None and od.report is not None
        self._map_large_blocks(od.uri, False)  # its first check is in
        report = od.report
        count = len(index.starts) if index is not None else len(report.split.spans)
        if od.index is not None and od.document.has_error and count < len(od.index.starts):
            return
        if index is None:
            index = UnitIndex.from_split(
                report.split, [u.value for u in report.units], [u.dialect for u in report.units]
            )
        od.index = index

    def _map_large_blocks(self, uri: str, first_check_due: bool) -> None:
        """Large blocks are mapped on their own while a large document's first check is due (see `heap`)."""
        before = bool(self.first_checks)
        if first_check_due:
            self.first_checks.add(uri)
        else:
            self.first_checks.discard(uri)
        if before != bool(self.first_checks):
            heap.map_large_blocks(bool(self.first_checks))

    # --- the keystroke fast path: which unit, and placing its result ------------------------------------------

    def touched_unit(self, od: OpenDocument) -> tuple[int, UnitSlice] | None:
        """The one unit every edit since the last publish lies inside, when it may be checked alone."""
        document, index, touched, report = od.document, od.index, od.touched, od.report
        if document is None or index is None or touched is None or report is None or report.kind is None:
            return None
        if len(index.ends) != len(index.starts) or document.has_error:
            return None
        position = index.find(touched[0])
        if position < 0:
            return None
        start, end = index.starts[position], index.ends[position]
        if not (start < touched[0] and touched[1] <= end) or end - start > MAX_FAST_UNIT_BYTES:
            return None
        units = report.units
        if position >= len(units) or units[position].origin != "file" or units[position].kind != report.kind:
            return None  # a unit its container explains (a request's, a map's, a record's): it is not checked alone
        return position, UnitSlice(start, end, index.pointers[position], report.kind, index.dialects[position])

    def place_unit(self, od: OpenDocument, piece: UnitSlice, diagnostics: list[Diagnostic], related: bool) -> None:
        """Replace the diagnostics inside the unit by its fresh ones; every other one stays (moved with the
        edits as they arrived)."""
        assert od.document is not None
        fresh = [to_lsp_diagnostic(d, related, self.client_uri) for d in diagnostics]
        outer = to_lsp_range(od.document.range_of(piece.start, piece.end))
        merged = [d for d in od.diagnostics if not _inside(d.range, outer)] + fresh
        merged.sort(key=lambda d: (d.range.start.line, d.range.start.character, str(d.code)))
        od.diagnostics = merged

    def too_large(self, od: OpenDocument) -> types.Diagnostic:
        message = too_large_message(len(od.data), self.max_bytes())
        diagnostic = Diagnostic(Range(Position(0, 0), Position(0, 0)), Severity.WARNING, "TS003", message)
        return to_lsp_diagnostic(diagnostic, False)


def _inside(range_: types.Range, outer: types.Range) -> bool:
    start = (range_.start.line, range_.start.character)
    end = (range_.end.line, range_.end.character)
    return (outer.start.line, outer.start.character) <= start and end <= (outer.end.line, outer.end.character)


def _replaced(document: Document, range_: Range) -> tuple[types.Range, bytes, bytes]:
    """The range an LSP change replaces as the document reads it (clamped, never reversed), with the byte just
    before and just after it (they tell whether a \\r and a \\n are brought together)."""
    low = document.offset_at(range_.start)
    high = max(document.offset_at(range_.end), low)
    start, end = document.position_at(low), document.position_at(high)
    data = document.data
    lsp_range = types.Range(types.Position(start.line, start.character), types.Position(end.line, end.character))
    return lsp_range, bytes(data[low - 1 : low]) if low else b"", bytes(data[high : high + 1])


def touch(touched: tuple[int, int] | None, edit: ByteEdit) -> tuple[int, int]:
    """The byte span edits have touched so far, carried through one more edit."""
    if touched is None:
        return edit.start, edit.new_end
    low, high = touched
    if high >= edit.old_end:
        high += edit.new_end - edit.old_end
    elif high > edit.start:
        high = edit.new_end
    return min(low, edit.start), max(high, edit.new_end)
