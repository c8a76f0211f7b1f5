"""Shared test helpers: where the reference corpora live (tests skip when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import oracles.fuzzing  # noqa: F401  (registers the hypothesis profiles before pytest uses them)
import pytest


def shared_data() -> Path | None:
    """``shared/data`` beside the checkout (or ``$SMTPUZZLES_DATA``), if it exists."""
    env = os.environ.get("SMTPUZZLES_DATA")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture
def data_dir() -> Path:
    """The corpus folder; skips the test when it is absent."""
    found = shared_data()
    if found is None:
        pytest.skip("reference corpora (shared/data) not present")
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each notebook runs whole in a kernel of its own: slow, like the longest tests."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
