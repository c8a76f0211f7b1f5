"""Koburin answers as pictures: text with ``#`` black, numbers, and the loop in
box-drawing characters, or SVG (both through :mod:`smtpuzzles.render`).

On a grid each cell is one character and a ``─`` joins two cells the loop links side by
side, so the loop reads as one line. A puzzle on a table has no picture: its black and
loop cells are listed by name.
"""

from __future__ import annotations

from typing import Any

from ...render import WALL, graph_svg, loop_box_chars
from .model import KoburinInstance, Solution


def is_grid(puzzle: KoburinInstance) -> bool:
    g = puzzle.graph
    return g.coords is not None and g.rows is not None and g.cols is not None and g.kind != "hex"


def _clue_text(puzzle: KoburinInstance, i: int) -> str:
    number = puzzle.clues[i]
    return "?" if number is None else str(number)


def draw(puzzle: KoburinInstance, solution: Solution | None = None) -> str:
    """The grid (or, for a table, the lists of cells) with the answer if there is one."""
    if not is_grid(puzzle):
        return _listing(puzzle, solution)
    g = puzzle.graph
    assert g.rows is not None and g.cols is not None
    shapes = loop_box_chars(g, solution.loop()) if solution is not None else {}
    joined = set(solution.edges) if solution is not None else set()
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
                ch = shapes.get(i, "?")
            out.append(ch)
            if c + 1 < g.cols:
                j = g.at(r, c + 1)
                linked = i is not None and j is not None and (min(i, j), max(i, j)) in joined
                out.append("─" if linked else " ")
        lines.append("".join(out).rstrip())
    return "\n".join(lines)


def _listing(puzzle: KoburinInstance, solution: Solution | None) -> str:
    names = puzzle.graph.names
    numbers = " ".join(f"{names[i]}={_clue_text(puzzle, i)}" for i in sorted(puzzle.clues))
    lines = [f"numbers: {numbers or '(none)'}"]
    if solution is not None:
        lines.append("black: " + (" ".join(names[i] for i in sorted(solution.black)) or "(none)"))
        lines.append("loop: " + " ".join(names[i] for i in solution.loop()))
    return "\n".join(lines)


def svg(
    puzzle: KoburinInstance,
    solution: Solution | None,
    title: str | None = None,
    fixed: dict[int, bool] | None = None,
) -> str:
    """A picture: black cells filled, numbers written, the loop drawn through the centres;
    with ``fixed``, empty cells that differ between solutions are marked ``?``."""
    fill = {i: WALL for i in solution.black} if solution is not None else {}
    label = {i: _clue_text(puzzle, i) for i in puzzle.clues}
    loops = [solution.loop()] if solution is not None else []
    marks = {i: "?" for i in puzzle.empty if i not in fixed} if fixed is not None else {}
    return graph_svg(puzzle.graph, fill=fill, label=label, loops=loops, title=title, marks=marks)


def cell_json(puzzle: KoburinInstance, i: int) -> Any:
    """``[row, col]`` on a grid, the cell's name on a table."""
    coords = puzzle.graph.coords
    if coords is not None and is_grid(puzzle):
        return list(coords[i])
    return puzzle.graph.names[i]


def solution_json(puzzle: KoburinInstance, solution: Solution | None) -> dict[str, Any]:
    """The ``black`` and ``loop`` keys of the JSON answer (loop in order)."""
    if solution is None:
        return {"black": [], "loop": []}
    return {
        "black": [cell_json(puzzle, i) for i in sorted(solution.black)],
        "loop": [cell_json(puzzle, i) for i in solution.loop()],
    }
