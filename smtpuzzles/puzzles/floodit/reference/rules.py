"""The baseline: color-flood-rs's formulas and its ``min`` search, reproduced as they are.

This module exists to be measured against (``--encoding reference``), not to be
improved: its flaws are the point of the comparison. What it reproduces, from the
README of color-flood-rs and its recorded behaviour:

- Integer colour ``colour_t`` per move, Boolean ``flooded_c{i}_t{t}`` for *every*
  cluster and every ``t`` in ``0..T`` (no variables fixed by distance), and the
  assertions in the README's order: colour ranges; consecutive colours differ (the
  first move may repeat the start colour, a no-op); every cluster flooded at ``T``;
  the start cluster flooded at all times; no other cluster flooded at 0; flooded stays
  flooded; an unflooded cluster whose colour is chosen beside the flood is flooded; an
  unflooded cluster is not flooded otherwise.
- Exact-length semantics: "at least one cluster not flooded at ``T-1``". A formula
  for ``T`` moves is unsat for lengths the board cannot use exactly, so sat answers are
  not monotone in ``T`` (with two colours only the optimum and one more are sat).
- ``min``: binary search between 0 and a loose bound, ``min(clusters, k*(h-1),
  2h + k + ceil(sqrt(2k))*h)`` with ``h`` the board's height (its width is ignored, so
  the bound can lie below the optimum), with a new ``z3.Solver()`` per probe (default
  engine, nothing learned carries over). "unknown" counts as "unsat", as there.

Where the Rust tool would crash (a probe at 0 moves underflows ``T-1``, as on one-row
boards), this one drops that clause, answers, and carries on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from smtpuzzles import z3lazy as z3
from smtpuzzles.engines import Stats, check_sat
from smtpuzzles.limits import Budget, TimeUp, hold
from smtpuzzles.puzzles.floodit.model import ClusterGraph


@dataclass(frozen=True)
class ReferenceFormula:
    """The assertions for exactly ``horizon`` moves and the variables to read back."""

    horizon: int
    assertions: list[z3.BoolRef]
    colours: list[z3.ArithRef]  #: ``colour_t`` for t < horizon
    flooded: list[list[z3.BoolRef]]  #: ``flooded[i][t]`` for t <= horizon


def loose_bound(g: ClusterGraph) -> int:
    """color-flood-rs's upper end of the ``min`` search (it ignores the board's width)."""
    height = max(r for cells in g.cells for r, _ in cells) + 1
    k = g.n_colours
    return min(
        len(g),
        k * (height - 1),
        2 * height + k + math.ceil(math.sqrt(2 * k)) * height,
    )


def reference_formula(g: ClusterGraph, horizon: int) -> ReferenceFormula:
    """color-flood-rs's formula for a solution of exactly ``horizon`` moves.

    Built in plain loops into local lists: when the deadline stops the building, the
    caught traceback keeps this frame, and so the terms made so far, alive (see
    ``limits.hold``); a comprehension's half-built list would be freed term by term
    while the exception unwinds, which takes long on large boards."""
    colours: list[z3.ArithRef] = []
    for t in range(horizon):
        colours.append(z3.Int(f"colour_t{t}"))
    flooded: list[list[z3.BoolRef]] = []
    for i in range(len(g)):
        flooded.append([])
        for t in range(horizon + 1):
            flooded[i].append(z3.Bool(f"flooded_c{i}_t{t}"))
    asserts: list[z3.BoolRef] = []
    for colour in colours:  # every colour in its range
        asserts += [colour >= 0, colour < g.n_colours]
    for t in range(1, horizon):  # consecutive colours differ
        asserts.append(colours[t - 1] != colours[t])
    for i, neighbours in enumerate(g.neighbours):
        asserts.append(flooded[i][horizon])  # flooded at last
        if i == g.start:  # the start cluster is flooded at all times
            asserts += flooded[i]
            continue
        asserts.append(z3.Not(flooded[i][0]))  # nothing else at the start
        for t in range(horizon):
            now, then = flooded[i][t], flooded[i][t + 1]
            chosen = colours[t] == g.colours[i]
            beside_flood = z3.Or([flooded[j][t] for j in neighbours])
            asserts.append(z3.Implies(now, then))
            asserts.append(z3.Implies(z3.And(beside_flood, chosen), then))
            asserts.append(
                z3.Implies(
                    z3.And(z3.Not(now), z3.Or(z3.Not(beside_flood), z3.Not(chosen))),
                    z3.Not(then),
                )
            )
    if horizon >= 1:  # exact length: not yet done one move earlier
        asserts.append(z3.Not(z3.And([column[horizon - 1] for column in flooded])))
    return ReferenceFormula(horizon, asserts, colours, flooded)


def reference_exact(
    g: ClusterGraph, horizon: int, budget: Budget, stats: Stats | None = None
) -> tuple[z3.CheckSatResult, list[int] | None]:
    """One probe as color-flood-rs makes it: a fresh default solver, exact length.

    The moves of a sat answer are the model's colours up to the first time all is
    flooded (which exact length makes ``horizon``); they may contain no-op moves.
    """
    formula = reference_formula(g, horizon)
    solver = z3.Solver()
    solver.add(formula.assertions)
    answer = check_sat(solver, budget, stats=stats, label=f"T={horizon}")
    if answer != z3.sat:
        return answer, None
    return answer, reference_moves(solver.model(), formula)


def reference_min(
    g: ClusterGraph, budget: Budget, stats: Stats | None = None
) -> tuple[int | None, list[int] | None, list[dict[str, Any]]]:
    """color-flood-rs's ``min``: binary search over exact-length formulas from 0 to
    :func:`loose_bound`.

    Returns the least length it found sat (``None`` if none), its moves, and the probes
    in order (``horizon``, ``answer``, ``seconds``). Not a proof of optimality: the
    search is not monotone, so it can miss the optimum or answer "none" on a solvable
    board. Stops early, keeping what it found, when ``budget`` runs out.
    """
    return reference_search(g, 0, loose_bound(g), budget, stats)


def reference_search(
    g: ClusterGraph, lo: int, hi: int, budget: Budget, stats: Stats | None = None
) -> tuple[int | None, list[int] | None, list[dict[str, Any]]]:
    """color-flood-rs's ``search LO HI``: its ``min`` between given bounds."""
    best: tuple[int, list[int]] | None = None
    probes: list[dict[str, Any]] = []
    while lo <= hi:
        horizon = (lo + hi) // 2
        began = budget.elapsed()
        try:
            answer, moves = reference_exact(g, horizon, budget, stats)
        except TimeUp as exc:  # the deadline ended building this probe: keep the best so far
            hold(exc.__traceback__)
            break
        probes.append(
            {
                "horizon": horizon,
                "answer": str(answer),
                "seconds": round(budget.elapsed() - began, 4),
            }
        )
        if answer == z3.sat and moves is not None:
            hi = horizon - 1
            best = (horizon, moves)
        else:  # unsat, and unknown alike
            lo = horizon + 1
        if budget.expired():
            break
    if best is None:
        return None, None, probes
    return best[0], best[1], probes


def reference_optimize(g: ClusterGraph, horizon: int) -> tuple[z3.Optimize, ReferenceFormula]:
    """color-flood-rs's ``opt``: its formula for ``horizon`` moves without the
    exact-length clause, maximising the number of times at which all is flooded."""
    formula = reference_formula(g, horizon)
    opt = z3.Optimize()
    opt.add(formula.assertions[:-1] if horizon >= 1 else formula.assertions)
    done_at = [z3.And([column[t] for column in formula.flooded]) for t in range(horizon + 1)]
    opt.maximize(z3.Sum([z3.If(d, 1, 0) for d in done_at]))
    return opt, formula


def reference_moves(model: z3.ModelRef, formula: ReferenceFormula) -> list[int]:
    """The model's colours up to the first time every cluster is flooded."""
    done = [
        all(z3.is_true(model.eval(column[t], model_completion=True)) for column in formula.flooded)
        for t in range(formula.horizon + 1)
    ]
    length = done.index(True) if True in done else formula.horizon
    moves = [model.eval(c, model_completion=True).as_long() for c in formula.colours]
    return moves[:length]
