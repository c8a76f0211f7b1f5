"""Nurikabe's two connectivity strategies side by side on a sample of the corpus
(every k-th janko puzzle and the seed004 ones): distances in the formula against lazy cuts."""

from __future__ import annotations

import functools
import statistics
from pathlib import Path

import _harness
from nurikabe_janko import known_rows

STRATEGIES = ("distance", "lazy")


def main() -> None:
    parser = _harness.common_arguments(__doc__, "nurikabe")
    parser.add_argument("--every", type=int, default=10, help="take every k-th janko puzzle")
    args = parser.parse_args()
    janko = sorted(args.data.glob("janko_*.txt"))[:: args.every]
    files = janko + sorted(args.data.glob("seed004_*.txt"))
    tasks = [
        functools.partial(
            _harness.solve, path, ["nurikabe", "solve", "--connectivity", s], args.timeout, s
        )
        for path in files
        for s in STRATEGIES
    ]
    runs = _harness.run_all(tasks, args.jobs)
    for run in runs:
        expected = known_rows(Path(run.instance))
        solution = (run.answer or {}).get("solution")
        run.extra["right"] = None if expected is None or solution is None else solution == expected

    def right(run: _harness.Run) -> bool:
        return run.extra["right"] is not False

    summaries = {}
    for strategy in STRATEGIES:
        mine = [r for r in runs if r.variant == strategy]
        summaries[strategy] = _harness.summary(mine, right)
        summaries[strategy]["peak_mb"] = max(r.peak_mb for r in mine)
    distance = {Path(r.instance).name: r.cpu_s for r in runs if r.variant == "distance"}
    lazy = [r for r in runs if r.variant == "lazy"]
    ratios = [r.cpu_s / distance[Path(r.instance).name] for r in lazy]
    _harness.write(
        "nurikabe_connectivity",
        args.out,
        {
            "settings": {
                "puzzles": len(files),
                "every": args.every,
                "timeout_s": args.timeout,
                "jobs": args.jobs,
            },
            "summary": summaries,
            "median_ratio_lazy_to_distance": round(statistics.median(ratios), 3),
            "lazy_faster": sum(x < 1 for x in ratios),
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
