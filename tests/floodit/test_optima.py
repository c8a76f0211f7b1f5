"""Flood-It modes against a brute-force optimum (BFS over flooded sets of cells).

The oracle below shares nothing with the package: it works on cells, not clusters.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
import z3

from smtpuzzles.puzzles.floodit import search as modes
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.model import Board, cluster_graph
from smtpuzzles.puzzles.floodit.rules import FloodFormula
from smtpuzzles.puzzles.floodit.search import run_mode


def _absorb(grid: list[list[int]], region: frozenset, colour: int) -> frozenset:
    """The region after a move of ``colour``: it swallows connected cells of that colour."""
    rows, cols = len(grid), len(grid[0])
    grown = set(region)
    stack = list(region)
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in grown:
                if grid[nr][nc] == colour:
                    grown.add((nr, nc))
                    stack.append((nr, nc))
    return frozenset(grown)


def brute_force_optimum(grid: list[list[int]], start: tuple[int, int] = (0, 0)) -> int:
    """Least number of moves, by breadth-first search over flooded regions."""
    everything = frozenset((r, c) for r in range(len(grid)) for c in range(len(grid[0])))
    colours = {v for row in grid for v in row}
    first = _absorb(grid, frozenset([start]), grid[start[0]][start[1]])
    depth = {first: 0}
    queue = deque([first])
    while queue:
        region = queue.popleft()
        if region == everything:
            return depth[region]
        for colour in colours:
            nxt = _absorb(grid, region, colour)
            if nxt not in depth:
                depth[nxt] = depth[region] + 1
                queue.append(nxt)
    raise AssertionError("unreachable: a grid is connected")


def random_boards(count: int, seed: int) -> list[Board]:
    """Boards up to 6x6 with 2 to 6 colours (every colour used)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        k = rng.randint(2, 6)
        if k > rows * cols:
            continue
        cells = [rng.randrange(k) for _ in range(rows * cols)]
        if len(set(cells)) != k:
            continue
        grid = tuple(tuple(cells[r * cols : (r + 1) * cols]) for r in range(rows))
        boards.append(Board(grid, k, f"random{len(boards)}"))
    return boards


BOARDS = random_boards(300, seed=2024)


@pytest.fixture(scope="module")
def optima() -> list[int]:
    return [brute_force_optimum([list(r) for r in b.grid]) for b in BOARDS]


def test_oracle_knows_small_cases() -> None:
    assert brute_force_optimum([[0]]) == 0
    assert brute_force_optimum([[0, 1]]) == 1
    assert brute_force_optimum([[0, 1, 0]]) == 2
    assert brute_force_optimum([[0, 1, 2, 1, 0]]) == 4
    assert brute_force_optimum([[0, 1], [1, 2]]) == 2


@pytest.mark.slow
def test_min_and_search_agree_with_brute_force(optima: list[int]) -> None:
    for board, best in zip(BOARDS, optima, strict=True):
        got = run_mode(board, "min")
        assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
        check_solution(board.grid, got.moves)
        found = run_mode(board, "search", (max(0, best - 2), best + 3))
        assert (found.status, found.length) == ("optimal", best), board
        below = run_mode(board, "search", (0, best - 1)) if best > 0 else None
        assert below is None or below.status == "unsat", board
    assert len(set(optima)) >= 6  # the boards are varied enough to mean something


@pytest.mark.slow
def test_opt_agrees_with_brute_force(optima: list[int]) -> None:
    for board, best in zip(BOARDS, optima, strict=True):
        got = run_mode(board, "opt")
        assert (got.status, got.length) == ("optimal", best), board


@pytest.mark.slow
def test_exact_is_sat_at_optimum_and_unsat_below(optima: list[int]) -> None:
    for board, best in list(zip(BOARDS, optima, strict=True))[:100]:
        at = run_mode(board, "exact", (best,))
        assert at.status == "solved" and at.length == best, board
        if best > 0:
            assert run_mode(board, "exact", (best - 1,)).status == "unsat", board


@pytest.mark.slow
def test_solve_is_always_valid(optima: list[int]) -> None:
    for board, best in zip(BOARDS, optima, strict=True):
        got = run_mode(board, "solve")
        assert got.status == "solved"
        check_solution(board.grid, got.moves)
        assert got.length >= best


@pytest.mark.parametrize("nodes", [1, 50, 10**5])
@pytest.mark.slow
def test_bounds_before_z3_keep_min_and_search_exact(optima: list[int], nodes: int) -> None:
    for board, best in list(zip(BOARDS, optima, strict=True))[:60]:
        got = run_mode(board, "min", bound_nodes=nodes)
        assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
        assert got.proven_by in ("bounds", "A*", "z3")
        found = run_mode(board, "search", (max(0, best - 2), best + 3), bound_nodes=nodes)
        assert (found.status, found.length) == ("optimal", best), board
        if best > 0:
            below = run_mode(board, "search", (0, best - 1), bound_nodes=nodes)
            assert below.status == "unsat", board
    if nodes == 10**5:  # a finished A* proves every optimum the playout reaches
        by_bounds = [run_mode(b, "min", bound_nodes=nodes).proven_by for b in BOARDS[:60]]
        assert by_bounds.count("bounds") >= 30


def test_both_strategies_agree_with_brute_force(optima: list[int]) -> None:
    for board, best in list(zip(BOARDS, optima, strict=True))[:80]:
        for strategy in ("mixed", "downward"):
            got = run_mode(board, "min", strategy=strategy)
            assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
            found = run_mode(board, "search", (max(0, best - 3), best + 4), strategy=strategy)
            assert (found.status, found.length) == ("optimal", best), board


@pytest.mark.parametrize("trigger", ["conflicts", "gap"])
@pytest.mark.slow
def test_the_clause_form_agrees_with_brute_force(
    optima: list[int], monkeypatch: pytest.MonkeyPatch, trigger: str
) -> None:
    """Every probe passing one conflict (or every board: any gap between the bounds)
    moves to the flood rule as clauses, and the answers stay the brute-force optima
    (min, exact at and below them)."""
    monkeypatch.setattr(modes, "CLAUSES_AFTER" if trigger == "conflicts" else "WIDE_GAP", 1)
    switched = 0
    for board, best in list(zip(BOARDS, optima, strict=True))[:120]:
        got = run_mode(board, "min", engine="sat", bound_nodes=0)  # Z3 proves it, not A*
        assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
        switched += any("as clauses" in note for note in got.notes)
        if best > 0:
            assert run_mode(board, "exact", (best,), engine="sat").length == best, board
            assert run_mode(board, "exact", (best - 1,), engine="sat").status == "unsat", board
    assert switched >= 1  # most of these boards need no conflict at all


@pytest.mark.slow
def test_the_clause_form_is_sat_at_the_optimum_and_unsat_below(optima: list[int]) -> None:
    for board, best in zip(BOARDS, optima, strict=True):
        formula = FloodFormula(cluster_graph(board.grid), clauses=True)
        assert formula.solver is not None
        assert formula.solver.check(*formula.goal(best)) == z3.sat, board
        if best > 0:
            assert formula.solver.check(*formula.goal(best - 1)) == z3.unsat, board
