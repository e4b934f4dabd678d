"""`toolsense mcp`: toolsense as an MCP server for coding agents (tools `check`, `fix`, `explain_rule`,
`schema_for_model`). `service` does the work without the SDK; `server` speaks MCP; `definitions` holds the tool
definitions it lists."""
