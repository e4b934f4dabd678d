"""Instructions aimed at the model in a tool's texts (TS292) and tools that steer another server's tools (TS293).
On by default, every dialect.

TS292 scores all of a tool's texts together (`domain.injection`): an override of earlier instructions on its own,
or at least two kinds of signal (secrecy from the user, an `<IMPORTANT>` block, reading secrets, sending data to
an address, steering other tools, addressing the model, urgency) weighing 4 together. TS293: a text names a tool
that another file of the workspace defines (another server's snapshot, listing or definitions) and tells the model
how to use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from ...document.jsontree import Pointer
from ...domain.injection import BLOCK, EXFILTRATE, OVERRIDE, SECRECY, SECRETS, judge, text_signals
from ...domain.tool import tool_view
from ...engine.context import CheckContext
from ...engine.findings import Finding, Related, Severity
from ...engine.units import Unit
from ...textsafety import visible
from ..catalog import CATALOG
from .hidden_text import FAMILY, dotted, strings

INSTRUCTIONS = CATALOG.rule(
    "TS292",
    "instructions-to-the-model",
    Severity.ERROR,
    "A tool's texts (all of them together: descriptions, enum values, defaults, examples) carry instructions aimed "
    "at the model: an override of earlier instructions, or several of: secrecy from the user, an `<IMPORTANT>` "
    "block, reading secrets or private files, sending data to an address, steering other tools.",
    FAMILY,
)
SHADOWING = CATALOG.rule(
    "TS293",
    "shadows-another-servers-tool",
    Severity.ERROR,
    "A tool's text names a tool another file of the workspace defines (another server) and tells the model how to "
    "use it: one server steering another's tools.",
    FAMILY,
)

_TOKEN = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+|[a-z0-9][A-Z][a-z0-9]*)+\b")
"""Tool-like names only (`send_email`, `sendEmail`, `send-email`): a plain word names a tool by chance."""
_STEERING = re.compile(
    r"\b(must|always|never|shall|has to|have to|is required to)\b[^.\n]{0,60}\b(send|sent|set|include|add|pass|"
    r"forward|redirect|route|replace|change|go|bcc|cc|copy|report|upload)\b",
    re.IGNORECASE,
)
"""Changing how the other tool is called (its recipient, its arguments); choosing between tools ("use X instead")
is ordinary guidance, which servers split over one file per tool give about their own tools."""
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_HOSTILE = {OVERRIDE, SECRECY, BLOCK, SECRETS, EXFILTRATE}


class ModelTexts(NamedTuple):
    """The texts of a tool the model reads: every string value and key (a property name reaches the model with the
    schema), then the strings of each list read as one text (a sentence split over enum values)."""

    texts: list[tuple[Pointer, str]]
    keys: set[int]
    """The indexes of the texts that are keys."""
    lists_from: int
    """The index of the first list read as one text."""

    def where(self, index: int) -> str:
        pointer, text = self.texts[index]
        if index in self.keys:
            return f"the key {visible(text, 40)} of `{dotted(pointer[:-1])}`"
        if index >= self.lists_from:
            return f"`{dotted(pointer)}` read as one text"
        return f"`{dotted(pointer)}`"

    def target(self, index: int) -> Literal["key", "value"]:
        return "key" if index in self.keys else "value"

    def values(self) -> list[tuple[Pointer, str]]:
        return [text for index, text in enumerate(self.texts[: self.lists_from]) if index not in self.keys]


def model_texts(unit: Unit) -> ModelTexts:
    texts: list[tuple[Pointer, str]] = []
    keys: set[int] = set()
    lists: dict[Pointer, list[str]] = {}
    for pointer, text, is_key in strings(unit.value):
        if is_key:
            keys.add(len(texts))
        elif pointer and type(pointer[-1]) is int:
            lists.setdefault(pointer[:-1], []).append(text)
        texts.append((pointer, text))
    lists_from = len(texts)
    texts += [(pointer, " ".join(items)) for pointer, items in lists.items() if len(items) > 1]
    return ModelTexts(texts, keys, lists_from)


@CATALOG.unit_check("tool")
def poisoning_rules(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    if not isinstance(unit.value, dict):
        return
    read = model_texts(unit)
    verdict = judge(read.texts, ctx.memo.of(text_signals))
    view = tool_view(unit)
    label = view.label if view is not None else "This tool"
    if verdict.poisoned:
        first = verdict.signals[0]
        parts = [f"{s.category} ({visible(s.excerpt, 40)} in {read.where(s.text)})" for s in verdict.signals]
        related = tuple(
            Related(f"{s.category}: {visible(s.excerpt, 40)}", s.pointer, target=read.target(s.text))
            for s in verdict.signals[1:]
            if s.pointer != first.pointer
        )
        yield Finding(
            INSTRUCTIONS.code,
            f"{label[0].upper()}{label[1:]} carries instructions aimed at the model: " + "; ".join(parts),
            first.pointer,
            read.target(first.text),
            related=related,
        )
    own = view.name if view is not None else None
    yield from _shadowing(read.values(), own, bool(_HOSTILE & set(verdict.categories)), ctx)


def _shadowing(
    texts: list[tuple[Pointer, str]], own: str | None, hostile: bool, ctx: CheckContext
) -> Iterator[Finding]:
    """The first sentence that names another server's tool and changes how it is used (or any that names one, when
    the tool's texts are hostile anyway)."""
    known: set[str] | None = None
    named = ctx.memo.of(_all_names if hostile else _steering_names)
    for pointer, text in texts:
        if len(text) < 12:
            continue  # no sentence that names a tool and says how to use it
        for sentence, names in named(text):
            for name in names:
                if name == own:
                    continue
                if known is None:
                    known = set(ctx.registry.names())
                if name not in known:
                    continue
                definitions = ctx.registry.definitions(name)
                others = [info for info in definitions if info.uri != ctx.uri]
                if not others or len(others) < len(definitions):
                    continue  # defined in this file too: this server's own tool
                where = ctx.display_path(others[0].uri)
                yield Finding(
                    SHADOWING.code,
                    f"`{dotted(pointer)}` tells the model how to use '{name}', a tool of another server "
                    f"({visible(where, 60)}): {visible(sentence, 80)}",
                    pointer,
                    related=tuple(
                        Related(f"'{name}' is defined here", info.pointer, info.uri, "value") for info in others[:3]
                    ),
                )
                return


def _all_names(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each sentence of a text with the tool-like names it holds."""
    return tuple((sentence, names) for sentence in _SENTENCE.split(text) if (names := _names(sentence)))


def _steering_names(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The same, of the sentences that change how a tool is called."""
    if _STEERING.search(text) is None:
        return ()  # a sentence's match is a match in the whole text
    return tuple((sentence, names) for sentence, names in _all_names(text) if _STEERING.search(sentence) is not None)


def _names(sentence: str) -> tuple[str, ...]:
    return tuple(match.group() for match in _TOKEN.finditer(sentence))
