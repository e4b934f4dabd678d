"""Rules for automations."""

from . import automation, conditions, preflight, templates  # noqa: F401  (imported to register their rules)
