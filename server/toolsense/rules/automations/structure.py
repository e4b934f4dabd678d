"""An automation and its trigger's configuration against their pydantic models."""

from __future__ import annotations

from collections.abc import Iterator

from ...domain.validation import model_findings
from ...engine.context import CheckContext
from ...engine.findings import Finding
from ...engine.units import Unit
from ...jsonvalue import json_type_name
from ...models.definitions import (
    TRIGGER_CONFIG_MODELS,
    Automation,
)
from ..catalog import CATALOG
from ..structure import BAD_ENUM, WRONG_TYPE, located, own_keys, own_text


@CATALOG.unit_check("automation")
def automation_structure(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    value = unit.value
    if not isinstance(value, dict):
        yield Finding(WRONG_TYPE.code, f"Expected an automation object, received {json_type_name(value)}")
        return
    name = value.get("name")
    subject = f"automation '{name}'" if isinstance(name, str) else "automation"
    trigger = value.get("trigger_type")
    for finding in model_findings(Automation, own_keys(unit), subject, own_text(unit)):
        if (finding.code, finding.pointer) not in _AUTOMATION_SPECIFIC:
            yield located(finding, subject)
    config = value.get("trigger_config", {})
    config_model = TRIGGER_CONFIG_MODELS.get(trigger) if isinstance(trigger, str) else None
    if config_model is not None and isinstance(config, dict):
        for finding in model_findings(config_model, config, f"{trigger} trigger_config"):
            placed = finding.under(("trigger_config",))
            if (placed.code, placed.pointer) in _AUTOMATION_SPECIFIC and (
                placed.code != BAD_ENUM.code or trigger == "schedule_recurring"
            ):
                continue
            yield located(placed, subject)


# Reported instead by the automation family with specific codes, wording and fixes (TS401, TS603–TS606).
_AUTOMATION_SPECIFIC = frozenset(
    {
        ("TS106", ("actions",)),
        ("TS106", ("trigger_config", "polling_interval_minutes")),
        ("TS106", ("trigger_config", "time_of_day")),
        ("TS106", ("trigger_config", "run_at")),
        ("TS104", ("trigger_config", "interval")),
    }
)
