"""Rules for tool definitions."""

from . import (  # noqa: F401  (imported to register their rules)
    descriptions,
    dialects,
    drift,
    examples,
    json_schema,
    mcp,
    mcp_profiles,
    names,
    profiles,
    strictness,
)
