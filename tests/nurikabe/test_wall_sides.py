"""The sides where islands meet the wall, as the explanation's counts bound them
(:func:`~smtpuzzles.puzzles.nurikabe.explain._fewest_sides_at_wall` and
:func:`~smtpuzzles.puzzles.nurikabe.explain._most_sides_at_white`): every solution of
every puzzle on a few small grids, found by brute force and accepted by the independent
checker, keeps both bounds, and some solution meets each bound exactly, so that either
made one tighter would rule out a solution."""

from __future__ import annotations

import itertools

import pytest

from smtpuzzles.puzzles.nurikabe.check import problems
from smtpuzzles.puzzles.nurikabe.explain import (
    _fewest_sides_at_wall,
    _least_perimeter,
    _most_sides_at_white,
)
from smtpuzzles.puzzles.nurikabe.formats import parse


def _islands(rows: int, cols: int, black: list[bool]) -> list[list[int]]:
    """The white regions of a picture (4-connected), each a list of cell indices."""
    seen: set[int] = set()
    found = []
    for start in range(rows * cols):
        if black[start] or start in seen:
            continue
        region, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            region.append(i)
            for j in _neighbours(rows, cols, i):
                if not black[j] and j not in seen:
                    seen.add(j)
                    stack.append(j)
        found.append(region)
    return found


def _neighbours(rows: int, cols: int, i: int) -> list[int]:
    r, c = divmod(i, cols)
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [a * cols + b for a, b in near if 0 <= a < rows and 0 <= b < cols]


def _rim(rows: int, cols: int, i: int) -> int:
    """The sides of cell ``i`` on the grid's rim."""
    return 4 - len(_neighbours(rows, cols, i))


def _pool(rows: int, cols: int, black: list[bool]) -> bool:
    """Is some 2x2 block all black?"""
    return any(
        black[i] and black[i + 1] and black[i + cols] and black[i + cols + 1]
        for i in range((rows - 1) * cols)
        if i % cols < cols - 1
    )


def _solutions(rows: int, cols: int):
    """Every picture that solves the puzzle made by numbering each of its islands at its
    first cell, as the independent checker says, with those islands."""
    for values in itertools.product((False, True), repeat=rows * cols):
        black = list(values)
        if _pool(rows, cols, black):
            continue  # no solution (the checker would say so): skipped for speed
        islands = _islands(rows, cols, black)
        if not islands:
            continue
        clues = {min(region): len(region) for region in islands}
        lines = [f"{rows} {cols}"]
        for r in range(rows):
            lines.append(" ".join(str(clues.get(r * cols + c, "-")) for c in range(cols)))
        puzzle = parse("\n".join(lines) + "\n")
        if problems(puzzle.graph, puzzle.clues, puzzle.pools, black):
            continue
        yield black, islands


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 4)])
def test_every_small_solution_keeps_the_wall_sides_bounds(rows: int, cols: int) -> None:
    rim_edges = 2 * (rows + cols)
    cells = rows * cols
    met_island = met_wall = 0
    met_own = met_rest = False
    solved = 0
    for black, islands in _solutions(rows, cols):
        solved += 1
        wall = sum(black)
        at_white = 0
        for region in islands:
            members = set(region)
            on_rim = sum(_rim(rows, cols, i) for i in region)
            at_black = sum(1 for i in region for j in _neighbours(rows, cols, i) if black[j])
            assert all(
                black[j] for i in region for j in _neighbours(rows, cols, i) if j not in members
            )
            least = _fewest_sides_at_wall(len(region), cells, rim_edges, on_rim)
            assert at_black >= least, (black, region)
            met_island += at_black == least > 0
            met_own |= at_black == _least_perimeter(len(region)) - on_rim > 0
            rest = _least_perimeter(cells - len(region)) - (rim_edges - on_rim)
            met_rest |= at_black == rest > 0 and rest > _least_perimeter(len(region)) - on_rim
            at_white += at_black
        if wall:
            sides = at_white + sum(_rim(rows, cols, i) for i in range(cells) if black[i])
            assert sides <= _most_sides_at_white(wall), black
            met_wall += sides == _most_sides_at_white(wall)
    assert solved > 10
    assert met_island and met_wall and met_own
    if (rows, cols) != (3, 3):
        # the rest of the grid's outline is the larger bound of the two, and met
        assert met_rest


def test_the_least_perimeter_holds_for_every_set_of_cells() -> None:
    """Any set of cells of a 4x4 grid, connected or not, has at least the least
    perimeter of its count in edges to cells outside it or to the rim, and some set of
    each count has exactly that many."""
    rows = cols = 4
    best: dict[int, int] = {}
    for values in itertools.product((False, True), repeat=rows * cols):
        chosen = [i for i, v in enumerate(values) if v]
        edges = sum(
            _rim(rows, cols, i) + sum(1 for j in _neighbours(rows, cols, i) if not values[j])
            for i in chosen
        )
        best[len(chosen)] = min(best.get(len(chosen), edges), edges)
    for n, edges in best.items():
        assert edges == _least_perimeter(n), n


def test_the_whole_grid_question_a_counted_backbone_answered_is_not_asked_again() -> None:
    """Without the puzzle's own solver the engine proves its first model's facts forced
    by a backbone with the counts; the whole-grid question over the same premises takes
    that answer (no question asked), and its core forces every fact under the rules
    alone, as the formula is printed."""
    from smtpuzzles.forced import Forcing, _Path
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.nurikabe.explain import problem
    from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph

    graph, pools = shape_graph("square", 5, 5, 3)
    made = generate(graph, pools, 3, 4)
    assert made is not None
    puzzle, picture = made
    prob = problem(puzzle)
    prob.solutions = None
    path = _Path(Forcing(prob, Budget()))
    facts = path.undecided()
    assert facts and all(f.key in path.f.counted_cores for f in facts)
    assert all(picture[f.cells[0]] == f.value for f in facts)
    asked = path.f.asked
    core = path.f.whole(path.known, facts, 0)
    assert core is not None and path.f.asked == asked
    assert {p.key for p in core} <= {c.key for c in prob.clues}
    assert path.f.forced_all(facts, core, path.f.all_rules)
