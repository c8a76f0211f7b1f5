"""`smtpuzzles bench` as users run it, beside the same puzzles solved in one process:

- janko: the Koburin and Nurikabe janko puzzles (odd-numbered, as the corpus holds
  them), the bench's median wall time per case (a process per case, forked by its warm
  parent) against the median of `smtpuzzles.solve` on the same puzzles in this process;
- folder: one bench of 20 random 14x14 boards with 8 colours run from the project
  folder and from another folder, their CPU seconds side by side (the cases must run
  the installed package from both).

Run it with the Python of a `pip install .` made outside the source tree; the bench is
that Python's `smtpuzzles` command. CPU is the bench's own and all its processes'
(`wait4` on the bench).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import _harness

import smtpuzzles
from smtpuzzles.puzzles.floodit.generate import random_board
from smtpuzzles.puzzles.floodit.model import DIGITS


def command() -> str:
    """The `smtpuzzles` command beside this Python."""
    return str(Path(sys.executable).with_name("smtpuzzles"))


def run_bench(args: list[str], cwd: str) -> dict[str, Any]:
    """One `smtpuzzles bench ... --json` run: its rows and summary, wall and CPU."""
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [command(), "bench", *args, "--json"], stdout=out, stderr=subprocess.PIPE, cwd=cwd
        )
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        text = out.read()
    wall = time.perf_counter() - began
    report = json.loads(text)
    return {
        "exit": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "summary": report["summary"],
        "rows": report["rows"],
    }


def in_process(files: list[Path], timeout: float) -> list[dict[str, Any]]:
    """Each puzzle loaded and solved here, one after the other: wall and status."""
    rows = []
    for path in files:
        began = time.perf_counter()
        result = smtpuzzles.solve(smtpuzzles.load(path), timeout=timeout)
        rows.append(
            {
                "case": path.name,
                "status": str(result.status),
                "wall_s": round(time.perf_counter() - began, 4),
            }
        )
    return rows


def janko(data: Path, puzzle: str, timeout: float, outside: str) -> dict[str, Any]:
    folder = data / puzzle
    files = sorted(folder.glob("janko_*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:  # the puzzles and their answers, and nothing else of the corpus
            for source in (path, path.with_suffix(".sol")):
                if source.exists():
                    os.symlink(source.resolve(), Path(tmp) / source.name)
        here = in_process(files, timeout)
        bench = run_bench([puzzle, tmp, "--timeout", str(timeout)], outside)
    here_median = statistics.median(r["wall_s"] for r in here)
    bench_median = bench["summary"]["median_s"]
    return {
        "puzzles": len(files),
        "in_process_median_s": round(here_median, 4),
        "bench_median_s": bench_median,
        "ratio": round(bench_median / here_median, 2),
        "bench_median_overhead_s": bench["summary"].get("median_overhead_s"),
        "bench_cpu_s": bench["cpu_s"],
        "bench_wall_s": bench["wall_s"],
        "in_process_total_s": round(sum(r["wall_s"] for r in here), 2),
        "agree": bench["summary"]["checked"],
        "wrong": bench["summary"]["wrong"],
        "answered_in_process": sum(r["status"] in ("solved", "optimal") for r in here),
        "answered_bench": bench["summary"]["answered"],
        "bench_exit": bench["exit"],
    }


def folders(project: Path, boards: int, outside: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1000, 1000 + boards):
            board = random_board(14, 14, 8, seed)
            text = "".join("".join(DIGITS[c] for c in row) + "\n" for row in board.grid)
            (Path(tmp) / f"r14c8-{seed}.txt").write_text(text)
        runs = {}
        for where, cwd in (("project", str(project)), ("elsewhere", outside)):
            runs[where] = run_bench(["floodit", tmp, "--timeout", "60"], cwd)
    answers = {
        where: [(r["case"].rsplit("/", 1)[-1], r["answer"]) for r in run["rows"]]
        for where, run in runs.items()
    }
    return {
        "boards": boards,
        "project_cpu_s": runs["project"]["cpu_s"],
        "elsewhere_cpu_s": runs["elsewhere"]["cpu_s"],
        "ratio": round(runs["project"]["cpu_s"] / runs["elsewhere"]["cpu_s"], 2),
        "project_wall_s": runs["project"]["wall_s"],
        "elsewhere_wall_s": runs["elsewhere"]["wall_s"],
        "same_answers": answers["project"] == answers["elsewhere"],
        "optimal": [runs[w]["summary"]["optimal"] for w in ("project", "elsewhere")],
    }


def main() -> None:
    parser = _harness.common_arguments(__doc__, "")
    parser.add_argument("--parts", default="janko,folder", help="comma-separated")
    parser.add_argument("--boards", type=int, default=20, help="boards of the folder part")
    parser.add_argument("--janko", default="koburin,nurikabe", help="puzzles of the janko part")
    parser.set_defaults(timeout=60.0)
    args = parser.parse_args()
    outside = _harness.OUTSIDE
    record: dict[str, Any] = {
        "settings": {"timeout_s": args.timeout, "boards": args.boards, "command": command()}
    }
    parts = args.parts.split(",")
    if "janko" in parts:
        record["janko"] = {
            puzzle: janko(args.data, puzzle, args.timeout, outside)
            for puzzle in args.janko.split(",")
        }
        print(record["janko"], file=sys.stderr, flush=True)
    if "folder" in parts:
        record["folder"] = folders(_harness.ROOT, args.boards, outside)
        print(record["folder"], file=sys.stderr, flush=True)
    _harness.write("bench_warm", args.out, record)


if __name__ == "__main__":
    main()
