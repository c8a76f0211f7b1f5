"""Flood-It `min` against the baseline in one run: the default encoding and search
against `--encoding reference` (color-flood-rs's formulas and bisection), board by board."""

from __future__ import annotations

import statistics

import _floodit
import _harness

VARIANTS = {"smtpuzzles": [], "reference": ["--encoding", "reference"]}


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit")
    parser.add_argument("--pc19", type=int, default=5, help="first pc19 boards")
    parser.add_argument(
        "--problems", nargs="*", default=["14_14_06_001", "14_14_08_002"], help="99problems"
    )
    parser.add_argument("--cfrs", nargs="*", default=["003"], help="color-flood-rs boards")
    parser.set_defaults(timeout=120.0)
    args = parser.parse_args()
    boards = (
        _floodit.pc19(args.data, args.pc19)
        + _floodit.problems99(args.data, args.problems)
        + _floodit.color_flood_rs(args.data, args.cfrs)
    )
    runs = _floodit.compare(boards, VARIANTS, "min", args.timeout, args.jobs)
    mine = {r.instance: r for r in runs if r.variant == "smtpuzzles"}
    ratios = [r.cpu_s / mine[r.instance].cpu_s for r in runs if r.variant == "reference"]
    _harness.write(
        "floodit_baseline",
        args.out,
        {
            "settings": _floodit.settings(boards, args, VARIANTS),
            "summary": _floodit.per_variant(runs, VARIANTS),
            "median_ratio_reference_to_smtpuzzles": round(statistics.median(ratios), 1),
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
