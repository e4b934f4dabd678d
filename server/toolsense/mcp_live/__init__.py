"""Live MCP servers: list what a running server really exposes, snapshot it, and notice drift.

- `client` starts (stdio) or connects to (Streamable HTTP) a server with the official MCP Python SDK (the
  optional `mcp` dependency, `pip install 'toolsense[mcp]'`), lists every tool following `nextCursor`, and
  stops the server; every failure becomes one `LiveProblem`, within a time limit.
- `snapshot` writes the raw tool definitions as a formatted `tools/list` result (stable key and tool order),
  so the ordinary checks place their diagnostics in it.
- `drift` compares a committed snapshot with what the server lists now.
- `run` ties them together for the CLI and the editor command.
- `config` reads the server entries of every MCP client's configuration file (`models.mcp_clients`).
"""
