"""Rules for MCP client configuration files."""

from . import mcp_config

MODULES = (mcp_config,)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
