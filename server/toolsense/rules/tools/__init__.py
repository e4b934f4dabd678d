"""Rules for tool definitions."""

from . import structure  # first: findings at one place keep the order their checks ran in

# isort: split
from . import (
    combinations,
    compat_targets,
    descriptions,
    dialects,
    drift,
    examples,
    features,
    hidden_text,
    json_schema,
    live_drift,
    mcp,
    mcp_meta,
    mcp_profiles,
    names,
    poisoning,
    profiles,
    schema_keywords,
    schema_root,
    strictness,
    token_budget,
)

MODULES = (
    combinations,
    compat_targets,
    descriptions,
    dialects,
    drift,
    examples,
    features,
    hidden_text,
    json_schema,
    live_drift,
    mcp,
    mcp_meta,
    mcp_profiles,
    names,
    poisoning,
    profiles,
    schema_keywords,
    schema_root,
    strictness,
    structure,
    token_budget,
)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
