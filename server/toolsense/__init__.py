"""toolsense: editor tooling for LLM tool definitions, tool calls and automations."""

from importlib.metadata import PackageNotFoundError, version

try:
    # pyproject.toml's `version` is the only place it is written.
    __version__ = version("toolsense")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
