"""Board models (seed 000, phase 1.2)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from toolsense.models import StrictModel, enum_field

from .query_builder import FilterOp


class BoardViewFilter(StrictModel):
    """A filter of a named board view."""

    column: str = Field(description="Column name to filter on")
    operation: FilterOp = enum_field(FilterOp)
    value: Any | None = Field(default=None, description="Filter value")
