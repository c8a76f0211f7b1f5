"""Flood-It edge cases, the shipped boards' manifest, and the color-flood-rs boards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles.corpora import corpus_file

from smtpuzzles.errors import CheckFailure
from smtpuzzles.puzzles.floodit.check import check_solution, play
from smtpuzzles.puzzles.floodit.formats import load_board, parse_board
from smtpuzzles.puzzles.floodit.search import run_mode

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "floodit"
MODES = [("min", ()), ("opt", ()), ("solve", ()), ("search", (0, 30))]


@pytest.mark.parametrize(
    ("text", "optimum"),
    [
        ("0", 0),  # 1x1
        ("000\n000", 0),  # one colour: nothing to do
        ("01", 1),
        ("0101010", 6),  # one row
        ("0\n1\n0\n2\n0", 4),  # one column
        ("01\n10", 2),  # two colours
        ("012\n120", 3),  # non-square
        ("010101010101\n101010101010", 12),  # 2x12: color-flood-rs called it unsat
        ("001122001122\n001122001122", 5),
    ],
)
def test_small_boards_in_every_mode(text: str, optimum: int) -> None:
    board = parse_board(text)
    for mode, args in MODES:
        got = run_mode(board, mode, args)
        assert got.status in ("optimal", "solved"), (mode, got)
        check_solution(board.grid, got.moves)
        if mode != "solve":
            assert got.length == optimum, (mode, got)


def test_nine_by_nine_two_colours_has_optimum_four_in_every_mode() -> None:
    # Five bands, so four moves: color-flood-rs's binary search over exact-length
    # formulas (not monotone) reported a board like this as unsat.
    rows = ["000000000"] * 2 + ["111111111"] * 2 + ["000000000"] * 2 + ["111111111"] * 2
    board = parse_board("\n".join([*rows, "000000000"]))
    for mode, args in MODES:
        got = run_mode(board, mode, args)
        assert got.length == 4, mode
    assert run_mode(board, "exact", (5,)).status == "unsat"
    checker = parse_board("\n".join(("01" * 5)[r % 2 : r % 2 + 9] for r in range(9)))
    got = run_mode(checker, "min")
    assert (got.status, got.length) == ("optimal", 16)


def test_exact_lengths_around_the_optimum() -> None:
    board = parse_board("0120\n2011\n1202")
    best = run_mode(board, "min").length
    assert best is not None
    assert run_mode(board, "exact", (best - 1,)).status == "unsat"
    assert run_mode(board, "exact", (best,)).length == best
    longer = run_mode(board, "exact", (best + 1,))
    assert longer.status == "unsat" or longer.length == best + 1


def test_checker_refuses_bad_answers() -> None:
    grid = [[0, 1], [1, 2]]
    check_solution(grid, [1, 2])
    for moves, why in (
        ([1], "several colours"),
        ([0], "already"),
        ([1, 1], "already"),
        ([3], "not on the board"),
        ([2, 1], "no new cell"),
    ):
        with pytest.raises(CheckFailure, match=why):
            check_solution(grid, moves)
    assert play(grid, [1, 2])[-1] == [[2, 2], [2, 2]]


@pytest.mark.slow
def test_manifest_optima_of_the_shipped_boards() -> None:
    manifest = json.loads((INSTANCES / "manifest.json").read_text())
    boards = sorted(p.name for p in INSTANCES.glob("*.txt"))
    assert sorted(manifest) == boards and len(boards) >= 12
    for name, optimum in manifest.items():
        got = run_mode(load_board(str(INSTANCES / name)), "min")
        assert (got.status, got.length) == ("optimal", optimum), name


@pytest.mark.parametrize(
    ("name", "optimum"),
    [("000.txt", 4), ("001.txt", 5), ("001b.txt", 3), ("002.txt", 14), ("003.txt", 24)],
)
def test_color_flood_rs_boards_reach_their_optima(data_dir: Path, name: str, optimum: int) -> None:
    path = corpus_file(data_dir / "floodit" / "color-flood-rs" / name)
    got = run_mode(load_board(str(path)), "min")
    assert (got.status, got.length, got.lower_bound) == ("optimal", optimum, optimum)


def test_a_99problems_board_matches_its_stated_optimum(data_dir: Path) -> None:
    path = corpus_file(data_dir / "floodit" / "99problems" / "12_12_06_001")
    board = load_board(str(path))
    assert board.known_optimum == run_mode(board, "min").length == 18


def test_exact_beyond_the_cluster_count_is_unsat_without_building() -> None:
    board = parse_board("0120\n2011")
    got = run_mode(board, "exact", (10**6,), print_asserts=True)
    assert got.status == "unsat" and got.smtlib is not None and "no formula" in got.smtlib
