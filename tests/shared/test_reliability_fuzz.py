"""What the fuzz (``benchmarks/fuzz.py``) found, each kept as a test, and the fuzz's own
parts checked: a case forked from a warm parent ends as a fresh process would (exit,
output, traceback, Ctrl-C, a hang killed), and the oracle it checks answers with
rejects wrong ones.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from oracles.cli import run_process

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzz_oracle  # noqa: E402
import fuzz_warm  # noqa: E402

# -- faults the fuzz found ---------------------------------------------------------------


def test_a_proven_no_solution_whose_cnf_was_cut_short_ends_with_exit_3(tmp_path: Path) -> None:
    """Unsat is proven at once, but the CNF of a 20x20 formula takes longer than the
    limit: the CNF asked for is not written, so the run ends as limits do (exit 3, as
    for an answer found), not with exit 1 and ``stopped`` in its JSON."""
    board = tmp_path / "empty.txt"
    board.write_text("20,20\n")  # no clue: no island can be, so no solution
    result = run_process(
        [
            "nurikabe",
            "solve",
            str(board),
            "--presolve",
            "none",
            "--print-dimacs",
            "--json",
            "--timeout",
            "1",
        ]
    )
    obj = json.loads(result.stdout)
    assert obj["stopped"] == "timeout", obj
    assert result.returncode == 3, (result.returncode, obj, result.stderr)
    assert result.stderr.strip() == (
        "smtpuzzles: error: time limit reached; the CNF or proofs not written"
    )


# -- the warm parent runs a case as a fresh process would -------------------------------


@pytest.fixture(scope="module")
def warm() -> fuzz_warm.Pool:
    pool = fuzz_warm.Pool()
    yield pool
    pool.close()


def _case(
    pool: fuzz_warm.Pool,
    folder: Path,
    argv: list[str] | None = None,
    code: str | None = None,
    ctrl_c_at: float | None = None,
    hard_s: float = 60.0,
) -> tuple[dict, str, str]:
    folder.mkdir(exist_ok=True)
    request = {
        "argv": argv,
        "code": code,
        "args": [],
        "cwd": str(folder),
        "stdout": str(folder / "stdout"),
        "stderr": str(folder / "stderr"),
        "ctrl_c_at": ctrl_c_at,
        "hard_s": hard_s,
    }
    answer = pool.run(request)
    return answer, (folder / "stdout").read_text(), (folder / "stderr").read_text()


def test_a_forked_case_answers_as_a_fresh_process(warm: fuzz_warm.Pool, tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("012\n120\n201\n")
    argv = ["floodit", "min", "in.txt", "--json"]
    answer, out, err = _case(warm, tmp_path, argv)
    fresh = run_process([*argv[:2], str(tmp_path / "in.txt"), "--json"])
    assert answer["returncode"] == fresh.returncode == 0
    a, b = json.loads(out), json.loads(fresh.stdout)
    assert (a["status"], a["moves"]) == (b["status"], b["moves"]) == ("optimal", [1, 2, 0, 1])
    assert err == ""
    assert answer["cpu_s"] > 0 and not answer["killed"]


def test_a_forked_case_refuses_bad_input_as_a_fresh_process(
    warm: fuzz_warm.Pool, tmp_path: Path
) -> None:
    (tmp_path / "in.txt").write_text("01\n1x\n")
    answer, out, err = _case(warm, tmp_path, ["floodit", "min", "in.txt"])
    fresh = run_process(["floodit", "min", str(tmp_path / "in.txt")])
    assert answer["returncode"] == fresh.returncode == 2
    assert err.splitlines()[-1].split(":", 2)[:2] == ["smtpuzzles", " error"]
    assert "in.txt:2:2" in err and "in.txt:2:2" in fresh.stderr


def test_an_escaping_exception_is_a_traceback_and_exit_1(
    warm: fuzz_warm.Pool, tmp_path: Path
) -> None:
    """What Python prints for an exception nothing catches: the fuzz counts it."""
    answer, _, err = _case(warm, tmp_path, code="raise ValueError('boom')")
    assert answer["returncode"] == 1
    assert "Traceback (most recent call last)" in err and "ValueError: boom" in err


def test_a_hung_case_is_killed_at_its_hard_limit(warm: fuzz_warm.Pool, tmp_path: Path) -> None:
    answer, _, _ = _case(warm, tmp_path, code="import time; time.sleep(30)", hard_s=0.5)
    assert answer["killed"] and answer["returncode"] == -9
    assert 0.5 <= answer["wall_s"] < 5


def test_a_thread_left_running_is_waited_for_as_python_does(
    warm: fuzz_warm.Pool, tmp_path: Path
) -> None:
    """A thread that is not a daemon keeps a fresh process alive: a fork must too, or a
    run that would hang would pass."""
    code = "import threading, time; threading.Thread(target=time.sleep, args=(30,)).start()"
    answer, _, _ = _case(warm, tmp_path, code=code, hard_s=1.0)
    assert answer["killed"]


def test_a_ctrl_c_ends_a_forked_run_with_exit_130(warm: fuzz_warm.Pool, tmp_path: Path) -> None:
    (tmp_path / "in.txt").write_text("30,30\n")
    argv = ["nurikabe", "solve", "in.txt", "--presolve", "none", "--print-dimacs", "--json"]
    answer, out, err = _case(warm, tmp_path, argv, ctrl_c_at=0.3)
    assert answer["returncode"] == 130, (answer, err)
    assert json.loads(out)["stopped"] == "interrupted"
    assert answer["ctrl_c_to_end"] is not None and answer["ctrl_c_to_end"] < 1.0
    assert "Traceback" not in err


# -- the oracle rejects wrong answers ---------------------------------------------------


def test_the_flood_it_oracle_rejects_a_wrong_optimum_and_a_false_no_solution() -> None:
    truth = {"grid": [[0, 1, 2], [1, 2, 0], [2, 0, 1]]}
    right = {"status": "optimal", "moves": [1, 2, 0, 1]}
    assert fuzz_oracle.problems("floodit", truth, ["floodit", "min"], 0, right) == []
    longer = {"status": "optimal", "moves": [1, 2, 1, 0, 1, 2]}
    assert fuzz_oracle.problems("floodit", truth, ["floodit", "min"], 0, longer)
    assert fuzz_oracle.problems("floodit", truth, ["floodit", "min"], 1, None)
    assert fuzz_oracle.problems("floodit", truth, ["floodit", "exact", "4"], 1, None)
    assert fuzz_oracle.problems("floodit", truth, ["floodit", "exact", "3"], 1, None) == []


def test_the_nurikabe_oracle_rejects_a_wrong_picture_and_a_wrong_count() -> None:
    truth = {"rows": 3, "cols": 3, "clues": {(0, 0): 2, (2, 2): 3}, "pools": True}
    argv = ["nurikabe", "solve"]
    good = {"status": "solved", "solution": [".#.", ".#.", "##."], "unique": False}
    assert fuzz_oracle.problems("nurikabe", truth, argv, 0, good) == []
    bad = {"status": "solved", "solution": ["..#", "###", "#.."], "unique": None}
    assert fuzz_oracle.problems("nurikabe", truth, argv, 0, bad)
    assert fuzz_oracle.problems("nurikabe", truth, argv, 0, {**good, "unique": True})
    counted = {**good, "count": 3, "count_complete": True}
    assert fuzz_oracle.problems("nurikabe", truth, argv, 0, counted)
    assert fuzz_oracle.problems("nurikabe", truth, argv, 1, None)


def test_the_koburin_oracle_rejects_a_loop_that_is_not_an_answer() -> None:
    truth = {"rows": 3, "cols": 3, "clues": {(1, 1): 0}}
    ring = [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [2, 0], [1, 0]]
    good = {"status": "solved", "solution": {"black": [], "loop": ring}, "unique": True}
    assert fuzz_oracle.problems("koburin", truth, ["koburin", "solve"], 0, good) == []
    bad = {"status": "solved", "solution": {"black": [[0, 0]], "loop": ring[1:]}}
    assert fuzz_oracle.problems("koburin", truth, ["koburin", "solve"], 0, bad)
    assert fuzz_oracle.problems("koburin", truth, ["koburin", "solve"], 1, None)


def test_a_memory_stop_without_a_message_is_one_plain_line(capsys: pytest.CaptureFixture) -> None:
    """A ``MemoryError`` carries no text (drawing ``--svg`` at the cap raised one): the
    line is the plain one, not ``memory limit reached ()``."""
    import typer

    from smtpuzzles.cli.common import cli_errors

    @cli_errors
    def drawing() -> None:
        raise MemoryError

    with pytest.raises(typer.Exit) as stopped:
        drawing()
    assert stopped.value.exit_code == 3
    assert capsys.readouterr().err == "smtpuzzles: error: memory limit reached\n"


@pytest.mark.parametrize("option", ["--print-dimacs", "--cnf"])
def test_opt_with_a_cnf_output_is_refused_before_any_script_is_written(
    tmp_path: Path, option: str
) -> None:
    """Optimize's script has no CNF: ``opt`` with ``--print-dimacs`` or ``--cnf`` is
    refused before solving, so ``--smtlib`` writes nothing (it wrote the scripts, then
    the run was refused with exit 2)."""
    board = ROOT / "instances" / "floodit" / "b03x03c3.txt"
    scripts = tmp_path / "scripts"
    argv = ["floodit", "opt", str(board), "--smtlib", str(scripts), option]
    result = run_process(argv + ([str(tmp_path / "x.cnf")] if option == "--cnf" else []))
    assert result.returncode == 2, result.stderr
    assert "Optimize script has no CNF" in result.stderr
    assert not scripts.exists() or not any(scripts.iterdir())
    assert not (tmp_path / "x.cnf").exists()


def test_a_limit_landing_as_the_contained_child_is_reaped_is_the_limit(monkeypatch) -> None:
    """The deadline's signal can land just after ``waitpid`` reaped the child of
    ``contained`` (making a CNF): the run stops at its limit, with no traceback from
    killing a child that is gone (``ProcessLookupError``)."""
    import os

    from smtpuzzles import limits

    real = os.waitpid

    def reaped_then_stopped(pid: int, options: int) -> tuple[int, int]:
        real(pid, options)
        raise limits.TimeUp

    monkeypatch.setattr(limits.os, "waitpid", reaped_then_stopped)
    with pytest.raises(limits.TimeUp):
        limits.contained(lambda: 1, "a test")
