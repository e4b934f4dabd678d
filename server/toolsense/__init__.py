"""toolsense: editor tooling for LLM tool definitions, tool calls and automations."""

__version__ = "0.1.0"
