"""Random Koburin puzzles with a unique solution.

1. Numbered cells: scattered at random (no two touching, even diagonally), then thinned
   until every other cell has two free neighbours (a loop cell needs two).
2. A random answer: the solver finds black cells and one loop around those numbered
   cells (their values unknown yet), from a random seed.
3. Each numbered cell gets its value read off the answer.
4. While a second solution exists, our black cell nearest to where the two differ
   becomes a number too: the second solution breaks (a numbered cell is neither black
   nor on a loop) while ours still holds.
"""

from __future__ import annotations

import random

from ...graph import Graph, rectangle
from ...solving import Budget
from .puzzle import Koburin, Solution
from .solve import Search

Pos = tuple[int, int]


def scatter_numbers(graph: Graph, rng: random.Random, density: float = 0.5) -> set[int]:
    """Cells to number: scattered, none touching another, every other cell with at least
    two neighbours that are not numbered."""
    assert graph.coords is not None
    numbered: set[int] = set()
    for i in rng.sample(range(len(graph)), len(graph)):
        r, c = graph.coords[i]
        around = {graph.at(r + dr, c + dc) for dr, dc in ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))}
        if not around & numbered and rng.random() < density:
            numbered.add(i)
    changed = True
    while changed:
        changed = False
        for i in range(len(graph)):
            near = graph.out[i]
            if i not in numbered and sum(1 for j in near if j not in numbered) < 2:
                numbered.discard(rng.choice([j for j in near if j in numbered]))
                changed = True
    return numbered


def random_answer(
    graph: Graph, rng: random.Random, budget: Budget, black: float = 0.5, tries: int = 20
) -> tuple[set[int], Solution] | None:
    """Numbered cells and an answer around them (``None`` if the budget ran out).

    Black cells are asked for at random places (no two touching); when no answer has
    them all, one of those the solver blames (its unsat core) is given up.
    """
    for _ in range(tries):
        numbered = scatter_numbers(graph, rng)
        search = Search(Koburin(graph, {i: None for i in numbered}))
        search.solver.set("random_seed", rng.randrange(1 << 30))
        wanted: set[int] = set()
        for i in rng.sample(range(len(graph)), len(graph)):
            if i not in numbered and not set(graph.out[i]) & wanted and rng.random() < black:
                wanted.add(i)
        while True:
            answer = search.next(budget, None, [search.enc.black[i] for i in sorted(wanted)])
            if answer == "unknown":
                return None
            if isinstance(answer, Solution):
                return numbered, answer
            core = [str(b) for b in search.solver.unsat_core()]
            blamed = [i for i in sorted(wanted) if str(search.enc.black[i]) in core]
            if not blamed:
                break
            wanted.discard(rng.choice(blamed))
    return None


def _blacks_near(
    black: set[Pos], ours: Solution, other: Solution, puzzle: Koburin, reach: int = 2
) -> set[Pos]:
    """Our black cells within ``reach`` steps of where ``other`` differs from ours (at
    least the nearest one): numbering them rules ``other`` out, and its neighbours."""
    coords = puzzle.graph.coords
    assert coords is not None
    differ = {coords[i] for i in ours.black ^ other.black}
    differ |= {coords[i] for e in ours.edges ^ other.edges for i in e}

    def distance(b: Pos) -> int:
        return min(abs(b[0] - d[0]) + abs(b[1] - d[1]) for d in differ)

    near = {b for b in black if distance(b) <= reach}
    return near or {min(sorted(black), key=distance)}


def generate(
    rows: int,
    cols: int,
    seed: int,
    budget: Budget | None = None,
    reach: int = 2,
    attempts: int = 50,
) -> tuple[Koburin, Solution, str] | None:
    """A puzzle with a unique solution, that solution, and the solution in ``.sol`` text
    (``None`` if the budget ran out)."""
    budget = budget or Budget()
    rng = random.Random(seed)
    graph = rectangle(rows, cols)
    for _ in range(attempts):
        drawn = random_answer(graph, rng, budget)
        if drawn is None:
            return None
        made = _numbers_until_unique(graph, *drawn, budget, reach)
        if made is not None:
            return made
    return None


def _numbers_until_unique(
    graph: Graph, numbered: set[int], ours: Solution, budget: Budget, reach: int
) -> tuple[Koburin, Solution, str] | None:
    """Number black cells until ``ours`` is the only solution (``None``: no black cell
    left to number, or the budget ran out)."""
    black = set(ours.black)
    while True:
        clues = {i: sum(1 for j in graph.out[i] if j in black) for i in sorted(numbered)}
        puzzle = Koburin(graph, clues)
        ours = Solution(frozenset(black), ours.edges)
        search = Search(puzzle)
        search.block(ours)
        other = search.next(budget, None)
        if other == "unsat":
            return puzzle, ours, solution_text(puzzle, ours)
        if other == "unknown" or not black:
            return None
        assert isinstance(other, Solution)
        coords = graph.coords
        assert coords is not None
        positions = {coords[i] for i in black}
        for r, c in _blacks_near(positions, ours, other, puzzle, reach):
            i = graph.at(r, c)
            assert i is not None
            black.discard(i)
            numbered.add(i)


def solution_text(puzzle: Koburin, solution: Solution) -> str:
    """The ``.sol`` form: ``x`` black, ``-`` numbered, loop cells by their two sides."""
    g = puzzle.graph
    assert g.rows is not None and g.cols is not None and g.coords is not None
    sides: dict[int, str] = {}
    for a, b in solution.edges:
        (r1, c1), (r2, c2) = g.coords[a], g.coords[b]
        if r1 == r2:
            sides[a] = sides.get(a, "") + ("e" if c2 > c1 else "w")
            sides[b] = sides.get(b, "") + ("w" if c2 > c1 else "e")
        else:
            sides[a] = sides.get(a, "") + ("s" if r2 > r1 else "n")
            sides[b] = sides.get(b, "") + ("n" if r2 > r1 else "s")
    lines = [f"{g.rows} {g.cols}"]
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            i = g.at(r, c)
            assert i is not None
            if i in solution.black:
                row.append("x")
            elif i in puzzle.clues:
                row.append("-")
            else:
                row.append("".join(sorted(sides.get(i, ""), key="nesw".index)))
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"
