"""Automations: trigger configuration and static preflight (TS603–TS611).

Trigger settings per `trigger_type` beyond their shape (which the structure family checks): a positive polling
interval, a known schedule interval (with the usual aliases: `hourly` → `1hr`), `time_of_day` as `HH:MM`,
`run_at` as a real ISO 8601 timestamp — each with a fix where the intent is clear.

Static preflight (without running anything): every `trigger_data.*` path is looked up in what
is known of the trigger data — the polling source tool's MCP `outputSchema`, or a sample output file named in
settings (`[tool.toolsense.samples] oura_get_daily_sleep = "samples/sleep.json"`; a webhook payload sample uses
the key `webhook:<service>:<event_type>`). Paths into an earlier action's output are checked the same way
against that action's tool. The checks themselves run with the template rules (`rules/templates.py`), which
resolve every path once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime

from ...domain.automation import AutomationView
from ...engine.context import CheckContext
from ...engine.findings import Finding, Fix, ReplaceValue, Severity
from ...engine.units import Unit
from ...jsonvalue import short_repr
from ...models.definitions import RecurringInterval
from ..catalog import CATALOG

FAMILY = "Automations: conditions, triggers and preflight"

POLLING_INTERVAL = CATALOG.rule(
    "TS603",
    "invalid-polling-interval",
    Severity.ERROR,
    "`polling_interval_minutes` is not a positive whole number of minutes.",
    FAMILY,
)
TIME_OF_DAY = CATALOG.rule(
    "TS604",
    "invalid-time-of-day",
    Severity.ERROR,
    "A recurring schedule's `time_of_day` is not `HH:MM` (24-hour clock).",
    FAMILY,
    "rewrite as HH:MM when the time is clear (`9:00` → `09:00`, `9am` → `09:00`)",
)
RUN_AT = CATALOG.rule(
    "TS605",
    "invalid-run-at",
    Severity.ERROR,
    "A one-time schedule's `run_at` is not an ISO 8601 timestamp (or not a real date and time).",
    FAMILY,
    "rewrite a space-separated timestamp with `T`",
)
SCHEDULE_INTERVAL = CATALOG.rule(
    "TS606",
    "invalid-schedule-interval",
    Severity.ERROR,
    "A recurring schedule's `interval` is not one of 5min, 15min, 30min, 1hr, 6hr, daily, weekly.",
    FAMILY,
    "replace a common alias (`hourly`, `1h`, `every day`) with the interval it means",
)
TRIGGER_PATH = CATALOG.rule(
    "TS610",
    "trigger-path-not-found",
    Severity.ERROR,
    "A `trigger_data` path (template, condition or filter) is not in the source tool's outputSchema or sample output.",
    FAMILY,
    "replace with a similar field",
)
OUTPUT_PATH = CATALOG.rule(
    "TS611",
    "output-path-not-found",
    Severity.ERROR,
    "A path into an earlier action's output, a variable or `user` names a field that is not there.",
    FAMILY,
    "replace with a similar field",
)

INTERVALS = tuple(member.value for member in RecurringInterval)
_INTERVAL_ALIASES: dict[str, str] = {
    "5m": "5min",
    "5 min": "5min",
    "5mins": "5min",
    "5 minutes": "5min",
    "5minutes": "5min",
    "every 5 minutes": "5min",
    "15m": "15min",
    "15 min": "15min",
    "15mins": "15min",
    "15 minutes": "15min",
    "15minutes": "15min",
    "every 15 minutes": "15min",
    "30m": "30min",
    "30 min": "30min",
    "30mins": "30min",
    "30 minutes": "30min",
    "30minutes": "30min",
    "every 30 minutes": "30min",
    "half-hourly": "30min",
    "1h": "1hr",
    "1 hr": "1hr",
    "1hour": "1hr",
    "1 hour": "1hr",
    "60min": "1hr",
    "hour": "1hr",
    "hourly": "1hr",
    "every hour": "1hr",
    "6h": "6hr",
    "6 hr": "6hr",
    "6hours": "6hr",
    "6 hours": "6hr",
    "every 6 hours": "6hr",
    "day": "daily",
    "1d": "daily",
    "24h": "daily",
    "24hr": "daily",
    "every day": "daily",
    "week": "weekly",
    "1w": "weekly",
    "7d": "weekly",
    "every week": "weekly",
}

_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d")
_LOOSE_TIME = re.compile(r"\s*(\d{1,2})(?:[:.h](\d{2}))?(?::\d{2})?\s*([ap]\.?m\.?)?\s*", re.IGNORECASE)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")


@CATALOG.unit_check("automation")
def automation_trigger(unit: Unit, ctx: CheckContext) -> Iterator[Finding]:
    view = AutomationView.of(unit.value)
    if view is None:
        return
    config = view.trigger_config
    base = ("trigger_config",)
    if view.trigger_type == "polling" and "polling_interval_minutes" in config:
        minutes = config["polling_interval_minutes"]
        if isinstance(minutes, (int, float)) and not isinstance(minutes, bool) and minutes <= 0:
            yield POLLING_INTERVAL.finding(
                "polling_interval_minutes must be a positive whole number of minutes, received " + short_repr(minutes),
                (*base, "polling_interval_minutes"),
            )
    if view.trigger_type == "schedule_recurring":
        interval = config.get("interval")
        if isinstance(interval, str) and interval not in INTERVALS:
            yield _interval(interval, (*base, "interval"))
        time_of_day = config.get("time_of_day")
        if isinstance(time_of_day, str) and not _HHMM.fullmatch(time_of_day):
            yield _time_of_day(time_of_day, (*base, "time_of_day"))
    if view.trigger_type == "schedule_once":
        run_at = config.get("run_at")
        if isinstance(run_at, str):
            finding = _run_at(run_at, (*base, "run_at"))
            if finding is not None:
                yield finding


def _interval(value: str, pointer: tuple[str, ...]) -> Finding:
    allowed = ", ".join(INTERVALS)
    alias = _INTERVAL_ALIASES.get(value.strip().lower())
    if alias is None and value.strip().lower() in INTERVALS:
        alias = value.strip().lower()
    message = f"Schedule interval {short_repr(value)} is not supported: use one of {allowed}"
    fixes: tuple[Fix, ...] = ()
    if alias is not None:
        message += f". Did you mean '{alias}'?"
        fixes = (Fix(f"Change to '{alias}'", (ReplaceValue(pointer, json.dumps(alias)),), safe=True, preferred=True),)
    elif value.strip().lower() == "once":
        message += " (for a single run use trigger_type 'schedule_once' with 'run_at')"
    return SCHEDULE_INTERVAL.finding(message, pointer, fixes=fixes)


def normalize_time(value: str) -> str | None:
    """`9:00` → `09:00`, `9am` → `09:00`, `9:30 PM` → `21:30`, `21h15` → `21:15`; None when unclear."""
    match = _LOOSE_TIME.fullmatch(value)
    if match is None:
        return None
    hour = int(match.group(1))
    minute = int(match.group(2) or 0)
    suffix = (match.group(3) or "").lower().replace(".", "")
    if suffix:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if suffix == "pm" else 0)
    elif match.group(2) is None:
        return None  # a bare number ("9") is not clearly a time
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def _time_of_day(value: str, pointer: tuple[str, ...]) -> Finding:
    message = f"time_of_day {short_repr(value)} is not HH:MM on a 24-hour clock (e.g. '09:00' or '18:30')"
    fixed = normalize_time(value)
    fixes: tuple[Fix, ...] = ()
    if fixed is not None and fixed != value:
        message += f". Did you mean '{fixed}'?"
        fixes = (Fix(f"Change to '{fixed}'", (ReplaceValue(pointer, json.dumps(fixed)),), safe=True, preferred=True),)
    return TIME_OF_DAY.finding(message, pointer, fixes=fixes)


def _run_at(value: str, pointer: tuple[str, ...]) -> Finding | None:
    example = "e.g. '2026-03-01T09:00:00' (local time) or '2026-03-01T09:00:00Z'"
    if _ISO.fullmatch(value):
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return RUN_AT.finding(f"run_at {short_repr(value)} is not a real date and time ({example})", pointer)
        return None
    candidate = value.strip().replace(" ", "T", 1)
    if candidate != value and _ISO.fullmatch(candidate):
        try:
            datetime.fromisoformat(candidate.replace("Z", "+00:00"))
        except ValueError:
            pass
        else:
            return RUN_AT.finding(
                f"run_at {short_repr(value)} is not an ISO 8601 timestamp: separate date and time with 'T' "
                f"('{candidate}')",
                pointer,
                fixes=(Fix(f"Change to '{candidate}'", (ReplaceValue(pointer, json.dumps(candidate)),), True, True),),
            )
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        return RUN_AT.finding(f"run_at {short_repr(value)} has a date but no time: add one ({example})", pointer)
    return RUN_AT.finding(f"run_at {short_repr(value)} is not an ISO 8601 timestamp ({example})", pointer)
