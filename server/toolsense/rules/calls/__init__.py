"""Rules for tool calls."""

from . import responses, tool_calls

# isort: split
from . import structure  # after the input check: findings at one place keep the order their checks ran in

MODULES = (tool_calls, responses, structure)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
