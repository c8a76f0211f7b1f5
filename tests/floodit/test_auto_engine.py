"""``--engine auto`` (the default): Z3's SAT core answers a search's probes until one
proves hard, then CaDiCaL answers the rest. Answers are held to the brute-force optimum
(the oracle shares nothing with the package) and to the checker, on both sides of the
hand-over."""

from __future__ import annotations

import random

import pytest
from oracles.floodit import optimum_by_bfs, random_grid

from smtpuzzles.puzzles.floodit import search
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.model import Board
from smtpuzzles.puzzles.floodit.search import run_mode


def boards(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    found = []
    for i in range(count):
        grid = random_grid(rng, rng.randint(3, 6), rng.randint(3, 6), rng.randint(3, 6))
        used = sorted({c for row in grid for c in row})
        rows = tuple(tuple(used.index(c) for c in row) for row in grid)
        found.append(Board(rows, len(used), f"random{i}"))
    return found


BOARDS = boards(30, seed=35)


def test_auto_hands_hard_probes_to_cadical(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every probe past one conflict counts as hard: the optimum is still brute force's,
    and the searches that needed a probe end proven by CaDiCaL."""
    monkeypatch.setattr(search, "CLAUSES_AFTER", 1)
    handed = 0
    for board in BOARDS:
        best = optimum_by_bfs([list(r) for r in board.grid])
        got = run_mode(board, "min", engine="auto", bound_nodes=0, presolve="none")
        assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
        check_solution(board.grid, got.moves)
        if any("handed to CaDiCaL" in note for note in got.notes):
            handed += 1
            assert got.proven_by in ("cadical", "bounds"), board
    assert handed > 0, "some search should have handed its probes over"


def test_auto_keeps_easy_probes_with_z3() -> None:
    """Quick probes stay with Z3: the same answers and provers as ``--engine sat``."""
    for board in BOARDS[:15]:
        auto = run_mode(board, "min", engine="auto", bound_nodes=0)
        sat = run_mode(board, "min", engine="sat", bound_nodes=0)
        assert (auto.status, auto.length, auto.proven_by) == (sat.status, sat.length, sat.proven_by)
        assert not any("CaDiCaL" in note for note in auto.notes)


def test_opt_with_auto_is_z3s_optimize() -> None:
    board = BOARDS[0]
    got = run_mode(board, "opt", engine="auto")
    assert got.status == "optimal" and got.length == optimum_by_bfs([list(r) for r in board.grid])
