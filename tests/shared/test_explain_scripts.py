"""Each step of an explanation as an SMT-LIB script (``hint`` / ``explain``
``--print-asserts`` and ``--smtlib``, ``Explanation.script``): a fresh Z3 reading the
printed text finds it unsatisfiable, satisfiable once the facts' negation is taken out
(the premises and rules agree), and satisfiable with any one premise taken out (the
reason is minimal), for every step of shipped puzzles and for a wrong entry's refutation."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import z3
from oracles.cli import cli

import smtpuzzles
from smtpuzzles.forced import Explanation, Step
from smtpuzzles.smtlib import Block, Script

INSTANCES = Path(__file__).resolve().parents[2] / "instances"

SHIPPED = [("nurikabe", "square_07x07"), ("koburin", "gen_8x8_s1")]


def answer(text: str) -> str:
    """What a fresh Z3 says of a complete script."""
    solver = z3.Solver(ctx=z3.Context())
    solver.from_string(text)
    return str(solver.check())


def without(script: Script, block: str, keep: int | None = None) -> Script:
    """``script`` with the question block named ``block`` emptied, or left with all but
    its assert number ``keep``."""
    question: list[Block] = []
    for b in script.question:
        if b.rule == block:
            asserts = [] if keep is None else [t for k, t in enumerate(b.asserts) if k != keep]
            b = dataclasses.replace(b, asserts=asserts)
        question.append(b)
    return dataclasses.replace(script, question=question, answer=None)


def assert_step_script(found: Explanation, step: Step) -> None:
    script = found.script(step)
    text = script.text()
    assert text.rstrip().endswith("(check-sat)") and "; expected answer: unsat" in text
    assert answer(text) == "unsat", step.text
    assert answer(without(script, "the facts fail").text()) == "sat", step.text
    premises = next(b for b in script.question if b.rule == "premises").asserts
    assert len(premises) == step.size
    if step.unsure:
        return
    for k in range(len(premises)):
        assert answer(without(script, "premises", k).text()) == "sat", (step.text, k)


@pytest.mark.parametrize("kind,name", SHIPPED)
def test_every_steps_script_is_unsat_and_minimal(kind: str, name: str) -> None:
    found = smtpuzzles.explain(INSTANCES / kind / f"{name}.txt")
    assert found.status == "complete" and found.steps
    for step in found.steps:
        assert_step_script(found, step)


def test_a_wrong_entrys_script_refutes_it() -> None:
    path = INSTANCES / "nurikabe" / "square_05x05.txt"
    found = smtpuzzles.explain(path, state="####1\n#1#1.\n-----\n-1-1-\n----1\n", limit=1)
    assert len(found.wrong) == 1
    assert_step_script(found, found.wrong[0])
    assert "wrong entry 1" in found.script(found.wrong[0]).text()


def test_cli_print_asserts_puts_the_scripts_alone_on_stdout() -> None:
    path = str(INSTANCES / "nurikabe" / "square_07x07.txt")
    result = cli("nurikabe", "explain", path, "--print-asserts")
    assert result.exit_code == 0, result.stderr
    scripts = result.stdout.split("(reset)\n")
    head = result.stderr.splitlines()[0]  # "nurikabe square_07x07.txt: 6 steps"
    assert "status: complete" in result.stderr and head.endswith(f": {len(scripts)} steps")
    for k, text in enumerate(scripts, 1):
        assert text.startswith(f"; question step-{k}: unsat\n")
        assert answer(text) == "unsat"
    as_json = json.loads(cli("nurikabe", "explain", path, "--print-asserts", "--json").stdout)
    assert [s["smtlib"] for s in as_json["steps"]] == [text.split("\n", 1)[1] for text in scripts]


def test_cli_smtlib_writes_one_benchmark_file_a_step(tmp_path: Path) -> None:
    path = str(INSTANCES / "koburin" / "gen_8x8_s1.txt")
    folder = tmp_path / "scripts"
    result = cli("koburin", "hint", path, "--smtlib", str(folder))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["gen_8x8_s1.step-1.smt2"]
    text = (folder / "gen_8x8_s1.step-1.smt2").read_text()
    assert "(set-info :status unsat)" in text and answer(text) == "unsat"
    again = cli("koburin", "hint", path, "--smtlib", str(folder))
    assert again.exit_code == 2 and "--force" in again.stderr
    assert cli("koburin", "hint", path, "--smtlib", str(folder), "--force").exit_code == 0


def test_cli_proof_writes_a_checked_certificate_a_step(tmp_path: Path) -> None:
    """``--proof``: each step's CNF and DRAT proof, which ``verify`` accepts; the CNF
    says the answer it expects and the command line that wrote it."""
    path = str(INSTANCES / "nurikabe" / "square_07x07.txt")
    folder = tmp_path / "proofs"
    result = cli("nurikabe", "explain", path, "--proof", str(folder), "--json")
    assert result.exit_code == 0, result.stderr
    steps = json.loads(result.stdout)["steps"]
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(
        f"square_07x07.step-{n}.{ext}" for n in range(1, len(steps) + 1) for ext in ("cnf", "drat")
    )
    for n in range(1, len(steps) + 1):
        cnf = folder / f"square_07x07.step-{n}.cnf"
        assert "c expected answer: unsat" in cnf.read_text()
        checked = cli("verify", str(cnf), str(cnf.with_suffix(".drat")))
        assert checked.exit_code == 0 and "verified" in checked.stdout, checked.stdout


def test_a_stopped_run_makes_no_scripts(tmp_path: Path) -> None:
    """A limit that stops the explanation leaves the time for nothing else: exit 3, the
    steps so far on stderr, no script on stdout and no file written."""
    path = str(INSTANCES / "koburin" / "gen_8x8_s1.txt")
    folder = tmp_path / "scripts"
    argv = ["explain", path, "--print-asserts", "--smtlib", str(folder), "--timeout", "0.01"]
    result = cli("koburin", *argv)
    assert result.exit_code == 3, result.stderr
    assert result.stdout == "" and "status: stopped (timeout)" in result.stderr
    assert not folder.exists() or not any(folder.iterdir())
