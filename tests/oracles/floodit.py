"""Flood-It oracles for tests, written from the rules at cell level.

They share no code with ``smtpuzzles.puzzles.floodit`` (no clusters, no bounds), so
an error there cannot hide itself here. Boards are lists of rows of colours 0..k-1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Grid = list[list[int]]


def random_grid(rng: random.Random, rows: int, cols: int, colours: int) -> Grid:
    return [[rng.randrange(colours) for _ in range(cols)] for _ in range(rows)]


def flood_region(grid: Sequence[Sequence[int]], start: tuple[int, int] = (0, 0)) -> set:
    """Cells connected to ``start`` through cells of the start cell's colour."""
    rows, cols = len(grid), len(grid[0])
    colour = grid[start[0]][start[1]]
    region = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in region:
                if grid[nr][nc] == colour:
                    region.add((nr, nc))
                    stack.append((nr, nc))
    return region


def replay(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> tuple[Grid, list[int]]:
    """Play ``moves``; returns the final board and the region size after each move.

    Raises ``AssertionError`` on a move that is out of range, repeats the current
    colour, or floods nothing new (a no-op).
    """
    board = [list(row) for row in grid]
    k = max(max(row) for row in board) + 1
    sizes = []
    region = flood_region(board, start)
    for move in moves:
        assert 0 <= move < k, f"colour {move} out of range"
        assert move != board[start[0]][start[1]], f"move {move} repeats the current colour"
        for r, c in region:
            board[r][c] = move
        grown = flood_region(board, start)
        assert len(grown) > len(region), f"move {move} floods nothing"
        region = grown
        sizes.append(len(region))
    return board, sizes


def is_flooded(grid: Sequence[Sequence[int]]) -> bool:
    return len({v for row in grid for v in row}) == 1


class CellBitBoard:
    """A board as bitsets of cells (bit r*cols + c), for a fast exhaustive search."""

    def __init__(self, grid: Sequence[Sequence[int]], start: tuple[int, int] = (0, 0)) -> None:
        self.rows, self.cols = len(grid), len(grid[0])
        self.full = (1 << (self.rows * self.cols)) - 1
        k = max(max(row) for row in grid) + 1
        self.colour_cells = [0] * k
        for r, row in enumerate(grid):
            for c, v in enumerate(row):
                self.colour_cells[v] |= 1 << (r * self.cols + c)
        first_col = sum(1 << (r * self.cols) for r in range(self.rows))
        last_col = first_col << (self.cols - 1)
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~last_col
        bit = 1 << (start[0] * self.cols + start[1])
        self.start = self.grow(bit, self.colour_cells[grid[start[0]][start[1]]] | bit)

    def grow(self, region: int, allowed: int) -> int:
        """Everything in ``allowed`` connected to ``region`` (orthogonal steps)."""
        while True:
            nxt = region
            nxt |= (region << 1) & self.not_first_col
            nxt |= (region >> 1) & self.not_last_col
            nxt |= (region << self.cols) | (region >> self.cols)
            nxt &= allowed
            if nxt == region:
                return region
            region = nxt

    def successors(self, flooded: int) -> list[int]:
        out = []
        for cells in self.colour_cells:
            grown = self.grow(flooded, flooded | cells)
            if grown != flooded:
                out.append(grown)
        return out


def optimum_by_bfs(
    grid: Sequence[Sequence[int]],
    start: tuple[int, int] = (0, 0),
    flooded_cells: set | None = None,
) -> int:
    """Least number of moves to flood the board, by breadth-first search over regions.

    ``flooded_cells`` starts the search from another region (one reached by play).
    """
    board = CellBitBoard(grid, start)
    origin = board.start
    if flooded_cells is not None:
        origin = sum(1 << (r * board.cols + c) for r, c in flooded_cells)
    frontier = [origin]
    seen = {origin}
    depth = 0
    while True:
        if board.full in seen:
            return depth
        depth += 1
        nxt = []
        for region in frontier:
            for grown in board.successors(region):
                if grown not in seen:
                    seen.add(grown)
                    nxt.append(grown)
        frontier = nxt


def exact_lengths(grid: Sequence[Sequence[int]], up_to: int) -> set[int]:
    """Lengths T <= ``up_to`` of colour sequences that flood the board at move T and
    not before, where only consecutive colours must differ (no-op moves allowed).

    The semantics of color-flood-rs's exact-length formulas, by layered search over
    (region, last colour).
    """
    board = CellBitBoard(grid)
    lengths = {0} if board.start == board.full else set()
    layer = {(board.start, -1)} if board.start != board.full else set()
    for t in range(1, up_to + 1):
        nxt = set()
        for region, last in layer:
            for colour, cells in enumerate(board.colour_cells):
                if colour == last:
                    continue
                grown = board.grow(region, region | cells)
                if grown == board.full:
                    lengths.add(t)
                else:
                    nxt.add((grown, colour))
        layer = nxt
    return lengths


def replay_allowing_noops(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> Grid:
    """Play ``moves`` as color-flood-rs allows them: a move may flood nothing."""
    board = [list(row) for row in grid]
    for move in moves:
        for r, c in flood_region(board, start):
            board[r][c] = move
    return board
