"""Benchmark machinery shared by every puzzle: each instance runs as a whole process
(``python -m smtpuzzles ... --json``), so times include start-up and the peak memory
of that process is exact; ``--jobs N`` runs N of them at once.

A puzzle's ``bench`` command turns its instances into :class:`Case` objects, calls
:func:`run_cases`, and judges each answer against the known one with its own rule.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Case:
    """One instance to run: ``argv`` follows ``python -m smtpuzzles``."""

    name: str
    argv: list[str]
    size: str = ""
    expected: Any = None
    info: dict[str, Any] = field(default_factory=dict)


@dataclass
class Row:
    """What one run gave: the parsed ``--json`` object (if any), wall time, peak memory."""

    case: Case
    returncode: int
    wall_s: float
    peak_mb: float
    result: dict[str, Any] | None
    error: str = ""
    verdict: str = ""  #: "ok", "WRONG", or "" when there is nothing to compare with


def run_case(case: Case, hard_limit_s: float | None) -> Row:
    """Run one case in its own process; ``wait4`` gives its exact peak memory."""
    cmd = [sys.executable, "-m", "smtpuzzles", *case.argv]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        began = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        killer = threading.Timer(hard_limit_s, proc.kill) if hard_limit_s else None
        if killer is not None:
            killer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - began
        if killer is not None:
            killer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace").strip()
    peak_mb = usage.ru_maxrss / 1024  # Linux reports kB
    result: dict[str, Any] | None = None
    try:
        parsed = json.loads(stdout) if stdout.strip() else None
        result = parsed if isinstance(parsed, dict) else None
    except json.JSONDecodeError:
        stderr += " (stdout was not one JSON object)"
    last = stderr.splitlines()[-1] if stderr else ""
    return Row(case, proc.returncode, wall, peak_mb, result, last)


def run_cases(
    cases: Sequence[Case],
    jobs: int = 1,
    hard_limit_s: float | None = None,
    judge: Callable[[Row], str] | None = None,
    progress: bool | None = None,
) -> list[Row]:
    """Run every case, ``jobs`` at a time, with a progress bar on a terminal."""
    if progress is None:
        progress = sys.stderr.isatty()
    rows: list[Row | None] = [None] * len(cases)
    bar = None
    task = None
    if progress:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task("solving", total=len(cases))
    try:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(run_case, c, hard_limit_s): i for i, c in enumerate(cases)}
            for fut in as_completed(futures):
                row = fut.result()
                if judge is not None:
                    row.verdict = judge(row)
                rows[futures[fut]] = row
                if bar is not None and task is not None:
                    bar.advance(task)
    finally:
        if bar is not None:
            bar.stop()
    return [r for r in rows if r is not None]


def summary(rows: Sequence[Row]) -> dict[str, Any]:
    """Counts and time statistics: the figures a README or an issue quotes."""
    walls = [r.wall_s for r in rows]
    inner = [
        float(r.result["elapsed_s"])
        for r in rows
        if r.result is not None and "elapsed_s" in r.result
    ]
    done = [r for r in rows if r.result and r.result.get("status") in ("optimal", "solved")]
    return {
        "instances": len(rows),
        "answered": len(done),
        "wrong": sum(1 for r in rows if r.verdict == "WRONG"),
        "errors": sum(1 for r in rows if r.result is None),
        "median_s": round(statistics.median(walls), 3) if walls else None,
        "max_s": round(max(walls), 3) if walls else None,
        "total_s": round(sum(walls), 3),
        "median_inner_s": round(statistics.median(inner), 3) if inner else None,
        "max_peak_mb": round(max((r.peak_mb for r in rows), default=0.0), 1),
    }
