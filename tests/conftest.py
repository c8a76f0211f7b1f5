"""Shared test fixtures: the reference corpora (see :mod:`oracles.corpora`)."""

from __future__ import annotations

from pathlib import Path

import oracles.fuzzing  # noqa: F401  (registers the hypothesis profiles before pytest uses them)
import pytest
from oracles.corpora import missing, shared_data


@pytest.fixture
def data_dir() -> Path:
    """The corpus folder (it fails the test under CI when absent, else skips it)."""
    found = shared_data()
    if found is None:
        missing("reference corpora (shared/data)")
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each notebook runs whole in a kernel of its own: slow, like the longest tests."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
