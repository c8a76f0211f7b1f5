"""What ``docs/limits.md`` says of each engine and each output option under
``--timeout``, ``--memory`` and Ctrl-C, run on a Flood-It board none of them finishes in
time (so every run is stopped with an answer known and a question being asked).

The formula outputs (``--smtlib``, ``--print-asserts``, ``--cnf``, ``--print-dimacs``,
``--proof``) and bench's row files have tests of their own beside their code; these
cover the engines, ``-o`` and ``--svg``, and ``generate``'s outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles.cli import INSTANCES, Run, run_process, slow_cnf_nurikabe
from oracles.corpora import corpus_file
from oracles.floodit import flood_region

from smtpuzzles.puzzles.floodit.generate import random_board

#: Each stop: its options, the CPU seconds before a Ctrl-C, the exit code, ``stopped``
#: and the line on standard error (a time limit reached with an answer says none).
STOPS = {
    "timeout": (["--timeout", "2"], None, 3, "timeout", ""),
    "memory": (["--memory", "60", "--timeout", "30"], None, 3, "memory", "memory limit reached"),
    "ctrl-c": ([], 1.0, 130, "interrupted", "interrupted"),
}
PROMPT_S = 0.5


@pytest.fixture(scope="module")
def hard(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[int]]]:
    """30x30, 8 colours: no engine proves its optimum within these limits."""
    board = random_board(30, 30, 8, 3)
    path = tmp_path_factory.mktemp("hard") / "b30x30c8.txt"
    path.write_text(board.text())
    grid = [[int(ch) for ch in line] for line in board.text().split()]
    return path, grid


def _floods(grid: list[list[int]], moves: list[int]) -> bool:
    board = [list(row) for row in grid]
    for move in moves:
        for r, c in flood_region(board):
            board[r][c] = move
    return len(flood_region(board)) == len(grid) * len(grid[0])


def _stopped_as_documented(result: Run, stop: str, grid: list[list[int]]) -> dict:
    """One JSON object with the best moves so far (which flood the board) and bounds,
    the exit code, ``stopped`` and the error line of ``stop``, within the limit."""
    _, _, code, stopped, line = STOPS[stop]
    assert result.returncode == code, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    obj = json.loads(result.stdout)
    assert (obj["status"], obj["stopped"]) == ("unknown", stopped), obj
    assert obj["moves"] and _floods(grid, obj["moves"]), obj
    assert obj["lower_bound"] <= obj["length"] == len(obj["moves"])
    expected = f"smtpuzzles: error: {line}\n" if line else ""
    assert result.stderr == expected
    if stop == "timeout":
        allowed = PROMPT_S * min(result.stretch, 6.0)
        assert result.wall_s <= 2 + allowed, (result.wall_s, result.stretch)
    return obj


@pytest.mark.slow
@pytest.mark.parametrize("stop", list(STOPS))
@pytest.mark.parametrize("engine", ["sat", "smt", "cadical", "auto"])
def test_every_engine_stops_with_its_best_answer(hard, engine: str, stop: str) -> None:
    path, grid = hard
    options, cpu_s, *_ = STOPS[stop]
    argv = ["floodit", "min", str(path), "--json", "--engine", engine, *options]
    _stopped_as_documented(run_process(argv, interrupt_after=cpu_s), stop, grid)


@pytest.mark.slow
@pytest.mark.parametrize("stop", list(STOPS))
def test_o_and_svg_hold_what_a_stopped_run_printed(hard, stop: str, tmp_path: Path) -> None:
    """``-o`` is what was printed; ``--svg`` the picture of the best moves, whole, or
    (at the memory cap, where drawing it may not fit) no file at all."""
    path, grid = hard
    options, cpu_s, *_ = STOPS[stop]
    out, svg = tmp_path / "o.json", tmp_path / "a.svg"
    argv = ["floodit", "min", str(path), "--json", "-o", str(out), "--svg", str(svg), *options]
    result = run_process(argv, interrupt_after=cpu_s)
    _stopped_as_documented(result, stop, grid)
    assert out.read_text() == result.stdout
    if svg.exists():
        text = svg.read_text()
        assert text.lstrip().startswith("<") and text.rstrip().endswith("</svg>")
    else:
        assert stop == "memory"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        p.name for p in (out, svg) if p.exists()
    ), "a temporary file left behind"


@pytest.mark.slow
def test_scripts_asked_are_written_when_ctrl_c_stops_the_run(
    data_dir: Path, tmp_path: Path
) -> None:
    """As under ``--timeout`` (a test beside ``--proof``'s): the question Z3 was asked
    when the Ctrl-C came, with status ``unknown``, printed and in ``--smtlib``."""
    # One move below this board's optimum of 33 takes Z3's SAT core minutes to refute.
    board = corpus_file(data_dir / "floodit" / "99problems" / "20_20_08_003")
    argv = ["floodit", "exact", "32", str(board), "--engine", "sat", "--presolve", "none"]
    argv += ["--print-asserts", "-q", "--smtlib", str(tmp_path)]
    result = run_process(argv, interrupt_after=2.0)
    assert result.returncode == 130, result.stderr
    assert result.stderr == "smtpuzzles: error: interrupted\n"
    assert "unknown\n" in result.stdout and result.stdout.rstrip().endswith("(check-sat)")
    files = list(tmp_path.glob("*.smt2"))
    assert len(files) == 1
    assert "(set-info :status unknown)" in files[0].read_text()


def test_scripts_asked_are_written_when_the_cnf_does_not_fit(tmp_path: Path) -> None:
    """The memory cap reached while the CNF is made: the scripts of the questions asked
    are written (and printed), the CNF is not, exit 3."""
    puzzle = INSTANCES / "koburin" / "gen_30x30_s1.txt"
    scripts, cnf = tmp_path / "s", tmp_path / "k.cnf"
    argv = ["koburin", "solve", str(puzzle), "--smtlib", str(scripts), "--cnf", str(cnf)]
    result = run_process([*argv, "--print-asserts", "-q", "--memory", "60"])
    assert result.returncode == 3, result.stderr[-500:]
    said = "smtpuzzles: error: memory limit reached; the CNF or proofs not written\n"
    assert result.stderr == said
    written = list(scripts.glob("*.smt2"))
    assert written and all("(check-sat)" in p.read_text() for p in written)
    assert result.stdout.rstrip().endswith("(check-sat)")
    assert not cnf.exists()


@pytest.mark.parametrize(
    "options, cpu_s, code, said",
    [
        (["40", "40", "--timeout", "1"], None, 3, "time limit"),
        (["100", "100", "--memory", "16", "--timeout", "20"], None, 3, "memory limit"),
        (["40", "40"], 0.5, 130, "interrupted"),
    ],
    ids=["timeout", "memory", "ctrl-c"],
)
def test_a_stopped_generate_writes_no_file(
    tmp_path: Path, options: list[str], cpu_s: float | None, code: int, said: str
) -> None:
    """No puzzle without its proof of uniqueness: ``-o`` and ``--solution`` stay
    unwritten, and one line says why."""
    out, solution = tmp_path / "k.txt", tmp_path / "k.sol"
    argv = ["koburin", "generate", *options, "-o", str(out), "--solution", str(solution)]
    result = run_process(argv, interrupt_after=cpu_s)
    assert result.returncode == code, result.stderr
    assert said in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "options, stopped",
    [
        (["--timeout", "1"], "timeout"),
        pytest.param(["--timeout", "30", "--memory", "60"], "memory", marks=pytest.mark.slow),
    ],
    ids=["timeout", "memory"],
)
def test_bench_holds_each_case_to_its_limits(
    hard, tmp_path: Path, options: list[str], stopped: str
) -> None:
    """Each case is held to ``--timeout`` and ``--memory`` as a run of its own: its row
    says ``unknown``, why, and the bounds and best answer it had."""
    path, _ = hard
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / path.name).write_text(path.read_text())
    rows = tmp_path / "rows.jsonl"
    done = run_process(["bench", "floodit", str(folder), "--jsonl", str(rows), *options])
    assert done.returncode == 0, done.stderr[-1000:]
    (row,) = [json.loads(line) for line in rows.read_text().splitlines()]
    assert (row["status"], row["stopped"], row["exit"]) == ("unknown", stopped, 3), row
    low, high = map(int, row["answer"].split(".."))
    assert low <= high == len(row["solution"])
    if stopped == "timeout":
        assert row["wall_s"] <= 1 + PROMPT_S * min(done.stretch, 6.0), row


def test_a_cnf_file_holds_the_time_limit_and_says_how_long_it_ran(tmp_path: Path) -> None:
    """``--cnf`` of a puzzle whose CNF takes seconds to make: ended at the limit, no
    file, and ``elapsed_s`` the time the run took, not the time to its answer."""
    cnf = tmp_path / "x.cnf"
    argv = ["nurikabe", "solve", str(slow_cnf_nurikabe(tmp_path)), "--cnf", str(cnf)]
    result = run_process([*argv, "--json", "--timeout", "1"])
    assert result.returncode == 3, result.stderr
    obj = json.loads(result.stdout)
    assert obj["stopped"] == "timeout" and obj["elapsed_s"] >= 0.9, obj
    assert result.wall_s <= 1 + PROMPT_S * min(result.stretch, 6.0), result.wall_s
    assert not cnf.exists()


def test_a_koburin_cnf_holds_the_time_limit(tmp_path: Path) -> None:
    """A 30x30 Koburin's ``--cnf`` under ``--timeout 1`` (0.3 s in the report, scaled to
    leave a loaded machine time for the answer): the answer stands, the CNF, which takes
    seconds to make, is cut at the limit (when it was not, the run ended after 7 s with
    exit 0)."""
    puzzle = INSTANCES / "koburin" / "gen_30x30_s1.txt"
    cnf = tmp_path / "k.cnf"
    argv = ["koburin", "solve", str(puzzle), "--cnf", str(cnf), "--json", "--timeout", "1"]
    result = run_process(argv)
    assert result.returncode == 3, result.stderr
    assert json.loads(result.stdout)["stopped"] == "timeout"
    assert result.wall_s <= 1 + PROMPT_S * min(result.stretch, 6.0), result.wall_s
    assert not cnf.exists()


def test_print_dimacs_stopped_by_the_limit_leaves_stdout_to_the_cnf(tmp_path: Path) -> None:
    """``--print-dimacs`` promises stdout to the CNF alone: when the limit stops the
    run, during the search or the translation, the report goes to stderr, and a pipe
    into a CNF file gets nothing (it once got the report, a text no SAT solver reads)."""
    argv = ["nurikabe", "solve", str(slow_cnf_nurikabe(tmp_path)), "--print-dimacs"]
    result = run_process([*argv, "--timeout", "1.5"])
    assert result.returncode == 3, result.stderr
    assert result.stdout == "", result.stdout[:200]
    assert result.stderr.splitlines()[-1] in (
        "smtpuzzles: error: time limit reached; the CNF or proofs not written",
        "smtpuzzles: error: time limit reached before an answer",
    ), result.stderr


def test_ctrl_c_during_the_search_makes_no_cnf_after_it(data_dir: Path) -> None:
    """Ctrl-C while Z3 searches ends the run at once with exit 130: the CNF of
    ``--print-dimacs`` is not started after the search (it was, and ran on to the time
    limit, which then reported exit 3)."""
    board = corpus_file(data_dir / "floodit" / "99problems" / "20_20_08_003")
    argv = ["floodit", "exact", "32", str(board), "--engine", "sat", "--presolve", "none"]
    result = run_process([*argv, "--print-dimacs", "--timeout", "30"], interrupt_after=1.0)
    assert result.returncode == 130, result.stderr
    assert result.stdout == ""
    assert result.cpu_s < 1.0 + 1.5, result.cpu_s
