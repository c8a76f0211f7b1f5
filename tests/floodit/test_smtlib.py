"""The printed SMT-LIB is standard: the z3 executable and cvc5 read it and agree with Z3's
answer, sat at the optimum and unsat one move below."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smtpuzzles.puzzles.floodit.formats import parse_board
from smtpuzzles.puzzles.floodit.search import run_mode

BOARDS = ["0120\n2011\n1202", "0101\n1201\n2210", "00122\n31023\n11230", "010\n101\n010"]


def z3_executable() -> str:
    beside = Path(sys.executable).with_name("z3")
    found = str(beside) if beside.exists() else shutil.which("z3")
    if found is None:
        pytest.skip("the z3 executable is not installed")
    return found


def cvc5_answer(script: str) -> str:
    cvc5 = pytest.importorskip("cvc5")
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "floodit")
    answers = []
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        out = command.invoke(solver, symbols)
        if out.strip():
            answers.append(out.strip())
    return " ".join(answers)


def split_scripts(text: str) -> list[str]:
    """``min --print-asserts`` prints two scripts, each ending with ``(check-sat)``."""
    parts = text.split("(check-sat)")
    return [p + "(check-sat)\n" for p in parts if p.strip()]


@pytest.mark.parametrize("text", BOARDS)
def test_min_scripts_sat_at_optimum_unsat_below_in_z3_and_cvc5(text: str) -> None:
    outcome = run_mode(parse_board(text), "min", print_asserts=True)
    assert outcome.smtlib is not None and outcome.length
    scripts = split_scripts(outcome.smtlib)
    assert len(scripts) == 2
    z3_exe = z3_executable()
    for script, expected in zip(scripts, ("sat", "unsat"), strict=True):
        assert "(set-logic QF_LIA)" in script
        assert "pble" not in script and "pbeq" not in script and "at-most" not in script
        run = subprocess.run(
            [z3_exe, "-in", "-smt2"], input=script, capture_output=True, text=True, timeout=60
        )
        assert run.stdout.strip() == expected, run.stdout + run.stderr
        assert cvc5_answer(script) == expected


def test_exact_script_unsat_below_optimum_in_cvc5() -> None:
    board = parse_board(BOARDS[0])
    best = run_mode(board, "min").length
    assert best is not None
    for n, expected in ((best, "sat"), (best - 1, "unsat")):
        out = run_mode(board, "exact", (n,), print_asserts=True)
        assert out.smtlib is not None
        assert cvc5_answer(out.smtlib) == expected


def test_opt_script_is_marked_as_z3_dialect() -> None:
    out = run_mode(parse_board(BOARDS[0]), "opt", print_asserts=True)
    assert out.smtlib is not None
    assert "Z3 dialect" in out.smtlib and "(minimize" in out.smtlib
