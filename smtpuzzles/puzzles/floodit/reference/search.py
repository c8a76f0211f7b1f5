"""``--encoding reference``: the modes as color-flood-rs runs them, for honest comparison.

Each mode asks what the old tool asks (see :mod:`.reference`) and reports what it would
answer, replayed by the checker leniently (its answers may contain moves that do
nothing). Its ``min`` and ``search`` are binary searches over exact-length formulas,
which are not monotone: an answer is reported as ``solved``, never ``optimal``, and
"no solution" is reported as ``unsat`` exactly as the old tool would say it, even on a
solvable board. Only ``opt`` (Optimize over a horizon that pads with free moves)
proves its answer, when the horizon is long enough.
"""

from __future__ import annotations

import time

from .... import runner
from .... import z3lazy as z3
from ....engines import check_sat
from ....limits import Budget
from ....smtlib import smtlib_script
from ..check import check_solution, replay_lenient
from ..model import Board, cluster_graph
from ..search import FloodOutcome
from .rules import (
    loose_bound,
    reference_exact,
    reference_formula,
    reference_moves,
    reference_optimize,
    reference_search,
)


def run_reference(
    board: Board,
    mode: str,
    args: tuple[int, ...] = (),
    *,
    start: tuple[int, int] = (0, 0),
    print_asserts: bool = False,
    budget: Budget | None = None,
) -> FloodOutcome:
    """Run ``mode`` the way color-flood-rs does; never raises on a limit (see run_mode),
    and like it runs everything (building its formulas too) under the deadline."""
    began = time.monotonic()
    budget = budget if budget is not None else Budget()
    out = FloodOutcome(mode=mode)
    out.strategy = "reference"
    with runner.stopping(budget) as stop:  # a half-built formula is freed after the answer
        _run_reference(board, mode, args, start, budget, print_asserts, out=out)
    out.stopped = stop.why
    if out.stopped is not None:
        out.status = "unknown"
        out.smtlib = None
    out.elapsed_s = time.monotonic() - began
    return out


def _run_reference(
    board: Board,
    mode: str,
    args: tuple[int, ...],
    start: tuple[int, int],
    budget: Budget,
    print_asserts: bool,
    *,
    out: FloodOutcome,
) -> None:
    g = cluster_graph(board.grid, start)
    out.clusters = len(g)
    horizon: int | None = None
    if mode in ("min", "search"):
        lo, hi = (0, loose_bound(g)) if mode == "min" else args
        out.derived = (lo, hi)
        length, moves, probes = reference_search(g, lo, hi, budget, out.stats)
        out.notes.append("probes: " + ", ".join(f"T={p['horizon']} {p['answer']}" for p in probes))
        if moves is not None:
            horizon = length
            _accept(board, moves, start, out, "solved")
            out.notes.append("not proven optimal: exact-length answers are not monotone")
        if budget.expired():  # its search was not over: keep the best, say so
            out.stopped = "timeout"
        elif moves is None:
            out.status = "unsat"
            out.notes.append(f"the old tool answers: no solution in {lo}..{hi}")
    elif mode in ("exact", "solve"):
        horizon = args[0] if mode == "exact" else loose_bound(g)
        answer, moves = reference_exact(g, horizon, budget, out.stats)
        if answer == z3.sat and moves is not None:
            _accept(board, moves, start, out, "solved")
        elif answer == z3.unsat:
            out.status = "unsat"
            out.notes.append(f"the old tool answers: no solution of exactly {horizon} moves")
        else:
            out.stopped = "timeout"
    elif mode == "opt":
        horizon = loose_bound(g)
        opt, formula = reference_optimize(g, horizon)
        answer = check_sat(opt, budget, (), out.stats, f"optimize T<={horizon}")
        if answer == z3.sat:
            moves = reference_moves(opt.model(), formula)
            _accept(board, moves, start, out, "solved")
            check_solution(board.grid, moves, start)  # no no-op moves: Optimize proved it
            out.status, out.lower_bound = "optimal", len(moves)
        elif answer == z3.unsat:
            out.status = "unsat"
            out.notes.append(f"the old tool answers: no solution within {horizon} moves")
        else:
            out.stopped = "timeout"
    else:
        raise ValueError(f"unknown mode {mode!r}")
    if print_asserts and horizon is not None and out.stopped is None:
        title = f"{board.name}: Flood-It, color-flood-rs formula, exactly {horizon} moves"
        out.smtlib = smtlib_script(reference_formula(g, horizon).assertions, "QF_LIA", [title])


def _accept(
    board: Board, moves: list[int], start: tuple[int, int], out: FloodOutcome, status: str
) -> None:
    useful = replay_lenient(board.grid, moves, start)
    if useful < len(moves):
        out.notes.append(f"{len(moves) - useful} of its {len(moves)} moves flood nothing")
    out.moves, out.upper_bound, out.status = moves, len(moves), status
