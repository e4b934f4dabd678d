"""Registered user models (`[tool.toolsense.models]`): imported only when trusted. Filled in by the
tool-call/drift work; until then nothing is imported."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from .settings import Settings


def load_models_for_cli(settings: Settings, root: Path, err: TextIO) -> Any:
    """The CLI is trusted; returns the loaded model registry, or None when no models are registered."""
    if not settings.models:
        return None
    return None
