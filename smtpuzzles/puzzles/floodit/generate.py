"""Random Flood-It boards: reproducible from a seed, every colour used."""

from __future__ import annotations

import random

from ...errors import InputError
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
