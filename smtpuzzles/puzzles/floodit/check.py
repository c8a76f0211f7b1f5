"""The independent checker: plays moves on the cells of the board, straight from the rules.

It shares no code with the encoder (no clusters, no Z3): a move recolours the flooded
region, which then absorbs every orthogonally adjacent cell of the new colour.

The region is never recoloured cell by cell nor copied: unflooded cells keep their
colour, so the board is the original grid plus a flooded mark per cell and the region's
current colour. The cells just outside the region wait in one list per colour; a move
of colour c floods from that list through cells of colour c. Each cell is flooded once
and listed at most four times, so a whole game costs the cells plus the moves times the
colours: it runs on every playout and every answer, under the same time limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import CheckFailure


class _Game:
    """One game in progress: which cells are flooded and the region's colour."""

    def __init__(self, grid: Sequence[Sequence[int]], start: tuple[int, int]) -> None:
        self.rows, self.cols = len(grid), len(grid[0]) if grid else 0
        self.cells = [c for row in grid for c in row]
        self.colours = set(self.cells)
        self.flooded = bytearray(len(self.cells))
        self.waiting: dict[int, list[int]] = {c: [] for c in self.colours}
        r, c = start
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(f"start {start} is outside the {self.rows}x{self.cols} board")
        first = r * self.cols + c
        self.colour = self.cells[first]
        self.count = 0
        self._absorb([first])

    def _absorb(self, seeds: list[int]) -> int:
        """Flood ``seeds`` (unflooded cells of the region's colour, or already flooded)
        and every unflooded cell of that colour connected to them; how many were new."""
        cells, flooded, cols, colour = self.cells, self.flooded, self.cols, self.colour
        size = len(cells)
        stack = []
        for i in seeds:  # a cell waits once per flooded neighbour: take it once
            if not flooded[i] and cells[i] == colour:
                flooded[i] = 1
                stack.append(i)
        new = 0
        while stack:
            i = stack.pop()
            new += 1
            col = i % cols
            for j in (
                i - cols if i >= cols else -1,
                i + cols if i + cols < size else -1,
                i - 1 if col else -1,
                i + 1 if col + 1 < cols else -1,
            ):
                if j < 0 or flooded[j]:
                    continue
                if cells[j] == colour:
                    flooded[j] = 1
                    stack.append(j)
                else:
                    self.waiting[cells[j]].append(j)
        self.count += new
        return new

    def move(self, colour: int) -> int:
        """Play ``colour``; how many cells it flooded (the caller judges legality)."""
        self.colour = colour
        seeds = self.waiting.get(colour, [])
        self.waiting[colour] = []
        return self._absorb(seeds)

    def done(self) -> bool:
        return self.count == len(self.cells)

    def board(self) -> list[list[int]]:
        """The board now: the region in its colour, other cells in their own."""
        shown = [self.colour if f else c for c, f in zip(self.cells, self.flooded, strict=True)]
        return [shown[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]


def problems(
    board_grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> list[str]:
    """What is wrong with ``moves`` as a solution of the board (empty: a solution).

    A move must be a colour of the board other than the region's current colour, and
    must flood at least one new cell (answers never contain moves that do nothing); after
    the last move the board must be one colour. The first illegal move ends the replay.
    """
    try:
        game = _Game(board_grid, start)
    except ValueError as exc:
        return [str(exc)]
    for number, colour in enumerate(moves, 1):
        if isinstance(colour, bool) or not isinstance(colour, int):
            return [f"move {number}: {colour!r} is not a colour number"]
        if colour not in game.colours:
            return [f"move {number}: colour {colour} is not on the board"]
        if colour == game.colour:
            return [f"move {number}: colour {colour} is already the region's colour"]
        if not game.move(colour):
            return [f"move {number}: colour {colour} floods no new cell"]
    if not game.done():
        return [f"after {len(moves)} moves the board still has several colours"]
    return []


def check_solution(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> None:
    """Raise :class:`CheckFailure` unless ``moves`` flood the whole board legally (the
    searches call it on every playout and answer: a failure is a bug, never an answer)."""
    found = problems(grid, moves, start)
    if found:
        raise CheckFailure("; ".join(found))


def flood_region(grid: Sequence[Sequence[int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells connected to ``start`` through cells of the start cell's colour."""
    game = _Game(grid, start)
    cols = game.cols
    return {divmod(i, cols) for i, f in enumerate(game.flooded) if f}


def play(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> list[list[list[int]]]:
    """The boards after each move (first the initial board), for pictures (``--show``,
    animations): one board per move is what they show. Raises :class:`CheckFailure` on
    an illegal move, as :func:`problems` judges it."""
    game = _Game(grid, start)
    boards = [game.board()]
    for number, colour in enumerate(moves, 1):
        if colour not in game.colours:
            raise CheckFailure(f"move {number}: colour {colour} is not on the board")
        if colour == game.colour:
            raise CheckFailure(f"move {number}: colour {colour} is already the region's colour")
        if not game.move(colour):
            raise CheckFailure(f"move {number}: colour {colour} floods no new cell")
        boards.append(game.board())
    return boards


def replay_lenient(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> int:
    """Replay ``moves`` allowing moves that do nothing, as the baseline's answers may
    contain; return how many of them flood something. Raise :class:`CheckFailure`
    on a colour not on the board or when the board is not one colour at the end."""
    game = _Game(grid, start)
    useful = 0
    for number, colour in enumerate(moves, 1):
        if colour not in game.colours:
            raise CheckFailure(f"move {number}: colour {colour} is not on the board")
        useful += game.move(colour) > 0
    if not game.done():
        raise CheckFailure(f"after {len(moves)} moves the board still has several colours")
    return useful
