"""Explanations over the odd-numbered half of the janko corpora (Nurikabe and Koburin):
per puzzle its status, grade, steps, step sizes, case splits and CPU seconds, from
``smtpuzzles KIND explain FILE --json --timeout T`` run as a process of its own; for
Nurikabe also a human-solving proxy (:func:`proxy`) to check the grade against.

Usage: python benchmarks/explain_janko.py [--kind nurikabe] [--min-side 0]
[--max-side 15] [--every 1] [--start 0] [--stop N] [--timeout 60] [--cpu S]
[--runs 1] [--again-over S] [--out FILE] [--merge FILE ...]
(``--start``/``--stop`` cut the list into parts run side by side; ``--merge`` joins
the parts' files, the later file's row winning for a puzzle run twice).

``--runs N --again-over S``: a puzzle whose first run took over S CPU seconds, or that
the CPU cap stopped, is run N times in all. An explanation is deterministic (the same
steps every run, which ``same_steps`` checks by a digest of the steps), so the runs
differ only by what else the machine does: the row's ``cpu_s`` is the least of the
complete runs, ``cpu_runs`` every run's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``shared/data`` beside the checkout (the first parent folder that has it)
DATA = next(
    (p / "shared" / "data" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
    ROOT.parent / "shared" / "data",
)

#: Size bands of the summary: the largest side of a puzzle.
BANDS = ((10, "up to 10x10"), (15, "11 to 15"), (10**6, "over 15"))


def odd_half(kind: str, min_side: int, max_side: int) -> list[Path]:
    """The odd-numbered janko puzzles of ``kind`` whose larger side lies in
    ``min_side..max_side``, smallest first."""
    found = []
    for path in (DATA / kind).glob("janko_*.txt"):
        m = re.match(r"janko_(\d+)_(\d+)x(\d+)", path.stem)
        if m and int(m[1]) % 2 == 1 and min_side <= max(int(m[2]), int(m[3])) <= max_side:
            found.append((int(m[2]) * int(m[3]), path.name, path))
    return [p for _, _, p in sorted(found)]


def side(name: str) -> int:
    m = re.search(r"_(\d+)x(\d+)", name)
    return max(int(m[1]), int(m[2])) if m else 0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def proxy(path: Path) -> int | None:
    """How a human solver fares on a Nurikabe puzzle, as the package's own hand-written
    deductions measure it: 0 when its rules of thumb (``presolve.deduce``) decide every
    cell, 1 when one level of hypotheses (``presolve.probe``: try a cell, follow the
    rules of thumb, rule out what breaks) is needed too, 2 when cells stay open after
    both."""
    try:
        from smtpuzzles.puzzles.nurikabe.formats import parse
        from smtpuzzles.puzzles.nurikabe.presolve.deduce import deduce
        from smtpuzzles.puzzles.nurikabe.presolve.probe import probe
    except ImportError:
        return None
    puzzle = parse(path.read_text(), str(path))

    def decided(known) -> bool:
        return len(known.black) + len(known.owner) >= len(puzzle)

    known = deduce(puzzle)
    if decided(known):
        return 0
    return 1 if decided(probe(puzzle, known)) else 2


def cpu_capped(seconds: float | None):
    """A ``preexec_fn`` that ends the child after ``seconds`` of CPU time (SIGXCPU): on a
    loaded machine a wall-clock limit measures the load, not the explanation."""
    if seconds is None:
        return None

    def cap() -> None:
        whole = max(1, int(seconds))
        resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 5))

    return cap


def run(command: str, kind: str, path: Path, timeout: float, cpu: float | None = None) -> dict:
    before, began = children_cpu(), time.monotonic()
    done = subprocess.run(
        [command, kind, "explain", str(path), "--json", "--timeout", str(timeout)],
        capture_output=True,
        text=True,
        cwd="/",
        preexec_fn=cpu_capped(cpu),
    )
    row: dict = {"name": path.name, "side": side(path.name), "exit": done.returncode}
    row["cpu_limit"], row["wall_limit"] = cpu, timeout
    try:
        found = json.loads(done.stdout)
    except json.JSONDecodeError:
        found = None
    if found is None:
        killed = done.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
        row["status"] = "stopped" if killed and cpu is not None else "error"
        if killed and cpu is not None:
            row["stopped"] = f"cpu limit {cpu:g} s"
        else:
            row["error"] = done.stderr.strip()[-200:]
    elif "steps" not in found:
        # a limit reached before the explanation began (reading or encoding the puzzle)
        row["status"] = "stopped" if done.returncode == 3 else "error"
        row["error"] = str(found.get("error", found))[-200:]
    else:
        steps = found["steps"]
        row.update(
            status=found["status"],
            grade=found["grade"],
            steps=len(steps),
            largest_step=max((s["size"] for s in steps), default=0),
            case_splits=sum(s["case_split"] for s in steps),
            sizes=dict(sorted(Counter(s["size"] for s in steps).items())),
            elapsed_s=found["elapsed_s"],
            digest=hashlib.sha256(json.dumps(steps, sort_keys=True).encode()).hexdigest()[:16],
        )
    row["cpu_s"] = round(children_cpu() - before, 3)
    row["wall_s"] = round(time.monotonic() - began, 3)
    if kind == "nurikabe":
        row["proxy"] = proxy(path)
    return row


def least(runs: list[dict]) -> dict:
    """One row for several runs of a puzzle (see the module's description): the least
    CPU of the complete runs (the first run when none completed), every run's CPU, and
    whether the complete runs gave the same steps."""
    complete = [r for r in runs if r.get("status") == "complete"]
    best = dict(min(complete, key=lambda r: r["cpu_s"]) if complete else runs[0])
    best["cpu_runs"] = [r["cpu_s"] for r in runs]
    if complete:
        best["same_steps"] = len({r["digest"] for r in complete}) == 1
    return best


def dist(values: list[float]) -> dict:
    if not values:
        return {}
    values = sorted(values)
    return {
        "n": len(values),
        "min": values[0],
        "median": statistics.median(values),
        "p90": values[int(0.9 * (len(values) - 1))],
        "max": values[-1],
    }


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties)."""

    def ranks(vs: list[float]) -> list[float]:
        order = sorted(range(len(vs)), key=lambda i: vs[i])
        out = [0.0] * len(vs)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and vs[order[j + 1]] == vs[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.mean(rx), statistics.mean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return round(cov / (vx * vy), 3) if vx and vy else None


def band_summary(rows: list[dict]) -> dict:
    statuses = Counter(r.get("status", "error") for r in rows)
    sizes: Counter = Counter()
    for r in rows:
        sizes.update({int(k): v for k, v in r.get("sizes", {}).items()})
    return {
        "puzzles": len(rows),
        "cpu_limit_s": sorted({r["cpu_limit"] for r in rows if r.get("cpu_limit")}),
        "wall_limit_s": sorted({r["wall_limit"] for r in rows if not r.get("cpu_limit")}),
        "status": dict(statuses),
        "cpu_s": dist([r["cpu_s"] for r in rows]),
        "cpu_at_most_10_s": sum(r["cpu_s"] <= 10 for r in rows),
        "complete_within_10_cpu_s": sum(
            r["cpu_s"] <= 10 and r.get("status") == "complete" for r in rows
        ),
        "complete_cpu_s": dist([r["cpu_s"] for r in rows if r.get("status") == "complete"]),
        "run_again": sum("cpu_runs" in r for r in rows),
        "first_run_at_most_10_s": sum(r.get("cpu_runs", [r["cpu_s"]])[0] <= 10 for r in rows),
        "same_steps_every_run": all(r.get("same_steps", True) for r in rows),
        "grade": dist([r["grade"] for r in rows if r.get("status") == "complete"]),
        "steps": dist([r["steps"] for r in rows if r.get("status") == "complete"]),
        "largest_step": dist([r["largest_step"] for r in rows if r.get("status") == "complete"]),
        "case_splits": dist([r["case_splits"] for r in rows if r.get("status") == "complete"]),
        "step_sizes": dict(sorted(sizes.items())),
    }


def summary(rows: list[dict], kind: str | None = None) -> dict:
    """Per size band (and all): statuses, CPU, grades, steps; with ``kind``, also how
    many puzzles of the band the odd half holds."""
    out: dict = {"all": band_summary(rows)}
    half = [side(p.name) for p in odd_half(kind, 0, 10**6)] if kind else []
    if half:
        out["all"]["in_half"] = len(half)
    low = 0
    for top, name in BANDS:
        band = [r for r in rows if low < r["side"] <= top]
        if band:
            out[name] = band_summary(band)
            if half:
                out[name]["in_half"] = sum(low < s <= top for s in half)
        low = top
    graded = [r for r in rows if r.get("status") == "complete" and r.get("proxy") is not None]
    if graded:
        by_level: dict = {}
        for level in sorted({r["proxy"] for r in graded}):
            by_level[str(level)] = dist([r["grade"] for r in graded if r["proxy"] == level])
        out["grade_by_proxy"] = by_level
        out["spearman_grade_proxy"] = spearman(
            [r["grade"] for r in graded], [r["proxy"] for r in graded]
        )
    return out


def shown(arg: str) -> str:
    """A command-line word as the results record it: a path inside the project relative
    to it, any other path by its name alone (the results never name the machine's
    folders)."""
    if "/" not in arg:
        return arg
    path = Path(arg).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="nurikabe", choices=("nurikabe", "koburin"))
    parser.add_argument("--min-side", type=int, default=0)
    parser.add_argument("--max-side", type=int, default=15)
    parser.add_argument("--every", type=int, default=1, help="take every k-th puzzle")
    parser.add_argument("--start", type=int, default=0, help="skip the first puzzles (index)")
    parser.add_argument("--stop", type=int, help="stop before this index")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--cpu", type=float, help="end each run after this many CPU seconds (loaded machines)"
    )
    parser.add_argument("--runs", type=int, default=1, help="runs of a slow puzzle, in all")
    parser.add_argument(
        "--again-over", type=float, default=0.0, help="CPU seconds that make a puzzle slow"
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--merge", type=Path, nargs="+", help="join these results files into --out instead"
    )
    args = parser.parse_args()
    out = args.out or ROOT / "benchmarks" / "results" / f"explain_janko_{args.kind}.json"
    if args.merge:
        parts = [json.loads(p.read_text()) for p in args.merge]
        for part in parts:
            for r in part["rows"]:
                r.setdefault("cpu_limit", part["settings"].get("cpu"))
                r.setdefault("wall_limit", part["settings"].get("timeout"))
            part["settings"]["out"] = shown(part["settings"]["out"])
            part["settings"]["command"] = Path(part["settings"]["command"]).name
        rows = list({r["name"]: r for part in parts for r in part["rows"]}.values())
        rows.sort(key=lambda r: (r["side"], r["name"]))
        from _harness import environment

        result = {
            **environment(),
            "command": " ".join(["benchmarks/explain_janko.py", *map(shown, sys.argv[1:])]),
            "settings": [part["settings"] for part in parts],
            "summary": summary(rows, args.kind),
            "rows": rows,
        }
        out.write_text(json.dumps(result, indent=1, default=str) + "\n")
        return
    command = shutil.which("smtpuzzles") or str(Path(sys.executable).parent / "smtpuzzles")
    rows: list[dict] = []
    chosen = odd_half(args.kind, args.min_side, args.max_side)[:: args.every]
    for path in chosen[args.start : args.stop]:
        runs = [run(command, args.kind, path, args.timeout, args.cpu)]
        if runs[0]["cpu_s"] > args.again_over or runs[0].get("status") == "stopped":
            while len(runs) < args.runs:
                runs.append(run(command, args.kind, path, args.timeout, args.cpu))
        rows.append(least(runs) if len(runs) > 1 else runs[0])
        r = rows[-1]
        print(r["name"], r.get("status"), r.get("grade"), r["cpu_s"], r.get("cpu_runs"), flush=True)
        result = {
            "settings": vars(args) | {"out": shown(str(out)), "command": Path(command).name},
            "summary": summary(rows),
            "rows": rows,
        }
        out.write_text(json.dumps(result, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
