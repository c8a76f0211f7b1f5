"""``--engine cadical``: CaDiCaL answers the probes on the CNF Z3 makes of the printed
script. Its answers are held to the brute-force optimum (the oracle, which works
on cells and shares nothing with the package) and to the checker."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from oracles.floodit import optimum_by_bfs, random_grid

from smtpuzzles import dimacs
from smtpuzzles.engines import Stats, cadical_available, check_clauses
from smtpuzzles.errors import InputError
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.generate import random_board
from smtpuzzles.puzzles.floodit.model import Board, cluster_graph
from smtpuzzles.puzzles.floodit.rules import FloodFormula
from smtpuzzles.puzzles.floodit.search import run_mode

pytestmark = pytest.mark.skipif(not cadical_available(), reason="python-sat not installed")


def random_boards(count: int, seed: int) -> list[Board]:
    """Boards up to 6x6 with 2 to 6 colours."""
    rng = random.Random(seed)
    boards = []
    for i in range(count):
        grid = random_grid(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(2, 6))
        used = sorted({c for row in grid for c in row})  # gapless colours
        rows = tuple(tuple(used.index(c) for c in row) for row in grid)
        boards.append(Board(rows, len(used), f"random{i}"))
    return boards


BOARDS = random_boards(70, seed=7)


def optimum(board: Board) -> int:
    return optimum_by_bfs([list(r) for r in board.grid])


@pytest.mark.parametrize("presolve", ["none", "full"])
def test_min_finds_the_brute_force_optimum(presolve: str) -> None:
    by_solver = 0
    for board in BOARDS[:40]:
        best = optimum(board)
        got = run_mode(board, "min", engine="cadical", presolve=presolve, bound_nodes=0)
        assert (got.status, got.length, got.lower_bound) == ("optimal", best, best), board
        check_solution(board.grid, got.moves)
        by_solver += got.proven_by == "cadical"
    assert by_solver > 0, "some optimum should be proven by CaDiCaL, not by the bounds"


def test_exact_and_search_answer_like_brute_force() -> None:
    for board in BOARDS[40:70]:
        best = optimum(board)
        if best == 0:
            continue
        at = run_mode(board, "exact", (best,), engine="cadical")
        assert at.status == "solved" and at.length == best, board
        check_solution(board.grid, at.moves)
        assert run_mode(board, "exact", (best - 1,), engine="cadical").status == "unsat"
        below = run_mode(board, "search", (0, best - 1), engine="cadical", bound_nodes=0)
        assert below.status == "unsat", board
        found = run_mode(board, "solve", engine="cadical")
        assert found.status == "solved" and found.length >= best
        check_solution(board.grid, found.moves)


#: An 18x18 board with 10 colours: its optimum is 32, and CaDiCaL takes about ten
#: seconds to prove that 31 moves do not flood it.
HARD = random_board(18, 18, 10, 2)


@pytest.mark.slow
def test_the_deadline_stops_cadical_between_two_steps() -> None:
    formula = FloodFormula(cluster_graph(HARD.grid), feed=False, clauses=True)
    clauses = dimacs.clauses(dimacs.to_dimacs(formula.script(31).text()))
    stats = Stats()
    began = time.monotonic()
    answer, model = check_clauses(clauses, Budget(1.0), stats, "31 moves")
    assert (answer, model) == ("unknown", None)
    assert time.monotonic() - began < 3.0
    assert [(p["label"], p["answer"]) for p in stats.probes] == [("31 moves", "unknown")]


@pytest.fixture(scope="module")
def hard(tmp_path_factory: pytest.TempPathFactory) -> str:
    """:data:`HARD` as a file: its first CaDiCaL probe starts within seconds and runs for
    many more."""
    path = tmp_path_factory.mktemp("cadical") / "b18x18c10.txt"
    path.write_text(HARD.text())
    return str(path)


def start(board: str, *more: str) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "smtpuzzles", "floodit", "min", board, "--json", "--stats"]
    argv += ["--engine", "cadical", "--bound-nodes", "0", *more]
    pipes = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
    return subprocess.Popen(argv, text=True, **pipes)  # type: ignore[call-overload]


@pytest.mark.slow
def test_the_time_limit_holds_for_a_cadical_run(hard: str) -> None:
    """Whether the run stops by itself or its watchdog speaks for it (on a loaded
    machine), it ends at the limit with one JSON object and exit 3."""
    began = time.monotonic()
    proc = start(hard, "--timeout", "10")
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - began < 11.5
    assert proc.returncode == 3, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, (out, err)
    obj = json.loads(lines[0])
    assert obj["status"] == "unknown" and obj["stopped"] == "timeout"
    assert obj["length"] >= 32 and obj["lower_bound"] <= 32


@pytest.mark.slow
def test_ctrl_c_stops_cadical_at_once(hard: str) -> None:
    proc = start(hard)
    time.sleep(9)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("smtpuzzles: error: interrupted")
    lines = out.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["stopped"] == "interrupted"
    assert time.monotonic() - sent < 3.0


def test_opt_and_the_reference_encoding_refuse_it() -> None:
    for argv in (["opt"], ["min", "--encoding", "reference"]):
        done = subprocess.run(
            [sys.executable, "-m", "smtpuzzles", "floodit", *argv]
            + ["instances/floodit/b08x08c4.txt", "--engine", "cadical"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "--engine cadical" in done.stderr


def test_without_python_sat_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)  # import fails as if absent
    with pytest.raises(InputError, match="pip install python-sat"):
        run_mode(BOARDS[0], "min", engine="cadical")
