"""Query building blocks (seed 000, phase 1): enum-only operations, unknown keys rejected."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import Field

from toolsense.models import ENUM_SCHEMAS, StrictModel, enum_field


class CalcOp(str, Enum):
    """Calculation operations for Honeycomb queries."""

    COUNT = "COUNT"
    SUM = "SUM"
    AVG = "AVG"
    MIN = "MIN"
    MAX = "MAX"
    P001 = "P001"
    P01 = "P01"
    P05 = "P05"
    P10 = "P10"
    P25 = "P25"
    P50 = "P50"
    P75 = "P75"
    P90 = "P90"
    P95 = "P95"
    P99 = "P99"
    P999 = "P999"
    COUNT_DISTINCT = "COUNT_DISTINCT"
    CONCURRENCY = "CONCURRENCY"
    HEATMAP = "HEATMAP"
    RATE_AVG = "RATE_AVG"
    RATE_SUM = "RATE_SUM"
    RATE_MAX = "RATE_MAX"


class FilterOp(str, Enum):
    """Filter operations: the schema carries the values ("="), never the names ("EQUALS")."""

    EQUALS = "="
    NOT_EQUALS = "!="
    GREATER_THAN = ">"
    GREATER_THAN_OR_EQUAL = ">="
    LESS_THAN = "<"
    LESS_THAN_OR_EQUAL = "<="
    STARTS_WITH = "starts-with"
    DOES_NOT_START_WITH = "does-not-start-with"
    ENDS_WITH = "ends-with"
    DOES_NOT_END_WITH = "does-not-end-with"
    EXISTS = "exists"
    DOES_NOT_EXIST = "does-not-exist"
    CONTAINS = "contains"
    DOES_NOT_CONTAIN = "does-not-contain"
    IN = "in"
    NOT_IN = "not-in"


class OrderDirection(str, Enum):
    """Sort direction of an order clause."""

    ASCENDING = "ascending"
    DESCENDING = "descending"


class FilterCombination(str, Enum):
    """How a query's filters combine."""

    AND = "AND"
    OR = "OR"


# One description per enum, for every tool that uses it (seed 003).
ENUM_SCHEMAS.register(CalcOp, "Calculation operation (COUNT, AVG, P99, etc.)")
ENUM_SCHEMAS.register(FilterOp, "Filter operation (=, !=, >, contains, exists, …)")
ENUM_SCHEMAS.register(OrderDirection, "Sort direction", default=OrderDirection.DESCENDING)
ENUM_SCHEMAS.register(FilterCombination, "How to combine filters", default=FilterCombination.AND)


class Calculation(StrictModel):
    """A calculation in a query."""

    op: CalcOp = enum_field(CalcOp)
    column: str | None = Field(default=None, description="Column to calculate on")
    alias: str | None = Field(default=None, description="Alias for the result column")


class Filter(StrictModel):
    """A filter in a query."""

    column: str = Field(description="Column to filter on")
    op: FilterOp = enum_field(FilterOp)
    value: Any | None = Field(default=None, description="Value to compare with (not for exists/does-not-exist)")


class Order(StrictModel):
    """An ordering of the query's results."""

    op: CalcOp = enum_field(CalcOp)
    column: str | None = Field(default=None, description="Column the calculation ran on")
    order: OrderDirection = enum_field(OrderDirection, default=OrderDirection.DESCENDING)


class Having(StrictModel):
    """A filter on a calculation's result."""

    calculate_op: CalcOp = enum_field(CalcOp)
    column: str | None = Field(default=None, description="Column the calculation ran on")
    op: FilterOp = enum_field(FilterOp)
    value: float = Field(description="Threshold to compare the result with")
