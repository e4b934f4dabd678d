"""Rules for MCP client configuration files."""

from . import config_security, hosted_mcp, mcp_config, server_json

MODULES = (config_security, hosted_mcp, mcp_config, server_json)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
