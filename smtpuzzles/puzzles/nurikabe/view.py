"""Pictures of a Nurikabe answer: ``#`` wall, ``.`` island, clue numbers.

Grid puzzles (and tables whose cells are all named ``r<ROW>c<COL>``) are drawn as a
grid, holes as blanks, hex rows shifted by half a cell; other tables as ``cell: #``.
"""

from __future__ import annotations

import re

from .puzzle import Nurikabe, Picture

_RC = re.compile(r"r(\d+)c(\d+)")

WALL, ISLAND, HOLE = "#", ".", " "


def positions(puzzle: Nurikabe) -> list[tuple[int, int]] | None:
    """Each cell's (row, col), from the graph or from ``r<R>c<C>`` names."""
    if puzzle.graph.coords is not None:
        return list(puzzle.graph.coords)
    found = [_RC.fullmatch(name) for name in puzzle.graph.names]
    if all(found):
        return [(int(m.group(1)), int(m.group(2))) for m in found if m]
    return None


def json_solution(puzzle: Nurikabe, picture: Picture) -> list[str] | dict[str, str]:
    """One string per row (one character per cell) for grids, else ``{cell: "#"|"."}``."""
    mark = [WALL if b else ISLAND for b in picture]
    if puzzle.graph.coords is None:
        return {name: mark[i] for i, name in enumerate(puzzle.graph.names)}
    return _rows(mark, list(puzzle.graph.coords), spaced=False)


def _rows(marks: list[str], where: list[tuple[int, int]], spaced: bool) -> list[str]:
    """Marks placed on their rows and columns; ``spaced`` puts a blank between cells."""
    rows = max(r for r, _ in where) + 1
    cols = max(c for _, c in where) + 1
    width = max(len(m) for m in marks)
    grid = [[HOLE * width] * cols for _ in range(rows)]
    for mark, (r, c) in zip(marks, where):
        grid[r][c] = mark.rjust(width)
    sep = " " if spaced or width > 1 else ""
    return [sep.join(row).rstrip() for row in grid]


def text_picture(
    puzzle: Nurikabe, picture: Picture | None, fixed: dict[int, bool] | None = None
) -> str:
    """The answer as text; with ``fixed``, cells not fixed in every solution show ``?``."""
    marks = []
    for i in range(len(puzzle)):
        if i in puzzle.clues:
            size = puzzle.clues[i]
            marks.append("?" if size is None else str(size))
        elif fixed is not None and i not in fixed:
            marks.append("?")
        elif picture is None:
            marks.append("-")
        else:
            marks.append(WALL if picture[i] else ISLAND)
    where = positions(puzzle)
    if where is None:
        return "\n".join(f"{n}: {m}" for n, m in zip(puzzle.graph.names, marks)) + "\n"
    hexes = puzzle.graph.kind == "hex"
    rows = _rows(marks, where, spaced=hexes)
    if hexes:  # odd rows sit half a cell to the right
        half = " " * ((max(len(m) for m in marks) + 1) // 2)
        rows = [(half if r % 2 else "") + row for r, row in enumerate(rows)]
    return "\n".join(rows) + "\n"
