"""The rule families and the catalog they fill: `CATALOG` is what the engine is given to check with.

- `structure`: the file-level codes and the structure codes every family checks its units with (TS0xx, TS1xx,
  TS900).
- `tools`: tool definitions (TS2xx; drift from registered models TS7xx).
- `automations`: automations (TS4xx–TS6xx).
- `calls`: tool calls and registered models (TS3xx, TS8xx).
- `configs`: MCP client configuration files and the live MCP server checks (TS9xx).

`tools`, `automations` and `calls` each check their units against their pydantic models in a `structure` module.
"""

from . import automations, calls, configs, structure, tools
from .catalog import CATALOG

FAMILIES = (structure, tools, automations, calls, configs)
"""Every family, each registering its rules and checks in `CATALOG` as it is imported."""

__all__ = ["CATALOG", "FAMILIES"]
