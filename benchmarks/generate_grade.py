"""``generate --grade``: how often and how fast each of rate's bands is reached.

``--grade`` rates the candidates a seed's generator makes, one after another, until
one has the grade asked (a candidate refused costs the generator no randomness, so the
candidates of a seed are the same whatever grade is asked). This script rates every
candidate of each seed for up to ``--cap`` seconds and records each one's grade and the
processor time spent up to it; for each band, the seeds whose candidates reach it
within the cap and the processor time to the first such candidate are what
``generate --grade BAND`` would take for that seed.

    python benchmarks/generate_grade.py [--seeds 10] [--cap 30] [--sizes nurikabe:10,...]
        [--out benchmarks/results/generate_grade.json]
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
    """Every candidate the seed's generator makes within ``cap`` seconds (wall), rated
    as ``rate`` rates the text ``generate`` would print."""
    from smtpuzzles.cli.generating import Grade, Judge
    from smtpuzzles.limits import Budget, TimeUp

    judge = Judge(kind, Grade(-1, -1, "none"))
    budget = Budget(cap)
    began = time.process_time()
    seen: list[dict[str, Any]] = []

    def accept(text: str) -> bool:
        rating = judge.rate(text, budget)
        seen.append({"rating": rating, "cpu_s": round(time.process_time() - began, 2)})
        return False

    try:
        if kind == "nurikabe":
            from smtpuzzles.cli.nurikabe import _puzzle_text
            from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph

            graph, pools = shape_graph("square", side, side, seed)
            generate(
                graph,
                pools,
                seed,
                budget=budget,
                accept=lambda p: accept(_puzzle_text(p, "square", side, side, seed)),
            )
        else:
            from smtpuzzles.puzzles.koburin.formats import to_grid_text
            from smtpuzzles.puzzles.koburin.generate import generate

            generate(side, side, seed, budget, accept=lambda p: accept(to_grid_text(p)))
    except TimeUp:
        pass
    return seen


def summary(runs: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """For each band: the seeds that reach it and the processor time to the first hit."""
    from smtpuzzles.cli.generating import bands

    out: dict[str, Any] = {}
    rated = [c for run in runs for c in run]
    for name, (low, high) in bands().items():

        def within(c: dict[str, Any], low: int = low, high: int | None = high) -> bool:
            r = c["rating"]
            return r is not None and low <= r and (high is None or r <= high)

        hits = []
        for run in runs:
            first = next((c for c in run if within(c)), None)
            if first is not None:
                hits.append(first["cpu_s"])
        share = sum(1 for c in rated if within(c))
        out[name] = {
            "seeds_reached": len(hits),
            "candidates_in_band": share,
            "median_cpu_s": round(statistics.median(hits), 1) if hits else None,
            "max_cpu_s": max(hits) if hits else None,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--cap", type=float, default=30.0)
    parser.add_argument("--sizes", default="nurikabe:10,koburin:10,nurikabe:15,koburin:15")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _harness import environment

    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    for size in filter(None, args.sizes.split(",")):
        kind, side = size.split(":")
        runs = []
        for seed in range(1, args.seeds + 1):
            run = candidates(kind, int(side), seed, args.cap)
            print(kind, side, seed, [c["rating"] for c in run], flush=True)
            runs.append(run)
        ratings = [c["rating"] for run in runs for c in run if c["rating"] is not None]
        cpu = [b["cpu_s"] - a["cpu_s"] for run in runs for a, b in zip([{"cpu_s": 0}, *run], run)]
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
