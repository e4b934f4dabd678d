"""The wheel, sdist and wheelhouse, built once per session (see packkit.py)."""

from __future__ import annotations

import pytest
from packkit import Dist, build_dist


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Dist:
    return build_dist(tmp_path_factory)
