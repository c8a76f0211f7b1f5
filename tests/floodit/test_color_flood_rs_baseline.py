"""The color-flood-rs baseline: its exact-length formulas and its non-monotone ``min``."""

from __future__ import annotations

import json
import os
import random
import tempfile

import pytest
import z3
from oracles.floodit import (
    exact_lengths,
    is_flooded,
    optimum_by_bfs,
    random_grid,
    replay_allowing_noops,
)

from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.reference.rules import (
    loose_bound,
    reference_exact,
    reference_formula,
    reference_min,
)
from smtpuzzles.smtlib import smtlib_script


def parse(text: str) -> list[list[int]]:
    return [[int(ch) for ch in line] for line in text.split()]


@pytest.mark.slow
def test_exact_formulas_are_sat_exactly_at_the_lengths_play_allows() -> None:
    rng = random.Random(3)
    for _ in range(25):
        grid = random_grid(rng, rng.randint(1, 4), rng.randint(2, 4), rng.randint(2, 3))
        g = cluster_graph(grid)
        optimum = optimum_by_bfs(grid)
        allowed = exact_lengths(grid, optimum + 2)
        for horizon in range(max(0, optimum - 1), optimum + 3):
            answer, moves = reference_exact(g, horizon, Budget())
            assert (answer == z3.sat) == (horizon in allowed), (grid, horizon)
            if moves is not None:
                assert len(moves) == horizon
                assert is_flooded(replay_allowing_noops(grid, moves))


def test_min_finds_the_optimum_on_the_color_flood_rs_examples() -> None:
    grid = parse("011101 011012 021101 100020 000112 110220")  # the README's 6x6 example
    length, moves, probes = reference_min(cluster_graph(grid), Budget())
    assert length == optimum_by_bfs(grid)
    assert moves is not None and is_flooded(replay_allowing_noops(grid, moves))
    assert [p["horizon"] for p in probes][0] == loose_bound(cluster_graph(grid)) // 2


def test_min_misses_an_optimum_of_four_because_exact_lengths_are_not_monotone() -> None:
    grid = parse(
        "101010000 000000100 000001000 111110011 100000010 111111111 000000000 000000010 000100100"
    )
    assert optimum_by_bfs(grid) == 4
    length, moves, probes = reference_min(cluster_graph(grid), Budget())
    assert (length, moves) == (None, None)
    assert [(p["horizon"], p["answer"]) for p in probes][0] == (6, "unsat")  # 4 and 5 only


def test_min_misses_wide_boards_because_its_bound_ignores_width() -> None:
    grid = [[c % 2 for c in range(12)], [(c + 1) % 2 for c in range(12)]]
    assert optimum_by_bfs(grid) == 12  # a checkerboard: one move per diagonal
    assert loose_bound(cluster_graph(grid)) == 2
    assert reference_min(cluster_graph(grid), Budget())[0] is None


def test_one_row_boards_answer_instead_of_crashing() -> None:
    assert reference_min(cluster_graph([[0, 0]]), Budget())[:2] == (0, [])
    assert reference_min(cluster_graph([[0, 1, 0]]), Budget())[0] is None  # bound 0


def test_the_formula_prints_as_standard_smtlib() -> None:
    g = cluster_graph(parse("012 120"))
    script = smtlib_script(reference_formula(g, 3).assertions)
    assert "(declare-fun colour_t2 () Int)" in script
    assert "flooded_c0_t3" in script and script.rstrip().endswith("(check-sat)")
    assert "pbeq" not in script.lower() and "(_ at" not in script.lower()


def test_an_exhausted_budget_stops_the_search_with_nothing_claimed() -> None:
    g = cluster_graph(parse("011101 011012 021101 100020 000112 110220"))
    length, moves, probes = reference_min(g, Budget(0.0))
    assert (length, moves) == (None, None)
    assert [p["answer"] for p in probes] == ["unknown"]


def cli(*argv: str, board: str) -> tuple[int, dict]:
    from typer.testing import CliRunner

    from smtpuzzles.cli import app

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(board.replace(" ", "\n") + "\n")
    try:
        result = CliRunner().invoke(
            app, ["floodit", *argv, f.name, "--encoding", "reference", "--json"]
        )
    finally:
        os.unlink(f.name)
    return result.exit_code, json.loads(result.output)


README_6X6 = "011101 011012 021101 100020 000112 110220"
NOT_MONOTONE = (
    "101010000 000000100 000001000 111110011 100000010 111111111 000000000 000000010 000100100"
)


def test_cli_min_reports_the_baseline_answer_as_solved_never_optimal() -> None:
    code, res = cli("min", board=README_6X6)
    assert code == 0 and res["status"] == "solved"
    assert res["length"] == optimum_by_bfs(parse(README_6X6))
    assert res["lower_bound"] is None


def test_cli_min_says_no_solution_where_the_old_tool_does() -> None:
    code, res = cli("min", board=NOT_MONOTONE)
    assert (code, res["status"], res["moves"]) == (1, "unsat", None)


def test_cli_opt_is_proven_and_solve_keeps_its_no_op_moves() -> None:
    grid = parse(README_6X6)
    code, res = cli("opt", board=README_6X6)
    assert (code, res["status"], res["length"]) == (0, "optimal", optimum_by_bfs(grid))
    code, res = cli("solve", board=README_6X6)
    assert code == 0 and res["status"] == "solved"
    assert res["length"] == loose_bound(cluster_graph(grid))
    assert is_flooded(replay_allowing_noops(grid, res["moves"]))


@pytest.mark.slow
def test_cli_exact_and_search_follow_exact_length_semantics() -> None:
    grid = parse(README_6X6)
    allowed = exact_lengths(grid, 12)
    for n in range(3, 12):
        code, res = cli("exact", str(n), board=README_6X6)
        assert (res["status"] == "solved") == (n in allowed), n
    code, res = cli("search", "0", "12", board=README_6X6)
    assert res["status"] == "solved" and res["length"] in allowed
