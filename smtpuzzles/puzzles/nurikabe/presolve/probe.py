"""Hypotheses: each open cell tried both ways, the way a human solver tests a guess.

A cell is assumed black, then white in each island that can reach it, and
:func:`~.puzzle.deduce` runs from there in its strict mode: a guess whose deductions
break a rule is ruled out. A cell left with one way takes it, with everything that
guess deduced; a cell that can only be white, in one of several islands, keeps what
all of those guesses deduced. Every fact found this way holds in every solution, so
counting and uniqueness are unaffected. It costs a deduction run per guess (only
the islands near the guess are worked out again, but the wall is searched whole each
time), so it grows with the square of the cells. It is what solves puzzles of many
islands whose solver search stalls: they are known to the last cell before the solver
runs (see :func:`~.search.prepare`; figures in docs/decisions.md).
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..model import NurikabeInstance
from .deduce import Contradiction, Deductions, deduce

#: How far from a newly decided cell a guess is tried again in the next pass.
AGAIN_WITHIN = 3


def probe(
    puzzle: NurikabeInstance,
    known: Deductions,
    seconds: float | None = None,
    cells: Iterable[int] | None = None,
) -> Deductions:
    """``known`` and the facts one level of hypotheses adds to it: a pass over every
    open cell (or those of ``cells``), then passes over the cells near what the last
    pass decided, until one decides nothing or ``seconds`` have passed.

    Raises :class:`~.puzzle.Contradiction` when a cell can be neither black nor white:
    the puzzle has no solution.
    """
    until = None if seconds is None else time.monotonic() + seconds
    todo = _open_cells(puzzle, known, range(len(puzzle)) if cells is None else cells)
    while todo:
        before = known
        for i in todo:
            if until is not None and time.monotonic() >= until:
                return known
            if i in known.black or i in known.owner:
                continue
            proved = _forced(puzzle, known, i)
            if proved is not None:
                known = proved
        todo = _open_cells(puzzle, known, _near_news(puzzle, before, known))
    return known


def _near_news(puzzle: NurikabeInstance, before: Deductions, after: Deductions) -> set[int]:
    """The cells within :data:`AGAIN_WITHIN` steps of a cell decided since ``before``.
    A guess elsewhere met the same facts around it last time, so it is not tried again:
    it might go another way now, through the wall or an island's reach, but seldom, and
    the solver finds what this misses."""
    near = (after.black - before.black) | (after.owner.keys() - before.owner.keys())
    for _ in range(AGAIN_WITHIN):
        near |= {j for i in near for j in puzzle.neighbours[i]}
    return near


def _open_cells(puzzle: NurikabeInstance, known: Deductions, cells) -> list[int]:
    """Which of ``cells`` have an unknown colour, those beside a known cell first:
    guesses there meet the known cells' rules at once."""
    decided = known.black | known.owner.keys()
    open_cells = [i for i in sorted(cells) if i not in decided]
    return sorted(open_cells, key=lambda i: decided.isdisjoint(puzzle.neighbours[i]))


def _forced(puzzle: NurikabeInstance, known: Deductions, i: int) -> Deductions | None:
    """What the hypotheses on cell ``i`` prove beyond ``known``, if anything: the
    deductions of the one guess not refuted, or when it is white in one of several
    islands, the facts their deductions share. Black is tried first: a cell that can
    be black and white is left after its first white island that stands."""
    as_black = _outcome(puzzle, known, {i}, {})
    as_white = []
    for k, cells in known.reach.items():
        if i in cells:
            outcome = _outcome(puzzle, known, set(), {i: k})
            if outcome is not None:
                if as_black is not None:
                    return None
                as_white.append(outcome)
    if as_black is not None:
        return as_black
    if not as_white:
        raise Contradiction(f"cell {puzzle.cell(i)} can be neither black nor white")
    if len(as_white) == 1:
        return as_white[0]
    black = set.intersection(*(o.black for o in as_white)) - known.black
    first, *rest = as_white
    owner = {
        j: k
        for j, k in first.owner.items()
        if j not in known.owner and all(o.owner.get(j) == k for o in rest)
    }
    return deduce(puzzle, known, black, owner, strict=True) if black or owner else None


def _outcome(
    puzzle: NurikabeInstance, known: Deductions, black: set[int], owner: dict[int, int]
) -> Deductions | None:
    """The deductions from a guess, or None if they break a rule."""
    try:
        return deduce(puzzle, known, black, owner, strict=True)
    except Contradiction:
        return None
