"""The ``smtpuzzles floodit`` command line: output contract, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from smtpuzzles.cli import app
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.generate import random_board

ROOT = Path(__file__).resolve().parents[2]
BOARD = str(ROOT / "instances" / "floodit" / "b10x10c4.txt")
KEYS = [
    "puzzle",
    "name",
    "mode",
    "status",
    "solution",
    "unique",
    "stopped",
    "elapsed_s",
    "moves",
    "length",
    "lower_bound",
    "upper_bound",
]
runner = CliRunner()


def run(*args: str, stdin: str | None = None):
    return runner.invoke(app, ["floodit", *args], input=stdin)


@pytest.mark.parametrize(
    ("argv", "status", "code"),
    [
        (["min"], "optimal", 0),
        (["opt"], "optimal", 0),
        (["solve"], "solved", 0),
        (["exact", "10"], "solved", 0),
        (["exact", "9"], "unsat", 1),
        (["search", "5", "12"], "optimal", 0),
        (["search", "2", "9"], "unsat", 1),
    ],
)
def test_json_has_exactly_the_issue_keys(argv: list[str], status: str, code: int) -> None:
    result = run(*argv, BOARD, "--json")
    assert result.exit_code == code, result.output
    obj = json.loads(result.stdout)
    assert list(obj) == KEYS
    assert obj["puzzle"] == "floodit" and obj["mode"] == argv[0] and obj["status"] == status
    assert obj["name"] == "b10x10c4.txt" and obj["solution"] == obj["moves"]
    if status == "optimal":
        assert obj["length"] == obj["lower_bound"] == obj["upper_bound"] == 10
    if obj["moves"] is not None:
        grid = [[int(c) for c in line] for line in Path(BOARD).read_text().split()]
        check_solution(grid, obj["moves"])
        assert obj["length"] == len(obj["moves"])


def test_text_output_names_bounds_strategy_and_moves() -> None:
    result = run("min", BOARD)
    assert result.exit_code == 0
    out = result.stdout
    for part in (
        "floodit " + BOARD + ": 10x10, 4 colours, 61 clusters, start 0,0",
        "bounds: ",
        "search ",
        "status: optimal",
        "moves: ",
        "length: 10",
        "time: ",
    ):
        assert part in out, out


def test_stats_and_smtlib_keys_only_when_asked() -> None:
    args = ("min", BOARD, "--json", "--stats", "--print-asserts", "--bound-nodes", "0")
    obj = json.loads(run(*args).stdout)
    assert list(obj) == [*KEYS, "stats", "smtlib"]
    assert obj["smtlib"].count("(check-sat)") == 2
    assert obj["stats"]["checks"] >= 1 and obj["stats"]["proven_by"] == "z3"
    obj = json.loads(run("min", BOARD, "--json", "--stats", "--bound-nodes", "2000").stdout)
    assert (obj["stats"]["checks"], obj["stats"]["proven_by"]) == (0, "A*")  # nothing shorter
    assert obj["length"] == 10


def test_dry_run_prints_sizes_and_script_without_solving() -> None:
    sizes = json.loads(run("min", BOARD, "--dry-run", "--json").stdout)
    assert sizes["status"] == "dry-run" and sizes["bool_vars"] > 0 and sizes["int_vars"] > 0
    script = run("exact", "4", BOARD, "--dry-run", "--print-asserts").stdout
    assert "(set-logic QF_LIA)" in script.splitlines()
    assert script.rstrip().endswith("(check-sat)")
    assert "colour_t3" in script and "flooded_c" in script


def test_show_prints_digits_when_piped() -> None:
    out = run("min", BOARD, "--show").stdout
    assert "after 10 moves:" in out
    assert "\x1b[" not in out
    assert out.rstrip().splitlines()[-1] == out.rstrip().splitlines()[-1][0] * 10


def test_stdin_start_format_and_index(tmp_path: Path) -> None:
    assert json.loads(run("min", "-", "--json", stdin="0110\n").stdout)["length"] == 2
    obj = json.loads(run("min", "-", "--json", "--start", "0,1", stdin="0110\n").stdout)
    assert obj["length"] == 1
    dataset = tmp_path / "dataset_x.txt"
    dataset.write_text("1212\n1111\n")
    assert json.loads(run("min", str(dataset), "--index", "2", "--json").stdout)["length"] == 0
    forced = run("min", str(dataset), "--format", "grid", "--json")
    assert forced.exit_code == 2


def test_timeout_reports_what_is_known(tmp_path: Path) -> None:
    """A board far beyond the limit (30x30, 8 colours: no optimum within 30 s): the run
    stops at the limit with the bounds proven and a checked play of the upper bound's
    length; stopped at once, the JSON still has every key."""
    board = tmp_path / "big.txt"
    board.write_text(random_board(30, 30, 8, 3).text())
    early = json.loads(run("min", str(board), "--json", "--timeout", "0.001").stdout)
    assert list(early) == KEYS and early["stopped"] == "timeout"
    result = run("min", str(board), "--json", "--timeout", "2")
    assert result.exit_code == 3, result.output
    obj = json.loads(result.stdout)
    assert obj["status"] == "unknown" and obj["stopped"] == "timeout"
    assert obj["lower_bound"] < obj["upper_bound"] == obj["length"]
    grid = [[int(c) for c in line] for line in board.read_text().split()]
    check_solution(grid, obj["moves"])


BAD = [
    ("ragged.txt", b"012\n01\n", "ragged.txt:2:3: ragged rows"),
    ("char.txt", b"012\n0?1\n", "char.txt:2:2: '?' is not a colour"),
    ("gap.txt", b"013\n", "gap.txt:1:3: colours must be gapless"),
    ("empty.txt", b"", "empty.txt: empty board"),
    ("binary.bin", b"\x00\x01\x02", "binary.bin: binary input"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result = run("min", str(path))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("smtpuzzles: error: ")
    assert message.replace(name, str(path)) in lines[0], lines


@pytest.mark.slow
def test_missing_file_directory_and_usage_as_a_process(tmp_path: Path) -> None:
    for target, text in (
        (str(tmp_path / "nope.txt"), "no such file"),
        (str(tmp_path), "is a directory"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "smtpuzzles", "floodit", "min", target],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2
        assert proc.stderr.strip().count("\n") == 0 and text in proc.stderr
        assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "floodit", "search", "5", "3", BOARD],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "must not exceed" in proc.stderr


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["floodit", "exact", "abc", BOARD], "floodit exact: Invalid value for 'N'"),
        (["floodit", "min"], "floodit min: Missing argument 'BOARD'"),
        (["floodit", "mn", BOARD], "floodit: No such command 'mn'"),
        (["nurikabe", "solve", "--bogus", BOARD], "nurikabe solve: No such option: --bogus"),
    ],
)
def test_mistyped_command_lines_get_one_line_and_exit_2(argv: list[str], words: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", *argv], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("smtpuzzles: error: ")
    assert words in proc.stderr and "--help" in proc.stderr


@pytest.mark.slow
def test_a_bare_command_still_shows_its_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "floodit"], capture_output=True, text=True, timeout=60
    )
    # click 8.2 made this exit 2 (it was 0 before); typer >= 0.15.4 allows either
    assert proc.returncode in (0, 2) and "min" in proc.stdout + proc.stderr
    assert "Usage" in proc.stdout + proc.stderr and "error" not in proc.stderr


def test_generate_is_reproducible_and_gapless() -> None:
    a = run("generate", "5", "7", "6", "--seed", "3").stdout
    b = run("generate", "5", "7", "6", "--seed", "3").stdout
    assert a == b and len(a.split()) == 5 and all(len(r) == 7 for r in a.split())
    assert set(a.replace("\n", "")) == set("012345")
    assert run("generate", "1", "2", "3").exit_code == 2


def test_bench_checks_answers_against_the_manifest() -> None:
    folder = ROOT / "instances" / "floodit"
    result = runner.invoke(
        app,
        [
            "bench",
            "floodit",
            str(folder / "b03x03c3.txt"),
            str(folder / "b04x04c3.txt"),
            "--json",
            "--jobs",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert [r["verdict"] for r in obj["rows"]] == ["ok", "ok"]
    assert obj["summary"]["answered"] == 2


def test_svg_pictures_every_move_and_never_overwrites_the_board(tmp_path) -> None:
    import xml.etree.ElementTree as ET

    board = tmp_path / "b.txt"
    board.write_text("0120\n1201\n2012\n")
    picture = tmp_path / "play.svg"
    result = CliRunner().invoke(
        app, ["floodit", "min", str(board), "--json", "--svg", str(picture)]
    )
    assert result.exit_code == 0, result.output
    moves = json.loads(result.stdout)["moves"]
    root = ET.parse(picture).getroot()
    frames = [child for child in root if child.tag.endswith("svg")]
    assert len(frames) == len(moves) + 1
    refused = CliRunner().invoke(app, ["floodit", "min", str(board), "--svg", str(board)])
    assert refused.exit_code == 2
    assert board.read_text() == "0120\n1201\n2012\n"
