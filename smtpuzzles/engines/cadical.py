"""The CaDiCaL backend (python-sat, the ``cadical`` extra): a CNF's answer within the
budget, searched in steps of a few conflicts in a process of its own."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..errors import InputError
from ..limits import (
    Budget,
    contained,
    ensure_room,
)
from .stats import Stats

#: The CaDiCaL engine's package (the ``cadical`` extra) and what to say without it.
CADICAL_MISSING = "--engine cadical needs the python-sat package: pip install python-sat"


def cadical_available() -> bool:
    """Is python-sat (which carries CaDiCaL) installed?"""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


def check_clauses(
    clauses: list[list[int]] | Callable[[], list[list[int]]],
    budget: Budget,
    stats: Stats | None = None,
    label: str = "",
    read_model: Callable[[list[int]], Any] | None = None,
) -> tuple[str, Any]:
    """CaDiCaL on ``clauses`` (DIMACS literals, or a function that makes them) within
    the budget: ``("sat", model)``, ``("unsat", None)`` or ``("unknown", None)`` when the
    time ran out. ``read_model(model)``, if given, turns the model into what is returned.

    The whole of it (making the clauses, CaDiCaL, reading the model) runs in a process
    of its own (:func:`contained`): an allocation CaDiCaL or Z3's tactics cannot make
    under ``--memory`` ends that process, never this one, and is reported as
    :class:`MemoryLimitExceeded`. CaDiCaL searches :data:`CADICAL_CONFLICTS_AT_ONCE`
    conflicts at a time, keeping what it learnt, and looks at the clock between two
    such steps; this process holds the deadline and Ctrl-C meanwhile, and ends the
    search's process when either comes. Raises :class:`Interrupted` on Ctrl-C and
    :class:`InputError` without python-sat."""
    try:
        from pysat.solvers import Solver
    except ImportError:
        raise InputError(CADICAL_MISSING) from None

    def search() -> tuple[str, Any, dict[str, int]]:
        given = clauses() if callable(clauses) else clauses
        ensure_room(_CADICAL_BYTES_PER_LITERAL * sum(len(c) for c in given))
        result: bool | None = None
        with Solver(name="cadical195", bootstrap_with=given) as solver:
            result = solve_in_steps(solver, budget)
            counts = solver.accum_stats()
            model = solver.get_model() if result else None
        if model is not None and read_model is not None:
            model = read_model(model)
        answer = "sat" if result is True else "unsat" if result is False else "unknown"
        return answer, model, counts

    began = time.monotonic()
    answer, model, counts = contained(search, "the CaDiCaL search")
    if stats is not None:
        stats.add_counts(counts, time.monotonic() - began, label, answer)
    return answer, model


def solve_in_steps(solver: Any, budget: Budget) -> bool | None:
    """A python-sat solver's answer (``True`` sat, ``False`` unsat), searching
    :data:`CADICAL_CONFLICTS_AT_ONCE` conflicts at a time and looking at the clock
    between two steps; ``None`` when ``budget`` ran out first."""
    result: bool | None = None
    while result is None:
        left = budget.remaining()
        if left is not None and left <= 0.0:
            return None
        solver.conf_budget(CADICAL_CONFLICTS_AT_ONCE)
        result = solver.solve_limited()
    return result


#: Conflicts CaDiCaL searches between two looks at the clock: well within the grace the
#: watchdog gives a run past its limit on the hardest Flood-It boards, and enough not to
#: slow the search (see the decisions in the docs). A fixed count, not a time, so that
#: the same run searches the same way on any machine.
CADICAL_CONFLICTS_AT_ONCE = 500


#: Room to ask for before CaDiCaL reads a formula: its clauses, watches and what it
#: learns, per literal given.
_CADICAL_BYTES_PER_LITERAL = 64
