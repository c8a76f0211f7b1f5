"""Backtracking over the deductions: searched whole, it lists exactly the solutions
brute force finds; cut short, it claims nothing; and the search keeps what it, or any
other detour between the solver's phases, proves or finds.
"""

from __future__ import annotations

import importlib
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

from smtpuzzles.engines import Stats
from smtpuzzles.puzzles.nurikabe import NurikabeInstance, deduce, solve
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.presolve.backtrack import backtrack
from smtpuzzles.puzzles.nurikabe.presolve.deduce import wall_size
from smtpuzzles.puzzles.nurikabe.presolve.probe import probe
from smtpuzzles.puzzles.nurikabe.search import DETOURS, Search


@pytest.mark.parametrize("puzzle", as_params(PUZZLES))
def test_a_whole_search_finds_every_solution_once(puzzle: NurikabeInstance) -> None:
    """From the deductions and from the hypotheses, whichever way the guesses go."""
    solutions = solutions_of(puzzle.name)
    for known in starts(puzzle):
        trial = backtrack(puzzle, known, nodes=10**6, most=len(solutions) + 1)
        assert trial.finished
        assert pictures(puzzle, trial.solutions) == sorted(solutions)


@pytest.mark.slow
def test_the_cases_leave_the_search_work() -> None:
    """Many cases reach the search with open cells, some with no solution at all, some
    with several: the test above does not pass by finding every puzzle decided."""
    starts = [(p, deduce(p)) for p in PUZZLES]
    searched = [(p, k) for p, k in starts if is_open(p, k)]
    assert len(searched) >= 50
    assert sum(not solutions_of(p.name) for p, _ in searched) >= 5
    assert sum(len(solutions_of(p.name)) >= 2 for p, _ in searched) >= 10


@pytest.mark.slow
def test_a_search_cut_short_claims_nothing() -> None:
    """Stopped by its node budget or time limit, or at the second solution, it is not
    finished."""
    for puzzle in PUZZLES:
        known = deduce(puzzle)
        if not is_open(puzzle, known):
            continue
        trial = backtrack(puzzle, known, nodes=1)
        assert (trial.finished, trial.solutions, trial.nodes) == (False, [], 1)
        trial = backtrack(puzzle, known, seconds=0.0)
        assert (trial.finished, trial.solutions, trial.nodes) == (False, [], 1)
        solutions = solutions_of(puzzle.name)
        if len(solutions) >= 2:
            trial = backtrack(puzzle, known, nodes=10**6, most=2)
            assert not trial.finished and len(trial.solutions) == 2
            assert set(pictures(puzzle, trial.solutions)) <= solutions


@pytest.mark.parametrize("name", list(DETOURS))
@pytest.mark.slow
def test_the_search_keeps_what_a_detour_proves(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A unique solution proved by the backtracking, or by growing the wall, becomes
    the formula's facts (and no other detour runs); no solution ends the search
    without a check. (Without the hypotheses, which decide these small puzzles whole
    whenever they have one solution.)"""
    solve_module = importlib.import_module("smtpuzzles.puzzles.nurikabe.search")
    monkeypatch.setattr(solve_module, "probe", lambda puzzle, known, seconds=None: known)
    proved = refuted = 0
    for puzzle in PUZZLES:
        solutions = solutions_of(puzzle.name)
        stats = Stats()
        search = Search(puzzle, stats=stats)
        if search.refuted or not is_open(puzzle, search.enc.known) or len(solutions) > 1:
            continue
        if wall_size(puzzle) is None:  # the wall's size unknown: it is not grown
            continue
        search.detour(name)
        assert stats.probes[-1]["label"] == name
        if not solutions:
            refuted += 1
            assert search.refuted and stats.probes[-1]["answer"] == "no solution"
            assert search.next() is None and search.checks == 0
        else:
            proved += 1
            assert not is_open(puzzle, search.enc.known) and search.detours == []
            assert stats.probes[-1]["answer"] == "one solution"
            assert search.next() in solutions
            outcome, _ = solve(puzzle, unique=True)
            assert outcome.unique is True
    assert proved >= 3 and refuted >= 10, (proved, refuted)


@pytest.mark.slow
def test_pictures_a_search_cut_short_found_come_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped at a second solution, the backtracking proves nothing, but the two
    pictures are solutions: the search gives them before any solver round, and
    ``--unique`` says "not unique" from them."""
    solve_module = importlib.import_module("smtpuzzles.puzzles.nurikabe.search")
    monkeypatch.setattr(solve_module, "probe", lambda puzzle, known, seconds=None: known)
    given = 0
    for puzzle in PUZZLES:
        solutions = solutions_of(puzzle.name)
        search = Search(puzzle, stats=Stats())
        if len(solutions) < 2 or not is_open(puzzle, search.enc.known):
            continue
        search.detour("backtracking")
        assert search.stats.probes[-1]["answer"] == "2 solutions found, then stopped"
        first = search.next()
        search.block(first)
        second = search.next()
        assert {first, second} <= solutions and first != second and search.checks == 0
        given += 1
        outcome, _ = solve(puzzle, unique=True)
        assert outcome.unique is False
    assert given >= 10, given


@pytest.mark.slow
def test_backtracking_solves_a_puzzle_the_solver_stalls_on(data_dir: Path) -> None:
    """Janko 1091 (15x15): Z3 gave no answer in 60 s; the hypotheses decide one cell,
    and the tree of guesses from there, searched whole, holds its known answer alone."""
    path = data_dir / "nurikabe" / "janko_1091_15x15.txt"
    puzzle = parse(path.read_text(), str(path))
    proves_the_answer(path, backtrack(puzzle, probe(puzzle, deduce(puzzle))), "backtracking")
