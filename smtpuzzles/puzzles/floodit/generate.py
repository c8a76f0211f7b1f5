"""Random Flood-It boards: reproducible from a seed, every colour used."""

from __future__ import annotations

import random

from ...errors import InputError
from ...limits import Budget, Interrupted, MemoryLimitExceeded, TimeUp
from ...sources import check_size
from .model import DIGITS, Board


def random_board(rows: int, cols: int, colours: int, seed: int = 0) -> Board:
    """A ``rows`` x ``cols`` board with cells drawn uniformly from ``colours`` colours.

    Colours that the draw misses are put on random cells, so the board is gapless.
    """
    check_size(rows, cols)
    if not 1 <= colours <= min(len(DIGITS), rows * cols):
        raise InputError(
            f"colours must be between 1 and {min(len(DIGITS), rows * cols)} for a "
            f"{rows}x{cols} board, not {colours}"
        )
    rng = random.Random(seed)
    cells = [rng.randrange(colours) for _ in range(rows * cols)]
    missing = sorted(set(range(colours)) - set(cells))
    if missing:
        counts = {c: cells.count(c) for c in set(cells)}
        spots = [i for i in range(len(cells))]
        rng.shuffle(spots)
        for i in spots:
            if not missing:
                break
            if counts[cells[i]] > 1:
                counts[cells[i]] -= 1
                cells[i] = missing.pop()
                counts[cells[i]] = 1
    grid = tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows))
    return Board(grid, colours, f"random {rows}x{cols} c{colours} seed {seed}")


def board_with_optimum(
    rows: int,
    cols: int,
    colours: int,
    optimum: int,
    seed: int = 0,
    *,
    budget: Budget | None = None,
    tries: int = 500,
) -> tuple[Board, int] | None:
    """A random board whose least number of moves, proven, is ``optimum``, and the seed
    that drew it (boards of seeds ``seed``, ``seed + 1``, ... are solved in turn);
    ``None`` after ``tries`` boards. Raises :class:`TimeUp` or :class:`Interrupted` when
    the budget runs out or Ctrl-C stops a solve."""
    from ... import api
    from .puzzle import FloodIt

    if optimum < colours - 1:
        raise InputError(
            f"--optimum {optimum}: a board of {colours} colours needs at least {colours - 1} moves"
        )
    budget = budget or Budget()
    for s in range(seed, seed + tries):
        board = random_board(rows, cols, colours, s)
        result = api.solve(FloodIt(board), "min", budget=budget)
        if result.stopped == "interrupted":
            raise Interrupted
        if result.stopped == "memory":
            raise MemoryLimitExceeded(f"while the board of seed {s} was solved")
        if result.stopped is not None or result.status != "optimal":
            raise TimeUp
        if result.upper_bound == optimum:
            return board, s
    return None
