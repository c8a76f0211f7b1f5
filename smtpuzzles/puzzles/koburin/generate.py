"""Random Koburin puzzles with a unique solution.

1. A random loop: the border of a random region of unit squares between cell centres,
   grown one square at a time while it stays one piece without holes or corner-only
   contacts, so its border is one simple cycle. The region is kept thin, so that the
   loop passes through most cells.
2. Black cells: a random set of cells off the loop, no two touching.
3. Every other cell off the loop gets its number (it can be neither black nor loop).
4. While a second solution exists, one of our black cells, picked near where the two
   solutions differ, becomes a number: the second solution breaks (a numbered cell is
   neither black nor on a loop) while ours still holds.
"""

from __future__ import annotations

import random

import z3

from ...graph import cell_name, rectangle
from ...solving import Budget, check
from .check import problems
from .puzzle import Koburin, Solution
from .solve import Search

Pos = tuple[int, int]


def random_loop(
    rows: int, cols: int, rng: random.Random, thin: float = 0.95
) -> set[frozenset[Pos]]:
    """Links of a random simple loop on a rows x cols grid (cells as positions)."""
    faces: set[Pos] = set()
    edges: set[frozenset[Pos]] = set()
    vertices: set[Pos] = set()

    def corners(f: Pos) -> list[Pos]:
        r, c = f
        return [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]

    def sides(f: Pos) -> list[frozenset[Pos]]:
        k = corners(f)
        return [frozenset({k[i], k[(i + 1) % 4]}) for i in range(4)]

    def around(v: Pos) -> list[Pos]:
        r, c = v
        return [(r - 1, c - 1), (r - 1, c), (r, c), (r, c - 1)]  # NW, NE, SE, SW in turn

    def allowed(f: Pos) -> bool:
        with_f = faces | {f}
        for v in corners(f):
            inside = [g in with_f for g in around(v)]
            if inside in ([True, False, True, False], [False, True, False, True]):
                return False  # two squares meeting at a corner only: the loop would touch
            if all(inside) and rng.random() < thin:
                return False  # an inner cell off the loop: keep the region thin
        new_v = sum(1 for v in corners(f) if v not in vertices)
        new_e = sum(1 for e in sides(f) if e not in edges)
        euler = (len(vertices) + new_v) - (len(edges) + new_e) + len(faces) + 1
        return euler == 1  # one piece without holes

    def add(f: Pos) -> None:
        faces.add(f)
        vertices.update(corners(f))
        edges.update(sides(f))

    add((rng.randrange(rows - 1), rng.randrange(cols - 1)))
    grew = True
    while grew:
        grew = False
        frontier = sorted(
            {
                (r + dr, c + dc)
                for r, c in faces
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < rows - 1
                and 0 <= c + dc < cols - 1
                and (r + dr, c + dc) not in faces
            }
        )
        rng.shuffle(frontier)
        for f in frontier:
            touches = any(
                (f[0] + dr, f[1] + dc) in faces for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            )
            if touches and allowed(f):
                add(f)
                grew = True
    side_count: dict[frozenset[Pos], int] = {}
    for f in faces:
        for e in sides(f):
            side_count[e] = side_count.get(e, 0) + 1
    return {e for e, k in side_count.items() if k == 1}


def random_answer(rows: int, cols: int, rng: random.Random) -> tuple[set[frozenset[Pos]], set[Pos]]:
    """A loop and black cells off it, no two black cells side by side."""
    links = random_loop(rows, cols, rng)
    on_loop = {p for e in links for p in e}
    off = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in on_loop]
    rng.shuffle(off)
    black: set[Pos] = set()
    for r, c in off:
        near = {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)}
        if not near & black and rng.random() < 0.9:
            black.add((r, c))
    return links, black


def _link(a: int | None, b: int | None) -> tuple[int, int]:
    assert a is not None and b is not None
    return (min(a, b), max(a, b))


def _nearest_black(
    black: set[Pos], ours: Solution, other: Solution, puzzle: Koburin, rng: random.Random
) -> Pos:
    coords = puzzle.graph.coords
    assert coords is not None
    differ = {coords[i] for i in ours.black ^ other.black}
    differ |= {coords[i] for e in ours.edges ^ other.edges for i in e}

    def distance(b: Pos) -> tuple[int, float]:
        return min(abs(b[0] - d[0]) + abs(b[1] - d[1]) for d in differ), rng.random()

    return min(sorted(black), key=distance)


def generate(
    rows: int, cols: int, seed: int, budget: Budget | None = None, attempts: int = 20
) -> tuple[Koburin, Solution, str] | None:
    """A puzzle with a unique solution, that solution, and the solution in ``.sol`` text
    (``None`` if the budget ran out)."""
    budget = budget or Budget()
    rng = random.Random(seed)
    graph = rectangle(rows, cols)
    for _ in range(attempts):
        links, black = random_answer(rows, cols, rng)
        on_loop = {p for e in links for p in e}
        loop_links = frozenset(_link(graph.at(*a), graph.at(*b)) for a, b in map(sorted, links))
        while True:
            clues = {}
            for r in range(rows):
                for c in range(cols):
                    if (r, c) not in on_loop and (r, c) not in black:
                        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                        clues[graph.at(r, c)] = sum(1 for q in near if q in black)
            puzzle = Koburin(graph, clues)
            ours = Solution(frozenset(graph.index[cell_name(r, c)] for r, c in black), loop_links)
            assert not problems(puzzle, ours.black, ours.edges)
            search = Search(puzzle)
            search.block(ours)
            answer = check(search.solver, budget)
            if answer == z3.unknown:
                return None
            if answer == z3.unsat:
                return puzzle, ours, solution_text(puzzle, ours)
            if not black:
                break
            other = search.read(search.solver.model())
            black.discard(_nearest_black(black, ours, other, puzzle, rng))
    return None


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
