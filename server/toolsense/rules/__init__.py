"""Rule families. Importing this package registers every rule and check in the catalog."""

from . import structure
from . import automation, conditions, preflight, templates  # noqa: F401  (automations: TS4xx–TS6xx)

__all__ = ["structure"]
