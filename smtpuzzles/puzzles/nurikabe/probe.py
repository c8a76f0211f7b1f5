"""Hypotheses: each open cell tried both ways, the way a human solver tests a guess.

A cell is assumed black, then white in each island that can reach it, and
:func:`~.puzzle.deduce` runs from there in its strict mode: a guess whose deductions
break a rule is ruled out, and a cell left with one way is known. Every fact found this
way holds in every solution, so counting and uniqueness are unaffected. It costs a
deduction run per guess (a few milliseconds, as only the islands near the guess are
worked out again), far more than the plain deductions, so the search tries it only on
puzzles the solver does not finish at once (see :data:`~.solve.PHASES`). It is what
solves puzzles of many islands whose solver search stalls: janko 0459 (20x36) and
0667 (14x24) are known to the last cell before the solver runs.
"""

from __future__ import annotations

import time

from .puzzle import Contradiction, Deductions, Nurikabe, deduce

#: How far from a newly decided cell a guess is tried again in the next pass.
AGAIN_WITHIN = 3


def probe(puzzle: Nurikabe, known: Deductions, seconds: float | None = None) -> Deductions:
    """``known`` and the facts one level of hypotheses adds to it: a pass over every
    open cell, then passes over the cells near what the last pass decided, until one
    decides nothing or ``seconds`` have passed.

    Raises :class:`~.puzzle.Contradiction` when a cell can be neither black nor white:
    the puzzle has no solution.
    """
    until = None if seconds is None else time.monotonic() + seconds
    todo = _open_cells(puzzle, known, range(len(puzzle)))
    while todo:
        before = known
        for i in todo:
            if until is not None and time.monotonic() > until:
                return known
            if i in known.black or i in known.owner:
                continue
            fact = _forced(puzzle, known, i)
            if fact is not None:
                black, owner = fact
                known = deduce(puzzle, known, black, owner, strict=True)
        todo = _open_cells(puzzle, known, _near_news(puzzle, before, known))
    return known


def _near_news(puzzle: Nurikabe, before: Deductions, after: Deductions) -> set[int]:
    """The cells within :data:`AGAIN_WITHIN` steps of a cell decided since ``before``.
    A guess elsewhere met the same facts around it last time, so it is not tried again:
    it might go another way now, through the wall or an island's reach, but seldom, and
    the solver finds what this misses."""
    near = (after.black - before.black) | (after.owner.keys() - before.owner.keys())
    for _ in range(AGAIN_WITHIN):
        near |= {j for i in near for j in puzzle.neighbours[i]}
    return near


def _open_cells(puzzle: Nurikabe, known: Deductions, cells) -> list[int]:
    """Which of ``cells`` have an unknown colour, those beside a known cell first:
    guesses there meet the known cells' rules at once."""
    decided = known.black | known.owner.keys()
    open_cells = [i for i in sorted(cells) if i not in decided]
    return sorted(open_cells, key=lambda i: decided.isdisjoint(puzzle.neighbours[i]))


def _forced(puzzle: Nurikabe, known: Deductions, i: int) -> tuple[set[int], dict[int, int]] | None:
    """The fact about cell ``i`` that its hypotheses prove, as (black, owner), if any."""
    islands = [k for k, cells in known.reach.items() if i in cells]
    if not _refuted(puzzle, known, {i}, {}):
        if any(not _refuted(puzzle, known, set(), {i: k}) for k in islands):
            return None
        return {i}, {}
    possible = [k for k in islands if not _refuted(puzzle, known, set(), {i: k})]
    if not possible:
        raise Contradiction(f"cell {puzzle.cell(i)} can be neither black nor white")
    return (set(), {i: possible[0]}) if len(possible) == 1 else None


def _refuted(puzzle: Nurikabe, known: Deductions, black: set[int], owner: dict[int, int]) -> bool:
    try:
        deduce(puzzle, known, black, owner, strict=True)
    except Contradiction:
        return True
    return False
