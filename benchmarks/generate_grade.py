"""``generate --grade``: how often and how fast each of rate's bands is reached.

``--grade`` rates the candidates a seed's generator makes, one after another, until
one has the grade asked (a candidate refused costs the generator no randomness, so the
candidates of a seed are the same whatever grade is asked; a Koburin candidate that
misses by a few grades is moved once toward the grade first). This script rates every
candidate of each seed for up to ``--cap`` processor seconds (a Koburin candidate's
moves too, where one is within reach of a band) and records each one's grade and the
processor time spent on it; for each band, the seeds whose candidates reach it within
the cap and the processor time to the first hit are what ``generate --grade BAND``
would take for that seed.

    python benchmarks/generate_grade.py [--seeds 10] [--cap 30] [--sizes nurikabe:10,...]
        [--out benchmarks/results/generate_grade.json] [--table]

``--table`` prints the results file as the table of docs/generate.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "generate_grade.json"


def candidates(kind: str, side: int, seed: int, cap: float) -> list[dict[str, Any]]:
    """Every candidate the seed's generator makes within ``cap`` processor seconds, rated
    as ``rate`` rates the text ``generate`` would print, with the processor seconds
    spent on it (``cpu_s``: making and rating it). A Koburin candidate is also moved each
    way as ``--grade`` moves one that misses (``harder``: numbers taken away; ``easier``:
    its ``?`` shown), each rated, with its own seconds."""
    from smtpuzzles.cli.generating import UNRATED, Grade, Judge, bands
    from smtpuzzles.limits import Budget, TimeUp

    judge = Judge(kind, Grade(-1, -1, "none"))
    budget = Budget(3 * cap)  # a guard: the cap is on processor time (:func:`spent`)
    seen: list[dict[str, Any]] = []
    began = time.process_time()
    clock = [began]

    def spent() -> float:
        now = time.process_time()
        if now - began > cap:
            raise TimeUp
        took, clock[0] = now - clock[0], now
        return round(took, 2)

    def rate(text: str) -> int | None:
        return judge.rate(text, budget)

    try:
        if kind == "nurikabe":
            from smtpuzzles.cli.nurikabe import _puzzle_text
            from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph

            def accept(p: Any) -> int:
                rating = rate(_puzzle_text(p, "square", side, side, seed))
                seen.append({"rating": rating, "cpu_s": spent()})
                return UNRATED  # refused, so that every candidate of the seed is rated

            graph, pools = shape_graph("square", side, side, seed)
            generate(graph, pools, seed, budget=budget, accept=accept)
        else:
            from smtpuzzles.puzzles.koburin.deduce import solve
            from smtpuzzles.puzzles.koburin.formats import to_grid_text
            from smtpuzzles.puzzles.koburin.generate import STEER_REACH, _answer, generate, steer

            steered = [False]
            lows = [low for low, _ in bands().values() if low > 0]
            highs = [high for _, high in bands().values() if high is not None]

            def moved(p: Any) -> int:
                if steered[0]:  # the generator's own move: its ? shown
                    steered[0] = False
                    seen[-1]["easier"] = rate(to_grid_text(p))
                    seen[-1]["easier_cpu_s"] = spent()
                    return 1
                rating = rate(to_grid_text(p))
                seen.append({"rating": rating, "cpu_s": spent()})
                if rating is None:
                    return UNRATED
                if any(0 < low - rating <= STEER_REACH for low in lows):
                    found = solve(p.graph, p.clues)
                    assert found is not None and found.decided()
                    harder = steer(p, _answer(found), -1, seed, budget)
                    seen[-1]["harder"] = None if harder is None else rate(to_grid_text(harder[0]))
                    seen[-1]["harder_cpu_s"] = spent()
                if any(0 < rating - high <= STEER_REACH for high in highs):
                    steered[0] = any(v is None for v in p.clues.values())
                    return 1  # the generator shows the ?s and asks again
                return UNRATED  # no move

            generate(side, side, seed, budget, accept=moved)
    except TimeUp:
        pass
    return seen


def reached(run: list[dict[str, Any]], low: int, high: int | None) -> float | None:
    """The processor seconds ``--grade low-high`` takes on this seed's candidates (a
    candidate that misses moved once toward the grade where it can), or ``None``."""

    def within(r: int | None) -> bool:
        return r is not None and low <= r and (high is None or r <= high)

    from smtpuzzles.puzzles.koburin.generate import STEER_REACH

    total = 0.0
    for c in run:
        total += c["cpu_s"]
        if within(c["rating"]):
            return round(total, 1)
        if c["rating"] is None:
            continue
        off = c["rating"] - low if c["rating"] < low else c["rating"] - (high or 0)
        way = "easier" if off > 0 else "harder"
        if abs(off) <= STEER_REACH and f"{way}_cpu_s" in c:
            total += c[f"{way}_cpu_s"]
            if within(c.get(way)):
                return round(total, 1)
    return None


def summary(runs: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """For each band: the seeds that reach it and the processor time to the first hit."""
    from smtpuzzles.cli.generating import bands

    out: dict[str, Any] = {}
    for name, (low, high) in bands().items():
        hits = [t for t in (reached(run, low, high) for run in runs) if t is not None]
        out[name] = {
            "seeds_reached": len(hits),
            "candidates_in_band": sum(
                1
                for run in runs
                for c in run
                if c["rating"] is not None
                and low <= c["rating"]
                and (high is None or c["rating"] <= high)
            ),
            "median_cpu_s": round(statistics.median(hits), 1) if hits else None,
            "max_cpu_s": max(hits) if hits else None,
        }
    return out


def table(results: dict[str, Any]) -> str:
    """The results as the markdown table docs/generate.md shows."""
    from smtpuzzles.cli.generating import bands

    names = list(bands())
    head = ["puzzles", "candidates rated", "CPU s a candidate", "grades: median (range)"]
    lines = ["| " + " | ".join(head + names) + " |", "|" + "---|" * (len(head) + len(names))]
    for key, r in results.items():
        kind, size = key.split(":")
        low, high = r["ratings_range"]
        row = [
            f"{kind.capitalize()} {size}",
            str(r["candidates"]),
            str(r["cpu_s_per_candidate"]),
            f"{r['ratings_median']} ({low}-{high})",
        ]
        seeds = len(r["seeds"])
        for name in names:
            b = r["bands"][name]
            hit = f"{b['seeds_reached']}/{seeds}"
            took = f", {b['median_cpu_s']} s ({b['max_cpu_s']})" if b["seeds_reached"] else ""
            row.append(hit + took)
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--cap", type=float, default=30.0)
    parser.add_argument("--sizes", default="nurikabe:10,koburin:10,nurikabe:15,koburin:15")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--table", action="store_true", help="Print the table of --out.")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.out.read_text())))
        return
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _harness import environment

    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    for size in filter(None, args.sizes.split(",")):
        kind, side = size.split(":")
        runs = []
        for seed in range(1, args.seeds + 1):
            run = candidates(kind, int(side), seed, args.cap)
            shown = [tuple(c.get(k) for k in ("rating", "easier", "harder")) for c in run]
            print(kind, side, seed, shown, flush=True)
            runs.append(run)
        ratings = [c["rating"] for run in runs for c in run if c["rating"] is not None]
        cpu = [c["cpu_s"] for run in runs for c in run]
        results[f"{kind}:{side}x{side}"] = {
            "measured_at": {k: v for k, v in environment().items() if k in ("date", "commit")},
            "cap_s": args.cap,
            "candidates": len(cpu),
            "cpu_s_per_candidate": round(statistics.median(cpu), 2) if cpu else None,
            "ratings_median": statistics.median(ratings) if ratings else None,
            "ratings_range": [min(ratings), max(ratings)] if ratings else None,
            "bands": summary(runs),
            "seeds": {str(s + 1): run for s, run in enumerate(runs)},
        }
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
