"""Answers of pure functions of one string, remembered for one check (`CheckContext.memo`).

A file's tools repeat their texts (the same parameter description in 5,000 tools, the same enum values), and some
rules read every text in several decoded forms: asking once per distinct string is what keeps them cheap. The
memory is bounded and lives as long as the check's context, never in a module.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

LIMIT = 8192
"""Distinct strings remembered per function; the oldest is forgotten first."""


class TextMemo:
    def __init__(self, limit: int = LIMIT) -> None:
        self._tables: dict[Callable[[str], Any], OrderedDict[str, Any]] = {}
        self._limit = limit

    def of(self, function: Callable[[str], T]) -> Callable[[str], T]:
        """`function`, answering a string it was asked before from memory."""
        table: OrderedDict[str, T] = self._tables.setdefault(function, OrderedDict())
        limit = self._limit

        def remembered(text: str) -> T:
            if text in table:
                return table[text]
            if len(table) >= limit:
                table.popitem(last=False)  # O(1); a dict's first key after many deletions is found by a scan
            answer = table[text] = function(text)
            return answer

        return remembered
