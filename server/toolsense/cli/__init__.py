"""The command line: `toolsense check | serve | rules | schema`."""

from .app import main

__all__ = ["main"]
