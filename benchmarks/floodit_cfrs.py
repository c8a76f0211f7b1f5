"""Flood-It `min` on color-flood-rs's example boards with both engines, board by board
(003b: 20x20 with 10 colours; 004 and 005: 26x26 with 8 colours, optimum unknown)."""

from __future__ import annotations

import _floodit
import _harness

VARIANTS = {"z3": [], "cadical": ["--engine", "cadical"]}
BOARDS = ["002", "003", "003b", "004", "005"]


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit")
    parser.add_argument("--boards", nargs="*", default=BOARDS, help="board names")
    parser.set_defaults(timeout=120.0)
    args = parser.parse_args()
    boards = _floodit.color_flood_rs(args.data, args.boards)
    runs = _floodit.compare(boards, VARIANTS, "min", args.timeout, args.jobs)
    _harness.write(
        "floodit_cfrs",
        args.out,
        {
            "settings": _floodit.settings(boards, args, VARIANTS),
            "summary": _floodit.per_variant(runs, VARIANTS),
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
