"""Pictures of a Nurikabe answer: ``#`` wall, ``.`` island, clue numbers; and as SVG.

Grid puzzles (and tables whose cells are all named ``r<ROW>c<COL>``) are drawn as a
grid, holes as blanks, hex rows shifted by half a cell; other tables as ``cell: #``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ... import render
from ...graph import Graph, hex_grid, rectangle_with_holes, torus
from .model import NurikabeInstance, Picture

_RC = re.compile(r"r([0-9]+)c([0-9]+)")

WALL, ISLAND = "#", "."


def positions(puzzle: NurikabeInstance) -> list[tuple[int, int]] | None:
    """Each cell's (row, col), from the graph or from ``r<R>c<C>`` names."""
    if puzzle.graph.coords is not None:
        return list(puzzle.graph.coords)
    found = [_RC.fullmatch(name) for name in puzzle.graph.names]
    if all(found):
        return [(int(m.group(1)), int(m.group(2))) for m in found if m]
    return None


def json_solution(puzzle: NurikabeInstance, picture: Picture) -> list[str] | dict[str, str]:
    """One string per row (one character per cell) for grids, else ``{cell: "#"|"."}``."""
    mark = [WALL if b else ISLAND for b in picture]
    if puzzle.graph.coords is None:
        return {name: mark[i] for i, name in enumerate(puzzle.graph.names)}
    return render.grid_text(puzzle.graph, dict(enumerate(mark))).split("\n")


def text_picture(
    puzzle: NurikabeInstance, picture: Picture | None, fixed: dict[int, bool] | None = None
) -> str:
    """The answer as text; with ``fixed``, cells not fixed in every solution show ``?``."""
    marks = {}
    for i in range(len(puzzle)):
        if i in puzzle.clues:
            size = puzzle.clues[i]
            marks[i] = "?" if size is None else str(size)
        elif fixed is not None and i not in fixed:
            marks[i] = "?"
        elif picture is None:
            marks[i] = "-"
        else:
            marks[i] = WALL if picture[i] else ISLAND
    graph = puzzle.graph
    where = positions(puzzle)
    if where is not None and graph.coords is None:  # cells named r<R>c<C>: place them so
        rows, cols = max(r for r, _ in where) + 1, max(c for _, c in where) + 1
        graph = Graph(graph.names, graph.out, "square", tuple(where), rows, cols)
    return render.grid_text(graph, marks) + "\n"


def svg(
    puzzle: NurikabeInstance,
    picture: Sequence[bool] | None,
    fixed: Mapping[int, bool] | None = None,
) -> str:
    """Walls dark, islands white, clues written; with ``fixed``, cells not fixed in every
    solution are grey and marked ``?``. Without ``picture``: the empty puzzle."""
    fill: dict[int, str] = {}
    marks: dict[int, str] = {}
    for i in range(len(puzzle)):
        if picture is not None and i not in puzzle.clues:
            fill[i] = render.WALL if picture[i] else render.ISLAND
        if fixed is not None and i not in fixed and i not in puzzle.clues:
            fill[i] = render.UNKNOWN
            marks[i] = "?"
    label = {i: "?" if v is None else str(v) for i, v in puzzle.clues.items()}
    return render.graph_svg(drawable(puzzle.graph), fill=fill, label=label, marks=marks)


def shaped(puzzle: NurikabeInstance) -> NurikabeInstance:
    """The puzzle over :func:`drawable`'s graph, so text pictures shift hex rows too."""
    graph = drawable(puzzle.graph)
    if graph is puzzle.graph:
        return puzzle
    return NurikabeInstance(graph, puzzle.clues, puzzle.pools, puzzle.name)


def drawable(graph: Graph) -> Graph:
    """``graph`` with grid geometry when its cells are named ``r<R>c<C>`` and its links are
    exactly those of a square grid with holes, a torus or a hex grid (a table written by
    the generator), so the picture shows the shape rather than a circle of nodes."""
    if graph.coords is not None:
        return graph
    found = [_RC.fullmatch(name) for name in graph.names]
    if not found or not all(found):
        return graph
    where = [(int(m.group(1)), int(m.group(2))) for m in found if m]
    rows, cols = max(r for r, _ in where) + 1, max(c for _, c in where) + 1
    holes = {(r, c) for r in range(rows) for c in range(cols)} - set(where)
    links = _links(graph)
    candidates = [rectangle_with_holes(rows, cols, holes), hex_grid(rows, cols, holes)]
    if not holes:
        candidates.append(torus(rows, cols))
    for shape in candidates:
        if _links(shape) == links:
            kind = "square" if shape.kind == "holes" and not holes else shape.kind
            return Graph(graph.names, graph.out, kind, tuple(where), rows, cols)
    return graph


def _links(graph: Graph) -> set[frozenset[str]]:
    return {frozenset((graph.names[i], graph.names[j])) for i, j in graph.undirected_edges()}


def step_text(
    puzzle: NurikabeInstance, known: Mapping[int, bool], new: Mapping[int, bool], premises: set[int]
) -> str:
    """One step of an explanation as text: ``#`` and ``.`` the cells decided before it,
    ``-`` open cells, ``X`` and ``O`` the cells it decides (black, white), ``*`` after a
    cell that is one of its premises."""
    graph = shaped(puzzle).graph
    return render.step_text(graph, puzzle.clues, known, new, premises, (WALL, ISLAND))


def step_svg(
    puzzle: NurikabeInstance, known: Mapping[int, bool], new: Mapping[int, bool], premises: set[int]
) -> str:
    """One step as SVG: decided cells dark or white, open cells grey, the cells it
    decides marked ``!``, its premises ``*``."""
    fill: dict[int, str] = {}
    marks: dict[int, str] = {}
    for i in range(len(puzzle)):
        if i in puzzle.clues:
            pass
        elif i in new or i in known:
            fill[i] = render.WALL if {**known, **new}[i] else render.ISLAND
        else:
            fill[i] = render.UNKNOWN
        if i in new:
            marks[i] = "!"
        elif i in premises:
            marks[i] = "*"
    label = {i: "?" if v is None else str(v) for i, v in puzzle.clues.items()}
    return render.graph_svg(drawable(puzzle.graph), fill=fill, label=label, marks=marks)
