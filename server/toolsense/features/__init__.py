"""Position-aware editor logic (completion, hover, symbols, folding, definition), free of LSP types.

Importing this package loads the provider modules (automation, tool and MCP-configuration help); each adds
its functions to `PROVIDERS` as it is imported. See `providers.py` for the provider API.
"""

from __future__ import annotations

# In the order their providers run (an earlier provider's candidate wins a shared label).
from . import automation_help

# isort: split
from . import tool_help

# isort: split
from . import mcp_config_help

# isort: split
from .providers import PROVIDERS, CompletionCandidate, CursorQuery, HoverAnswer, TargetLocation, UnitRef

PROVIDER_MODULES = (automation_help, tool_help, mcp_config_help)
"""The modules that fill `PROVIDERS`, in the order their providers run."""

__all__ = [
    "PROVIDERS",
    "PROVIDER_MODULES",
    "CompletionCandidate",
    "CursorQuery",
    "HoverAnswer",
    "TargetLocation",
    "UnitRef",
]
