"""The catalog names its check types loosely (`engine.catalog.UnitCheck`: the context carries the catalog, so the
catalog cannot import the context's type without an import circle); what mypy no longer holds at registration, this
does: every unit check takes `(unit: Unit, ctx: CheckContext)`, every file check `(units: list[Unit], ctx:
CheckContext)`, and both give findings."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from toolsense.engine.catalog import Catalog
from toolsense.rules import CATALOG

RETURNS = {"Iterator[Finding]", "Iterable[Finding]", "list[Finding]", "tuple[Finding, ...]"}


def _signatures(table: dict[str, list[Callable[..., Any]]]) -> set[tuple[tuple[str, ...], bool]]:
    found = set()
    for checks in table.values():
        for check in checks:
            signature = inspect.signature(check)
            parameters = tuple(str(parameter.annotation) for parameter in signature.parameters.values())
            found.add((parameters, str(signature.return_annotation) in RETURNS))
    return found


@pytest.mark.parametrize(
    ("table", "parameters"),
    [("unit_checks", ("Unit", "CheckContext")), ("file_checks", ("list[Unit]", "CheckContext"))],
)
def test_every_registered_check_has_the_engines_signature(table: str, parameters: tuple[str, ...]) -> None:
    assert _signatures(getattr(CATALOG, table)) == {(parameters, True)}


def test_registering_keeps_the_function_itself() -> None:
    catalog = Catalog()

    def check(unit: object, ctx: object) -> list[object]:
        return []

    assert catalog.unit_check("tool", "automation")(check) is check
    assert catalog.unit_checks["tool"] == catalog.unit_checks["automation"] == [check]
    assert catalog.unit_checks["tool_call"] == catalog.unit_checks["mcp_config"] == []
