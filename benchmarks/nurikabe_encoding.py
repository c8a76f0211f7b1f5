"""The Nurikabe encoding alone against puzzlekit (OR-Tools CP-SAT) on the janko corpus.

Each puzzle is solved in this process twice, one after the other: by this package with
``presolve="none"`` (the rules over each clue's breadth-first reach, no deduction,
hypothesis or search before Z3) and by ``puzzlekit.solve(..., "nurikabe")`` with one
CP-SAT worker; both under the same time limit. Every answer is compared with the
corpus's solution file, and ours also passes the independent checker. One JSON line per
puzzle goes to the results file, then a summary to stdout.

    python benchmarks/nurikabe_encoding.py [--step N] [--timeout S] [--out FILE]

``--step N`` takes every Nth puzzle of the corpus (1: all). The corpus is read from
``../shared/data/nurikabe`` beside the project (see its README); puzzlekit is optional
(``pip install puzzlekit``): without it only our side runs.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path
from typing import Any

from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.nurikabe import problems, solve
from smtpuzzles.puzzles.nurikabe.formats import parse

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "nurikabe"


def expected(path: Path) -> list[str] | None:
    """The solution's rows as ``x`` (wall) and ``-`` (island), or None without a file."""
    sol = path.with_suffix(".sol")
    if not sol.exists():
        return None
    return ["".join(line.split()) for line in sol.read_text().splitlines()[1:] if line.strip()]


def ours(path: Path, timeout_s: float) -> dict[str, Any]:
    puzzle = parse(path.read_text())
    began = time.monotonic()
    outcome, _ = solve(puzzle, budget=Budget(timeout_s), presolve="none")
    seconds = time.monotonic() - began
    row: dict[str, Any] = {"status": outcome.status, "s": round(seconds, 3)}
    if outcome.solutions:
        picture = outcome.solutions[0]
        row["checked"] = problems(puzzle.graph, puzzle.clues, puzzle.pools, picture) == []
        rows = expected(path)
        if rows is not None and puzzle.graph.coords is not None:
            got = ["" for _ in rows]
            for i, (r, _c) in enumerate(puzzle.graph.coords):
                got[r] += "x" if picture[i] else "-"
            row["matches"] = got == rows
    return row


def puzzlekit_side(path: Path, timeout_s: float) -> dict[str, Any] | None:
    try:
        import puzzlekit
    except ImportError:
        return None
    began = time.monotonic()
    result = puzzlekit.solve(
        path.read_text(),
        "nurikabe",
        solver_options={"time_limit_sec": timeout_s, "num_search_workers": 1},
    )
    seconds = time.monotonic() - began
    data = result.solution_data
    row: dict[str, Any] = {"status": str(data.get("status")), "s": round(seconds, 3)}
    grid = data.get("solution_grid")
    rows = expected(path)
    if rows is not None and grid is not None and result.is_solved:
        got = ["".join("x" if cell == "x" else "-" for cell in line) for line in grid.matrix]
        row["matches"] = got == rows
    return row


def summary(rows: list[dict[str, Any]], side: str, timeout_s: float) -> str:
    done = [r[side] for r in rows if r.get(side) and r[side].get("matches")]
    times = sorted(r[side]["s"] for r in rows if r.get(side))
    if not times:
        return f"{side}: not run"
    within = sum(1 for r in done if r["s"] <= timeout_s)
    return (
        f"{side}: {within} of {len(rows)} solved correctly within {timeout_s:g} s "
        f"({100 * within / len(rows):.1f}%); median {statistics.median(times):.3f} s, "
        f"90th percentile {times[math.ceil(0.9 * len(times)) - 1]:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "nurikabe_encoding.jsonl")
    args = parser.parse_args()
    paths = sorted(CORPUS.glob("janko_*.txt"))[:: args.step]
    rows = []
    with args.out.open("w") as out:
        for path in paths:
            row = {"name": path.name, "ours": ours(path, args.timeout)}
            row["puzzlekit"] = puzzlekit_side(path, args.timeout)
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
    print(summary(rows, "ours", args.timeout))
    print(summary(rows, "puzzlekit", args.timeout))


if __name__ == "__main__":
    main()
