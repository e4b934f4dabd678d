"""Rules for tool definitions."""

from . import structure  # first: findings at one place keep the order their checks ran in

# isort: split
from . import (
    descriptions,
    dialects,
    drift,
    examples,
    json_schema,
    mcp,
    mcp_profiles,
    names,
    profiles,
    schema_root,
    strictness,
    token_budget,
)

MODULES = (
    descriptions,
    dialects,
    drift,
    examples,
    json_schema,
    mcp,
    mcp_profiles,
    names,
    profiles,
    schema_root,
    strictness,
    structure,
    token_budget,
)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
