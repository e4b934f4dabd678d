"""Rule families. Importing this package registers every rule and check in the catalog.

Automations: automation, conditions, preflight, templates (TS4xx–TS6xx). Tool definitions: json_schema, names,
strictness, examples, descriptions, mcp, profiles (TS2xx). Tool calls and registered models: tool_calls (TS3xx,
TS8xx); drift from registered models: drift (TS7xx).
"""

from . import (  # noqa: F401  (imported to register their rules)
    automations,
    calls,
    configs,
    structure,
    tools,
)

__all__ = ["structure"]
