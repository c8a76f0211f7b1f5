"""The ``smtpuzzles koburin`` command line: output, JSON, exit codes, formats, bad input,
and SMT-LIB scripts that the z3 executable and cvc5 answer as Z3 did."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from smtpuzzles.cli import app

runner = CliRunner()
SEED_EXAMPLE = "2____\n_____\n__1__\n_____\n1___0\n"
#: pzprjs's own test vector for Koburin.
PZPRJS_URL = "https://puzz.link/p?koburin/5/5/clcbg.n"


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, list(args), input=stdin)


@pytest.fixture
def seed_file(tmp_path: Path) -> Path:
    path = tmp_path / "seed.txt"
    path.write_text(SEED_EXAMPLE)
    return path


def test_text_output_draws_the_loop(seed_file: Path) -> None:
    result = run("koburin", "solve", str(seed_file), "--unique")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[2:7] == [
        "2 # ┌─┐ #",
        "# ┌─┘ └─┐",
        "┌─┘ 1 # │",
        "└───┐ ┌─┘",
        "1 # └─┘ 0",
    ]
    assert "status: solved, unique" in result.output


def test_json_has_exactly_the_issue_keys(seed_file: Path) -> None:
    result = run("koburin", "solve", str(seed_file), "--json", "--unique")
    assert result.exit_code == 0
    obj = json.loads(result.output)
    keys = ["puzzle", "name", "mode", "status", "solution", "unique", "stopped", "elapsed_s"]
    assert list(obj) == [*keys, "fixed"]
    assert obj["puzzle"] == "koburin" and obj["status"] == "solved" and obj["unique"] is True
    assert obj["solution"]["black"] == [[0, 1], [0, 4], [1, 0], [2, 3], [4, 1]]
    assert obj["fixed"][0] == "-#oo#"  # numbers -, black #, loop o: all fixed when unique
    loop = [tuple(c) for c in obj["solution"]["loop"]]
    assert len(loop) == len(set(loop)) == 16
    for (r1, c1), (r2, c2) in zip(loop, loop[1:] + loop[:1]):
        assert abs(r1 - r2) + abs(c1 - c2) == 1  # in order around the loop


def test_stdin_and_count_and_stats() -> None:
    result = run("koburin", "solve", "-", "--json", "--count", "3", "--stats", stdin="_____\n" * 3)
    assert result.exit_code == 0
    obj = json.loads(result.output)
    assert obj["count"] == 3 and obj["count_complete"] is False and obj["unique"] is False
    assert obj["stats"]["checks"] >= 3  # lazy connectivity may check again after a cut


def test_unsat_exits_1() -> None:
    result = run("koburin", "solve", "-", "--json", stdin="4__\n___\n___\n")
    assert result.exit_code == 1
    assert json.loads(result.output)["status"] == "unsat"


def test_puzzlink_round_trip_and_flag() -> None:
    result = run("koburin", "solve", PZPRJS_URL, "--to", "puzzlink")
    assert result.exit_code == 0 and result.output.strip() == PZPRJS_URL
    grid = run("koburin", "solve", PZPRJS_URL, "--to", "grid").output
    assert grid.splitlines()[:2] == ["5 5", "2 - - - -"]
    assert "?" in grid
    eight = run(
        "koburin", "solve", PZPRJS_URL.replace("koburin/", "koburin/m/"), "--to", "puzzlink"
    )
    assert "koburin/m/5/5/" in eight.output
    solved = run("koburin", "solve", PZPRJS_URL, "--json")
    assert solved.exit_code in (0, 1)
    assert json.loads(solved.output)["status"] in ("solved", "unsat")


def test_janko_block_and_table_are_detected(tmp_path: Path) -> None:
    block = tmp_path / "k.janko"
    block.write_text("[begin]\npuzzle Koburin\n[problem]\n" + SEED_EXAMPLE + "[end]\n")
    answer = json.loads(run("koburin", "solve", str(block), "--json").output)
    assert answer["solution"]["black"][0] == [0, 1]
    table = tmp_path / "ring.table"
    table.write_text(
        "# a ring of six, a triangle on a-b, a number seeing g\n"
        "a: b f g\nb: c g\nc: d\nd: e\ne: f\nf:\ng:\nx: g\nx = 1\n"
    )
    obj = json.loads(run("koburin", "solve", str(table), "--json", "--unique").output)
    assert obj["solution"]["black"] == ["g"] and obj["unique"] is True
    assert obj["solution"]["loop"] == ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize(
    "text, where",
    [
        ("2___\n___\n", ":2:"),  # ragged rows
        ("2_x_\n____\n", ":1:3"),  # not a clue
        ("5___\n____\n", ":1:1"),  # a number no cell can see
        ("", "empty"),
        ("2 2\n- -\n", "header"),
        ("a: b\nb: zz\n", ":2:4"),
        ("a: b\nb:\na = x\n", ":3:"),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "nurikabe"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    arg = text if text.startswith("https") else str(path)
    result = run("koburin", "solve", arg)
    assert result.exit_code == 2, result.output
    message = result.output.strip()
    assert "\n" not in message and "Traceback" not in message
    assert where in message


@pytest.mark.parametrize(
    "args", [["/no/such/file"], ["."], ["-", "--variant", "six"], ["-", "--format", "xml"]]
)
def test_bad_paths_and_options_exit_2(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "koburin", "solve", *args],
        input=SEED_EXAMPLE,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and not done.stdout
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_binary_input_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bin.txt"
    path.write_bytes(b"\x00\x01\x02")
    assert run("koburin", "solve", str(path)).exit_code == 2


def test_dry_run_prints_sizes(seed_file: Path) -> None:
    for connectivity, ints in (("distance", 21), ("lazy", 0)):
        args = ["--dry-run", "--json", "--connectivity", connectivity]
        obj = json.loads(run("koburin", "solve", str(seed_file), *args).output)
        assert obj["bool_vars"] > 25 and obj["int_vars"] == ints


def _z3_answer(script: str) -> str:
    exe = shutil.which("z3") or str(Path(sys.executable).with_name("z3"))
    if not Path(exe).exists():
        pytest.skip("no z3 executable")
    done = subprocess.run([exe, "-in"], input=script, capture_output=True, text=True, timeout=60)
    assert not done.stderr
    return done.stdout.strip()


def _cvc5_answer(script: str) -> str:
    cvc5 = pytest.importorskip("cvc5")
    solver = cvc5.Solver()
    symbols = cvc5.SymbolManager(solver)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "koburin")
    answer = None
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(solver, symbols)
        if "sat" in out:
            answer = out.strip()
    return answer or ""


@pytest.mark.parametrize(
    "extra, expected",
    [
        (["--connectivity", "distance"], "sat"),
        (["--connectivity", "lazy"], "sat"),
        (["--connectivity", "distance", "--unique"], "unsat"),
        (["--connectivity", "lazy", "--unique"], "unsat"),
        (["--connectivity", "lazy", "--count", "2"], "unsat"),
    ],
)
@pytest.mark.slow
def test_print_asserts_read_by_z3_and_cvc5(
    seed_file: Path, extra: list[str], expected: str
) -> None:
    result = run("koburin", "solve", str(seed_file), "--print-asserts", "--json", *extra)
    script = json.loads(result.output)["smtlib"]
    assert "(set-logic QF_LIA)" in script and script.rstrip().endswith("(check-sat)")
    assert "(declare-fun black_r0c1 () Bool)" in script
    # the whole puzzle, distances included, whichever strategy answered
    assert "(declare-fun loop_dist_r0c1 () Int)" in script
    assert f"; connectivity {extra[1]}" in script
    answers = re.findall(r"^; question \S+: (\w+)$", script, re.M)
    assert answers == (["sat", "unsat"] if len(extra) > 2 else ["sat"])
    assert answers[-1] == expected
    assert _z3_answer(script).split() == answers
    assert _cvc5_answer(script) == expected


@pytest.mark.parametrize("connectivity", ["distance", "lazy"])
def test_print_asserts_dry_run_is_a_script(seed_file: Path, connectivity: str) -> None:
    args = ["--print-asserts", "--dry-run", "--connectivity", connectivity]
    result = run("koburin", "solve", str(seed_file), *args)
    assert result.exit_code == 0
    assert result.output.rstrip().endswith("(check-sat)")
    assert "loop_dist_" in result.output
    assert _z3_answer(result.output) == "sat"


def test_print_asserts_is_the_puzzle_not_one_run(tmp_path: Path) -> None:
    """Without connectivity, two separate loops would pass rules C-H: the script must
    rule them out itself (z3 and cvc5 answer unsat for a puzzle that has no one loop)."""
    path = tmp_path / "two_loops.txt"
    # 2x5 with a number in the middle column: only two 2x2 loops fit, never one
    path.write_text("__0__\n__0__\n")
    result = run("koburin", "solve", str(path), "--print-asserts", "--json")
    assert result.exit_code == 1
    script = json.loads(result.output)["smtlib"]
    assert _z3_answer(script) == "unsat"
    assert _cvc5_answer(script) == "unsat"
