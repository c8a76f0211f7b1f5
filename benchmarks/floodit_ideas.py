"""Flood-It `min` with each switchable idea on and off, side by side on the same boards:
the SAT against the SMT engine, colour counting, the search order, the A* bound."""

from __future__ import annotations

import statistics

import _floodit
import _harness

VARIANTS = {
    "default": [],
    "--engine smt": ["--engine", "smt"],
    "--no-counting": ["--no-counting"],
    "--strategy mixed": ["--strategy", "mixed"],
    "--bound-nodes 1000": ["--bound-nodes", "1000"],
}


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit")
    parser.add_argument("--pc19", type=int, default=30, help="first pc19 boards")
    parser.add_argument(
        "--problems",
        nargs="*",
        default=["14_14_08_002", "16_16_06_001", "16_16_08_001"],
        help="harder 99problems boards",
    )
    parser.set_defaults(timeout=60.0)
    args = parser.parse_args()
    boards = _floodit.pc19(args.data, args.pc19) + _floodit.problems99(args.data, args.problems)
    runs = _floodit.compare(boards, VARIANTS, "min", args.timeout, args.jobs)
    default = {r.instance: r.cpu_s for r in runs if r.variant == "default"}
    ratios = {
        name: round(
            statistics.median(r.cpu_s / default[r.instance] for r in runs if r.variant == name), 2
        )
        for name in VARIANTS
    }
    groups = {"pc19": [b.label for b in boards if b.label.startswith("pc19")]}
    groups["99problems"] = [b.label for b in boards if not b.label.startswith("pc19")]
    totals = {
        group: {
            name: round(
                sum(r.cpu_s for r in runs if r.variant == name and r.instance in group_of), 1
            )
            for name in VARIANTS
        }
        for group, group_of in groups.items()
    }
    _harness.write(
        "floodit_ideas",
        args.out,
        {
            "settings": _floodit.settings(boards, args, VARIANTS),
            "summary": _floodit.per_variant(runs, VARIANTS),
            "median_ratio_to_default": ratios,
            "total_cpu_s": totals,
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
