"""Koburin solving against known answers and against brute force on tiny puzzles.

The brute force (:func:`oracles.koburin.brute_force`) enumerates every set of black
cells (no two touching, numbers right) and every closed loop through all remaining empty
cells, in plain Python; the solver must find exactly the same pictures with ``count``,
for both connectivity strategies.
"""

from __future__ import annotations

import random

import pytest
from oracles.koburin import brute_force, random_puzzle

from smtpuzzles.graph import parse_adjacency, rectangle, torus
from smtpuzzles.puzzles.koburin import KoburinInstance, problems, solve
from smtpuzzles.puzzles.koburin.formats import parse

SEED_EXAMPLE = "2____\n_____\n__1__\n_____\n1___0\n"


def test_seed_example_has_its_unique_answer() -> None:
    puzzle = parse(SEED_EXAMPLE)
    for connectivity in ("distance", "lazy"):
        outcome = solve(puzzle, unique=True, connectivity=connectivity)
        assert outcome.status == "solved" and outcome.unique is True
        black = sorted(puzzle.graph.coords[i] for i in outcome.solution.black)
        assert black == [(0, 1), (0, 4), (1, 0), (2, 3), (4, 1)]
        loop = outcome.solution.loop()
        assert len(loop) == 25 - 4 - 5


def _compare(puzzle: KoburinInstance, connectivity: str) -> None:
    expected = brute_force(puzzle)
    outcome = solve(puzzle, count=len(expected) + 1, connectivity=connectivity)
    assert len(outcome.solutions) == len(expected) and outcome.count_complete
    assert set(outcome.solutions) == expected
    for s in outcome.solutions:
        assert problems(puzzle, s.black, s.edges, s.loop()) == []
    assert outcome.status == ("solved" if expected else "unsat")


SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3), (4, 4)]


@pytest.mark.parametrize("seed", range(8))
def test_brute_force_agrees_on_tiny_grids(seed: int) -> None:
    rng = random.Random(seed)
    for rows, cols in SHAPES:
        puzzle = random_puzzle(rng, rectangle(rows, cols))
        _compare(puzzle, "distance" if seed % 2 else "lazy")


def test_the_tiny_grids_cover_no_one_and_many_solutions() -> None:
    """The seeds above give puzzles of each kind, so the comparison is never one-sided."""
    counts = set()
    for seed in range(8):
        rng = random.Random(seed)
        counts |= {len(brute_force(random_puzzle(rng, rectangle(r, c)))) for r, c in SHAPES}
    assert {0, 1} <= counts and max(counts) > 1


def test_brute_force_sees_solutions_and_their_absence() -> None:
    """The random puzzles above must not all be unsat (a test that cannot fail)."""
    rng = random.Random(99)
    counts = [len(brute_force(random_puzzle(rng, rectangle(3, 4)))) for _ in range(12)]
    assert any(c == 0 for c in counts) and any(c == 1 for c in counts) and max(counts) > 1


@pytest.mark.parametrize("seed", range(3))
def test_brute_force_agrees_on_the_eight_variant(seed: int) -> None:
    rng = random.Random(100 + seed)
    for rows, cols in [(3, 3), (3, 4), (4, 4)]:
        _compare(random_puzzle(rng, rectangle(rows, cols), "eight"), "distance")


def test_brute_force_agrees_on_a_torus_and_a_table() -> None:
    rng = random.Random(7)
    table = parse_adjacency(
        "a: b d\nb: c e\nc: f\nd: e g\ne: f h\nf: i\ng: h\nh: i\ni:\nj: a c g i\n"
    )
    for graph in (torus(3, 3), torus(3, 4), table):
        for _ in range(3):
            for connectivity in ("distance", "lazy"):
                _compare(random_puzzle(rng, graph), connectivity)


def test_empty_grid_counts_match_brute_force() -> None:
    """No numbers: every loop-and-black picture counts (3x3 has a handful)."""
    puzzle = KoburinInstance(rectangle(3, 3), {})
    assert len(brute_force(puzzle)) > 1
    _compare(puzzle, "distance")


def test_no_empty_cell_means_no_loop_and_no_solution() -> None:
    puzzle = KoburinInstance(rectangle(1, 2), {0: 0, 1: 0})
    assert solve(puzzle).status == "unsat"


def test_checker_rejects_broken_answers() -> None:
    puzzle = parse(SEED_EXAMPLE)
    good = solve(puzzle).solution
    assert problems(puzzle, good.black, good.edges, good.loop()) == []
    g = puzzle.graph
    # a black cell moved next to another one, a number on the loop, two loops
    worse_black = set(good.black) | {g.at(0, 2)}
    assert any("touch" in p for p in problems(puzzle, worse_black, good.edges))
    assert any("sees" in p for p in problems(puzzle, good.black - {g.at(0, 1)}, good.edges))
    two = KoburinInstance(rectangle(2, 5), {2: None, 7: None})
    links = {(0, 1), (0, 5), (1, 6), (5, 6), (3, 4), (3, 8), (4, 9), (8, 9)}
    assert any("pieces" in p for p in problems(two, set(), links))
    assert any("order" in p for p in problems(puzzle, good.black, good.edges, good.loop()[:-1]))


def test_a_lazy_search_with_too_many_rounds_of_cuts_goes_on_with_distances() -> None:
    """A 70x3 grid with two numbers: separate loops form in so many ways that cuts alone
    took minutes; after ``LAZY_ROUNDS`` rounds the distances finish it, and the answer
    passes the checker."""
    from smtpuzzles.puzzles.koburin.search import LAZY_ROUNDS

    puzzle = parse("https://puzz.link/p?koburin/70/3/anam", "<url>")
    outcome = solve(puzzle, connectivity="lazy")
    assert outcome.status == "solved"
    assert f"distances added after {LAZY_ROUNDS} rounds of cuts" in outcome.notes
    black = outcome.solutions[0].black
    edges = outcome.solutions[0].edges
    assert problems(puzzle, black, edges, outcome.solutions[0].loop()) == []
