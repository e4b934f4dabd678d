"""Feeding the tool registry from open documents: an open tool file is the registry's source for its uri (the
file on disk speaks for it again once closed, see `indexing`); when that changes what the registry holds, the
documents that may read it are checked again (`on_change`).

After a keystroke only the units whose value changed get new registry entries (a cached unit keeps its value
object); the rest are reused as they are.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..engine.context import ToolRegistry
from ..engine.units import Unit
from ..engine.workspace import tool_infos
from .state import OpenDocument, ToolMemo


class RegistryFeed:
    def __init__(
        self, registry: Callable[[], ToolRegistry], canonical: Callable[[str], str], on_change: Callable[[str], None]
    ) -> None:
        self._registry = registry
        self._canonical = canonical
        self._on_change = on_change
        """Called with the uri of the document whose tools changed the registry."""

    def feed(self, od: OpenDocument) -> None:
        """The registry entries of a checked document."""
        assert od.report is not None
        report = od.report
        if report.kind != "tool" and not od.defines_tools:
            return
        units = report.units if report.kind == "tool" else []
        uri = self._canonical(od.uri)
        memo = od.tool_memo
        if len(memo.values) == len(units) and memo.uri == uri:
            per_unit = list(memo.infos)
            changed = [
                i
                for i, (unit, value, dialect) in enumerate(zip(units, memo.values, memo.dialects, strict=True))
                if unit.value is not value or unit.dialect != dialect
            ]
            for i in changed:
                per_unit[i] = tool_infos(uri, [units[i]])
        else:
            per_unit = [tool_infos(uri, [unit]) for unit in units]
        od.tool_memo = ToolMemo(uri, [u.value for u in units], [u.dialect for u in units], per_unit)
        infos = list(itertools.chain.from_iterable(per_unit))
        od.defines_tools = bool(infos)
        registry = self._registry()
        if not infos and uri not in registry.by_uri:
            return  # nothing before, nothing now: not a change (else two such files re-check each other forever)
        if registry.set_file(uri, infos):
            self._on_change(od.uri)

    def feed_unit(self, od: OpenDocument, position: int, unit: Unit) -> None:
        """The registry entries of one re-checked unit (the others' are unchanged)."""
        memo = od.tool_memo
        if od.report is None or od.report.kind != "tool" or position >= len(memo.infos):
            return
        uri = self._canonical(od.uri)
        infos = tool_infos(uri, [unit])
        if infos == memo.infos[position]:
            return
        memo.infos[position] = infos
        memo.values[position] = unit.value
        flat = [info for entries in memo.infos for info in entries]
        if self._registry().set_file(uri, flat):
            self._on_change(od.uri)
