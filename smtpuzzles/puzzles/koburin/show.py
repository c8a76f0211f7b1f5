"""Koburin answers as text: ``#`` black, numbers, and the loop in box-drawing characters.

On a grid each cell is one character and a ``─`` joins two cells the loop links side by
side, so the loop reads as one line. A puzzle on a table has no picture: its black and
loop cells are listed by name.
"""

from __future__ import annotations

from typing import Any

from .puzzle import Koburin, Solution

#: The loop's shape in a cell, by the sides it leaves the cell by.
SHAPES = {
    frozenset("ns"): "│",
    frozenset("ew"): "─",
    frozenset("se"): "┌",
    frozenset("sw"): "┐",
    frozenset("ne"): "└",
    frozenset("nw"): "┘",
}


def is_grid(puzzle: Koburin) -> bool:
    g = puzzle.graph
    return g.coords is not None and g.rows is not None and g.cols is not None and g.kind != "hex"


def _side(puzzle: Koburin, a: int, b: int) -> str:
    """The side of ``a`` that faces its neighbour ``b`` (``?`` if they are not in line)."""
    g = puzzle.graph
    assert g.coords is not None and g.rows is not None and g.cols is not None
    (r1, c1), (r2, c2) = g.coords[a], g.coords[b]
    dr, dc = (r2 - r1) % g.rows, (c2 - c1) % g.cols
    if dc == 0 and dr == 1:
        return "s"
    if dc == 0 and dr == g.rows - 1:
        return "n"
    if dr == 0 and dc == 1:
        return "e"
    if dr == 0 and dc == g.cols - 1:
        return "w"
    return "?"


def _clue_text(puzzle: Koburin, i: int) -> str:
    number = puzzle.clues[i]
    return "?" if number is None else str(number)


def draw(puzzle: Koburin, solution: Solution | None = None) -> str:
    """The grid (or, for a table, the lists of cells) with the answer if there is one."""
    if not is_grid(puzzle):
        return _listing(puzzle, solution)
    g = puzzle.graph
    assert g.rows is not None and g.cols is not None
    sides: dict[int, set[str]] = {}
    joined: set[tuple[int, int]] = set()
    if solution is not None:
        for a, b in solution.edges:
            sides.setdefault(a, set()).add(_side(puzzle, a, b))
            sides.setdefault(b, set()).add(_side(puzzle, b, a))
            joined.add((min(a, b), max(a, b)))
    lines = []
    for r in range(g.rows):
        out = []
        for c in range(g.cols):
            i = g.at(r, c)
            if i is None:
                ch = " "
            elif i in puzzle.clues:
                ch = _clue_text(puzzle, i)
            elif solution is None:
                ch = "."
            elif i in solution.black:
                ch = "#"
            else:
                ch = SHAPES.get(frozenset(sides.get(i, ())), "?")
            out.append(ch)
            if c + 1 < g.cols:
                j = g.at(r, c + 1)
                linked = i is not None and j is not None and (min(i, j), max(i, j)) in joined
                out.append("─" if linked else " ")
        lines.append("".join(out).rstrip())
    return "\n".join(lines)


def _listing(puzzle: Koburin, solution: Solution | None) -> str:
    names = puzzle.graph.names
    numbers = " ".join(f"{names[i]}={_clue_text(puzzle, i)}" for i in sorted(puzzle.clues))
    lines = [f"numbers: {numbers or '(none)'}"]
    if solution is not None:
        lines.append("black: " + (" ".join(names[i] for i in sorted(solution.black)) or "(none)"))
        lines.append("loop: " + " ".join(names[i] for i in solution.loop()))
    return "\n".join(lines)


def cell_json(puzzle: Koburin, i: int) -> Any:
    """``[row, col]`` on a grid, the cell's name on a table."""
    coords = puzzle.graph.coords
    if coords is not None and is_grid(puzzle):
        return list(coords[i])
    return puzzle.graph.names[i]


def solution_json(puzzle: Koburin, solution: Solution | None) -> dict[str, Any]:
    """The ``black`` and ``loop`` keys of the JSON answer (loop in order)."""
    if solution is None:
        return {"black": [], "loop": []}
    return {
        "black": [cell_json(puzzle, i) for i in sorted(solution.black)],
        "loop": [cell_json(puzzle, i) for i in solution.loop()],
    }
