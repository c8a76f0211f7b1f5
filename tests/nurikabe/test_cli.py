"""The nurikabe command's contract: formats, JSON, exit codes, bad input, SMT-LIB."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances" / "nurikabe"

PUZZLE_5X5 = "5 5\n- 5 - - -\n- - 2 - -\n- - - - -\n- - 1 - -\n- - - 3 -\n"
ANSWER_5X5 = ["..###", ".#..#", ".####", ".#.#.", "###.."]
URL_5X5 = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "nurikabe", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        cwd=ROOT,
    )


def solved(*args: str, stdin: str | None = None) -> dict:
    done = run(*args, "--json", stdin=stdin)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_has_exactly_the_keys_of_the_issue() -> None:
    result = solved("solve", "-", stdin=PUZZLE_5X5)
    keys = ["puzzle", "name", "mode", "status", "solution", "unique", "stopped", "elapsed_s"]
    assert list(result) == keys
    assert result["puzzle"] == "nurikabe" and result["status"] == "solved"
    assert result["name"] == "<stdin>" and result["mode"] == "solve" and result["stopped"] is None
    assert result["solution"] == ANSWER_5X5
    assert result["unique"] is None


@pytest.mark.parametrize(
    "text",
    [
        PUZZLE_5X5,
        "-5---\n--2--\n-----\n--1--\n---3-\n",  # one character per cell
        "[begin]\npuzzle Nurikabe\n[problem]\n" + PUZZLE_5X5.split("\n", 1)[1] + "[end]\n",
        URL_5X5 + "\n",
        "5,5 5,1,0 2,2,1 1,2,3 3,3,4\n",  # seed004: size,x,y
    ],
    ids=["grid", "chars", "janko", "puzzlink", "seed004"],
)
def test_every_format_is_detected(text: str) -> None:
    result = solved("solve", "-", "--unique", stdin=text)
    assert result["solution"] == ANSWER_5X5
    assert result["unique"] is True
    assert result["fixed"] == ANSWER_5X5


def test_url_as_argument_and_back() -> None:
    assert solved("solve", URL_5X5)["solution"] == ANSWER_5X5
    done = run("solve", "-", "--to", "puzzlink", stdin=PUZZLE_5X5)
    assert (
        done.returncode == 0
        and done.stdout.strip() == URL_5X5.split("?", 1)[0] + "?" + (URL_5X5.split("?", 1)[1])
    )


@pytest.mark.slow
def test_both_strategies_and_engines_agree() -> None:
    for strategy in ("distance", "lazy"):
        for engine in ("sat", "smt"):
            result = solved(
                "solve", "-", "--connectivity", strategy, "--engine", engine, stdin=PUZZLE_5X5
            )
            assert result["solution"] == ANSWER_5X5


def test_count_and_fixed_cells_of_an_ambiguous_puzzle() -> None:
    result = solved("solve", "-", "--count", "10", stdin="2 2\n2 -\n- -\n")
    assert result["count"] == 2 and result["count_complete"] is True
    assert result["unique"] is False and result["fixed"] == [".?", "?#"]
    result = solved("solve", "-", "--unique", stdin="2 2\n2 -\n- -\n")
    assert result["unique"] is False
    assert result["fixed"] == [".?", "?#"]


def test_unsat_exits_1() -> None:
    done = run("solve", "-", "--json", stdin="2 2\n1 -\n- 1\n")
    assert done.returncode == 1
    assert json.loads(done.stdout)["status"] == "unsat"


def test_text_output_shows_clues_wall_and_islands() -> None:
    done = run("solve", "-", stdin=PUZZLE_5X5)
    assert done.returncode == 0
    assert ".5###\n.#2.#\n.####\n.#1#.\n###3." in done.stdout


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("3 3\n1 - -\n- x -\n- - -\n", "<stdin>:3:3:"),
        ("3 3\n1 - -\n- -\n- - -\n", "<stdin>:3:"),
        ("2 2\n0 -\n- -\n", "<stdin>:2:1:"),
        ("", "<stdin>:"),
        ("A: B\nB: A\nclue C 1\n", "<stdin>:3:6:"),
        ("A: B\nB: A\nclue A x\n", "<stdin>:3:8:"),
        ("A: B Z\nB: A\n", "<stdin>:1:6:"),
        ("5,5 1,9,9\n", "<stdin>:1:5:"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3!\n", "<stdin>:"),
        ("https://puzz.link/p?lits/5/5/g5k2o1k3g\n", "<stdin>:"),
    ],
    ids=[
        "bad-token",
        "ragged",
        "clue-zero",
        "empty",
        "unknown-clue-cell",
        "bad-clue",
        "unknown-neighbour",
        "seed004-outside",
        "url-bad-char",
        "url-other-type",
    ],
)
@pytest.mark.slow
def test_bad_input_is_one_line_and_exit_2(text: str, where: str) -> None:
    done = run("solve", "-", stdin=text)
    assert done.returncode == 2, done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("smtpuzzles: error: " + where), lines[0]


@pytest.mark.slow
def test_missing_file_directory_and_binary(tmp_path: Path) -> None:
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01\x02")
    for arg in (str(tmp_path / "nope.txt"), str(tmp_path), str(binary)):
        done = run("solve", arg)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_bad_options_exit_2() -> None:
    for extra in (["--connectivity", "magic"], ["--format", "xml"], ["--to", "svg"]):
        done = run("solve", "-", *extra, stdin=PUZZLE_5X5)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_to_puzzlink_refuses_a_table() -> None:
    done = run("solve", str(INSTANCES / "table_ring.txt"), "--to", "puzzlink")
    assert done.returncode == 2


def _z3_answer(script: str) -> str:
    z3_bin = shutil.which("z3") or str(Path(sys.executable).with_name("z3"))
    if not Path(z3_bin).exists():
        pytest.skip("z3 executable not found")
    done = subprocess.run([z3_bin, "-in"], input=script, capture_output=True, text=True)
    return done.stdout.strip()


def _cvc5_answer(script: str) -> str:
    cvc5 = pytest.importorskip("cvc5")
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "script")
    sm = parser.getSymbolManager()
    answer = ""
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(solver, sm)
        if out.strip():
            answer = out.strip()
    return answer


@pytest.mark.parametrize("strategy", ["distance", "lazy"])
def test_print_asserts_is_read_by_z3_and_cvc5(strategy: str) -> None:
    result = solved("solve", "-", "--print-asserts", "--connectivity", strategy, stdin=PUZZLE_5X5)
    script = result["smtlib"]
    assert "(set-logic QF_LIA)" in script and script.rstrip().endswith("(check-sat)")
    assert "black_r0c0" in script
    assert _z3_answer(script) == "sat"
    assert _cvc5_answer(script) == "sat"


def test_print_asserts_of_an_unsat_puzzle_and_of_a_uniqueness_proof() -> None:
    done = run("solve", "-", "--print-asserts", "--dry-run", stdin="2 2\n1 -\n- 1\n")
    assert done.returncode == 0
    assert _z3_answer(done.stdout) == "unsat"
    assert _cvc5_answer(done.stdout) == "unsat"
    result = solved("solve", "-", "--print-asserts", "--unique", stdin=PUZZLE_5X5)
    assert _z3_answer(result["smtlib"]).split() == ["sat", "unsat"]  # a picture, no other
    assert _cvc5_answer(result["smtlib"]) == "unsat"


def test_dry_run_prints_sizes() -> None:
    """A puzzle of 36 solutions: the deductions and hypotheses leave distances open."""
    open_puzzle = "4 4\n? - - -\n- - - -\n- - - -\n- - - 2\n"
    done = run("solve", "-", "--dry-run", "--json", stdin=open_puzzle)
    assert done.returncode == 0
    sizes = json.loads(done.stdout)
    assert sizes["bool_vars"] > 16 and sizes["int_vars"] > 0


def test_dry_run_of_a_puzzle_the_hypotheses_decide_keeps_its_distances() -> None:
    """The rules keep their distances, whatever presolving decides."""
    done = run("solve", "-", "--dry-run", "--json", stdin=PUZZLE_5X5)
    assert done.returncode == 0
    sizes = json.loads(done.stdout)
    assert sizes["bool_vars"] >= 25 and sizes["int_vars"] > 0


def test_generate_makes_a_unique_puzzle() -> None:
    done = run("generate", "5", "5", "--seed", "4")
    assert done.returncode == 0
    result = solved("solve", "-", "--unique", stdin=done.stdout)
    assert result["unique"] is True


def test_count_text_draws_every_solution_found() -> None:
    done = run("solve", "-", "--count", "10", stdin="2 2\n2 -\n- -\n")
    assert done.returncode == 0, done.stderr
    assert "solution 1:\n2.\n##\n" in done.stdout or "solution 1:\n2#\n.#\n" in done.stdout
    assert "solution 2:" in done.stdout and "solutions: 2\n" in done.stdout


def test_svg_pictures_the_answer_and_never_overwrites_the_input(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PUZZLE_5X5)
    picture = tmp_path / "p.svg"
    done = run("solve", str(puzzle), "--svg", str(picture))
    assert done.returncode == 0, done.stderr
    text = picture.read_text()
    assert text.startswith("<svg") and text.count("#333333") == 14  # one fill per wall cell
    done = run("solve", str(puzzle), "--svg", str(puzzle))
    assert done.returncode == 2 and "refusing to overwrite" in done.stderr
    assert puzzle.read_text() == PUZZLE_5X5


@pytest.mark.slow
def test_ctrl_c_prints_what_is_known_then_exits_130(tmp_path: Path) -> None:
    # A `?` clue on an open 8x8 grid has a great many solutions: counting never ends.
    rows = ["? " + "- " * 7] + ["- " * 8] * 6 + ["- " * 7 + "2"]
    puzzle = tmp_path / "many.txt"
    puzzle.write_text("8 8\n" + "\n".join(rows) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "smtpuzzles", "nurikabe", "solve", str(puzzle), "--count", "99999"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    time.sleep(6)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "stopped: interrupted" in out and "status: " in out
    assert "Traceback" not in err


@pytest.mark.slow
def test_bench_checks_every_shipped_answer_and_notices_a_wrong_one(tmp_path: Path) -> None:
    """Tori, hex grids, holes and tables answer with cell names, grids with rows: the
    bench compares both with their ``.sol`` files, and a changed ``.sol`` is WRONG."""
    for f in INSTANCES.iterdir():
        shutil.copy(f, tmp_path / f.name)
    sol = tmp_path / "torus_06x06.sol"
    text = sol.read_text()
    flipped = text.index("#")
    sol.write_text(text[:flipped] + "." + text[flipped + 1 :])
    done = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "bench", "nurikabe", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 1, done.stderr  # some answer disagreed with its .sol
    report = json.loads(done.stdout)
    assert report["summary"]["wrong"] == 1
    verdicts = {row["name"]: row["verdict"] for row in report["rows"]}
    assert len(verdicts) == len(list(INSTANCES.glob("*.txt")))
    assert verdicts.pop("torus_06x06.txt") == "WRONG"
    assert set(verdicts.values()) == {"ok"}
