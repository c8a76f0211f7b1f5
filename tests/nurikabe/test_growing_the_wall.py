"""Growing the wall: searched whole, it lists exactly the solutions brute force finds,
each once, and on bigger random puzzles those the solver counts; its rule for
rectangles cuts the tree; and cut short, it claims nothing.
(``test_backtracking.py`` checks that the search keeps what it proves.)
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from oracles.nurikabe import (
    PUZZLES,
    as_params,
    is_open,
    pictures,
    proves_the_answer,
    solutions_of,
    starts,
)

from smtpuzzles.graph import rectangle
from smtpuzzles.puzzles.nurikabe import deduce, solve
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.generate import clues_of, random_picture
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance
from smtpuzzles.puzzles.nurikabe.presolve import grow as grow_module
from smtpuzzles.puzzles.nurikabe.presolve.deduce import wall_size
from smtpuzzles.puzzles.nurikabe.presolve.grow import MOST_OPEN, grow_wall
from smtpuzzles.puzzles.nurikabe.presolve.probe import probe

THIN = Path(__file__).resolve().parents[2] / "instances" / "nurikabe" / "square_06x06_thin.txt"

#: The brute-force cases with a known wall size (a ``?`` clue leaves it unknown).
SIZED = [p for p in PUZZLES if wall_size(p) is not None]


@pytest.mark.parametrize("puzzle", as_params(SIZED))
def test_a_whole_search_finds_every_solution_once(puzzle: NurikabeInstance) -> None:
    """From the deductions and from the hypotheses: every wall is grown once."""
    solutions = solutions_of(puzzle.name)
    for known in starts(puzzle):
        trial = grow_wall(puzzle, known, nodes=10**6, most=len(solutions) + 1, most_open=None)
        assert trial.finished
        assert len(trial.solutions) == len(solutions)
        assert pictures(puzzle, trial.solutions) == sorted(solutions)


@pytest.mark.slow
def test_the_cases_give_the_rectangle_rule_work() -> None:
    """Rectangles of two clues or more, puzzles with no solution and with several, and
    other shapes all reach the search: the test above covers each rule."""
    searched = [p for p in SIZED if is_open(p, deduce(p))]
    assert sum(p.is_grid and len(p.clues) > 1 for p in searched) >= 30
    assert sum(not p.is_grid for p in searched) >= 15
    assert sum(not solutions_of(p.name) for p in searched) >= 10
    assert sum(len(solutions_of(p.name)) >= 2 for p in searched) >= 10


def test_the_rows_and_columns_rule_cuts_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped thin-wall puzzle: a wall of 11 = 6 + 6 - 1 cells must meet every
    row and column, so it has no cycle and no cell in the box the grown part spans."""
    puzzle = parse(THIN.read_text(), str(THIN))
    known = deduce(puzzle)
    with_rule = grow_wall(puzzle, known, nodes=10**6)
    monkeypatch.setattr(grow_module, "_Span", lambda puzzle, known: None)
    without = grow_wall(puzzle, known, nodes=10**6)
    assert with_rule.finished and without.finished
    assert pictures(puzzle, with_rule.solutions) == pictures(puzzle, without.solutions)
    assert len(with_rule.solutions) == 1
    assert with_rule.nodes * 3 < without.nodes, (with_rule.nodes, without.nodes)


@pytest.mark.slow
def test_a_search_cut_short_or_not_tried_claims_nothing() -> None:
    """Stopped by its node budget or time limit, or at the second solution; or not
    tried, with a ``?`` clue or too many wall cells open: not finished."""
    for puzzle in PUZZLES:
        known = deduce(puzzle)
        if not is_open(puzzle, known):
            continue
        if wall_size(puzzle) is None:
            assert grow_wall(puzzle, known, most_open=None) == grow_module.Trial([], False, 0)
            continue
        if grow_wall(puzzle, known, nodes=10**6, most_open=None).nodes > 1:
            trial = grow_wall(puzzle, known, nodes=1, most_open=None)
            assert (trial.finished, trial.nodes) == (False, 1)
            assert set(pictures(puzzle, trial.solutions)) <= solutions_of(puzzle.name)
        trial = grow_wall(puzzle, known, seconds=0.0, most_open=None)
        assert (trial.finished, trial.solutions, trial.nodes) == (False, [], 1)
        assert grow_wall(puzzle, known, most_open=-1) == grow_module.Trial([], False, 0)
        solutions = solutions_of(puzzle.name)
        if len(solutions) >= 2:
            trial = grow_wall(puzzle, known, nodes=10**6, most=2, most_open=None)
            assert not trial.finished and len(trial.solutions) == 2
            assert set(pictures(puzzle, trial.solutions)) <= solutions


@pytest.mark.slow
def test_growing_the_wall_solves_a_puzzle_of_four_big_islands(data_dir: Path) -> None:
    """Janko 0753 (10x10; islands of 8, 15, 28 and 30, a wall of 19): Z3 and the
    backtracking gave no answer in 60 s; the walls grown, searched whole, hold its known
    answer alone, and the solver proves it unique through them."""
    path = data_dir / "nurikabe" / "janko_0753_10x10.txt"
    puzzle = parse(path.read_text(), str(path))
    known = probe(puzzle, deduce(puzzle))
    assert wall_size(puzzle) - len(known.black) <= MOST_OPEN
    proves_the_answer(path, grow_wall(puzzle, known), "growing the wall")


def thin_walled_puzzles(count: int) -> list[NurikabeInstance]:
    """Random rectangles of 5x5 to 7x7 with big islands, one clue in three nudged by
    one: puzzles with one solution, several and none, beyond brute force's sizes."""
    rng = random.Random("thin walls")
    found = []
    while len(found) < count:
        graph = rectangle(rng.randint(5, 7), rng.randint(5, 7))
        shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
        picture = random_picture(shape, rng, max_island=30, density=rng.choice([0.4, 0.6]))
        if picture is None:
            continue
        clues = clues_of(shape, picture, rng)
        if rng.random() < 1 / 3:
            k = rng.choice(sorted(clues))
            clues[k] = max(1, clues[k] + rng.choice([-1, 1]))
        found.append(NurikabeInstance(graph, clues, shape.pools, f"thin{len(found)}"))
    return found


@pytest.mark.slow
def test_whole_searches_match_the_solver_beyond_brute_force() -> None:
    """Every search that finishes lists exactly the pictures the solver counts."""
    finished = Counter()
    for puzzle in thin_walled_puzzles(150):
        outcome, _ = solve(puzzle, count=4)
        if not outcome.count_complete:  # four pictures or more: neither list is whole
            continue
        trial = grow_wall(puzzle, deduce(puzzle), nodes=20_000, most=4, most_open=None)
        assert set(pictures(puzzle, trial.solutions)) <= set(outcome.solutions)
        if trial.finished:
            assert sorted(outcome.solutions) == pictures(puzzle, trial.solutions)
            finished[min(len(outcome.solutions), 2)] += 1
    assert finished[0] >= 3 and finished[1] >= 5 and finished[2] >= 10, finished
