"""Position-aware editor logic (completion, hover, symbols, folding, definition), free of LSP types.

Importing this package loads the optional provider modules of other areas, each guarded: when one is
missing the others still work. See `providers.py` for the provider API.
"""

from __future__ import annotations

import importlib
import logging

from .providers import PROVIDERS, CompletionCandidate, CursorQuery, HoverAnswer, TargetLocation, UnitRef

log = logging.getLogger(__name__)

OPTIONAL_PROVIDER_MODULES = ("automation_help", "tool_help", "mcp_config_help")
"""Provider modules written by the automations and tool-rules areas; each registers into PROVIDERS."""


def _load_optional_providers() -> None:
    for name in OPTIONAL_PROVIDER_MODULES:
        module = f"{__name__}.{name}"
        try:
            importlib.import_module(module)
        except ImportError as error:
            # "This module does not exist" is expected; a module that exists but fails to import is a bug.
            if error.name != module:
                log.exception("provider module %s failed to import", module)
        except Exception:
            log.exception("provider module %s failed to import", module)


_load_optional_providers()

__all__ = ["PROVIDERS", "CompletionCandidate", "CursorQuery", "HoverAnswer", "TargetLocation", "UnitRef"]
