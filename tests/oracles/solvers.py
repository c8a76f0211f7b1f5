"""Second solvers: the z3 executable and cvc5 (its own parser, Python API), each reading
a printed SMT-LIB script on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


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
