"""Flood-It generate --optimum: the board's proven optimum is the one asked for."""

from __future__ import annotations

from pathlib import Path

from oracles.cli import assert_bad_input, benched, cli, generated, run_process

from smtpuzzles import api
from smtpuzzles.puzzles.floodit.formats import parse_board
from smtpuzzles.puzzles.floodit.puzzle import FloodIt


def test_board_has_the_optimum_asked() -> None:
    result = cli("floodit", "generate", "7", "7", "4", "--seed", "3", "--optimum", "8")
    assert result.exit_code == 0, result.stderr
    board = parse_board(result.stdout, "<stdout>")
    answer = api.solve(FloodIt(board), "min")
    assert answer.status == "optimal" and answer.upper_bound == 8


def test_an_optimum_below_the_colours_is_refused() -> None:
    assert_bad_input(cli("floodit", "generate", "5", "5", "4", "--optimum", "2"))


def test_batch_of_optima_reads_back_into_bench(tmp_path: Path) -> None:
    folder = tmp_path / "made"
    argv = ["floodit", "generate", "5", "5", "3", "--optimum", "5", "--count", "2"]
    assert len(generated(argv, folder)) == 2
    rows = benched("floodit", folder, tmp_path / "rows.jsonl")
    assert len(rows) == 2 and all(r["verdict"] == "ok" and r["known"] == "5" for r in rows), rows


def test_an_optimum_out_of_reach_stops_at_the_time_limit() -> None:
    argv = ["floodit", "generate", "30", "30", "8", "--optimum", "5000", "--timeout", "2"]
    run = run_process(argv)
    assert run.returncode == 3, (run.returncode, run.stderr)
    assert run.stdout == "" and "Traceback" not in run.stderr
