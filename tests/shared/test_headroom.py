"""Under ``--memory`` a budget's check stops a run near the cap, while Python still has
the room to unwind and say so (a run that reached the cap itself could spin in CPython's
unwinding for ever, the deadline and the watchdog starved)."""

from __future__ import annotations

import pytest

from smtpuzzles import limits


@pytest.fixture
def cap(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(limits, "_headroom_read", [0.0])

    def set_cap(room: int) -> None:
        monkeypatch.setattr(limits, "_cap_bytes", limits._data_bytes() + room)
        limits._headroom_read[0] = 0.0

    return set_cap


def test_a_budget_near_the_cap_raises_the_memory_limit(cap) -> None:
    cap(limits.HEADROOM_BYTES // 2)
    with pytest.raises(limits.MemoryLimitExceeded):
        limits.Budget(10.0).expired()


def test_a_budget_with_room_left_is_only_a_clock(cap) -> None:
    cap(limits.HEADROOM_BYTES + 64 * 1024 * 1024)
    assert limits.Budget(10.0).expired() is False
    assert limits.Budget(0.0).expired() is True


def test_without_a_cap_the_size_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "_cap_bytes", 0)
    monkeypatch.setattr(limits, "_data_bytes", lambda: pytest.fail("read without a cap"))
    assert limits.Budget(None).expired() is False
