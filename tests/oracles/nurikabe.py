"""Nurikabe by brute force, the random cases the tests share, and what a whole search
must find on them.

Brute force lists every black/white picture that could fit the clues and keeps those
that keep the rules, checked here from the rules themselves (:func:`keeps_the_rules`),
not by the package's checker, so a fault there cannot hide behind itself. The cases come
from random pictures (so most have solutions) and at random (so many have none), on
every shape up to 4x4 and a few more.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import random
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from smtpuzzles.engines import Stats
from smtpuzzles.graph import Graph, hex_grid, rectangle, rectangle_with_holes, torus
from smtpuzzles.puzzles.nurikabe import NurikabeInstance, deduce, solve
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.formats import read_solution as expected_rows
from smtpuzzles.puzzles.nurikabe.presolve.backtrack import Trial
from smtpuzzles.puzzles.nurikabe.presolve.deduce import Contradiction, Deductions
from smtpuzzles.puzzles.nurikabe.presolve.probe import probe

SHAPES: dict[str, Graph] = {
    f"{r}x{c}": rectangle(r, c) for r in range(1, 5) for c in range(1, 5) if r <= c
}
SHAPES.update(
    {
        "torus3x3": torus(3, 3),
        "hex3x3": hex_grid(3, 3),
        "holes3x4": rectangle_with_holes(3, 4, [(1, 1), (0, 3)]),
    }
)


def keeps_the_rules(p: NurikabeInstance, black: tuple[bool, ...]) -> bool:
    """Every clue cell white; every white region holds exactly one clue and, unless the
    clue is ``?``, that many cells; the black cells are connected; no pool is all black."""
    if any(black[c] for c in p.clues):
        return False
    for region in components(p.graph, {i for i, b in enumerate(black) if not b}):
        inside = [c for c in region if c in p.clues]
        if len(inside) != 1:
            return False
        size = p.clues[inside[0]]
        if size is not None and size != len(region):
            return False
    if len(components(p.graph, {i for i, b in enumerate(black) if b})) > 1:
        return False
    return not any(all(black[i] for i in pool) for pool in p.pools)


def brute_force(p: NurikabeInstance) -> set[tuple[bool, ...]]:
    """All pictures that keep the rules (white count fixed when no clue is ``?``)."""
    n = len(p)
    free = [i for i in range(n) if i not in p.clues]
    sizes = list(p.clues.values())
    whites = None if None in sizes else sum(sizes) - len(sizes)  # type: ignore[arg-type]
    found = set()
    for extra in range(len(free) + 1):
        if whites is not None and extra != whites:
            continue
        for chosen in itertools.combinations(free, extra):
            white = set(chosen) | set(p.clues)
            picture = tuple(i not in white for i in range(n))
            if keeps_the_rules(p, picture):
                found.add(picture)
    return found


def components(graph: Graph, cells: set[int]) -> list[set[int]]:
    """The connected parts of ``cells``, links taken both ways."""
    both = [set(t) for t in graph.out]
    for i, t in enumerate(graph.out):
        for j in t:
            both[j].add(i)
    parts, left = [], set(cells)
    while left:
        start = left.pop()
        part, queue = {start}, deque([start])
        while queue:
            for j in both[queue.popleft()]:
                if j in left:
                    left.discard(j)
                    part.add(j)
                    queue.append(j)
        parts.append(part)
    return parts


def random_puzzles(
    name: str, graph: Graph, rng: random.Random, count: int
) -> Iterator[NurikabeInstance]:
    """``count`` puzzles named ``name#k``: even ones read off a random picture, odd ones
    with random clues."""
    pools = tuple(graph.squares())
    n = len(graph)
    for k in range(count):
        clues: dict[int, int | None] = {}
        if k % 2 == 0:  # clues read off a random picture
            white = {i for i in range(n) if rng.random() < 0.5} or {0}
            for part in components(graph, white):
                cell = rng.choice(sorted(part))
                clues[cell] = len(part) if rng.random() > 0.1 else None
        else:  # random clues
            for cell in rng.sample(range(n), rng.randint(1, max(1, n // 3))):
                clues[cell] = rng.randint(1, 4) if rng.random() > 0.1 else None
        yield NurikabeInstance(graph, clues, pools, f"{name}#{k}")


#: The brute-force cases: a few random puzzles on each of :data:`SHAPES`.
CASES = [
    p
    for name, graph in SHAPES.items()
    for p in random_puzzles(name, graph, random.Random(name), 6 if len(graph) > 9 else 4)
]

#: Bigger shapes than the brute-force cases, still small enough to enumerate.
MORE = [
    p
    for r, c in [(4, 5), (3, 6), (2, 8)]
    for p in random_puzzles(f"{r}x{c}", rectangle(r, c), random.Random(f"probe{r}{c}"), 8)
]
#: Every case the presolve tests share: :data:`CASES`, :data:`MORE`, and more clue sets
#: on the brute-force shapes, named apart from those.
PUZZLES = CASES + MORE
PUZZLES += [
    p for name, g in SHAPES.items() for p in random_puzzles(f"{name}b", g, random.Random(name), 6)
]

BY_NAME = {p.name: p for p in PUZZLES}
assert len(BY_NAME) == len(PUZZLES)


def as_params(puzzles: list[NurikabeInstance]) -> list[Any]:
    """``puzzles`` as pytest parameters named by puzzle: those of :data:`MORE`, whose
    brute force and searches take most of the time, are marked ``slow``."""
    import pytest  # here: the fuzz imports this module where pytest is not installed

    bigger = {p.name for p in MORE}
    return [
        pytest.param(p, id=p.name, marks=[pytest.mark.slow] if p.name in bigger else [])
        for p in puzzles
    ]


@functools.cache
def solutions_of(name: str) -> set[tuple[bool, ...]]:
    """Brute force of the case ``name`` of :data:`PUZZLES`, once per test session."""
    return brute_force(BY_NAME[name])


def pictures(puzzle: NurikabeInstance, found: list[Deductions]) -> list[tuple[bool, ...]]:
    """The black/white pictures of a search's solutions, sorted."""
    return sorted(tuple(i in d.black for i in range(len(puzzle))) for d in found)


def is_open(puzzle: NurikabeInstance, known: Deductions) -> bool:
    """Do the facts in ``known`` leave some cell undecided?"""
    return len(known.black) + len(known.owner) < len(puzzle)


def starts(puzzle: NurikabeInstance) -> list[Deductions]:
    """Where a search may start: the deductions, and the hypotheses unless they prove
    that there is no solution (which brute force must confirm)."""
    known = [deduce(puzzle)]
    try:
        known.append(probe(puzzle, known[0]))
    except Contradiction:
        assert not solutions_of(puzzle.name)
    return known


def proves_the_answer(path: Path, trial: Trial, label: str) -> None:
    """A corpus puzzle's ``trial``, searched whole, holds its known answer alone; and
    solving it, the detour ``label`` proves that answer, which comes out unique.

    The detour ``label`` runs without its time limit (its node limit stays): that limit
    balances the detours against the solver for users, and on a loaded machine it would
    cut short the very search whose proof is checked here, leaving the solver a puzzle
    it cannot answer."""
    puzzle = parse(path.read_text(), str(path))
    assert trial.finished and len(trial.solutions) == 1
    black = trial.solutions[0].black
    answer = "".join(expected_rows(path))
    assert "".join("#" if i in black else "." for i in range(len(puzzle))) == answer
    search_module = importlib.import_module("smtpuzzles.puzzles.nurikabe.search")
    detours = dict(search_module.DETOURS)
    timed, least = detours[label]
    detours[label] = (functools.partial(_untimed, timed), least)
    import pytest

    stats = Stats()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_module, "DETOURS", detours)
        outcome, _ = solve(puzzle, stats=stats, unique=True)
    assert outcome.status == "solved" and outcome.unique is True
    answers = [p["answer"] for p in stats.probes if p["label"] == label]
    assert answers == ["one solution"], stats.probes


def _untimed(search: Callable[..., Trial], *args: Any, seconds: float | None = None) -> Trial:
    """``search`` with no time limit, whatever time the caller allows."""
    return search(*args)
