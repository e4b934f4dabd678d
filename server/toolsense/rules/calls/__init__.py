"""Rules for tool calls."""

from . import tool_calls  # noqa: F401  (imported to register their rules)
