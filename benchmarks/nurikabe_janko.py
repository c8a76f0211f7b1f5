"""Nurikabe on the janko corpus (and the eight seed004 puzzles): how many are solved
within the limit, is every answer the known one, and how long do they take by size?"""

from __future__ import annotations

import functools
import statistics
from pathlib import Path

import _harness

CLASSES = [(0, 100, "up to 100"), (101, 225, "101-225"), (226, 400, "226-400")]


def size_class(path: Path) -> str:
    """The size class of a corpus file, from its `ROWS COLS` header."""
    if path.name.startswith("seed004"):
        return "seed004"
    rows, cols = (int(x) for x in path.read_text().split()[:2])
    cells = rows * cols
    for low, high, name in CLASSES:
        if low <= cells <= high:
            return name
    return "over 400"


def known_rows(path: Path) -> list[str] | None:
    """The `.sol` picture beside a puzzle as rows of '#' (wall) and '.' (island)."""
    sol = path.with_suffix(".sol")
    if not sol.exists():
        return None
    lines = sol.read_text().splitlines()[1:]
    return ["".join("#" if t == "x" else "." for t in line.split()) for line in lines if line]


def main() -> None:
    parser = _harness.common_arguments(__doc__, "nurikabe")
    parser.add_argument("--every", type=int, default=1, help="take every k-th puzzle")
    parser.add_argument(
        "--connectivity", default="distance", help="distance or lazy (passed through)"
    )
    args = parser.parse_args()
    files = sorted(args.data.glob("*.txt"))[:: args.every]
    options = ["nurikabe", "solve", "--connectivity", args.connectivity]
    tasks = [
        functools.partial(_harness.solve, path, options, args.timeout, args.connectivity)
        for path in files
    ]
    runs = _harness.run_all(tasks, args.jobs)
    for run, path in zip(runs, files):
        run.extra["class"] = size_class(path)
        expected = known_rows(path)
        solution = (run.answer or {}).get("solution")
        run.extra["right"] = None if expected is None or solution is None else solution == expected

    def right(run: _harness.Run) -> bool:
        return run.extra["right"] is not False

    by_class = {}
    for _, _, name in [*CLASSES, (0, 0, "over 400"), (0, 0, "seed004")]:
        members = [r for r in runs if r.extra["class"] == name]
        if members:
            answered = [r for r in members if (r.answer or {}).get("status") == "solved"]
            slowest = max(answered, key=lambda r: r.wall_s, default=None)
            by_class[name] = {
                "puzzles": len(members),
                "solved": len(answered),
                "median_wall_s": round(statistics.median(r.wall_s for r in answered), 2)
                if answered
                else None,
                "median_cpu_s": round(statistics.median(r.cpu_s for r in answered), 2)
                if answered
                else None,
                "slowest_wall_s": round(slowest.wall_s, 2) if slowest else None,
                "slowest": Path(slowest.instance).name if slowest else None,
            }
    _harness.write(
        f"nurikabe_janko_{args.connectivity}",
        args.out,
        {
            "settings": {
                "puzzles": len(files),
                "every": args.every,
                "connectivity": args.connectivity,
                "timeout_s": args.timeout,
                "jobs": args.jobs,
            },
            "summary": _harness.summary(runs, right),
            "by_class": by_class,
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
