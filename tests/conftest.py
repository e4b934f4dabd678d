"""Long variants of tests (`@pytest.mark.slow`) run only when asked for: `-m slow`, or
`TOOLSENSE_LONG=1` (see docs/hardening.md). The default run stays bounded to a few minutes."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("TOOLSENSE_LONG") == "1" or "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run: TOOLSENSE_LONG=1 or -m slow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
