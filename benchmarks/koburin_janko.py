"""Koburin on the janko corpus, both connectivity strategies side by side in one run
(lazy cuts, the default, against distances in the formula): answers and times."""

from __future__ import annotations

import functools
import statistics
from pathlib import Path
from typing import Any

import _harness

STRATEGIES = ("lazy", "distance")


def known_black(path: Path) -> list[list[int]] | None:
    """The black cells of the `.sol` beside a puzzle, as sorted [row, col] pairs."""
    sol = path.with_suffix(".sol")
    if not sol.exists():
        return None
    lines = [line.split() for line in sol.read_text().splitlines()[1:] if line.strip()]
    return sorted([r, c] for r, row in enumerate(lines) for c, t in enumerate(row) if t == "x")


def black_of(answer: dict[str, Any] | None) -> list[list[int]] | None:
    """The black cells of a JSON answer (inside "solution", or at the top level)."""
    if not answer:
        return None
    solution = answer.get("solution")
    black = solution.get("black") if isinstance(solution, dict) else answer.get("black")
    return sorted(black) if black is not None else None


def main() -> None:
    parser = _harness.common_arguments(__doc__, "koburin")
    args = parser.parse_args()
    files = sorted(args.data.glob("*.txt"))
    tasks = [
        functools.partial(
            _harness.solve, path, ["koburin", "solve", "--connectivity", s], args.timeout, s
        )
        for path in files
        for s in STRATEGIES
    ]
    runs = _harness.run_all(tasks, args.jobs)
    for run in runs:
        expected = known_black(Path(run.instance))
        got = black_of(run.answer)
        run.extra["right"] = None if expected is None or got is None else got == expected

    def right(run: _harness.Run) -> bool:
        return run.extra["right"] is not False

    summaries = {}
    for strategy in STRATEGIES:
        mine = [r for r in runs if r.variant == strategy]
        summaries[strategy] = _harness.summary(mine, right)
        summaries[strategy]["peak_mb"] = max(r.peak_mb for r in mine)
    lazy = {Path(r.instance).name: r.cpu_s for r in runs if r.variant == "lazy"}
    ratios = [r.cpu_s / lazy[Path(r.instance).name] for r in runs if r.variant == "distance"]
    _harness.write(
        "koburin_janko",
        args.out,
        {
            "settings": {"puzzles": len(files), "timeout_s": args.timeout, "jobs": args.jobs},
            "summary": summaries,
            "median_ratio_distance_to_lazy": round(statistics.median(ratios), 3),
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
