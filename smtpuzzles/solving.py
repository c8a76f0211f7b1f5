"""The engine every puzzle shares: solvers, time and memory limits, interrupts
and statistics.

Z3 answers Ctrl-C and its own ``timeout`` parameter with ``unknown``; this module
turns those answers into :class:`Interrupted` and :class:`MemoryLimitExceeded`
exceptions or a plain ``unknown``, so a puzzle's search loop can report what it
knows so far instead of crashing.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import z3

# The SMT-LIB writers live in :mod:`.smtlib`; imported here for callers that still
# import them from this module.
from .smtlib import formula_size, optimize_script, smtlib_script  # noqa: F401

#: Engines a puzzle can ask for. ``sat`` is Z3's SAT core for finite-domain problems
#: (integers bounded by their declarations are bit-blasted); ``smt`` is the general
#: QF_LIA solver with its simplex.
ENGINES = ("sat", "smt")


class Interrupted(Exception):
    """Ctrl-C (SIGINT) stopped a search; the CLI exits 130 after printing what is known."""


class MemoryLimitExceeded(Exception):
    """Z3 hit the ``--memory`` cap; reported as one line, not a crash."""


class TimeUp(Exception):
    """The wall-clock budget ran out while Python was building or reading formulas."""


def new_solver(
    engine: str = "sat", ctx: z3.Context | None = None, sat_params: dict[str, Any] | None = None
) -> z3.Solver:
    """A fresh incremental solver for ``engine`` (see :data:`ENGINES`); ``ctx``: a Z3
    context of its own (terms numbered from scratch, so runs repeat exactly);
    ``sat_params``: settings of the SAT core, applied when ``engine`` is ``sat``."""
    if engine == "sat":
        solver = _solver_for("QF_FD", ctx)
        for name, value in (sat_params or {}).items():
            solver.set(name, value)
        return solver
    if engine == "smt":
        return _solver_for("QF_LIA", ctx)
    raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")


def _solver_for(logic: str, ctx: z3.Context | None) -> z3.Solver:
    """``z3.SolverFor(logic, ctx)``, without building Z3's main context (11 ms a process)
    when ``ctx`` is another: z3's own version names the logic in the main context."""
    ctx = ctx or z3.main_ctx()
    symbol = z3.Z3_mk_string_symbol(ctx.ref(), logic)
    return z3.Solver(z3.Z3_mk_solver_for_logic(ctx.ref(), symbol), ctx)


#: The ``--memory`` cap in MB (0: none). Z3 applies it only while a check runs: when
#: building terms hits Z3's global cap, Z3 ends the whole process (exit 101, or a crash).
_memory_cap_mb = 0


def set_memory_limit(megabytes: int | None) -> None:
    """Cap Z3's memory during every :func:`check` (``None`` leaves it unlimited)."""
    global _memory_cap_mb
    if megabytes is not None:
        _memory_cap_mb = int(megabytes)


@contextmanager
def _memory_capped() -> Iterator[None]:
    if not _memory_cap_mb:
        yield
        return
    z3.set_param("memory_max_size", _memory_cap_mb)
    try:
        yield
    finally:
        z3.set_param("memory_max_size", 0)


class Budget:
    """A wall-clock limit shared by every probe of one search."""

    def __init__(self, timeout_s: float | None = None) -> None:
        self.started = time.monotonic()
        self.timeout_s = timeout_s

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when there is no limit."""
        if self.timeout_s is None:
            return None
        return max(0.0, self.timeout_s - self.elapsed())

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0.0


def _in_z3(frame: Any) -> bool:
    """Is ``frame`` inside Z3's Python code or a finaliser, where an exception is lost?"""
    return frame is not None and (
        frame.f_code.co_filename.startswith(os.path.dirname(z3.__file__))
        or frame.f_code.co_name == "__del__"
    )


def guard_interrupts() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` only in our own code, for the whole process.

    Python raises it wherever the main thread is, and inside a Z3 object's ``__del__``
    it is printed as an "Exception ignored" traceback and then lost. Here a signal that
    lands in Z3's Python code is sent again 1 ms later instead. (During a check, Z3
    itself turns Ctrl-C into ``unknown``, which :func:`check` reports as ``Interrupted``.)
    """
    if threading.current_thread() is not threading.main_thread():
        return

    def on_interrupt(signum: int, frame: Any) -> None:
        if _in_z3(frame):
            threading.Timer(0.001, os.kill, (os.getpid(), signal.SIGINT)).start()
            return
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)


@contextmanager
def deadline(budget: Budget) -> Iterator[None]:
    """Raise :class:`TimeUp` when ``budget`` runs out inside the block, and
    ``KeyboardInterrupt`` on Ctrl-C, both only where our own Python code runs.

    Z3 stops itself at its ``timeout`` and on Ctrl-C during a check; this covers the
    Python work around it (building a large encoding, adding cuts), which otherwise
    ignores the limit. An exception raised inside Z3's Python code is lost (ctypes
    turns it into an ArgumentError, a ``__del__`` swallows it, and the search then runs
    on without a limit), so there the signal is kept and retried every 1 ms. Uses
    signals, so it only acts in the main thread.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[type[BaseException]] = []

    def deliver(frame: Any) -> None:
        if _in_z3(frame):
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        raise pending[0]()

    def on_alarm(signum: int, frame: Any) -> None:
        if not pending:
            pending.append(TimeUp)
        deliver(frame)

    def on_interrupt(signum: int, frame: Any) -> None:
        pending.insert(0, KeyboardInterrupt)
        deliver(frame)

    previous_alarm = signal.signal(signal.SIGALRM, on_alarm)
    previous_interrupt = signal.signal(signal.SIGINT, on_interrupt)
    left = budget.remaining()
    if left is not None:
        signal.setitimer(signal.ITIMER_REAL, max(left, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_interrupt)
    if pending:  # a signal that arrived in Z3's code just before the block ended
        raise pending[0]()


@dataclass
class Stats:
    """Z3 statistics summed over every check of one search."""

    checks: int = 0
    solver_s: float = 0.0
    conflicts: int = 0
    decisions: int = 0
    max_memory_mb: float = 0.0
    probes: list[dict[str, Any]] = field(default_factory=list)
    _earlier_conflicts: int = 0  #: the counts of the solvers before the current one
    _earlier_decisions: int = 0
    _solver_conflicts: int = 0  #: the current solver's counts so far
    _solver_decisions: int = 0

    def next_solver(self) -> None:
        """The checks from now on go to a new solver, whose counters start at zero."""
        self._earlier_conflicts, self._earlier_decisions = self.conflicts, self.decisions
        self._solver_conflicts = self._solver_decisions = 0

    def add(self, solver: z3.Solver, seconds: float, label: str, answer: str) -> None:
        """Fold one check's statistics in; ``label`` names the probe (e.g. ``T=22``)."""
        raw = statistics_dict(solver)
        self.checks += 1
        self.solver_s += seconds
        # Z3 reports counters cumulatively for an incremental solver; keep the largest.
        conflicts = int(raw.get("conflicts", raw.get("sat conflicts", 0)))
        decisions = int(raw.get("decisions", raw.get("sat decisions", 0)))
        self._solver_conflicts = max(self._solver_conflicts, conflicts)
        self._solver_decisions = max(self._solver_decisions, decisions)
        self.conflicts = self._earlier_conflicts + self._solver_conflicts
        self.decisions = self._earlier_decisions + self._solver_decisions
        self.max_memory_mb = max(self.max_memory_mb, float(raw.get("max memory", 0.0)))
        self.probes.append({"label": label, "answer": answer, "seconds": round(seconds, 4)})

    def as_dict(self) -> dict[str, Any]:
        return {
            "checks": self.checks,
            "solver_s": round(self.solver_s, 4),
            "conflicts": self.conflicts,
            "decisions": self.decisions,
            "max_memory_mb": round(self.max_memory_mb, 2),
            "probes": self.probes,
        }


def statistics_dict(solver: z3.Solver | z3.Optimize) -> dict[str, Any]:
    """Z3's statistics of ``solver`` as a plain dict (keys as Z3 names them)."""
    st = solver.statistics()
    return {key: st.get_key_value(key) for key in st.keys()}


def check(
    solver: z3.Solver | z3.Optimize,
    budget: Budget,
    assumptions: Sequence[z3.BoolRef] = (),
    stats: Stats | None = None,
    label: str = "",
) -> z3.CheckSatResult:
    """``solver.check`` within the budget.

    Returns ``sat``, ``unsat`` or ``unknown`` (time ran out). Raises
    :class:`Interrupted` on Ctrl-C and :class:`MemoryLimitExceeded` on the memory cap.
    """
    left = budget.remaining()
    if left is not None:
        if left <= 0.0:
            return z3.unknown
        solver.set("timeout", max(1, int(left * 1000)))
    began = time.monotonic()
    try:
        with _memory_capped():
            answer = solver.check(*assumptions)
    except z3.Z3Exception as exc:
        message = str(exc)
        if "memory" in message.lower():
            raise MemoryLimitExceeded(message) from None
        if "cancel" in message.lower() or "interrupt" in message.lower():
            raise Interrupted() from None
        raise
    seconds = time.monotonic() - began
    if stats is not None:
        stats.add(solver, seconds, label, str(answer))
    if answer == z3.unknown:
        reason = solver.reason_unknown().lower()
        if "keyboard" in reason or "interrupt" in reason or "cancel" in reason:
            raise Interrupted()
        if "memory" in reason:
            raise MemoryLimitExceeded(f"Z3 stopped: {solver.reason_unknown()}")
    return answer
