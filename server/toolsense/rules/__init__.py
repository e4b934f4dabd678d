"""Rule families. Importing this package registers every rule and check in the catalog."""

from . import structure

__all__ = ["structure"]
