"""Flood-It `min` beside ColorFill's optimal A* on five board families, in one run:
CPU seconds per family, their ratio, and every length checked against the other
solver's and against the known optimum.

Families: the first pc19 boards (14x14, 6 colours); random boards of 14x14 with 8
colours, 12x12 with 12 and 10x10 with 15 (``floodit generate``'s generator, seeds
1000, 1001, ...); the 99problems boards. ColorFill (smack42/ColorFill, Java, Puchert's
heuristic) is not shipped: pass a checkout of its source with ``--colorfill``; it is
compiled with javac into a temporary folder and solves each family's boards in one JVM,
as its own ``-benchmark`` mode does (CPU from the JVM's rusage, start-up and JIT
included). smtpuzzles is measured three ways: each board as its own fresh process (as a
user runs one: start-up and imports included), all of a family's boards in one
process (the way the A* tools are run; the per-board CPU excludes the one start-up), and
one `smtpuzzles bench` of the family (a process per board, forked by its warm parent;
the CPU of the bench and all its processes).
"""

from __future__ import annotations

import json
import os
import queue
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import _floodit
import _harness

from smtpuzzles import api
from smtpuzzles.puzzles.floodit.generate import random_board
from smtpuzzles.puzzles.floodit.model import DIGITS

FAMILIES = ("pc19", "r14c8", "r12c12", "r10c15", "99problems")
RANDOM = {"r14c8": (14, 8), "r12c12": (12, 12), "r10c15": (10, 15)}
FIRST_SEED = 1000
#: a board's line in ColorFill's log: count, moves, ``____________``, length, milliseconds
_BOARD = re.compile(r"^(\d+)\s+\S*?_{12}(\d+)\s+milliSeconds=(\d+)\s*$")
JVM_START_S = 10.0  #: the first board's allowance for the JVM's start-up


def build(source: Path, into: Path) -> None:
    """Compile ColorFill's sources (and the jars its UI needs) into `into`."""
    jars = os.pathsep.join(str(p) for p in sorted((source / "lib").glob("*.jar")))
    files = [str(p) for p in sorted((source / "src").rglob("*.java"))]
    subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-cp", jars, "-d", str(into), *files],
        check=True,
        capture_output=True,
    )


def family_boards(family: str, data: Path, count: int, folder: Path) -> list[dict[str, Any]]:
    """The boards of a family: grid rows, a file smtpuzzles reads, a known optimum."""
    boards = []
    if family in ("pc19", "99problems"):
        if family == "pc19":
            chosen = _floodit.pc19(data / "floodit", count)
        else:
            names = sorted(p.name for p in (data / "floodit" / "99problems").iterdir())
            chosen = _floodit.problems99(data / "floodit", names[:count])
        for b in chosen:
            puzzle = api.load(b.path, "floodit", **_load_options(b.options))
            rows = [list(row) for row in puzzle.board.grid]
            boards.append({"name": b.label, "rows": rows, "known": b.known})
    else:
        size, colours = RANDOM[family]
        for seed in range(FIRST_SEED, FIRST_SEED + count):
            board = random_board(size, size, colours, seed)
            rows = [list(row) for row in board.grid]
            boards.append({"name": f"{family} seed {seed}", "rows": rows, "known": None})
    own = folder / family  # a folder of the family's boards alone, for the bench
    own.mkdir()
    for i, board in enumerate(boards):
        path = own / f"{family}-{i:03d}.txt"
        path.write_text("".join("".join(DIGITS[c] for c in row) + "\n" for row in board["rows"]))
        board["path"] = str(path)
    return boards


def _load_options(options: list[str]) -> dict[str, Any]:
    """``--format lines --index N`` as :func:`smtpuzzles.api.load` takes them."""
    given = dict(zip(options[::2], options[1::2]))
    out: dict[str, Any] = {}
    if "--format" in given:
        out["format"] = given["--format"]
    if "--index" in given:
        out["index"] = int(given["--index"])
    return out


def colorfill(
    classes: Path, boards: list[dict[str, Any]], folder: Path, xmx: str, timeout: float
) -> dict:
    """Solve the boards in one JVM: lengths, per-board ms, and the JVM's CPU.

    ColorFill has no time limit of its own: a board that takes longer than `timeout`
    seconds, or ends the JVM (out of memory), is recorded unsolved, and a new JVM goes on
    from the next board. CPU is summed over the JVMs.
    """
    lengths: list[int | None] = [None] * len(boards)
    ms: list[int | None] = [None] * len(boards)
    unsolved: dict[int, str] = {}
    cpu = peak = 0.0
    began = time.perf_counter()
    start = 0
    while start < len(boards):
        dataset = folder / f"colorfill-{start:03d}.txt"
        dataset.write_text(
            "".join(
                "".join(DIGITS[c + 1] for row in b["rows"] for c in row) + "\n"
                for b in boards[start:]
            )
        )
        command = ["java", f"-Xmx{xmx}", "-cp", str(classes), "colorfill.ui.Starter"]
        command += ["-benchmark", str(dataset), "AStarPuchertStrategy"]
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
        done, timed_out = start, False
        wait = timeout + JVM_START_S
        while True:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                timed_out = True
                process.kill()
                break
            if not line:
                break
            if m := _BOARD.match(line):
                i = start + int(m[1]) - 1
                lengths[i], ms[i] = int(m[2]), int(m[3])
                done, wait = i + 1, timeout
        _, status, usage = os.wait4(process.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        peak = max(peak, usage.ru_maxrss / 1024)
        if done < len(boards):
            code = os.waitstatus_to_exitcode(status)
            unsolved[done] = "time" if timed_out else f"exit {code}"
            done += 1
        start = done
    return {
        "wall_s": round(time.perf_counter() - began, 3),
        "cpu_s": round(cpu, 3),
        "peak_mb": round(peak, 1),
        "timeout_s": timeout,
        "xmx": xmx,
        "lengths": lengths,
        "ms": ms,
        "unsolved": {boards[i]["name"]: why for i, why in unsolved.items()},
    }


def _read_lines(stream: Any, lines: queue.Queue[str]) -> None:
    """Pass a process's output on line by line, then ``""`` at its end."""
    for line in stream:
        lines.put(line)
    lines.put("")


def one_process(boards: list[dict[str, Any]], timeout: float, engine: str) -> dict[str, Any]:
    """All boards in one smtpuzzles process (this script run as a worker)."""
    command = [sys.executable, __file__, "--worker", str(timeout), engine]
    paths = "".join(b["path"] + "\n" for b in boards)
    done = subprocess.run(
        command, input=paths, capture_output=True, text=True, cwd=_harness.OUTSIDE
    )
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {"exit": done.returncode, "rows": rows, "stderr": done.stderr[-2000:]}


def bench(boards: list[dict[str, Any]], timeout: float, engine: str) -> dict[str, Any]:
    """The family's boards as one `smtpuzzles bench` (the command beside this Python),
    each board a process of its own: rows, and the CPU of the bench and all its
    processes."""
    folder = str(Path(boards[0]["path"]).parent)
    command = [str(Path(sys.executable).with_name("smtpuzzles")), "bench", "floodit", folder]
    command += ["--timeout", str(timeout), "--json"]
    command += [] if engine == "auto" else ["--engine", engine]
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.DEVNULL, cwd=_harness.OUTSIDE
        )
        _, status, usage = os.wait4(proc.pid, 0)
        out.seek(0)
        report = json.loads(out.read() or "{}")
    rows = {Path(r["case"]).name: r for r in report.get("rows", [])}
    return {
        "exit": os.waitstatus_to_exitcode(status),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "rows": [rows.get(Path(b["path"]).name, {}) for b in boards],
        "summary": report.get("summary"),
    }


def worker(timeout: float, engine: str) -> None:
    """Solve each board named on standard input; one JSON line per board."""
    from smtpuzzles import api
    from smtpuzzles.puzzles.floodit import check

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    for path in sys.stdin.read().split():
        puzzle = api.load(Path(path), "floodit")
        began = cpu()
        result = api.solve(puzzle, "min", timeout=timeout, engine=engine)
        spent = cpu() - began
        moves = result.answer
        grid = [list(row) for row in puzzle.board.grid]
        problems = check.problems(grid, moves, (0, 0)) if moves is not None else []
        row = {
            "status": str(result.status),
            "length": None if moves is None else len(moves),
            "cpu_s": round(spent, 4),
            "problems": problems[:3],
        }
        print(json.dumps(row), flush=True)


def compare(
    family: str,
    boards: list[dict[str, Any]],
    peer: dict[str, Any] | None,
    timeout: float,
    jobs: int,
    engine: str,
) -> dict[str, Any]:
    """One family: both solvers, both smtpuzzles measures, and the checks."""
    engine_options = [] if engine == "auto" else ["--engine", engine]
    processes = _harness.run_all(
        [
            (
                lambda b=b: _harness.solve(
                    b["path"], ["floodit", "min", *engine_options], timeout, "process"
                )
            )
            for b in boards
        ],
        jobs,
    )
    batch = one_process(boards, timeout, engine)
    benched = bench(boards, timeout, engine)
    rows = []
    for i, board in enumerate(boards):
        run = processes[i]
        answer = run.answer or {}
        inside = batch["rows"][i] if i < len(batch["rows"]) else {}
        row = benched["rows"][i]
        rows.append(
            {
                "board": board["name"],
                "known": board["known"],
                "colorfill_length": peer["lengths"][i] if peer else None,
                "colorfill_ms": peer["ms"][i] if peer else None,
                "process_status": answer.get("status", "error"),
                "process_length": answer.get("length"),
                "process_cpu_s": round(run.cpu_s, 3),
                "process_wall_s": round(run.wall_s, 3),
                "process_peak_mb": round(run.peak_mb, 1),
                "one_process_status": inside.get("status"),
                "one_process_length": inside.get("length"),
                "one_process_cpu_s": inside.get("cpu_s"),
                "bench_status": row.get("status", "error"),
                "bench_length": len(row["solution"]) if row.get("solution") else None,
                "bench_wall_s": row.get("wall_s"),
                "problems": inside.get("problems", []),
            }
        )
    summary = summarise(rows, peer)
    peer_cpu = summary["colorfill_cpu_s"]
    summary.update(
        bench_cpu_s=benched["cpu_s"],
        ratio_bench=round(benched["cpu_s"] / peer_cpu, 2) if peer_cpu else None,
        bench_optimal=sum(r["bench_status"] == "optimal" for r in rows),
        bench_median_overhead_s=(benched["summary"] or {}).get("median_overhead_s"),
    )
    return {"family": family, "summary": summary, "colorfill": peer, "rows": rows}


def summarise(rows: list[dict[str, Any]], peer: dict[str, Any] | None) -> dict[str, Any]:
    """Totals, ratios (smtpuzzles CPU over ColorFill's) and disagreements."""
    proven = [r for r in rows if r["process_status"] == "optimal"]
    wrong = 0
    for r in rows:
        lengths = {r["known"], r["colorfill_length"]} - {None}
        for status, length in (
            (r["process_status"], r["process_length"]),
            (r["one_process_status"], r["one_process_length"]),
            (r["bench_status"], r["bench_length"]),
        ):
            if status == "optimal" and any(length != x for x in lengths):
                wrong += 1
        wrong += bool(r["problems"])
    process_cpu = sum(r["process_cpu_s"] for r in rows)
    batch_cpu = sum(r["one_process_cpu_s"] or 0 for r in rows)
    peer_cpu = peer["cpu_s"] if peer else None
    return {
        "boards": len(rows),
        "proven_optimal": len(proven),
        "proven_one_process": sum(r["one_process_status"] == "optimal" for r in rows),
        "colorfill_solved": sum(r["colorfill_length"] is not None for r in rows),
        "wrong": wrong,
        "process_cpu_s": round(process_cpu, 2),
        "one_process_cpu_s": round(batch_cpu, 2),
        "colorfill_cpu_s": peer_cpu,
        "ratio_process": round(process_cpu / peer_cpu, 2) if peer_cpu else None,
        "ratio_one_process": round(batch_cpu / peer_cpu, 2) if peer_cpu else None,
        "max_process_cpu_s": max((r["process_cpu_s"] for r in rows), default=None),
    }


def main() -> None:
    parser = _harness.common_arguments(__doc__, "")
    parser.add_argument("--colorfill", type=Path, help="ColorFill checkout (else smtpuzzles only)")
    parser.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    parser.add_argument("--count", type=int, default=50, help="random boards per family")
    parser.add_argument("--pc19", type=int, default=100, help="first pc19 boards")
    parser.add_argument("--problems", type=int, default=99, help="first 99problems boards")
    parser.add_argument("--xmx", default="8g", help="ColorFill's Java heap")
    parser.add_argument("--engine", default="auto", help="smtpuzzles min's --engine")
    parser.set_defaults(timeout=120.0)
    args = parser.parse_args()
    counts = {"pc19": args.pc19, "99problems": args.problems}
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        classes = None
        if args.colorfill:
            classes = folder / "classes"
            build(args.colorfill, classes)
        for family in args.families.split(","):
            boards = family_boards(family, args.data, counts.get(family, args.count), folder)
            peer = colorfill(classes, boards, folder, args.xmx, args.timeout) if classes else None
            results.append(compare(family, boards, peer, args.timeout, args.jobs, args.engine))
            print(family, results[-1]["summary"], file=sys.stderr, flush=True)
    _harness.write(
        "floodit_peers",
        args.out,
        {
            "settings": {
                "timeout_s": args.timeout,
                "jobs": args.jobs,
                "random_boards": args.count,
                "first_seed": FIRST_SEED,
                "pc19": args.pc19,
                "problems": args.problems,
                "engine": args.engine,
            },
            "families": results,
        },
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(float(sys.argv[2]), sys.argv[3])
    else:
        main()
