"""Flood-It `min` with `--engine auto` (the default) beside `sat` and `cadical`, board by
board in one process (the engines take turns on each board, so load falls on all
alike): CPU seconds per family, how many searches handed their probes to CaDiCaL, and
every length checked against the other engines' and the checker.

Families: the first pc19 boards and random boards of 14x14 with 8 colours, 12x12 with
12 and 10x10 with 15 (seeds 1000, 1001, ..., as `floodit_peers.py`): the easy boards,
where `auto` must cost no more than Z3's SAT core. The 99problems boards, where it must
prove what CaDiCaL proves, are `floodit_99problems.py`'s.
"""

from __future__ import annotations

import resource
import sys
from typing import Any

import _floodit
import _harness

from smtpuzzles import api
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.generate import random_board

ENGINES = ("auto", "sat", "cadical")
RANDOM = {"r14c8": (14, 8), "r12c12": (12, 12), "r10c15": (10, 15)}
FIRST_SEED = 1000


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def boards(family: str, data: Any, count: int) -> list[tuple[str, Any]]:
    """Each board's name and grid (a new puzzle is made of it for each engine, so no
    engine finds another's cluster graph already built)."""
    if family == "pc19":
        return [
            (b.label, api.load(b.path, "floodit", format="lines", index=int(b.options[3])).board)
            for b in _floodit.pc19(data / "floodit", count)
        ]
    size, colours = RANDOM[family]
    return [
        (f"{family} seed {seed}", random_board(size, size, colours, seed))
        for seed in range(FIRST_SEED, FIRST_SEED + count)
    ]


def main() -> None:
    parser = _harness.common_arguments(__doc__, "")
    parser.add_argument("--families", default="pc19,r14c8,r12c12,r10c15")
    parser.add_argument("--count", type=int, default=50, help="boards per family")
    parser.set_defaults(timeout=60.0)
    args = parser.parse_args()
    families = {}
    for family in args.families.split(","):
        rows = []
        for name, board in boards(family, args.data, args.count):
            row: dict[str, Any] = {"board": name}
            for engine in ENGINES:
                puzzle = api.FloodIt(board)
                began = cpu()
                result = api.solve(puzzle, "min", timeout=args.timeout, engine=engine)
                row[f"{engine}_cpu_s"] = round(cpu() - began, 4)
                row[f"{engine}_status"] = str(result.status)
                row[f"{engine}_length"] = None if result.answer is None else len(result.answer)
                row[f"{engine}_proven_by"] = result.stats.get("proven_by")
                if result.answer is not None:
                    check_solution(puzzle.board.grid, result.answer)
            row["auto_handed_over"] = row["auto_proven_by"] == "cadical"
            rows.append(row)
        lengths = [
            {r[f"{e}_length"] for e in ENGINES if r[f"{e}_status"] == "optimal"} for r in rows
        ]
        totals = {e: round(sum(r[f"{e}_cpu_s"] for r in rows), 2) for e in ENGINES}
        families[family] = {
            "boards": len(rows),
            "cpu_s": totals,
            "auto_to_sat": round(totals["auto"] / totals["sat"], 2),
            "optimal": {e: sum(r[f"{e}_status"] == "optimal" for r in rows) for e in ENGINES},
            "handed_over": sum(r["auto_handed_over"] for r in rows),
            "disagreements": sum(len(x) > 1 for x in lengths),
            "rows": rows,
        }
        summary = {k: v for k, v in families[family].items() if k != "rows"}
        print(family, summary, file=sys.stderr, flush=True)
    _harness.write(
        "floodit_engine",
        args.out,
        {"settings": {"timeout_s": args.timeout, "count": args.count}, "families": families},
    )


if __name__ == "__main__":
    main()
