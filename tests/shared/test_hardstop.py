"""The last resort of the limits: a C thread ends a command whose main thread keeps the
interpreter lock past its deadline, or stays stuck at its memory cap, where neither
the deadline's signal nor the watchdog's thread can run.

Each case runs a child Python that arms the stop and then calls ``sleep`` through
``ctypes.PyDLL``, which holds the interpreter lock for the whole call: only a thread
that needs no lock can end it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

from smtpuzzles import limits

pytestmark = pytest.mark.skipif(
    limits._hardstop is None, reason="built without a C compiler: no compiled last resort"
)

#: Made before the child fills its memory: loading ctypes needs room.
SLEEP_READY = "import ctypes; sleep = ctypes.PyDLL(None).sleep"
HOLD_THE_LOCK = "sleep(60)"


def _run(body: str) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=50,
    )
    return done.returncode, done.stderr, time.monotonic() - started


def _assert_ended(body: str, limit: str) -> None:
    """The child ``body`` is ended by the last resort of the ``limit`` (``time`` or
    ``memory``): exit 3, its one line, well before the child's own sleep is over."""
    code, err, took = _run(body)
    assert code == 3
    assert err.strip() == f"smtpuzzles: error: {limit} limit reached (the run was ended)"
    assert took < 30


def test_a_command_holding_the_lock_past_its_deadline_is_ended_with_exit_3() -> None:
    _assert_ended(
        f"""
        import time
        from smtpuzzles import limits
        {SLEEP_READY}
        limits.start_clock()
        limits.hard_stop_at(time.monotonic() + 1.0)
        {HOLD_THE_LOCK}
        """,
        "time",
    )


def test_a_disarmed_stop_lets_the_run_end_by_itself() -> None:
    code, err, _ = _run(
        """
        import time
        from smtpuzzles import limits
        limits.start_clock()
        limits.hard_stop_at(time.monotonic() + 0.5)
        limits.hard_stop_off()
        time.sleep(1.5)
        print("done")
        """
    )
    assert (code, err) == (0, "")


def test_outside_a_command_nothing_is_armed() -> None:
    code, err, _ = _run(
        """
        import time
        from smtpuzzles import limits
        limits.hard_stop_at(time.monotonic() + 0.2)
        time.sleep(1.0)
        """
    )
    assert (code, err) == (0, "")


def test_a_command_stuck_at_its_memory_cap_is_ended_with_exit_3() -> None:
    _assert_ended(
        f"""
        from smtpuzzles import limits
        {SLEEP_READY}
        limits.start_clock()
        limits.limit_memory(64)
        limits.release_reserve()
        kept = []
        size = 1 << 20
        while size >= 64:
            try:
                kept.append(bytearray(size))
            except MemoryError:
                size //= 2
        {HOLD_THE_LOCK}
        """,
        "memory",
    )


def test_a_command_that_keeps_clear_of_its_cap_is_not_ended() -> None:
    code, err, _ = _run(
        """
        import time
        from smtpuzzles import limits
        limits.start_clock()
        limits.limit_memory(64)
        kept = bytearray(16 << 20)
        time.sleep(limits.STUCK_NEAR_CAP_S + 1.0)
        print(len(kept))
        """
    )
    assert (code, err) == (0, "")
