"""Reliability on hostile input: limits checked before allocation, no traceback on any
number, time or output path, ``-o`` that never clobbers, ``opt`` telling a timeout from
Ctrl-C, the memory cap over the whole process, and puzz.link read strictly.

Every case runs the command as a user would (``python -m smtpuzzles``) and asserts the
documented exit code and one ``smtpuzzles: error:`` line where input is refused.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
from oracles.cli import run_script

from smtpuzzles.bench.child import PEAK_MARK
from smtpuzzles.puzzles.floodit.generate import random_board

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ROOT / "instances" / "floodit"
HUGE = "9" * 5000  #: past Python's 4,300-digit limit on reading numbers
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float  #: the child's peak resident memory


def run(*argv: str, stdin: str = "", timeout: float = 120.0) -> Run:
    """``python -m smtpuzzles ARGV``: exit code, output, wall time and peak memory.

    The command runs in a process forked from the bench's small launcher, which reports
    its exact peak on stderr's last line: a peak read here by ``wait4`` would count this
    test process's own memory, which Linux carries into a child's peak across ``exec``."""
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "smtpuzzles.bench.child", *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
        text=True,
    )
    texts: dict[str, str] = {}

    def pump(name: str, stream: IO[str]) -> None:
        texts[name] = stream.read()

    pumps = [
        threading.Thread(target=pump, args=(name, stream))
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for t in pumps:
        t.start()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    try:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        killer.cancel()
    for t in pumps:
        t.join()
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    assert code != -signal.SIGKILL, f"killed after {timeout} s: {argv}"
    err, peak_kb = texts["err"], float(usage.ru_maxrss)
    lines = err.splitlines(keepends=True)
    if lines and lines[-1].startswith(PEAK_MARK):
        peak_kb = float(lines[-1][len(PEAK_MARK) :].strip())
        err = "".join(lines[:-1])
    return Run(code, texts["out"], err, time.monotonic() - began, peak_kb / 1024)


def refused(result: Run, *words: str) -> None:
    """Exit 2 with exactly one ``smtpuzzles: error:`` line naming ``words``, no traceback."""
    assert result.code == 2, (result.code, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert lines[0].startswith("smtpuzzles: error: "), lines[0]
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


# -- sizes are checked before anything is allocated ------------------------------------------


def test_mnk_header_is_refused_before_the_board_is_allocated() -> None:
    result = run("floodit", "min", "-", stdin="20000 20000 6\n1 2 3\n")
    refused(result, "<stdin>:1:1", "20000x20000", "limit")
    assert result.peak_mb < 300, result.peak_mb  # a 20000x20000 board is 3 GB in lists


@pytest.mark.parametrize(
    "argv",
    [
        ("floodit", "generate", "100000", "100000", "4"),
        ("floodit", "generate", "1", "100000000", "4"),
    ],
)
def test_generate_refuses_sizes_over_the_limit(argv: tuple[str, ...]) -> None:
    result = run(*argv)
    refused(result, "cells", "limit")
    assert result.stdout == ""


def _question_marks(side: int, count: int) -> str:
    """A side x side Nurikabe grid with ``count`` '?' clues spread along its diagonal."""
    rows = [["-"] * side for _ in range(side)]
    for k in range(count):
        rows[k * side // count][k * side // count] = "?"
    return f"{side} {side}\n" + "\n".join(" ".join(row) for row in rows) + "\n"


@pytest.mark.parametrize("presolve", ["full", "none"])
def test_a_nurikabe_formula_too_large_to_build_is_refused_before_any_work(
    presolve: str,
) -> None:
    # 40 '?' clues on 120x120: every island may reach every cell, 576,000 (clue, cell)
    # pairs, a formula of tens of gigabytes
    grid = _question_marks(120, 40)
    result = run("nurikabe", "solve", "-", "--presolve", presolve, stdin=grid, timeout=60)
    refused(result, "too large to encode", "'?'")
    assert result.seconds < 20 and result.peak_mb < 400, (result.seconds, result.peak_mb)


def test_the_api_formula_holds_its_timeout() -> None:
    import smtpuzzles

    puzzle = smtpuzzles.load(_question_marks(60, 10), puzzle="nurikabe")
    began = time.monotonic()
    with pytest.raises(TimeoutError):
        smtpuzzles.formula(puzzle, timeout=0.5)  # presolving alone takes a minute
    assert time.monotonic() - began < 2.0


def test_seed004_and_clue_grid_headers_are_refused_over_the_limit() -> None:
    refused(run("nurikabe", "solve", "-", stdin="9000,9000 1,0,0\n"), "9000x9000", "limit")
    grid = "200000 2\n- -\n- -\n"
    refused(run("nurikabe", "solve", "-", stdin=grid), "<stdin>:1:1", "200000x2", "limit")


# -- numbers of any length ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "stdin", "where"),
    [
        (("floodit", "min", "-"), f"{HUGE} 2 2\n1 2\n2 1\n", "<stdin>:1:1"),
        (("floodit", "min", "-"), f"2 2 2\n1 2\n2 1\n{HUGE}\n", "<stdin>:4:1"),
        (("floodit", "min", "-"), f"2 2 2\n1 {HUGE}\n2 1\n", "<stdin>:2:3"),
        (("nurikabe", "solve", "-"), f"2 2\n{HUGE} -\n- -\n", "<stdin>:2:1"),
        (("nurikabe", "solve", "-"), f"5,5 {HUGE},1,1\n", "<stdin>:1:5"),
        (("nurikabe", "solve", "-"), f"{HUGE},5 1,1,1\n", "<stdin>:1:1"),
        (("nurikabe", "solve", "-"), f"A: B\nB: A\nclue A {HUGE}\n", "<stdin>:3:8"),
        (("koburin", "solve", "-"), f"2 2\n{HUGE} -\n- -\n", "<stdin>:2:1"),
        (("koburin", "solve", "-"), f"A: B\nB: A\nA = {HUGE}\n", "<stdin>:3:5"),
    ],
)
def test_numbers_of_thousands_of_digits_are_one_located_line(
    argv: tuple[str, ...], stdin: str, where: str
) -> None:
    refused(run(*argv, stdin=stdin), where, "too large")


@pytest.mark.parametrize("puzzle", ["nurikabe", "koburin"])
def test_a_url_too_long_for_a_file_name_is_read_as_a_url(puzzle: str) -> None:
    """Longer than any path the system takes (PATH_MAX): asking whether it names a file
    fails, and must not end in a traceback."""
    url = f"https://puzz.link/p?{puzzle}/6/7/sbnan5bh{'9' * 5000}"
    refused(run(puzzle, "solve", url), "URL character")


def test_a_huge_start_cell_is_refused() -> None:
    refused(run("floodit", "min", str(BOARDS / "b05x05c4.txt"), "--start", f"{HUGE},0"), "--start")


@pytest.mark.parametrize("value", ["inf", "nan", "1e10", "-1", "0"])
def test_timeouts_that_are_no_time_limit_are_refused(value: str) -> None:
    result = run("floodit", "min", str(BOARDS / "b05x05c4.txt"), "--timeout", value)
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_memory_cap_beyond_what_can_be_set_is_refused_not_dropped() -> None:
    result = run("nurikabe", "solve", "-", "--memory", "99999999999", stdin="1\n")
    refused(result, "--memory")


def test_puzzlink_output_of_a_clue_too_large_for_the_format_is_one_line() -> None:
    result = run(
        "nurikabe", "solve", "-", "--to", "puzzlink", stdin="3 3\n- - -\n- 12288 -\n- - -\n"
    )
    refused(result, "puzz.link")


# -- output files ---------------------------------------------------------------------------

B5 = str(BOARDS / "b05x05c4.txt")


def test_output_into_a_missing_folder_is_refused_before_solving(tmp_path: Path) -> None:
    result = run("floodit", "min", B5, "-o", str(tmp_path / "no" / "such" / "out.txt"))
    refused(result, "folder")
    assert result.stdout == ""


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_output_into_an_unwritable_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        refused(run("floodit", "min", B5, "--svg", str(folder / "x.svg")), "permission")
    finally:
        folder.chmod(0o700)


def test_output_onto_a_fifo_is_refused_and_the_fifo_kept(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run("floodit", "min", B5, "-o", str(fifo), "--force")
    refused(result, "FIFO")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert result.stdout == ""


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_output_onto_a_device_is_refused_and_the_device_kept(tmp_path: Path) -> None:
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = run("koburin", "solve", str(ROOT / "instances" / "koburin" / "gen_8x8_s1.txt"),
                 "-o", str(device), "--force")  # fmt: skip
    refused(result, "device")
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_output_onto_a_symlink_or_a_folder_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("keep\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    refused(run("floodit", "min", B5, "-o", str(link), "--force"), "symlink")
    assert link.is_symlink() and target.read_text() == "keep\n"
    refused(run("floodit", "min", B5, "-o", str(tmp_path), "--force"), "folder")


def test_an_existing_file_is_kept_unless_forced_and_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    out.chmod(0o444)
    result = run("floodit", "min", B5, "-o", str(out))
    refused(result, "exists", "--force")
    assert out.read_text() == "old\n" and result.stdout == ""
    forced = run("floodit", "min", B5, "-o", str(out), "--force")
    assert forced.code == 0, forced.stderr
    assert "length" in out.read_text()
    assert stat.S_IMODE(out.stat().st_mode) == 0o444


def test_one_path_for_two_outputs_is_refused(tmp_path: Path) -> None:
    same = tmp_path / "x"
    result = run("floodit", "min", B5, "-o", str(same), "--svg", str(same))
    refused(result, "two")
    assert not same.exists() and result.stdout == ""


@pytest.mark.parametrize(
    "argv",
    [
        ("floodit", "min"),
        ("koburin", "solve"),
        ("nurikabe", "solve"),
    ],
)
def test_an_input_as_output_is_refused_before_the_answer_is_printed(
    tmp_path: Path, argv: tuple[str, ...]
) -> None:
    source = {
        "floodit": BOARDS / "b05x05c4.txt",
        "koburin": ROOT / "instances" / "koburin" / "gen_8x8_s1.txt",
        "nurikabe": None,
    }[argv[0]]
    board = tmp_path / "in.txt"
    board.write_text(source.read_text() if source else "2 2\n1 -\n- 1\n")
    before = board.read_text()
    result = run(*argv, str(board), "-o", str(board), "--force")
    refused(result, "input")
    assert result.stdout == "" and board.read_text() == before


# -- opt: timeout is a timeout, Ctrl-C is Ctrl-C ------------------------------------------


@pytest.fixture(scope="module")
def hard(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A board Optimize takes far longer than these tests wait on (30x30, 8 colours; the
    shipped 20x20 boards are proven within 2 s on an idle machine)."""
    board = tmp_path_factory.mktemp("hard") / "b30x30c8.txt"
    board.write_text(random_board(30, 30, 8, 3).text())
    return str(board)


def test_opt_reports_its_timeout_as_a_timeout(hard: str) -> None:
    result = run("floodit", "opt", hard, "--timeout", "2", "--json")
    assert result.code == 3, result.stderr
    assert json.loads(result.stdout)["status"] == "unknown"
    assert "interrupted" not in result.stderr


def test_opt_reports_ctrl_c_as_an_interruption(hard: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "smtpuzzles", "floodit", "opt", hard],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
        text=True,
    )
    time.sleep(3.0)  # past the playout: Optimize is checking
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "stopped: interrupted" in out
    assert "stopped: timeout" not in out


# -- the memory cap holds over the whole process --------------------------------------------


def test_the_memory_cap_ends_a_large_flood_it_with_exit_3_and_bounded_memory(
    tmp_path: Path,
) -> None:
    board = tmp_path / "b60.txt"
    assert run("floodit", "generate", "60", "60", "4", "--seed", "1", "-o", str(board)).code == 0
    base = run("floodit", "min", B5, "--json")
    assert base.code == 0
    result = run("floodit", "min", str(board), "--memory", "40", "--timeout", "60", "--json")
    assert result.code == 3, result.stderr
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout)["status"] == "unknown"
    assert result.peak_mb < base.peak_mb + 40 + 30, (result.peak_mb, base.peak_mb)


# -- puzz.link ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https://puzz.link/p?nurikabe/99999999/5/1", ("URL character 30", "out of range")),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3gzz", ("URL character 43", "after the last")),
        ("https://puzz.link/p?nurikabe/x/5/5/g5k2o1k3g", ("URL character 30", "flag")),
        ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g/more", ("URL character 43", "'/'")),
        ("https://puzz.link/p?nurikabe/5/5/g5k!", ("URL character 37", "'!'")),
        ("https://puzz.link/p?nurikabe/05/5/g", ("URL character 30",)),
        ("https:\x1b//puzz.link/p?nurikabe/3/5/n3k4", ("URL character 7", "U+001B")),
        ("https://pu\x1bzz.link/p?nurikabe/2/3/j.g", ("URL character 11", "printable")),
    ],
)
def test_puzzlink_urls_are_read_strictly(url: str, words: tuple[str, ...]) -> None:
    refused(run("nurikabe", "solve", url), *words)


def test_a_koburin_url_flag_must_be_one_pzprjs_writes() -> None:
    refused(run("koburin", "solve", "https://puzz.link/p?koburin/q/5/5/"), "flag", "URL character")


def test_a_well_formed_url_still_solves() -> None:
    result = run("nurikabe", "solve", "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["status"] == "solved"


# -- the time limit holds while Z3 keeps control -------------------------------------------


def test_time_limit_holds_when_the_solver_does_not_return() -> None:
    """A check that neither stops at its timeout nor lets a signal in (as Z3 tidying a
    large state) still ends at the limit: the watchdog says so and exits 3."""
    script = (
        "import signal, sys, time\n"
        "import z3\n"
        "def stuck(self, *assumptions):\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})\n"
        "    time.sleep(30)\n"
        "z3.Solver.check = stuck\n"
        "from smtpuzzles import entry\n"
        "sys.argv = ['smtpuzzles', 'nurikabe', 'solve', sys.argv[1], '--json', '--timeout', '1']\n"
        "entry.main()\n"
    )
    began = time.monotonic()
    result = run_script(script, ROOT / "instances" / "nurikabe" / "holes_07x08.txt")
    assert time.monotonic() - began < 20, "the run waited for the stuck check"
    assert result.returncode == 3, result.stderr
    obj = json.loads(result.stdout)
    assert obj["status"] == "unknown" and obj["stopped"] == "timeout"
    assert "time limit reached" in result.stderr


def test_the_run_ends_only_after_the_watchdog_has_spoken() -> None:
    """A check that returns after the watchdog began to speak: the search then reaches
    its own report while the watchdog is still writing its words, and must wait for
    them instead of ending the process with nothing printed."""
    script = (
        "import signal, sys, time\n"
        "import z3\n"
        "import smtpuzzles.cli.run as run\n"
        "def late(self, *assumptions):\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})\n"
        "    time.sleep(1.6)\n"
        "    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM, signal.SIGINT})\n"
        "    return z3.unknown\n"
        "z3.Solver.check = late\n"
        "words = run._so_far_json\n"
        "def slow_words(kind):\n"
        "    time.sleep(1.0)\n"
        "    return words(kind)\n"
        "run._so_far_json = slow_words\n"
        "from smtpuzzles import entry\n"
        "sys.argv = ['smtpuzzles', 'nurikabe', 'solve', sys.argv[1], '--json', '--timeout', '1']\n"
        "entry.main()\n"
    )
    result = run_script(script, ROOT / "instances" / "nurikabe" / "holes_07x08.txt")
    assert result.returncode == 3, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, (result.stdout, result.stderr)
    assert json.loads(lines[0])["stopped"] == "timeout"
    assert result.stderr.count("time limit reached") == 1, result.stderr


@pytest.mark.parametrize(
    ("raised", "code", "why"),
    [
        ("smtpuzzles.limits.TimeUp()", 3, "timeout"),
        ("smtpuzzles.limits.MemoryLimitExceeded('cap')", 3, "memory"),
        ("z3.Z3Exception('out of memory')", 3, "memory"),
        ("KeyboardInterrupt()", 130, "interrupted"),
        ("SystemError('error return without exception set')", 3, "memory"),  # at the cap
    ],
)
def test_a_stop_outside_the_guarded_steps_still_prints_the_json(
    raised: str, code: int, why: str
) -> None:
    """A limit or Ctrl-C that reaches the command's last line of defence (as a signal
    landing while a step unwinds can) still gives exactly one JSON object."""
    script = (
        "import sys\n"
        "import z3\n"
        "import smtpuzzles.limits\n"
        "import smtpuzzles.cli.run as run\n"
        "def stop(*args, **kwargs):\n"
        f"    raise {raised}\n"
        "run.refuse_bad_run_outputs = stop\n"
        "from smtpuzzles import entry\n"
        "sys.argv = ['smtpuzzles', 'floodit', 'min', sys.argv[1], '--json', '--memory', '500']\n"
        "entry.main()\n"
    )
    result = run_script(script, BOARDS / "b05x05c4.txt")
    assert result.returncode == code, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    obj = json.loads(lines[0])
    assert obj["puzzle"] == "floodit" and obj["mode"] == "min"
    assert obj["status"] == "unknown" and obj["stopped"] == why
    assert result.stderr.count("smtpuzzles: error:") == 1, result.stderr


# -- --json on refused runs, help text, empty names --------------------------------------------


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (("floodit", "min", "/no/such/board.txt"), "/no/such/board.txt: no such file"),
        (("floodit", "min", str(BOARDS / "b04x04c3.txt"), "--bogus"), "No such option: --bogus"),
        (("floodit", "min", str(BOARDS / "b04x04c3.txt"), "--timeout", "-1"), "--timeout -1"),
        (("nurikabe", "solve", "-"), "<stdin>"),
    ],
)
def test_json_refusal_prints_one_error_object_and_one_line(
    argv: tuple[str, ...], fragment: str
) -> None:
    """With --json an exit-2 error is also one JSON object on stdout (status ``error``,
    the message under ``error``, the keys every object has); the line stays on stderr."""
    result = run(*argv, "--json", stdin="? ?\nx\n")
    refused(result, fragment)
    obj = json.loads(result.stdout)
    assert result.stdout.count("\n") == 1
    assert obj["status"] == "error" and fragment in obj["error"]
    assert obj["puzzle"] == argv[0] and obj["mode"] == argv[1]
    assert {"name", "solution", "unique", "stopped", "elapsed_s"} <= set(obj)
    assert obj["error"] in result.stderr


def test_engine_help_says_what_auto_does() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", "floodit", "min", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**ENV, "COLUMNS": "250"},
    )
    text = " ".join(result.stdout.split())
    assert "auto (Z3's SAT core, handing a search's probes to CaDiCaL" in text, result.stdout


def test_an_empty_name_is_refused_by_name() -> None:
    refused(run("floodit", "min", ""), "'': an empty name names no puzzle file")
    from smtpuzzles import load
    from smtpuzzles.errors import InputError

    with pytest.raises(InputError, match="^'': an empty name"):
        load("")


def test_search_dry_run_refuses_a_horizon_past_the_clusters() -> None:
    """Within HI moves for HI past the clusters is the question of one move per cluster:
    refused like ``exact``, never a formula of HI layers built for seconds."""
    result = run("floodit", "search", "1", "100000", str(BOARDS / "b04x04c3.txt"), "--dry-run")
    refused(result, "within 100000 moves", "within 7 asks the same")
    assert result.seconds < 20
