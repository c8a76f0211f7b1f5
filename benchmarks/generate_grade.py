"""``generate --grade``: how often and how fast each of rate's bands is reached.

``--grade`` rates the candidates a seed's generator makes, one after another, until
one has the grade asked. A Nurikabe candidate refused costs the generator no
randomness, so its candidates of a seed are the same for every grade that leans
neither way (``Grade.lean``: medium, hard, fiendish): this script rates every
candidate of each seed for up to ``--cap`` processor seconds and records each one's
grade and the processor time spent on it; for each band, the seeds whose candidates
reach it within the cap and the processor time to the first hit are what ``generate
--grade BAND`` would take for that seed. Easy leans its candidates easier, so they are
made and rated the same way in a run of their own (``leaned``). A Koburin candidate
that misses is moved toward the grade, and the next ones are made the way it missed,
so its candidates depend on the grade asked: for each band, the generator is run as
``koburin generate --grade BAND`` runs it, for up to ``--cap`` processor seconds.

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


def candidates(side: int, seed: int, cap: float, lean: int = 0) -> list[dict[str, Any]]:
    """Every Nurikabe candidate the seed's generator makes within ``cap`` processor
    seconds (leaning ``lean`` as ``--grade`` makes it), rated as ``rate`` rates the text
    ``generate`` would print, with the processor seconds spent on it (``cpu_s``: making
    and rating it)."""
    from smtpuzzles.cli.generating import UNRATED, Grade, Judge
    from smtpuzzles.cli.nurikabe import _puzzle_text
    from smtpuzzles.limits import Budget, TimeUp
    from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph

    judge = Judge("nurikabe", Grade(-1, -1, "none"))
    budget = Budget(20 * cap)  # a guard for the clock: the cap is on processor time
    seen: list[dict[str, Any]] = []
    began = time.process_time()
    clock = [began]

    def spent() -> float:
        now = time.process_time()
        if now - began > cap:
            raise TimeUp
        took, clock[0] = now - clock[0], now
        return round(took, 2)

    def accept(p: Any) -> int:
        rating = judge.rate(_puzzle_text(p, "square", side, side, seed), budget)
        seen.append({"rating": rating, "cpu_s": spent()})
        return UNRATED  # refused, so that every candidate of the seed is rated

    try:
        graph, pools = shape_graph("square", side, side, seed)
        generate(graph, pools, seed, budget=budget, accept=accept, lean=lean)
    except TimeUp:
        pass
    return seen


def banded(side: int, seed: int, cap: float) -> dict[str, dict[str, Any]]:
    """For each band: ``koburin generate SIDE SIDE --grade BAND --seed SEED`` as the
    command runs it (each candidate rated, one that misses by a little moved, the next
    ones made the way the last missed), for up to ``cap`` processor seconds
    (:func:`one_band`)."""
    from smtpuzzles.cli.generating import bands

    return {name: one_band(side, seed, cap, low, high) for name, (low, high) in bands().items()}


def one_band(side: int, seed: int, cap: float, low: int, high: int | None) -> dict[str, Any]:
    """Each candidate's grade and processor seconds (making, moving and rating it) while
    ``--grade low-high`` makes the seed's puzzle, and the processor seconds to the
    puzzle kept (``hit_cpu_s``; ``None``: none within ``cap``)."""
    from smtpuzzles.cli.generating import UNRATED, Grade, Judge
    from smtpuzzles.limits import Budget, TimeUp
    from smtpuzzles.puzzles.koburin.formats import to_grid_text
    from smtpuzzles.puzzles.koburin.generate import generate

    wanted = Grade(low, high, f"{low}-{high}")
    judge = Judge("koburin", wanted)
    budget = Budget(20 * cap)  # a guard for the clock: the cap is on processor time
    seen: list[dict[str, Any]] = []
    began = time.process_time()
    clock = [began]

    def grade_of(verdict: int) -> int | None:
        """The grade rated, from how far it is off the range."""
        if verdict == UNRATED:
            return None
        if verdict == 0:
            return judge.rating
        return low + verdict if verdict < 0 else (high or 0) + verdict

    def accept(p: Any) -> int:
        verdict = judge.direction(to_grid_text(p), budget)
        now = time.process_time()
        seen.append({"rating": grade_of(verdict), "cpu_s": round(now - clock[0], 2)})
        clock[0] = now
        if verdict != 0 and now - began > cap:
            raise TimeUp
        return verdict

    hit = None
    try:
        if generate(side, side, seed, budget, accept=accept, lean=wanted.lean()) is not None:
            hit = round(time.process_time() - began, 1)
    except TimeUp:
        pass
    return {"candidates": seen, "hit_cpu_s": hit if hit is not None and hit <= cap else None}


def reached(run: list[dict[str, Any]], low: int, high: int | None) -> float | None:
    """The processor seconds ``--grade low-high`` takes on this seed's Nurikabe
    candidates, or ``None``."""
    total = 0.0
    for c in run:
        total += c["cpu_s"]
        r = c["rating"]
        if r is not None and low <= r and (high is None or r <= high):
            return round(total, 1)
    return None


def summary(
    runs: list[list[dict[str, Any]]], leaned: dict[str, list[list[dict[str, Any]]]]
) -> dict[str, Any]:
    """For each band: the seeds that reach it and the processor time to the first hit
    (Nurikabe; a band in ``leaned`` on its own runs)."""
    from smtpuzzles.cli.generating import bands

    hits = {
        name: [
            t for t in (reached(run, low, high) for run in leaned.get(name, runs)) if t is not None
        ]
        for name, (low, high) in bands().items()
    }
    every = runs + [run for band in leaned.values() for run in band]
    return _bands(hits, [c for run in every for c in run])


def banded_summary(runs: list[dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """For each band: the seeds that reach it and the processor time to the hit
    (Koburin, each band run on its own)."""
    hits = {
        name: [run[name]["hit_cpu_s"] for run in runs if run[name]["hit_cpu_s"] is not None]
        for name in runs[0]
    }
    return _bands(hits, [c for run in runs for band in run.values() for c in band["candidates"]])


def _bands(hits: dict[str, list[float]], rated: list[dict[str, Any]]) -> dict[str, Any]:
    from smtpuzzles.cli.generating import bands

    out: dict[str, Any] = {}
    for name, (low, high) in bands().items():
        got = hits[name]
        out[name] = {
            "seeds_reached": len(got),
            "candidates_in_band": sum(
                1
                for c in rated
                if c["rating"] is not None
                and low <= c["rating"]
                and (high is None or c["rating"] <= high)
            ),
            "median_cpu_s": round(statistics.median(got), 1) if got else None,
            "max_cpu_s": max(got) if got else None,
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
    parser.add_argument("--first", type=int, default=1, help="The first seed.")
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

    from smtpuzzles.cli.generating import Grade, bands

    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    # Nurikabe leans only easier: the bands that lean so get runs of their own
    leaning = {
        name: lean
        for name, (low, high) in bands().items()
        if (lean := Grade(low, high, name).lean()) > 0
    }
    seeds = range(args.first, args.first + args.seeds)
    for size in filter(None, args.sizes.split(",")):
        kind, side = size.split(":")
        if kind == "koburin":
            banded_runs = []
            for seed in seeds:
                run = banded(int(side), seed, args.cap)
                shown = {
                    n: ([c["rating"] for c in b["candidates"]], b["hit_cpu_s"])
                    for n, b in run.items()
                }
                print(kind, side, seed, shown, flush=True)
                banded_runs.append(run)
            rated = [c for run in banded_runs for b in run.values() for c in b["candidates"]]
            bands_found = banded_summary(banded_runs)
            by_seed: dict[str, Any] = {str(s): run for s, run in zip(seeds, banded_runs)}
            extra: dict[str, Any] = {}
        else:
            runs = []
            leaned: dict[str, list[list[dict[str, Any]]]] = {name: [] for name in leaning}
            for seed in seeds:
                run = candidates(int(side), seed, args.cap)
                print(kind, side, seed, [c["rating"] for c in run], flush=True)
                runs.append(run)
                for name, lean in leaning.items():
                    run = candidates(int(side), seed, args.cap, lean)
                    print(kind, side, seed, name, [c["rating"] for c in run], flush=True)
                    leaned[name].append(run)
            every = runs + [run for band in leaned.values() for run in band]
            rated = [c for run in every for c in run]
            bands_found = summary(runs, leaned)
            by_seed = {str(s): run for s, run in zip(seeds, runs)}
            extra = {
                "leaned": {
                    name: {str(s): run for s, run in zip(seeds, got)}
                    for name, got in leaned.items()
                }
            }
        ratings = [c["rating"] for c in rated if c["rating"] is not None]
        cpu = [c["cpu_s"] for c in rated]
        results[f"{kind}:{side}x{side}"] = {
            "measured_at": {k: v for k, v in environment().items() if k in ("date", "commit")},
            "cap_s": args.cap,
            "candidates": len(cpu),
            "cpu_s_per_candidate": round(statistics.median(cpu), 2) if cpu else None,
            "ratings_median": statistics.median(ratings) if ratings else None,
            "ratings_range": [min(ratings), max(ratings)] if ratings else None,
            "bands": bands_found,
            "seeds": by_seed,
            **extra,
        }
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
