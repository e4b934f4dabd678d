"""A tool call against its dialect's pydantic model."""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.findings import Finding
from ...engine.units import Unit
from ...jsonvalue import json_type_name
from ...models.definitions import (
    CALL_MODELS,
)
from ..catalog import CATALOG
from ..structure import WRONG_TYPE, own_keys, own_text


@CATALOG.unit_check("tool_call")
def call_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    model = CALL_MODELS.get(unit.dialect or "")
    if model is None or unit.origin == "response":
        return  # a provider wrote the call in its own shape (its arguments are checked: `responses`)
    if not isinstance(unit.value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected a tool call object, received {json_type_name(unit.value)}")
        return
    yield from model_findings(model, own_keys(unit), "tool call", own_text(unit))
