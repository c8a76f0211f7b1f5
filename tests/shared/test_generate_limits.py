"""Every ``generate`` holds the limits as solving does: ``--timeout`` and ``--memory``
(exit 3), Ctrl-C (exit 130 and nothing partial printed), sizes refused before anything
is allocated, and its output files checked together before any work."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracles.cli import assert_bad_input, cli, run_process

KINDS = {
    "nurikabe": ["nurikabe", "generate"],
    "koburin": ["koburin", "generate"],
    "floodit": ["floodit", "generate"],
}


def sized(kind: str, rows: int, cols: int) -> list[str]:
    extra = ["4"] if kind == "floodit" else []
    return [*KINDS[kind], str(rows), str(cols), *extra]


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
def test_timeout_on_a_huge_grid_stops_in_time(kind: str) -> None:
    run = run_process([*sized(kind, 100, 100), "--timeout", "2"], hard_limit_s=60)
    assert run.returncode == 3, (run.returncode, run.stderr)
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and "time limit" in run.stderr, run.stderr
    assert run.wall_s <= 2.5 * run.stretch + 0.5, (run.wall_s, run.stretch)


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
def test_memory_cap_holds(kind: str) -> None:
    run = run_process([*sized(kind, 50, 50), "--memory", "300", "--timeout", "20"])
    assert run.returncode in (0, 3), (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    assert run.peak_mb < 300 + 150, run.peak_mb  # the cap counts beyond Python and Z3 loaded


def test_a_cap_too_small_for_a_z3_context_is_a_memory_stop() -> None:
    """Koburin's generator made its Z3 context past the cap's check: a segfault. (It now
    needs no solver, so a tiny cap may also be enough.)"""
    run = run_process(["koburin", "generate", "10", "8", "--timeout", "5", "--memory", "16"])
    assert run.returncode in (0, 3), (run.returncode, run.stderr)
    if run.returncode == 3:
        assert run.stderr.startswith("smtpuzzles: error: memory limit reached"), run.stderr


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
def test_ctrl_c_prints_nothing_and_exits_130(kind: str) -> None:
    run = run_process(sized(kind, 40, 40), interrupt_after=1.0, hard_limit_s=60)
    assert run.returncode == 130, (run.returncode, run.stderr)
    assert run.stdout == "", run.stdout
    assert run.stderr.splitlines() == ["smtpuzzles: error: interrupted"], run.stderr
    assert run.wall_s < 1.0 * run.stretch + 5.0, (run.wall_s, run.stretch)


@pytest.mark.parametrize("kind", ["nurikabe", "koburin", "floodit"])
@pytest.mark.parametrize("size", [("1000", "1000"), ("2", "300000")])
def test_sizes_are_refused_before_anything_is_made(kind: str, size: tuple[str, str]) -> None:
    extra = ["4"] if kind == "floodit" else []
    assert_bad_input(cli(*KINDS[kind], *size, *extra))


@pytest.mark.parametrize("kind", ["nurikabe", "koburin", "floodit"])
@pytest.mark.parametrize("option", [("--timeout", "0"), ("--timeout", "nan"), ("--memory", "x")])
def test_bad_limits_are_refused(kind: str, option: tuple[str, str]) -> None:
    result = cli(*sized(kind, 5, 5), *option)
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr


def test_koburin_solution_and_output_naming_one_file_are_refused_before_writing(
    tmp_path: Path,
) -> None:
    target = tmp_path / "kg.txt"
    assert_bad_input(cli(*sized("koburin", 6, 6), "-o", str(target), "--solution", str(target)))
    assert not target.exists()


def test_koburin_existing_solution_file_is_refused_before_the_puzzle_is_written(
    tmp_path: Path,
) -> None:
    puzzle, answer = tmp_path / "kg.txt", tmp_path / "kg.sol"
    answer.write_text("keep")
    assert_bad_input(cli(*sized("koburin", 6, 6), "-o", str(puzzle), "--solution", str(answer)))
    assert not puzzle.exists() and answer.read_text() == "keep"


def test_nurikabe_generate_help_speaks_only_of_its_own_options() -> None:
    result = cli("nurikabe", "generate", "--help")
    assert result.exit_code == 0
    assert "--svg" not in result.stdout and "--timeout" in result.stdout
    assert "--memory" in result.stdout


def test_time_limit_during_the_uniqueness_search_is_exit_3_not_ctrl_c() -> None:
    """Z3's own timeout fires a moment before the budget's: still the time limit."""
    run = run_process(["nurikabe", "generate", "12", "12", "--timeout", "3"], hard_limit_s=60)
    assert run.returncode in (0, 3), (run.returncode, run.stderr)
    assert "interrupted" not in run.stderr and "Traceback" not in run.stderr


@pytest.mark.slow
def test_nurikabe_generate_without_a_timeout_ends() -> None:
    """A seed whose search once ran on without end (10x10 seed 7): without --timeout the
    command still ends on its own, with a puzzle or the one-line time-limit stop."""
    run = run_process(["nurikabe", "generate", "10", "10", "--seed", "7"], hard_limit_s=150)
    assert run.returncode in (0, 3), (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    if run.returncode == 3:
        assert run.stderr.count("\n") == 1 and "time limit" in run.stderr, run.stderr
    else:
        assert run.stdout.startswith("10 10\n") and run.stdout.count("\n") == 11, run.stdout
