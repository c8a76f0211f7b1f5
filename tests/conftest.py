"""Shared test fixtures: the reference corpora (see :mod:`oracles.corpora`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
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


@pytest.fixture(autouse=True)
def no_alarm_left() -> Iterator[None]:
    """A test leaves no timer armed and no alarm handler of its own behind: a deadline's
    alarm left over fires in a later test (or a later notebook cell) as its TimeUp."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.getsignal(signal.SIGALRM)
    yield
    armed = signal.getitimer(signal.ITIMER_REAL)[0]
    now = signal.getsignal(signal.SIGALRM)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, handler)
    # a command's exit ignores the alarm for good (SIG_IGN): harmless, and no leftover
    left = now is not handler and callable(now)
    assert not armed and not left, f"left an alarm behind: timer {armed} s, handler {now}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each notebook runs whole in a kernel of its own: slow, like the longest tests."""
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
