"""Rule families. Importing this package registers every rule and check in the catalog."""

from . import structure
from . import automation, conditions, preflight, templates  # noqa: F401  (automations: TS4xx–TS6xx)
from . import json_schema  # noqa: F401  (tool definitions: JSON Schema validity)
from . import names, strictness, examples, descriptions, mcp, profiles  # noqa: F401  (tool definitions)
from . import tool_calls, drift  # noqa: F401  (tool calls, registered models, drift)

__all__ = ["structure"]
