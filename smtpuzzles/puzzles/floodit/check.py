"""The independent checker: plays moves on the cells of the board, straight from the rules.

It shares no code with the encoder (no clusters, no Z3): a move recolours the flooded
region, which then absorbs every orthogonally adjacent cell of the new colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import CheckFailure


def flood_region(grid: list[list[int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells connected to ``start`` through cells of the start cell's colour."""
    rows, cols = len(grid), len(grid[0])
    colour = grid[start[0]][start[1]]
    region = {start}
    stack = [start]
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in region:
                if grid[nr][nc] == colour:
                    region.add((nr, nc))
                    stack.append((nr, nc))
    return region


def play(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> list[list[list[int]]]:
    """The boards after each move (first the initial board); raises on an illegal move.

    A move must be a colour of the board other than the region's current colour, and
    must flood at least one new cell (answers never contain moves that do nothing).
    """
    board = [list(row) for row in grid]
    colours = {c for row in board for c in row}
    boards = [[row[:] for row in board]]
    region = flood_region(board, start)
    for number, colour in enumerate(moves, 1):
        current = board[start[0]][start[1]]
        if colour not in colours:
            raise CheckFailure(f"move {number}: colour {colour} is not on the board")
        if colour == current:
            raise CheckFailure(f"move {number}: colour {colour} is already the region's colour")
        for r, c in region:
            board[r][c] = colour
        grown = flood_region(board, start)
        if len(grown) == len(region):
            raise CheckFailure(f"move {number}: colour {colour} floods no new cell")
        region = grown
        boards.append([row[:] for row in board])
    return boards


def check_solution(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> None:
    """Raise :class:`CheckFailure` unless ``moves`` flood the whole board legally."""
    final = play(grid, moves, start)[-1]
    if len({c for row in final for c in row}) != 1:
        raise CheckFailure(f"after {len(moves)} moves the board still has several colours")


def replay_lenient(
    grid: Sequence[Sequence[int]], moves: Sequence[int], start: tuple[int, int] = (0, 0)
) -> int:
    """Replay ``moves`` allowing moves that do nothing, as the baseline's answers may
    contain; return how many of them flood something. Raise :class:`CheckFailure`
    on a colour not on the board or when the board is not one colour at the end."""
    board = [list(row) for row in grid]
    colours = {c for row in board for c in row}
    region = flood_region(board, start)
    useful = 0
    for number, colour in enumerate(moves, 1):
        if colour not in colours:
            raise CheckFailure(f"move {number}: colour {colour} is not on the board")
        for r, c in region:
            board[r][c] = colour
        grown = flood_region(board, start)
        useful += len(grown) > len(region)
        region = grown
    if len({c for row in board for c in row}) != 1:
        raise CheckFailure(f"after {len(moves)} moves the board still has several colours")
    return useful
