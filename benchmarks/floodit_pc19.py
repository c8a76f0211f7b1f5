"""Flood-It `min` on the pc19 dataset (14x14, 6 colours): is every optimum proven and
equal to the known one, and how long does a board take as a whole process?"""

from __future__ import annotations

import functools

import _harness


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit/terminal-flood")
    parser.add_argument("--first", type=int, default=100, help="boards from the start")
    args = parser.parse_args()
    dataset = args.data / "dataset_pc19.txt"
    known = [
        len(line.strip())
        for line in (args.data / "solutions_optimal_pc19.txt").read_text().splitlines()
        if line.strip()
    ]
    count = min(args.first, len(known))
    tasks = [
        functools.partial(
            _harness.solve,
            dataset,
            ["floodit", "min", "--format", "lines", "--index", str(i)],
            args.timeout,
            f"#{i}",
        )
        for i in range(1, count + 1)
    ]
    runs = _harness.run_all(tasks, args.jobs)
    for run in runs:
        run.extra["known"] = known[int(run.variant[1:]) - 1]
        run.extra["length"] = (run.answer or {}).get("length")

    def right(run: _harness.Run) -> bool:
        return run.extra["length"] == run.extra["known"]

    _harness.write(
        "floodit_pc19",
        args.out,
        {
            "settings": {"boards": count, "timeout_s": args.timeout, "jobs": args.jobs},
            "summary": _harness.summary(runs, right),
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
