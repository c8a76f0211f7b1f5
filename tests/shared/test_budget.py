"""The solving engine's time budget stops a hard check and claims nothing."""

from __future__ import annotations

import signal
import time

import z3

from smtpuzzles.engines import Stats, check_sat, new_solver
from smtpuzzles.limits import Budget
from smtpuzzles.runner import stopping


def test_budget_limits_a_hard_check() -> None:
    """Pigeonhole 10 into 9 is hard for CDCL: the budget must stop it."""
    solver = new_solver("sat")
    n = 10
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    for i in range(n):
        solver.add(z3.Or(p[i]))
    for j in range(n - 1):
        for i in range(n):
            for k in range(i + 1, n):
                solver.add(z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])))
    budget = Budget(0.5)
    stats = Stats()
    began = time.monotonic()
    answer = check_sat(solver, budget, stats=stats, label="php")
    assert answer == z3.unknown
    assert time.monotonic() - began < 3.0
    assert stats.checks == 1 and stats.probes[0]["label"] == "php"
    assert check_sat(solver, Budget(0.0)) == z3.unknown


def test_a_limit_signalled_as_a_block_is_entered_stops_the_block(monkeypatch) -> None:
    """The timer's signal landing after the deadline is armed but before the block
    begins: raised there, no handler caught it and the run ended in a traceback
    ("generator didn't yield"). It now waits for the block and stops it there."""
    real = signal.setitimer
    fired: list[int] = []

    def at_once(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        before = real(which, seconds, interval)
        if seconds > 0 and not fired:
            fired.append(1)
            signal.raise_signal(signal.SIGALRM)  # handled as this call returns
        return before

    monkeypatch.setattr(signal, "setitimer", at_once)
    ran = False
    with stopping(Budget(10.0)) as stop:
        ran = True
    assert fired and ran
    assert stop.why == "timeout"


def test_a_limit_signalled_as_a_block_ends_leaves_no_handler_behind(monkeypatch) -> None:
    """The timer's signal handled in the block's own clean-up (as it disarms the timer):
    raised there, it skipped putting the handlers back, and the stale handler stopped
    later code that had no limit. It now waits until the handlers are back."""
    real = signal.setitimer
    before = signal.getsignal(signal.SIGALRM)
    fired: list[int] = []

    def late(which: int, seconds: float, interval: float = 0.0) -> tuple[float, float]:
        if seconds == 0 and not fired:
            fired.append(1)
            signal.raise_signal(signal.SIGALRM)  # handled as the block disarms its timer
        return real(which, seconds, interval)

    ran = False
    with stopping(Budget(10.0)) as stop:
        monkeypatch.setattr(signal, "setitimer", late)
        ran = True
    monkeypatch.undo()
    assert fired and ran
    assert stop.why == "timeout"
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
