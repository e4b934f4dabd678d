"""The kinds of unit a file splits into, on their own, below every engine module that names them (the catalog, the
claim, the splitting into units)."""

from __future__ import annotations

from typing import Literal, get_args

UnitKind = Literal["tool", "automation", "tool_call", "mcp_config"]
UNIT_KINDS: tuple[UnitKind, ...] = get_args(UnitKind)
