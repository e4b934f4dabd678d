"""Rules for automations."""

from . import automation, conditions, preflight, structure, templates

MODULES = (automation, conditions, preflight, structure, templates)
"""Each registers its rules and checks in the catalog as it is imported."""

__all__ = ["MODULES"]
