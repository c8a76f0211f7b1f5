"""The solver's solution sets equal brute force on every grid shape up to 4x4.

Brute force (:func:`oracles.nurikabe.brute_force`): every black/white picture that
could fit the clues, filtered by the test's own rule check (not the package's checker).
The solver counts pictures (``count``), with both connectivity strategies, and its fixed cells
(``unique``) are the cells with one colour in every brute-force solution. Clue sets come
from random pictures (so most have solutions) and at random (so many have none).
"""

from __future__ import annotations

import importlib
import random

import pytest
from oracles.nurikabe import CASES, brute_force, keeps_the_rules

from smtpuzzles.graph import parse_adjacency, rectangle
from smtpuzzles.puzzles.nurikabe import NurikabeInstance, problems, solve
from smtpuzzles.puzzles.nurikabe.presolve.deduce import _cut_cells, deduce, distances_within


@pytest.mark.parametrize("puzzle", CASES, ids=[p.name for p in CASES])
def test_solution_sets_match_brute_force(puzzle: NurikabeInstance) -> None:
    expected = brute_force(puzzle)
    for strategy in ("distance", "lazy"):
        outcome, _ = solve(puzzle, strategy, count=len(expected) + 2)
        assert set(outcome.solutions) == expected, strategy
        assert len(outcome.solutions) == len(expected), strategy
        assert outcome.status == ("solved" if expected else "unsat")


@pytest.mark.parametrize("puzzle", CASES[::2], ids=[p.name for p in CASES[::2]])
def test_the_package_checker_agrees_with_the_rules_on_random_pictures(
    puzzle: NurikabeInstance,
) -> None:
    """The checker every answer passes before it is printed, against the oracle's rules,
    on the solutions and on random pictures (most of which break some rule)."""
    rng = random.Random(puzzle.name)
    n = len(puzzle)
    pictures = set(brute_force(puzzle))
    pictures |= {tuple(rng.random() < 0.5 for _ in range(n)) for _ in range(200)}
    verdicts = set()
    for picture in pictures:
        verdict = keeps_the_rules(puzzle, picture)
        verdicts.add(verdict)
        assert (not problems(puzzle.graph, puzzle.clues, puzzle.pools, picture)) == verdict
    assert False in verdicts


@pytest.mark.parametrize("puzzle", CASES[::3], ids=[p.name for p in CASES[::3]])
def test_fixed_cells_match_brute_force(puzzle: NurikabeInstance) -> None:
    expected = brute_force(puzzle)
    outcome, _ = solve(puzzle, "distance", unique=True)
    if not expected:
        assert outcome.status == "unsat"
        return
    assert outcome.unique == (len(expected) == 1)
    first = next(iter(expected))
    fixed = {i for i in range(len(puzzle)) if all(s[i] == first[i] for s in expected)}
    assert outcome.fixed is not None
    assert set(outcome.fixed) == fixed
    assert all(outcome.fixed[i] == first[i] for i in fixed)


def test_the_cases_cover_both_answers() -> None:
    """The random cases include solvable, unsolvable and ambiguous puzzles."""
    counts = [len(brute_force(p)) for p in CASES[::2]]
    assert 0 in counts and 1 in counts and any(c > 1 for c in counts)


def test_a_cell_the_island_cannot_do_without_is_deduced_white() -> None:
    """Clue a (3) reaches b only, and b leads on to c and d: without b the island stays
    one cell, so b is a's before the solver runs; c and d stay open."""
    graph = parse_adjacency("a: b\nb: a c d\nc: b d e\nd: b c e\ne: c d\n")
    puzzle = NurikabeInstance(graph, {graph.index["a"]: 3})
    known = deduce(puzzle)
    names = {graph.names[i] for i, k in known.owner.items() if k == graph.index["a"]}
    assert names == {"a", "b"}


def test_cut_cells_skip_only_cells_the_full_search_would_pass() -> None:
    """The dominance filter of ``_cut_cells`` gives what searching without each cell in
    turn gives, on random reaches of random rectangles, its own cells included."""
    rng = random.Random(5)
    for _ in range(400):
        rows, cols = rng.randint(2, 7), rng.randint(2, 7)
        graph = rectangle(rows, cols)
        puzzle = NurikabeInstance(graph, {})
        nbrs = puzzle.neighbours
        clue = rng.randrange(len(graph))
        size = rng.randint(2, len(graph))
        usable = {i for i in range(len(graph)) if rng.random() < 0.8} | {clue}
        reach = distances_within(nbrs, clue, size - 1, usable.__contains__)
        mine = {clue} | {i for i in reach if rng.random() < 0.1}
        if rng.random() < 0.1:
            mine.add(rng.randrange(len(graph)))  # sometimes an own cell out of reach
        plain = _cut_cells_by_search(nbrs, clue, size, reach, mine)
        assert sorted(_cut_cells(nbrs, clue, size, reach, mine)) == plain


def _cut_cells_by_search(nbrs, clue: int, size: int, reach: dict, mine: set[int]) -> list[int]:
    """Every cell of the reach left out in turn: too few cells left, or an own one lost."""
    forced = []
    for x in reach:
        if x == clue or x in mine:
            continue
        left = distances_within(nbrs, clue, size - 1, lambda j, x=x: j != x and j in reach)
        if len(left) < size or any(i not in left for i in mine):
            forced.append(x)
    return sorted(forced)


def test_a_cell_the_wall_cannot_do_without_is_deduced_black() -> None:
    """p and q are black (no island reaches them) and only x joins them: x is black, and
    then clue k (2) has only r left to grow into."""
    graph = parse_adjacency("p: x\nx: p q k\nq: x\nk: x r\nr: k\n")
    puzzle = NurikabeInstance(graph, {graph.index["k"]: 2})
    known = deduce(puzzle)
    assert {graph.names[i] for i in known.black} == {"p", "q", "x"}
    assert {graph.names[i] for i in known.owner} == {"k", "r"}
    assert solve(puzzle)[0].status == "solved"


@pytest.mark.parametrize("strategy", ["distance", "lazy"])
def test_an_island_may_surround_a_wall_that_touches_no_border(strategy: str) -> None:
    """3x3, clue 8 in a corner: any other cell may be the wall, the centre too. The
    white cells' Euler count (cells - links + white 2x2 blocks) is then one less than
    their single region: the wall is a hole in the island."""
    graph = rectangle(3, 3)
    puzzle = NurikabeInstance(graph, {0: 8}, tuple(graph.squares()))
    outcome, _ = solve(puzzle, strategy, count=10)
    assert set(outcome.solutions) == {tuple(i == b for i in range(9)) for b in range(1, 9)}


@pytest.mark.parametrize("strategy", ["distance", "lazy"])
def test_an_unknown_clue_may_take_every_cell(strategy: str) -> None:
    """With a ``?`` clue alone the wall may be empty: then it makes no hole."""
    graph = rectangle(2, 3)
    puzzle = NurikabeInstance(graph, {0: None}, tuple(graph.squares()))
    expected = brute_force(puzzle)
    assert (False,) * 6 in expected
    outcome, _ = solve(puzzle, strategy, count=len(expected) + 1)
    assert set(outcome.solutions) == expected


RECTANGLES = [p for p in CASES if p.graph.kind == "square" and len(p) >= 6]


@pytest.mark.parametrize("puzzle", RECTANGLES, ids=[p.name for p in RECTANGLES])
@pytest.mark.slow
def test_starting_over_without_the_count_keeps_what_was_found(
    puzzle: NurikabeInstance, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one conflict for each of the first two phases, most searches start over
    once or twice, some after pictures were blocked or while the fixed cells are
    sought: the answers still equal brute force, none twice."""
    search_module = importlib.import_module("smtpuzzles.puzzles.nurikabe.search")
    monkeypatch.setattr(search_module, "PHASES", ((False, 1), (True, 1), (False, None)))
    expected = brute_force(puzzle)
    outcome, _ = solve(puzzle, count=len(expected) + 2)
    assert sorted(outcome.solutions) == sorted(expected)
    outcome, _ = solve(puzzle, unique=True)
    if expected:
        first = outcome.solutions[0]
        fixed = {i for i in range(len(puzzle)) if all(s[i] == first[i] for s in expected)}
        assert outcome.fixed is not None and set(outcome.fixed) == fixed
