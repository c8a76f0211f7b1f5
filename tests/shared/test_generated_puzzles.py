"""Property tests over each puzzle's generator: random puzzles are solved, every answer
passes the independent checker, and on small ones the answer agrees with brute force."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.floodit import is_flooded, optimum_by_bfs, replay
from oracles.koburin import brute_force as koburin_brute_force
from oracles.koburin_loops import random_black, random_loop
from oracles.nurikabe import brute_force as nurikabe_brute_force

from smtpuzzles.graph import hex_grid, rectangle, torus
from smtpuzzles.puzzles.floodit.generate import random_board
from smtpuzzles.puzzles.floodit.search import run_mode
from smtpuzzles.puzzles.koburin import KoburinInstance
from smtpuzzles.puzzles.koburin import problems as koburin_problems
from smtpuzzles.puzzles.koburin import solve as koburin_solve
from smtpuzzles.puzzles.koburin.model import Solution
from smtpuzzles.puzzles.nurikabe import solve as nurikabe_solve
from smtpuzzles.puzzles.nurikabe.check import problems as nurikabe_problems
from smtpuzzles.puzzles.nurikabe.generate import clues_of, hex_pools, random_picture
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance

# -- Flood-It: generate, solve with min and solve, replay, compare with BFS ----------------


@settings(max_examples=100)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.integers(0, 10**6), st.data())
def test_floodit_generated_boards_agree_with_brute_force(
    rows: int, cols: int, colours: int, seed: int, data: st.DataObject
) -> None:
    colours = min(colours, rows * cols)
    board = random_board(rows, cols, colours, seed)
    start = (data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1)))
    best = optimum_by_bfs(board.grid, start)
    out = run_mode(board, "min", (), start=start)
    assert out.status == "optimal" and out.length == best
    assert out.lower_bound == out.upper_bound == best
    final, _ = replay(board.grid, out.moves, start)
    assert is_flooded(final)
    quick = run_mode(board, "solve", (), start=start)
    assert quick.status in ("solved", "optimal") and quick.length >= best
    final, _ = replay(board.grid, quick.moves, start)
    assert is_flooded(final)


# -- Nurikabe: draw a valid picture, read clues off it, solve ------------------------------

NURIKABE_SHAPES = {
    "square4x4": (rectangle(4, 4), "squares"),
    "square3x5": (rectangle(3, 5), "squares"),
    "torus4x4": (torus(4, 4), "squares"),
    "hex3x4": (hex_grid(3, 4), "hex"),
}


def nurikabe_from(shape: str, seed: int) -> tuple[NurikabeInstance, tuple[bool, ...]] | None:
    graph, kind = NURIKABE_SHAPES[shape]
    pools = tuple(graph.squares()) if kind == "squares" else hex_pools(graph)
    rng = random.Random(seed)
    blank = NurikabeInstance(graph, {}, pools)
    picture = random_picture(blank, rng, max_island=5, density=rng.choice([0.1, 0.3, 0.5]))
    if picture is None:
        return None
    return NurikabeInstance(
        graph, clues_of(blank, picture, rng), pools, f"{shape} seed {seed}"
    ), picture


@pytest.mark.parametrize("shape", sorted(NURIKABE_SHAPES))
def test_nurikabe_generated_puzzles_agree_with_brute_force(shape: str) -> None:
    """Every solution found passes the checker; the sets match brute force; the drawn
    picture is among them (under both connectivity strategies)."""
    checked = 0
    for seed in range(12):
        made = nurikabe_from(shape, seed)
        if made is None:
            continue
        puzzle, picture = made
        expected = nurikabe_brute_force(puzzle)
        assert picture in expected
        for strategy in ("distance", "lazy"):
            outcome, _ = nurikabe_solve(puzzle, strategy, count=len(expected) + 1)
            assert outcome.status == "solved" and outcome.count_complete
            assert set(outcome.solutions) == expected, (shape, seed, strategy)
            for found in outcome.solutions:
                assert nurikabe_problems(puzzle.graph, puzzle.clues, puzzle.pools, found) == []
        checked += 1
    assert checked >= 6, f"the generator drew too few pictures on {shape}"


@pytest.mark.parametrize("seed", range(6))
def test_nurikabe_larger_generated_puzzles_pass_the_checker(seed: int) -> None:
    graph = rectangle(9, 9)
    rng = random.Random(seed)
    blank = NurikabeInstance(graph, {}, tuple(graph.squares()))
    pictures = (random_picture(blank, rng) for _ in range(20))
    picture = next(p for p in pictures if p is not None)
    puzzle = NurikabeInstance(graph, clues_of(blank, picture, rng), blank.pools)
    outcome, _ = nurikabe_solve(puzzle, "distance")
    assert outcome.status == "solved"
    assert nurikabe_problems(graph, puzzle.clues, puzzle.pools, outcome.solutions[0]) == []


# -- Koburin: draw black cells and a loop, read the numbers off, solve ---------------------


def koburin_from(rows: int, cols: int, seed: int, variant: str = "four") -> KoburinInstance:
    graph = rectangle(rows, cols)
    rng = random.Random(seed)
    edges = random_loop(graph, rng, fill=0.7)
    on_loop = {i for e in edges for i in e}
    off_loop = [i for i in range(len(graph)) if i not in on_loop]
    black = random_black(graph, off_loop, rng, 0.5)
    answer = Solution(frozenset(black), frozenset(edges))
    numbered = set(off_loop) - black
    blank = KoburinInstance(graph, {i: None for i in numbered}, variant)
    clues = {i: len(set(blank.counted[i]) & answer.black) for i in numbered}
    # Hide a few numbers as '?' so unknown clues are exercised too.
    clues = {i: (None if rng.random() < 0.2 else n) for i, n in clues.items()}
    return KoburinInstance(graph, clues, variant)


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 4), (4, 3)])
@pytest.mark.parametrize("variant", ["four", "eight"])
def test_koburin_generated_puzzles_agree_with_brute_force(
    rows: int, cols: int, variant: str
) -> None:
    checked = 0
    for seed in range(4):
        puzzle = koburin_from(rows, cols, seed, variant)
        expected = koburin_brute_force(puzzle)
        assert expected, "the drawn answer solves its own numbers"
        outcome = koburin_solve(puzzle, count=len(expected) + 1)
        assert len(outcome.solutions) == len(expected) and outcome.count_complete
        assert set(outcome.solutions) == expected
        for s in outcome.solutions:
            assert koburin_problems(puzzle, s.black, s.edges, s.loop()) == []
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("seed", range(4))
def test_koburin_larger_generated_puzzles_pass_the_checker(seed: int) -> None:
    puzzle = koburin_from(10, 10, seed)
    assert puzzle is not None
    for connectivity in ("lazy", "distance"):
        outcome = koburin_solve(puzzle, connectivity=connectivity)
        assert outcome.status == "solved"
        s = outcome.solution
        assert s is not None and koburin_problems(puzzle, s.black, s.edges, s.loop()) == []
