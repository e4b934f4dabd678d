"""One list, one dialect: a provider accepts tools of its own shape only, so a list that mixes shapes (an
Anthropic tool among OpenAI ones, a Responses-style flat function in a Chat Completions `tools` array) is
reported once, on the first tool that differs from the list's majority."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ...document.jsontree import Pointer
from ...engine.context import CheckContext
from ...engine.detect import hosted_type, known_hosted_type
from ...engine.findings import Finding, Related, Severity
from ...engine.units import Unit
from ...models.definitions import NAME_KEY
from ...models.dialects import Dialect, as_dialect
from ..catalog import CATALOG

MIXED = CATALOG.rule(
    "TS009",
    "mixed-dialects",
    Severity.WARNING,
    "One list holds tools of different dialects (shapes): a provider accepts only its own.",
    "Structure",
)

HOSTED = CATALOG.rule(
    "TS010",
    "unknown-hosted-tool",
    Severity.INFORMATION,
    "A tool whose `type` names a provider-hosted tool toolsense does not know (no function schema): the provider "
    "validates it, so it is not checked. Documented ones (OpenAI `web_search`, `tool_search`, `mcp`, …; Anthropic's "
    "dated server tools) are recognised silently.",
    "Structure",
)


@CATALOG.unit_check("tool")
def unknown_hosted_tool(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    """Information, never an error: providers add hosted tools faster than any table of them."""
    if unit.dialect is not None or not isinstance(unit.value, dict):
        return
    kind = hosted_type(unit.value)
    if kind is not None and not known_hosted_type(kind):
        yield Finding(
            HOSTED.code,
            f"Tool type '{kind}' is no hosted tool toolsense knows: not checked (the provider validates its options)",
            ("type",),
            "value",
        )


_FAMILY = {Dialect.ANTHROPIC_SERVER: Dialect.ANTHROPIC}
"""Dialects that share a list: Anthropic's server tools sit among its custom tools."""


@CATALOG.file_check("tool")
def mixed_dialects(units: list[Unit], ctx: CheckContext) -> Iterator[Finding]:
    lists: dict[Pointer, list[tuple[Unit, Dialect]]] = {}
    for unit in units:
        dialect = as_dialect(unit.dialect)
        if unit.kind != "tool" or dialect is None or unit.origin == "app" or not unit.pointer:
            continue
        if not isinstance(unit.pointer[-1], int):
            continue  # a name-keyed map: its keys, not positions, name the tools
        lists.setdefault(unit.pointer[:-1], []).append((unit, _FAMILY.get(dialect, dialect)))
    for members in lists.values():
        counts = Counter(family for _, family in members)
        if len(counts) < 2:
            continue
        (major, major_count), *_ = counts.most_common()
        odd, family = next((unit, family) for unit, family in members if family != major)
        first = next(unit for unit, family in members if family == major)
        name = NAME_KEY.get(odd.dialect or "", ("name",))
        yield Finding(
            MIXED.code,
            f"This list mixes dialects: this is {_a(family.label)}, but {major_count} of its {len(members)} tools "
            f"are {major.label}s; a provider accepts only its own shape",
            (*odd.pointer, *name),
            "key",
            related=(
                Related(_a(major.label), (*first.pointer, *NAME_KEY.get(first.dialect or "", ("name",))), None, "key"),
            ),
        )


def _a(label: str) -> str:
    return f"{'an' if label[0] in 'AEIOM' else 'a'} {label}"
