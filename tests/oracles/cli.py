"""Helpers shared by the hardening tests: the parse-or-refuse contract, the command line
run in-process and as a real process, and the second solvers (cvc5, the z3 executable)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from typer.testing import CliRunner

from smtpuzzles.cli import app
from smtpuzzles.errors import InputError

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
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


def run_process(
    argv: list[str],
    interrupt_after: float | None = None,
    hard_limit_s: float = 120.0,
    stdin: bytes | None = None,
) -> Run:
    """Run ``python -m smtpuzzles ARGV``; measure wall time and peak memory (os.wait4).

    ``interrupt_after`` sends SIGINT after that many seconds, as Ctrl-C would. Output goes
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
            )
        interrupted = interrupt_after is None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            now = time.monotonic() - began
            if not interrupted and now >= interrupt_after:
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
        )


def z3_executable() -> Path | None:
    """The ``z3`` binary the z3-solver wheel ships: beside the interpreter, else in the
    package's ``bin`` folder."""
    import z3

    candidates = [
        Path(sys.executable).parent / "z3",
        Path(z3.__file__).parent / "bin" / "z3",
        Path(sys.prefix) / "bin" / "z3",
    ]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


def z3_start(script: str, timeout_s: float = 60.0) -> subprocess.Popen:
    """The z3 executable reading ``script`` in the background (see :func:`z3_result`),
    so a test can ask cvc5 meanwhile: the machine has two cores."""
    exe = z3_executable()
    assert exe is not None, "the z3-solver wheel ships a z3 executable"
    with tempfile.NamedTemporaryFile("w", suffix=".smt2", delete=False) as fh:
        fh.write(script)
    proc = subprocess.Popen(
        [str(exe), f"-T:{int(timeout_s)}", fh.name],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.script_path = fh.name  # type: ignore[attr-defined]
    proc.timeout_s = timeout_s  # type: ignore[attr-defined]
    return proc


def z3_result(proc: subprocess.Popen) -> str:
    """``sat``/``unsat``/``unknown``/``timeout``: the last answer of a :func:`z3_start`."""
    try:
        stdout, _ = proc.communicate(timeout=proc.timeout_s + 10)  # type: ignore[attr-defined]
    finally:
        os.unlink(proc.script_path)  # type: ignore[attr-defined]
    answers = [line.strip() for line in stdout.splitlines() if line.strip()]
    assert answers and answers[-1] in ("sat", "unsat", "unknown", "timeout"), stdout[-500:]
    return answers[-1]


def z3_answer(script: str, timeout_s: float = 60.0) -> str:
    """``sat``/``unsat``/``unknown`` from the z3 executable reading ``script``."""
    return z3_result(z3_start(script, timeout_s))


def cvc5_answer(script: str) -> str:
    """``sat``/``unsat``/``unknown`` from cvc5's own parser and solver (Python API)."""
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("produce-models", "false")
    # cvc5's non-clausal simplification pass took most of its time on our larger
    # formulas (Flood-It 20x20, 6 colours: 76 s with it, 7 s without); the answer is
    # still cvc5's own, from its own parser and SAT/arithmetic core.
    solver.setOption("simplification", "none")
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "script")
    sm = parser.getSymbolManager()
    answer = None
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        text = command.invoke(solver, sm)
        if "check-sat" in str(command):
            answer = text.strip()
    assert answer is not None, "the script ends in (check-sat)"
    return answer
