"""Shared plumbing for the benchmark scripts: run one solve as a whole process, record
its wall time, peak memory and JSON answer, and write a results file that says where,
when and with what versions it was measured (so every published figure can be traced)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_DATA = ROOT.parent / "shared" / "data"
#: The folder solver processes run in: not the project's, whose ``smtpuzzles/`` would
#: shadow the installed package.
OUTSIDE = tempfile.gettempdir()


@dataclass
class Run:
    """One instance solved by one whole process."""

    instance: str
    variant: str
    exit_code: int
    wall_s: float
    peak_mb: float
    answer: dict[str, Any] | None
    cpu_s: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        """The row kept in the results file (the answer itself is left out)."""
        answer = self.answer or {}
        return {
            "instance": Path(self.instance).name,
            "variant": self.variant,
            "exit": self.exit_code,
            "status": answer.get("status", "error"),
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "elapsed_s": answer.get("elapsed_s"),
            "peak_mb": round(self.peak_mb, 1),
            **self.extra,
        }


def common_arguments(description: str, data_sub: str) -> argparse.ArgumentParser:
    """The options every benchmark takes: where the corpus is, limits, and the output."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA / data_sub,
        help="corpus folder, read in place (default: ../shared/data beside the project)",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per instance")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once")
    parser.add_argument("--out", type=Path, default=None, help="results file (JSON)")
    return parser


def solve(instance: Path | str, args: list[str], timeout: float, variant: str = "") -> Run:
    """Run `python -m smtpuzzles ARGS INSTANCE --json --timeout T` and measure it, from a
    folder outside the project (`-m` puts the current folder first on the path, and the
    package measured is the one installed beside this Python)."""
    instance = Path(instance).resolve()
    command = [sys.executable, "-m", "smtpuzzles", *args, str(instance), "--json"]
    command += ["--timeout", str(timeout)]
    # A hard stop well past the tool's own limit, in case it fails to keep it.
    returncode, text, wall, usage = measured(command, timeout + 30, cwd=OUTSIDE)
    answer = None
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                answer = None
            break
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    # CPU time is what the process itself used: on a loaded machine it moves far less
    # than wall time, so comparisons use it.
    cpu = usage.ru_utime + usage.ru_stime
    return Run(str(instance), variant, returncode, wall, peak_mb, answer, cpu)


def measured(
    command: list[str], kill_after: float, stderr: int = subprocess.DEVNULL, cwd: str | None = None
) -> tuple[int, str, float, Any]:
    """Run ``command`` (killed past ``kill_after`` seconds), its standard output kept in
    a temporary file (no pipe to fill up); its exit code, output, wall seconds and
    ``wait4``'s resource usage (peak memory and CPU time of the process itself)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(command, stdout=out, stderr=stderr, text=True, cwd=cwd)
        killer = threading.Timer(kill_after, process.kill)
        killer.start()
        _, status, usage = os.wait4(process.pid, 0)
        killer.cancel()
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    return os.waitstatus_to_exitcode(status), text, wall, usage


def run_all(tasks: Iterable[Callable[[], Run]], jobs: int) -> list[Run]:
    """Run the tasks, `jobs` at a time, keeping their order; print progress to stderr."""
    tasks = list(tasks)
    done: list[Run] = []

    def call(task: Callable[[], Run]) -> Run:
        run = task()
        done.append(run)
        print(
            f"[{len(done)}/{len(tasks)}] {Path(run.instance).name} {run.variant} "
            f"{(run.answer or {}).get('status', 'error')} {run.wall_s:.2f}s",
            file=sys.stderr,
            flush=True,
        )
        return run

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(call, tasks))


def environment() -> dict[str, Any]:
    """Date, versions and machine, recorded beside every result."""
    import z3

    import smtpuzzles
    from smtpuzzles import __version__

    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = list(os.getloadavg())
    except OSError:
        load = []
    commit = _git("rev-parse", "--short", "HEAD")
    if commit and _git("status", "--porcelain", "--", "smtpuzzles"):
        commit += " with local changes to smtpuzzles/"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "package_version": __version__,
        "package_path": str(Path(smtpuzzles.__file__).parent),
        "commit": commit,
        "z3_version": z3.get_version_string(),
        "python": platform.python_version(),
        "machine": {
            "system": platform.platform(),
            "cpu": cpu,
            "cores": os.cpu_count(),
            "load_at_start": [round(x, 2) for x in load],
        },
    }


def _git(*args: str) -> str | None:
    """A git command's output in the project folder, or None outside a checkout."""
    try:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def summary(runs: list[Run], ok: Callable[[Run], bool]) -> dict[str, Any]:
    """Counts and time statistics over runs; `ok` says whether an answer is right."""
    answered = [r for r in runs if (r.answer or {}).get("status") in ("optimal", "solved")]
    walls = sorted(r.wall_s for r in answered)
    return {
        "instances": len(runs),
        "answered": len(answered),
        "optimal": sum((r.answer or {}).get("status") == "optimal" for r in runs),
        "wrong": sum(not ok(r) for r in answered),
        "median_wall_s": round(statistics.median(walls), 3) if walls else None,
        "p90_wall_s": round(walls[int(0.9 * (len(walls) - 1))], 3) if walls else None,
        "max_wall_s": round(walls[-1], 3) if walls else None,
        "total_wall_s": round(sum(r.wall_s for r in runs), 1),
        "median_cpu_s": _median([r.cpu_s for r in answered]),
        "total_cpu_s": round(sum(r.cpu_s for r in runs), 1),
        "median_elapsed_s": _median([(r.answer or {}).get("elapsed_s") for r in answered]),
    }


def _median(values: list[Any]) -> float | None:
    numbers = [v for v in values if isinstance(v, int | float)]
    return round(statistics.median(numbers), 3) if numbers else None


def write(name: str, out: Path | None, record: dict[str, Any]) -> Path:
    """Write the results file (benchmarks/results/NAME.json unless --out says otherwise)."""
    path = out or RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"benchmark": name, "command": " ".join(sys.argv), **environment(), **record}
    path.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}", file=sys.stderr)
    return path
