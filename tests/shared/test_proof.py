"""Certified answers: ``--proof DIR`` writes, for each unsat question, Z3's CNF of its
script and CaDiCaL's DRAT proof; a checker written here from the definition (which the
package does not ship) accepts the proofs, ``smtpuzzles verify`` agrees with it on
tampered ones, and the files pass the safe-output rules."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from oracles.cli import INSTANCES, assert_bad_input, cli, run_process, slow_cnf_nurikabe
from oracles.corpora import corpus_file
from oracles.rup import accepts, parse_dimacs, parse_proof

from smtpuzzles.proof import check_drat

pytest.importorskip("pysat")

FLOODIT = INSTANCES / "floodit" / "b04x04c3.txt"  #: its CNF is refuted by Z3's tactics
HARDER = INSTANCES / "floodit" / "b08x08c4.txt"  #: its proof has lemmas
NURIKABE = INSTANCES / "nurikabe" / "square_05x05.txt"
KOBURIN = INSTANCES / "koburin" / "gen_8x8_s1.txt"


def proofs(folder: Path) -> list[tuple[Path, Path]]:
    """The (CNF, proof) pairs in ``folder``."""
    cnfs = sorted(folder.glob("*.cnf"))
    return [(cnf, cnf.with_suffix(".drat")) for cnf in cnfs]


@pytest.mark.parametrize(
    ("argv", "question"),
    [
        (["floodit", "min", str(FLOODIT)], "below-2"),
        (["floodit", "min", str(HARDER)], "below-9"),
        (["nurikabe", "solve", str(NURIKABE), "--unique"], "another"),
        (["koburin", "solve", str(KOBURIN), "--unique"], "another"),
    ],
)
def test_each_unsat_question_gets_a_proof_the_oracle_accepts(
    tmp_path: Path, argv: list[str], question: str
) -> None:
    out = cli(*argv, "--proof", str(tmp_path / "p"), "-q")
    assert out.exit_code == 0, out.stderr
    pairs = proofs(tmp_path / "p")
    assert [cnf.name.split(".")[1] for cnf, _ in pairs] == [question]
    cnf, drat = pairs[0]
    text = cnf.read_text()
    assert "c expected answer: unsat" in text.splitlines()[:5]
    assert accepts(text, drat.read_bytes())
    assert check_drat(text, drat.read_bytes()).ok
    verified = cli("verify", str(cnf), str(drat))
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("verified:")


def test_tampered_proofs_judged_as_the_oracle_judges_them(tmp_path: Path) -> None:
    out = cli("floodit", "min", str(HARDER), "--proof", str(tmp_path), "-q")
    assert out.exit_code == 0, out.stderr
    cnf, drat = proofs(tmp_path)[0]
    text = cnf.read_text()
    steps = [(k, c) for k, c in parse_proof(drat.read_bytes()) if k == "a"]
    assert steps and not steps[-1][1], "the proof ends with the empty clause"
    variables = {abs(lit) for clause in parse_dimacs(text) for lit in clause}
    rng = random.Random(7)
    rejected = 0
    for trial in range(12):
        changed = [list(c) for _, c in steps]
        if trial == 0:
            changed = [[]]  # the empty clause alone: not a RUP of the formula
        elif trial % 2:
            del changed[rng.randrange(len(changed) - 1)]
        else:
            clause = changed[rng.randrange(len(changed) - 1)]
            clause.append(rng.choice(sorted(variables)) * rng.choice((1, -1)))
            clause[0] = -clause[0]
        body = "".join(" ".join(map(str, c + [0])) + "\n" for c in changed).encode()
        ours, theirs = check_drat(text, body).ok, accepts(text, body)
        assert ours == theirs, (trial, ours, theirs)
        rejected += not ours
    assert rejected >= 1
    bad = tmp_path / "bad.drat"
    bad.write_text("0\n")
    refused = cli("verify", str(cnf), str(bad))
    assert refused.exit_code == 1 and refused.stdout.startswith("rejected:")
    cut = tmp_path / "cut.drat"
    cut.write_text("".join(" ".join(map(str, c + [0])) + "\n" for _, c in steps[:3]))
    assert not accepts(text, cut.read_bytes())
    assert cli("verify", str(cnf), str(cut)).exit_code == 1


def test_proof_without_python_sat_is_one_line(tmp_path: Path, monkeypatch) -> None:
    import builtins

    real = builtins.__import__

    def no_pysat(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.startswith("pysat"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pysat)
    out = cli("floodit", "min", str(FLOODIT), "--proof", str(tmp_path / "p"))
    assert_bad_input(out)
    assert "pip install python-sat" in out.stderr


def test_proof_solver_saying_sat_is_an_internal_error(tmp_path: Path, monkeypatch) -> None:
    import smtpuzzles.proof as proof

    monkeypatch.setattr(proof, "prove", lambda clauses, path, budget: "sat")
    out = cli("floodit", "min", str(FLOODIT), "--proof", str(tmp_path / "p"), "-q")
    assert out.exit_code == 70, out.stderr
    assert "internal error" in out.stderr


# ------------------------------------------------------------------ safe output rules


@pytest.mark.parametrize("option", ["--smtlib", "--proof"])
def test_output_folder_that_is_a_file_or_under_one_is_refused_before_solving(
    tmp_path: Path, option: str
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("x")
    for target in (afile, afile / "sub", Path("/dev/full"), Path("/proc/sys")):
        out = cli("nurikabe", "solve", str(NURIKABE), option, str(target))
        assert_bad_input(out)
        assert out.stdout == ""
    assert afile.read_text() == "x"


@pytest.mark.parametrize("option", ["--smtlib", "--proof"])
def test_files_in_output_folder_are_not_replaced_without_force(tmp_path: Path, option: str) -> None:
    argv = ["floodit", "min", str(FLOODIT), option, str(tmp_path), "-q"]
    assert cli(*argv).exit_code == 0
    written = sorted(tmp_path.iterdir())
    assert written
    before = {p: p.read_bytes() for p in written}
    for p in written:
        p.write_bytes(b"mine")
    out = cli(*argv)
    assert_bad_input(out)
    assert all(p.read_bytes() == b"mine" for p in written)
    assert cli(*argv, "--force").exit_code == 0
    assert {p: p.read_bytes() for p in written}.keys() == before.keys()
    assert all(p.read_bytes() != b"mine" for p in written)


def test_two_options_naming_one_path_are_named_in_the_error(tmp_path: Path) -> None:
    x = str(tmp_path / "x")
    out = cli("floodit", "min", str(FLOODIT), "--cnf", x, "-o", x)
    assert_bad_input(out)
    assert "-o and --cnf" in out.stderr
    out = cli("floodit", "min", str(FLOODIT), "--smtlib", x, "--proof", x)
    assert_bad_input(out)
    assert "--smtlib and --proof" in out.stderr


def test_input_inside_the_output_folder_is_never_overwritten(tmp_path: Path) -> None:
    board = tmp_path / "b.below-2.smt2"
    shutil.copy(FLOODIT, board)
    out = cli("floodit", "min", str(board), "--smtlib", str(tmp_path), "--force")
    assert_bad_input(out)
    assert board.read_text() == FLOODIT.read_text()


def test_dry_run_print_dimacs_quiet_prints_the_cnf_alone() -> None:
    out = cli("floodit", "min", str(FLOODIT), "--dry-run", "--print-dimacs", "-q")
    assert out.exit_code == 0, out.stderr
    lines = out.stdout.splitlines()
    assert any(line.startswith("p cnf ") for line in lines)
    assert all(
        line.startswith(("c ", "p ")) or line.endswith(" 0") or line == "0" for line in lines
    )


# ------------------------------------------------------------------ limits


@pytest.mark.slow
def test_cnf_outputs_hold_the_time_limit(tmp_path: Path) -> None:
    strip = str(slow_cnf_nurikabe(tmp_path))
    run = run_process(["nurikabe", "solve", strip, "--print-dimacs", "-q", "--timeout", "1"])
    assert run.returncode == 3, run.stderr
    assert run.wall_s < 1.5 * run.stretch + 0.5
    assert "Traceback" not in run.stderr
    run = run_process(
        [
            "nurikabe",
            "solve",
            strip,
            "--print-asserts",
            "--print-dimacs",
            "--json",
            "--timeout",
            "1",
        ]
    )
    assert run.returncode == 3
    import json

    obj = json.loads(run.stdout)
    assert obj["stopped"] == "timeout"
    assert obj["elapsed_s"] >= 0.9


@pytest.mark.slow
def test_print_asserts_writes_what_was_asked_before_the_proofs_ran_out(tmp_path: Path) -> None:
    run = run_process(
        [
            "nurikabe",
            "solve",
            str(slow_cnf_nurikabe(tmp_path)),
            "--unique",
            "--print-asserts",
            "--proof",
            str(tmp_path / "p"),
            "--timeout",
            "2",
        ]
    )
    assert run.returncode == 3, run.stderr
    assert "(check-sat)" in run.stdout


@pytest.mark.slow
def test_ctrl_c_while_the_cnf_is_made_ends_the_run_at_once(tmp_path: Path) -> None:
    puzzle = slow_cnf_nurikabe(tmp_path)
    run = run_process(
        ["nurikabe", "solve", str(puzzle), "--print-dimacs", "-q"],
        interrupt_after=2.0,
    )
    assert run.returncode == 130, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr
    assert run.cpu_s < 2.0 + 1.0, run.cpu_s  # making this CNF takes a few seconds


@pytest.mark.slow
def test_floodit_question_cut_short_by_the_limit_is_still_printed(
    data_dir: Path, tmp_path: Path
) -> None:
    # One move below this board's optimum of 33 takes Z3's SAT core minutes to refute;
    # building the question takes about 4 CPU s alone (over 8 s on the clock with a third
    # process on two cores), so the limit leaves room for a load.
    board = corpus_file(data_dir / "floodit" / "99problems" / "20_20_08_003")
    run = run_process(
        [
            "floodit",
            "exact",
            "32",
            str(board),
            "--engine",
            "sat",
            "--presolve",
            "none",
            "--timeout",
            "15",
            "--print-asserts",
            "-q",
            "--smtlib",
            str(tmp_path),
        ]
    )
    assert run.returncode == 3, run.stderr
    assert "unknown\n" in run.stdout and run.stdout.rstrip().endswith("(check-sat)")
    files = list(tmp_path.glob("*.smt2"))
    assert len(files) == 1
    assert "(set-info :status unknown)" in files[0].read_text()


def test_verify_refuses_what_is_no_cnf_or_proof(tmp_path: Path) -> None:
    cnf = tmp_path / "x.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    assert_bad_input(cli("verify", str(cnf), "/dev/null"))
    assert_bad_input(cli("verify", str(tmp_path), str(cnf)))
    bad = tmp_path / "bad.cnf"
    bad.write_text("p cnf 1 1\n1 x 0\n")
    proof = tmp_path / "p.drat"
    proof.write_text("0\n")
    out = cli("verify", str(bad), str(proof))
    assert_bad_input(out)
    assert "bad.cnf" in out.stderr and "line 2" in out.stderr
    assert cli("verify", str(cnf), str(proof)).exit_code == 0  # unit propagation refutes it
