"""toolsense: editor tooling for LLM tool definitions, tool calls and automations."""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    # Read when first asked for, not at import: importlib.metadata costs more than the rest of `toolsense --help`.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        # pyproject.toml's `version` is the only place it is written.
        found = version("toolsense")
    except PackageNotFoundError:  # a source tree on sys.path that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found
