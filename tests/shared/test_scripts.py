"""Every question a search asks is a complete script that other solvers answer alike.

For every shipped instance and every mode (Flood-It ``solve``, ``exact``, ``search``,
``min``, ``opt``; Nurikabe and Koburin a solution and, for uniqueness, another one), the
recorded questions are joined by ``(reset)`` and piped to the ``z3`` executable of the
z3-solver wheel, which must print exactly the recorded answers and nothing on stderr;
cvc5's own parser and solver (Python API) read each script too (not ``opt``: Z3's
``minimize`` is no SMT-LIB). Every answer also passes the puzzle's independent checker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.formats import load_board
from smtpuzzles.puzzles.floodit.search import run_mode
from smtpuzzles.puzzles.koburin import problems as koburin_problems
from smtpuzzles.puzzles.koburin import solve as koburin_solve
from smtpuzzles.puzzles.koburin.formats import parse as parse_koburin
from smtpuzzles.puzzles.nurikabe import problems as nurikabe_problems
from smtpuzzles.puzzles.nurikabe import solve as nurikabe_solve
from smtpuzzles.puzzles.nurikabe.formats import parse as parse_nurikabe
from smtpuzzles.smtlib import Question, join_questions

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
OPTIMA: dict[str, int] = json.loads((INSTANCES / "floodit" / "manifest.json").read_text())


def z3_executable() -> Path:
    """The ``z3`` binary the z3-solver wheel ships (beside the interpreter, or inside
    the package)."""
    for path in (
        Path(sys.executable).parent / "z3",
        Path(z3.__file__).parent / "bin" / "z3",
        Path(sys.prefix) / "bin" / "z3",
    ):
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise AssertionError("the z3-solver wheel ships a z3 executable")


def z3_says(questions: list[Question]) -> None:
    """The joined scripts, piped to ``z3 -in``: the recorded answers, nothing else."""
    text = join_questions(questions)
    done = subprocess.run(
        [str(z3_executable()), "-in"], input=text, capture_output=True, text=True, timeout=600
    )
    assert done.stderr == ""
    assert done.stdout.split() == [q.answer for q in questions]


def cvc5_says(questions: list[Question]) -> None:
    """Each script read by cvc5's parser answers as recorded."""
    import cvc5

    for q in questions:
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
        solver.setOption("simplification", "none")  # its slowest pass on the 20x20 boards
        parser = cvc5.InputParser(solver)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, q.script, q.name)
        sm = parser.getSymbolManager()
        answers = []
        while not (command := parser.nextCommand()).isNull():
            out = command.invoke(solver, sm).strip()
            if out:
                answers.append(out)
        assert answers == [q.answer], q.name


def boards() -> list[str]:
    return sorted(OPTIMA)


def floodit_cases() -> list[tuple[str, str, tuple[int, ...]]]:
    cases = []
    for name in boards():
        best = OPTIMA[name]
        cases += [
            (name, "solve", ()),
            (name, "exact", (best,)),
            (name, "exact", (best - 1,)),
            (name, "search", (max(0, best - 1), best + 1)),
            (name, "min", ()),
            (name, "opt", ()),
        ]
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,mode,args", floodit_cases(), ids=lambda v: str(v) if not isinstance(v, tuple) else ""
)
def test_floodit_questions_run_as_printed(name: str, mode: str, args: tuple[int, ...]) -> None:
    board = load_board(str(INSTANCES / "floodit" / name))
    out = run_mode(board, mode, args, print_asserts=True)
    best = OPTIMA[name]
    assert out.questions, "every mode on these boards asks the solver"
    if mode == "exact" and args[0] < best:
        assert [q.answer for q in out.questions] == ["unsat"]
    else:
        assert out.length is not None and out.moves is not None
        check_solution(board.grid, out.moves)
        if mode != "solve":
            assert out.length == best
    if mode in ("min", "search"):
        assert [(q.name, q.answer) for q in out.questions] == [
            (f"optimum-{best}", "sat"),
            (f"below-{best - 1}", "unsat"),
        ]
    assert out.smtlib == join_questions(out.questions)
    for q in out.questions:
        assert q.script.startswith(";") and "(set-logic QF_LIA)" in q.script
        assert q.script.rstrip().endswith("(check-sat)") and "(let " not in q.script
    z3_says(out.questions)
    if mode != "opt":
        cvc5_says(out.questions)
    else:
        assert "Z3 dialect" in out.questions[0].script


def test_floodit_min_without_presolve_searches_upward() -> None:
    board = load_board(str(INSTANCES / "floodit" / "b06x06c5.txt"))
    out = run_mode(board, "min", presolve="none", print_asserts=True)
    assert out.status == "optimal" and out.length == OPTIMA["b06x06c5.txt"]
    assert out.stats.checks == out.length + 1  # every horizon from 0 up to the optimum
    assert [q.answer for q in out.questions] == ["sat", "unsat"]
    z3_says(out.questions)


def grids(kind: str) -> list[str]:
    return sorted(p.name for p in (INSTANCES / kind).iterdir() if p.suffix in (".txt", ".table"))


@pytest.mark.slow
@pytest.mark.parametrize("presolve", ["full", "none"])
@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("name", grids("nurikabe"))
def test_nurikabe_questions_run_as_printed(name: str, unique: bool, presolve: str) -> None:
    puzzle = parse_nurikabe((INSTANCES / "nurikabe" / name).read_text())
    outcome, _ = nurikabe_solve(puzzle, unique=unique, presolve=presolve)
    assert outcome.status == "solved"
    for picture in outcome.solutions:
        assert nurikabe_problems(puzzle.graph, puzzle.clues, puzzle.pools, picture) == []
    expected = [("puzzle", "sat"), ("another", "unsat")] if unique else [("puzzle", "sat")]
    assert [(q.name, q.answer) for q in outcome.questions] == expected
    for q in outcome.questions:
        # the distance rules are there on every puzzle, however much presolving decided
        assert "; -- islands connected" in q.script and "_dist_" in q.script
        assert "; -- wall connected" in q.script
        assert ("; -- presolve facts" in q.script) == (presolve == "full")
    z3_says(outcome.questions)
    cvc5_says(outcome.questions)


@pytest.mark.slow
@pytest.mark.parametrize("unique", [False, True], ids=["solve", "unique"])
@pytest.mark.parametrize("name", grids("koburin"))
def test_koburin_questions_run_as_printed(name: str, unique: bool) -> None:
    text = (INSTANCES / "koburin" / name).read_text()
    puzzle = parse_koburin(text, name)
    outcome = koburin_solve(puzzle, unique=unique)
    assert outcome.status == "solved" and outcome.solution is not None
    s = outcome.solution
    assert koburin_problems(puzzle, s.black, s.edges, s.loop()) == []
    expected = [("puzzle", "sat"), ("another", "unsat")] if unique else [("puzzle", "sat")]
    assert [(q.name, q.answer) for q in outcome.questions] == expected
    for q in outcome.questions:
        assert "; -- B loop connected" in q.script and "loop_dist_" in q.script
    z3_says(outcome.questions)
    cvc5_says(outcome.questions)


@pytest.mark.parametrize("presolve", ["full", "none"])
def test_nurikabe_lazy_questions_hold_the_whole_encoding(presolve: str) -> None:
    """The lazy strategy's solver reads no distances, yet its scripts state them (with
    the cuts it added), and still give the recorded answers."""
    puzzle = parse_nurikabe((INSTANCES / "nurikabe" / "square_07x07.txt").read_text())
    outcome, _ = nurikabe_solve(puzzle, connectivity="lazy", unique=True, presolve=presolve)
    assert [q.answer for q in outcome.questions] == ["sat", "unsat"]
    for q in outcome.questions:
        assert "; -- islands connected" in q.script and "but islands connected" in q.script
    z3_says(outcome.questions)


def test_koburin_distance_and_count_questions() -> None:
    puzzle = parse_koburin((INSTANCES / "koburin" / "gen_8x8_s1.txt").read_text(), "8x8")
    outcome = koburin_solve(puzzle, count=3, connectivity="distance")
    assert len(outcome.solutions) == 1 and outcome.count_complete
    assert [(q.name, q.answer) for q in outcome.questions] == [
        ("puzzle", "sat"),
        ("another", "unsat"),
    ]
    z3_says(outcome.questions)
