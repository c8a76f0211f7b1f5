"""``--memory`` with every engine: the run ends with exit 3, one complete JSON object
holding the best answer known, and one error line; never a crash of the native solver
(CaDiCaL's ``std::bad_alloc``, Z3's exit 101, a segfault) nor the answer dropped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import shared_data
from oracles.cli import run_process

from smtpuzzles.engines import cadical_available
from smtpuzzles.puzzles.floodit import check as floodit_check
from smtpuzzles.puzzles.floodit.formats import parse_board

ROOT = Path(__file__).resolve().parents[2]

needs_cadical = pytest.mark.skipif(not cadical_available(), reason="python-sat not installed")


def corpus_board(name: str) -> Path:
    """A board of the reference corpora: the test fails without it under CI."""
    found = shared_data()
    if found is None or not (found / name).is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the reference corpora are missing ({name})")
        pytest.skip("reference corpora (shared/data) not present")
    return found / name


def assert_memory_stop_with_best_answer(run, board: Path) -> dict:
    """Exit 3, one JSON object naming the board with its moves checked, one error line."""
    assert run.returncode == 3, (run.returncode, run.stderr[-500:])
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1, run.stdout[-500:]
    obj = json.loads(lines[0])
    assert obj["name"] == board.name
    assert obj["stopped"] == "memory" and obj["status"] == "unknown"
    assert obj["moves"] == obj["solution"] and obj["length"] == len(obj["moves"])
    assert "lower_bound" in obj and obj["lower_bound"] <= obj["length"]
    grid = parse_board(board.read_text(), str(board)).grid
    assert floodit_check.problems(grid, obj["moves"], (0, 0)) == []
    assert run.stderr.strip().splitlines() == ["smtpuzzles: error: memory limit reached"]
    return obj


@needs_cadical
@pytest.mark.parametrize(
    "name,megabytes",
    [
        ("floodit/99problems/20_20_08_003", "50"),
        pytest.param("floodit/99problems/20_20_08_003", "100", marks=pytest.mark.slow),
        pytest.param("floodit/color-flood-rs/003b.txt", "70", marks=pytest.mark.slow),
    ],
)
def test_cadical_under_memory_keeps_the_best_answer(name: str, megabytes: str) -> None:
    board = corpus_board(name)
    run = run_process(
        ["floodit", "min", str(board), "--engine", "cadical", "--memory", megabytes, "--json"]
        + ["--timeout", "60"]
    )
    assert_memory_stop_with_best_answer(run, board)


@pytest.mark.parametrize("engine", ["sat", "smt"])
@pytest.mark.slow
def test_z3_engines_under_memory_say_so_on_stderr(engine: str, tmp_path: Path) -> None:
    from smtpuzzles.puzzles.floodit.generate import random_board

    board = tmp_path / "b20.txt"
    board.write_text(random_board(20, 20, 10, seed=1).text())
    run = run_process(
        ["floodit", "min", str(board), "--engine", engine, "--memory", "60", "--json"]
        + ["--timeout", "60"]
    )
    assert_memory_stop_with_best_answer(run, board)


@needs_cadical
def test_cnf_under_memory_keeps_the_answer(tmp_path: Path) -> None:
    puzzle = ROOT / "instances" / "koburin" / "gen_30x30_s1.txt"
    cnf = tmp_path / "k.cnf"
    run = run_process(
        ["koburin", "solve", str(puzzle), "--cnf", str(cnf), "--memory", "60"] + ["--json"]
    )
    assert run.returncode == 3, (run.returncode, run.stderr[-500:])
    obj = json.loads(run.stdout)
    assert obj["name"] == puzzle.name and obj["status"] == "solved"
    assert obj["stopped"] == "memory" and obj["solution"]["black"]
    assert run.stderr.strip().splitlines() == [
        "smtpuzzles: error: memory limit reached; the CNF or proofs not written"
    ]
    assert not cnf.exists()


def _script(body: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(body)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_a_native_crash_is_contained_and_reported_as_memory() -> None:
    """A child that dies as Z3 does on a refused allocation (exit 101), or by a signal,
    is the memory cap here, and the process itself goes on."""
    done = _script(
        """
        import os, signal
        from smtpuzzles import limits
        limits.limit_memory(64)
        for death in (lambda: os._exit(101), lambda: os.kill(os.getpid(), signal.SIGSEGV),
                      lambda: bytearray(1 << 30)):
            try:
                limits.contained(death, "the test")
            except limits.MemoryLimitExceeded as exc:
                print("memory:", exc)
        print(limits.contained(lambda: sum(range(10)), "the test"))
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == [
        "memory: the test ran out of memory (exit 101)",
        "memory: the test ran out of memory (signal 11)",
        "memory: the test ran out of memory",
    ]
    assert lines[3] == "45"


def test_contained_raises_what_the_work_raised_and_kills_it_on_time_up() -> None:
    done = _script(
        """
        import os, time
        from smtpuzzles import limits
        try:
            limits.contained(lambda: int("x"), "the test")
        except ValueError as exc:
            print("raised:", exc)
        pids = []
        budget = limits.Budget(0.3)
        began = time.monotonic()
        try:
            with limits.deadline(budget):
                limits.contained(lambda: time.sleep(30), "the test")
        except limits.TimeUp:
            print("time up after", round(time.monotonic() - began, 1))
        children = os.popen(f"pgrep -P {os.getpid()}").read().split()
        print("children:", len(children) - 1)  # pgrep's own shell
        """
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "raised: invalid literal for int() with base 10: 'x'"
    assert lines[1] in ("time up after 0.3", "time up after 0.4"), lines
    assert lines[2] == "children: 0"


def test_a_timed_check_runs_when_the_heap_has_filled_the_cap() -> None:
    """Z3 starts a thread to time a check; under the cap, with the heap full, the
    thread's stack no longer fits and Z3 aborted the process (SIGABRT, no report). The
    cap now leaves Z3 its timer, started before the cap is set."""
    code = textwrap.dedent(
        """
        import z3
        from smtpuzzles import limits

        limits.limit_memory(40)
        hold = []
        try:
            while True:
                hold.append(bytearray(1024 * 1024))
        except MemoryError:
            del hold[-2:]
        solver = z3.Solver()
        solver.set("timeout", 5000)
        solver.add(z3.Int("x") > 3)
        print(solver.check())
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-300:]
    assert done.stdout.strip() == "sat"
