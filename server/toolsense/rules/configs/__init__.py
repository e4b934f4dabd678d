"""Rules for MCP client configuration files."""

from . import mcp_config  # noqa: F401  (imported to register their rules)
