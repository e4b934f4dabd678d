"""Rules for tool calls."""

from . import tool_calls

MODULES = (tool_calls,)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
