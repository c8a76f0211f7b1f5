"""The command line as the tests run it: the parse-or-refuse contract, the command line
in-process and as a real process (with its wall time and peak memory)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from typer.testing import CliRunner

from smtpuzzles.cli import app
from smtpuzzles.errors import InputError

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances"


def parsed_or_refused(parse: Callable[[str], T], text: str) -> T | None:
    """The parse result, or ``None`` after an :class:`InputError` of one line naming the
    source. Any other exception fails the test (it would reach the user as a traceback)."""
    try:
        return parse(text)
    except InputError as exc:
        message = str(exc)
        assert "\n" not in message and message.strip(), repr(message)
        return None


_runner = CliRunner()


def cli(*args: str, stdin: str | None = None) -> Any:
    """The command line in-process (fast): a result with exit_code, stdout, stderr."""
    return _runner.invoke(app, list(args), input=stdin)


def generated(argv: Sequence[str], folder: Path) -> list[dict[str, Any]]:
    """Run the batch ``generate`` command ``argv`` into ``folder`` (exit 0 asserted);
    the puzzles its ``manifest.json`` lists."""
    made = cli(*argv, "-o", str(folder))
    assert made.exit_code == 0, made.stderr
    return json.loads((folder / "manifest.json").read_text())["puzzles"]


def benched(kind: str, folder: Path, rows: Path) -> list[dict[str, Any]]:
    """Run ``bench`` on ``folder`` (exit 0 asserted); the rows of its ``--jsonl`` file."""
    bench = cli("bench", kind, str(folder), "--jsonl", str(rows))
    assert bench.exit_code == 0, bench.stdout + bench.stderr
    return [json.loads(line) for line in rows.read_text().splitlines()]


def slow_cnf_nurikabe(folder: Path) -> Path:
    """A 99x8 Nurikabe of one clue: refuted in a fraction of a second, while its CNF
    takes seconds of CPU to make (for tests that stop or interrupt the translation)."""
    puzzle = folder / "strip_99x8.txt"
    puzzle.write_text("99,8 1,0,0\n99,8 1,0,0\n?")
    return puzzle


def assert_bad_input(result: Any) -> None:
    """Exit 2, exactly one line on stderr, and no traceback anywhere."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@dataclass
class Run:
    """A finished ``python -m smtpuzzles`` process, with what it cost."""

    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    peak_mb: float  #: the child's own peak resident memory (os.wait4)
    cpu_s: float  #: the child's own processor time, user and system (os.wait4)

    @property
    def stretch(self) -> float:
        """How much longer than its processor time the run took on the clock (at least
        1): above 1 when other processes had the processor, as on a loaded machine."""
        return max(1.0, self.wall_s / max(self.cpu_s, 1e-3))


def as_at_a_terminal() -> None:
    """In a child before it runs: Ctrl-C at its default, as a shell gives a command it
    runs in the foreground. A test suite started in the background (``cmd &``, as CI
    may be) has SIGINT ignored, and every child would inherit that: a Ctrl-C before
    the program sets its own handler would then be lost, which no user sees."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_process(
    argv: list[str],
    interrupt_after: float | None = None,
    hard_limit_s: float = 120.0,
    stdin: bytes | None = None,
) -> Run:
    """Run ``python -m smtpuzzles ARGV``; measure wall time and peak memory (os.wait4).

    ``interrupt_after`` sends SIGINT, as Ctrl-C would, once the child has had that many
    seconds of processor time (on a loaded machine the clock runs further while it has
    done less; where ``/proc`` is absent, that many seconds on the clock). Output goes
    to temporary files so that a large answer cannot block the child.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with tempfile.TemporaryFile() as given:
            given.write(stdin or b"")
            given.seek(0)
            began = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "smtpuzzles", *argv],
                stdin=given,
                stdout=out,
                stderr=err,
                cwd=ROOT,
                preexec_fn=as_at_a_terminal,
            )
        interrupted = interrupt_after is None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            now = time.monotonic() - began
            if not interrupted and worked(proc.pid, now) >= interrupt_after:
                proc.send_signal(signal.SIGINT)
                interrupted = True
            if now > hard_limit_s:
                proc.kill()
                os.wait4(proc.pid, 0)
                raise AssertionError(f"{argv} did not finish within {hard_limit_s} s")
            time.sleep(0.01)
        wall = time.monotonic() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(
            proc.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            wall,
            usage.ru_maxrss / 1024,
            usage.ru_utime + usage.ru_stime,
        )


def run_script(script: str, puzzle: str | Path) -> subprocess.CompletedProcess[str]:
    """``python -c SCRIPT PUZZLE``: a command run with some of the package patched
    (``script`` patches, then calls the entry point on the puzzle it is given)."""
    return subprocess.run(
        [sys.executable, "-c", script, str(puzzle)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )


def worked(pid: int, clock_s: float) -> float:
    """The processor time (user and system, all threads) process ``pid``, the children it
    has waited for and those it runs now (a CNF or a proof is made in one) have had so
    far, read from ``/proc``;
    ``clock_s`` where that cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return clock_s
    ticks = sum(int(f) for f in fields[11:15])  # its own time and its waited-for children's
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    for child in children:
        try:
            more = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(more[11]) + int(more[12])
    return ticks / os.sysconf("SC_CLK_TCK")
