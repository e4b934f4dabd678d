"""Tool input models (seed 000, phase 2): what the board and SLO tools accept, nothing more.

`BoardToolInput.model_validate(data)` is what the builders call at run time; toolsense validates tool calls
in the editor with the same models (registered in `examples/toolsense.toml`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolsense.models import StrictModel, enum_field

from .boards import BoardViewFilter
from .query_builder import Calculation, Filter, FilterCombination, Having, Order


class PositionInput(StrictModel):
    """Panel position on the board grid (the API's own shape, not a tuple)."""

    x_coordinate: int = Field(ge=0, description="X position on grid")
    y_coordinate: int = Field(ge=0, description="Y position on grid")
    width: int = Field(ge=1, le=24, description="Panel width (1-24)")
    height: int = Field(ge=1, le=24, description="Panel height (1-24)")


class RecipientInput(StrictModel):
    """Recipient: an existing one by id, or a new one by type and target."""

    id: str | None = Field(default=None, description="Existing recipient ID")
    type: Literal["email", "webhook"] | None = Field(default=None, description="Recipient type (for inline creation)")
    target: str | None = Field(default=None, description="Recipient target (email address or webhook URL)")


class SLIInput(StrictModel):
    """SLI specification for tool input."""

    alias: str = Field(description="Column alias for the SLI")
    expression: str | None = Field(
        default=None, description="Derived column expression (creates the column if provided)"
    )
    description: str | None = Field(default=None, description="SLI description")


class BurnAlertInput(StrictModel):
    """Burn alert specification for inline creation."""

    alert_type: Literal["exhaustion_time", "budget_rate"] = Field(description="Alert type")
    description: str | None = Field(default=None, description="Alert description")
    exhaustion_minutes: int | None = Field(
        default=None, description="Minutes until budget exhaustion (for exhaustion_time)"
    )
    budget_rate_window_minutes: int | None = Field(default=None, description="Window size (for budget_rate)")
    budget_rate_decrease_threshold_per_million: int | None = Field(
        default=None, description="Threshold (for budget_rate)"
    )
    recipients: list[RecipientInput] | None = Field(default=None, description="Alert recipients")


class QueryPanelInput(StrictModel):
    """Query panel specification: the query is flat on the panel, not nested."""

    name: str = Field(description="Panel/query name")
    description: str | None = Field(default=None, description="Panel description")
    style: Literal["graph", "table", "combo"] = Field(default="graph", description="Panel display style")
    visualization: dict[str, Any] | None = Field(default=None, description="Visualization settings")
    position: PositionInput | None = Field(default=None, description="Panel position for manual layout")
    dataset: str | None = Field(default=None, description="Dataset slug (None = environment-wide)")
    time_range: int | None = Field(default=None, description="Time range in seconds")
    start_time: int | None = Field(default=None, description="Absolute start time (Unix timestamp)")
    end_time: int | None = Field(default=None, description="Absolute end time (Unix timestamp)")
    granularity: int | None = Field(default=None, description="Time granularity in seconds")
    calculations: list[Calculation] | None = Field(default=None, description="Calculations to perform")
    filters: list[Filter] | None = Field(default=None, description="Query filters")
    breakdowns: list[str] | None = Field(default=None, description="Columns to group by")
    filter_combination: FilterCombination | None = enum_field(FilterCombination, default=None)
    orders: list[Order] | None = Field(default=None, description="Result ordering")
    limit: int | None = Field(default=None, description="Result limit")
    havings: list[Having] | None = Field(default=None, description="Having clauses")


class SLOToolInput(StrictModel):
    """Complete SLO tool input: the target is target_percentage only; burn alerts are created inline."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "API availability",
                    "dataset": "api",
                    "sli": {"alias": "sli_ok", "expression": "LT($status_code, 500)"},
                    "target_percentage": 99.9,
                    "time_period_days": 30,
                    "burn_alerts": [
                        {
                            "alert_type": "exhaustion_time",
                            "exhaustion_minutes": 240,
                            "recipients": [{"type": "email", "target": "oncall@example.com"}],
                        },
                    ],
                }
            ]
        }
    )

    name: str = Field(description="SLO name")
    sli: SLIInput = Field(description="SLI specification")
    description: str | None = Field(default=None, description="SLO description")
    dataset: str | None = Field(default=None, description="Single dataset slug")
    datasets: list[str] | None = Field(default=None, description="Multiple dataset slugs")
    target_percentage: float = Field(description="Target as percentage (e.g., 99.9 for 99.9%)")
    time_period_days: int = Field(default=30, description="SLO time period in days (typically 7, 14, or 30)")
    burn_alerts: list[BurnAlertInput] | None = Field(default=None, description="Burn alerts to create with the SLO")


class TextPanelInput(StrictModel):
    """Text/markdown panel for boards."""

    content: str = Field(description="Markdown content")
    position: PositionInput | None = Field(default=None, description="Panel position")


class SLOPanelInput(StrictModel):
    """Inline SLO panel for boards."""

    name: str = Field(description="SLO name")
    description: str | None = Field(default=None, description="SLO description")
    dataset: str = Field(description="Dataset slug")
    sli: SLIInput = Field(description="SLI specification")
    target_percentage: float = Field(description="Target as percentage")
    time_period_days: int = Field(default=30, description="Time period in days")
    position: PositionInput | None = Field(default=None, description="Panel position")


class TagInput(StrictModel):
    """Tag for boards."""

    key: str = Field(description="Tag key")
    value: str = Field(description="Tag value")


class PresetFilterInput(StrictModel):
    """Preset filter for boards."""

    column: str = Field(description="Column to filter on")
    alias: str = Field(description="Display alias")


class BoardViewInput(StrictModel):
    """Board view with filters."""

    name: str = Field(description="View name")
    filters: list[BoardViewFilter] | None = Field(default=None, description="View filters")


class BoardToolInput(StrictModel):
    """Complete board tool input."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "API overview",
                    "layout_generation": "manual",
                    "inline_query_panels": [
                        {
                            "name": "CPU",
                            "dataset": "api",
                            "time_range": 3600,
                            "calculations": [{"op": "P99", "column": "cpu_pct"}],
                            "filters": [{"column": "service", "op": "=", "value": "api"}],
                            "position": {"x_coordinate": 0, "y_coordinate": 0, "width": 8, "height": 6},
                        }
                    ],
                    "text_panels": [{"content": "## On call: see the runbook"}],
                    "tags": [{"key": "team", "value": "sre"}],
                }
            ]
        }
    )

    name: str = Field(description="Board name")
    description: str | None = Field(default=None, description="Board description")
    layout_generation: Literal["auto", "manual"] = Field(default="auto", description="Layout mode")
    inline_query_panels: list[QueryPanelInput] | None = Field(default=None, description="Query panels to create")
    inline_slo_panels: list[SLOPanelInput] | None = Field(default=None, description="SLO panels to create")
    text_panels: list[TextPanelInput] | None = Field(default=None, description="Text/markdown panels")
    slo_panels: list[str] | None = Field(default=None, description="Existing SLO IDs to add")
    tags: list[TagInput] | None = Field(default=None, description="Board tags")
    preset_filters: list[PresetFilterInput] | None = Field(default=None, description="Preset filter columns")
    views: list[BoardViewInput] | None = Field(default=None, description="Named views with filters")
