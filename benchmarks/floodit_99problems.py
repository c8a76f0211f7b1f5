"""Flood-It `min` on the 99problems boards: how many optima are proven within the limit,
every length checked against the known optimum, by family (size and colours). With
`--engine cadical` the results go to floodit_99problems_cadical.json."""

from __future__ import annotations

import statistics

import _floodit
import _harness


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit")
    parser.add_argument(
        "--families",
        nargs="*",
        default=[
            "12_12_06",
            "12_12_08",
            "14_14_06",
            "14_14_08",
            "16_16_06",
            "16_16_08",
            "18_18_06",
            "18_18_08",
        ],
        help="file-name prefixes rows_cols_colours",
    )
    parser.add_argument("--boards", nargs="*", help="only these boards (file names)")
    parser.add_argument("--engine", default="auto", help="min's --engine (auto, sat, smt, cadical)")
    parser.set_defaults(timeout=60.0)
    args = parser.parse_args()
    names = sorted(
        p.name
        for p in (args.data / "99problems").iterdir()
        if any(p.name.startswith(f + "_") for f in args.families)
        and (not args.boards or p.name in args.boards)
    )
    boards = _floodit.problems99(args.data, names)
    options = [] if args.engine == "auto" else ["--engine", args.engine]
    runs = _floodit.compare(boards, {"min": options}, "min", args.timeout, args.jobs)
    families = {}
    for family in args.families:
        mine = [r for r in runs if r.instance.startswith(family + "_")]
        if not mine:
            continue
        proven = [r for r in mine if (r.answer or {}).get("status") == "optimal"]
        slowest = max(proven, key=lambda r: r.wall_s, default=None)
        families[family] = {
            "boards": len(mine),
            "proven": len(proven),
            "median_wall_s": round(statistics.median(r.wall_s for r in proven), 2)
            if proven
            else None,
            "median_cpu_s": round(statistics.median(r.cpu_s for r in proven), 2)
            if proven
            else None,
            "slowest_wall_s": round(slowest.wall_s, 2) if slowest else None,
            "slowest": slowest.instance if slowest else None,
            "peak_mb": max(r.peak_mb for r in mine),
        }
    name = "floodit_99problems" + ("" if args.engine == "auto" else f"_{args.engine}")
    _harness.write(
        name,
        args.out,
        {
            "settings": {
                "families": args.families,
                "engine": args.engine,
                "timeout_s": args.timeout,
                "jobs": args.jobs,
            },
            "summary": _floodit.per_variant(runs, {"min": []})["min"],
            "by_family": families,
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
