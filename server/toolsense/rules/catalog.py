"""The catalog the rule families fill as they are imported; `toolsense.rules` exports it."""

from __future__ import annotations

from ..engine.catalog import Catalog

CATALOG = Catalog()
