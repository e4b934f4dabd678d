"""Rules for MCP client configuration files."""

from . import config_security, mcp_config

MODULES = (config_security, mcp_config)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
