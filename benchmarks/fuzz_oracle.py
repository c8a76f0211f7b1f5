"""The fuzz's answers on small unmutated puzzles, checked against brute force.

The puzzle is the one the harness made (its colours, clues and size), not the one the
package read from the text, and the brute-force solvers are the tests' own
(``tests/oracles``), written from the rules at cell level: a misread input, a wrong
optimum, a "no solution" that has one, a wrong ``unique`` or ``count`` all show here,
including in runs without ``--json`` (their exit code).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from oracles import floodit as floodit_oracle  # noqa: E402
from oracles import koburin as koburin_oracle  # noqa: E402
from oracles import nurikabe as nurikabe_oracle  # noqa: E402

from smtpuzzles.graph import rectangle  # noqa: E402
from smtpuzzles.puzzles.koburin import KoburinInstance, Solution  # noqa: E402
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance  # noqa: E402

#: The largest puzzles brute force is asked about (Flood-It: cells; the others: cells
#: without a clue, fewer when a ``?`` makes every count of white cells possible).
FLOODIT_CELLS = 30
NURIKABE_FREE = 14
NURIKABE_FREE_ANY = 11
KOBURIN_FREE = 12


def problems(
    puzzle: str,
    truth: dict[str, Any],
    argv: list[str],
    code: int | None,
    obj: dict[str, Any] | None,
) -> list[str] | None:
    """What brute force says is wrong with a run's answer (empty when it agrees; ``None``
    when there is nothing to ask it, or the puzzle is too large to)."""
    if code not in (0, 1) or "--dry-run" in argv:
        return None
    if puzzle == "floodit":
        return _floodit(truth["grid"], argv, code, obj)
    if puzzle == "nurikabe":
        return _nurikabe(truth, argv, code, obj)
    return _koburin(truth, argv, code, obj)


def _option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def _floodit(grid: list[list[int]], argv: list[str], code: int, obj: Any) -> list[str] | None:
    if len(grid) * len(grid[0]) > FLOODIT_CELLS:
        return None
    row, col = map(int, (_option(argv, "--start") or "0,0").split(","))
    start = (row, col)
    mode = argv[1]
    reference = "reference" in argv
    found: list[str] = []
    moves = obj.get("moves") if isinstance(obj, dict) else None
    status = obj.get("status") if isinstance(obj, dict) else None
    if status in ("solved", "optimal"):
        if not isinstance(moves, list):
            return [f"status {status} without moves"]
        if reference:
            board = floodit_oracle.replay_allowing_noops(grid, moves, start)
        else:
            try:
                board, _ = floodit_oracle.replay(grid, moves, start)
            except (AssertionError, IndexError, TypeError) as exc:
                return [f"brute force: a move is wrong: {exc}"]
        if not floodit_oracle.is_flooded(board):
            return ["brute force: the moves leave the board unflooded"]
        if mode == "exact" and len(moves) != int(argv[2]):
            found.append(f"exact {argv[2]} answered with {len(moves)} moves")
    if reference:
        return found
    best = floodit_oracle.optimum_by_bfs(grid, start)
    if status == "optimal" and isinstance(moves, list):
        lo = int(argv[2]) if mode == "search" else 0
        if best >= lo and len(moves) != best:
            found.append(f"called optimal with {len(moves)} moves; brute force finds {best}")
    if code == 1:
        if mode in ("solve", "min", "opt"):
            found.append(f"no solution claimed; brute force floods it in {best}")
        elif mode == "exact" and int(argv[2]) == best:
            found.append(f"no solution of exactly {best} claimed; that is the optimum")
        elif mode == "search" and int(argv[2]) <= best <= int(argv[3]):
            found.append(f"none in [{argv[2]}, {argv[3]}] claimed; the optimum {best} is")
    return found


def _cell_of(name: Any, prefix: str, sep: str) -> tuple[int, int]:
    """A cell named in an answer: ``[row, col]``, or a table's name for it."""
    if isinstance(name, list):
        return (name[0], name[1])
    r, c = name[len(prefix) :].split(sep)
    return (int(r), int(c))


def _counts(answers: int, obj: Any) -> list[str]:
    """``unique`` and ``count`` against the number of answers brute force finds."""
    if not isinstance(obj, dict):
        return []
    found = []
    if obj.get("unique") is True and answers != 1:
        found.append(f"called unique; brute force finds {answers} answers")
    if obj.get("unique") is False and answers < 2:
        found.append(f"called not unique; brute force finds {answers} answers")
    if obj.get("count_complete") is True and obj.get("count") != answers:
        found.append(f"counted {obj.get('count')} answers in all; brute force finds {answers}")
    if isinstance(obj.get("count"), int) and obj["count"] > answers:
        found.append(f"counted {obj['count']} answers; brute force finds {answers}")
    return found


def _nurikabe(truth: dict[str, Any], argv: list[str], code: int, obj: Any) -> list[str] | None:
    rows, cols, clues = truth["rows"], truth["cols"], truth["clues"]
    free = rows * cols - len(clues)
    if free > (NURIKABE_FREE_ANY if None in clues.values() else NURIKABE_FREE):
        return None
    graph = rectangle(rows, cols)
    index = {rc: i for i, rc in enumerate(graph.coords)}
    pools = (
        tuple(
            (index[(r, c)], index[(r, c + 1)], index[(r + 1, c)], index[(r + 1, c + 1)])
            for r in range(rows - 1)
            for c in range(cols - 1)
        )
        if truth["pools"]
        else ()
    )
    puzzle = NurikabeInstance(graph, {index[rc]: v for rc, v in clues.items()}, pools)
    answers = nurikabe_oracle.brute_force(puzzle)
    found = _counts(len(answers), obj)
    if code == 1 and answers:
        found.append(f"no solution claimed; brute force finds {len(answers)}")
    if isinstance(obj, dict) and obj.get("status") == "solved":
        shown = obj.get("solution")
        if isinstance(shown, dict):
            black = {_cell_of(n, "r", "c") for n, v in shown.items() if v == "#"}
        else:
            black = {(r, c) for r, line in enumerate(shown) for c, v in enumerate(line) if v == "#"}
        if tuple(rc in black for rc in graph.coords) not in answers:
            found.append(f"an answer brute force does not have (it has {len(answers)})")
    return found


def _koburin(truth: dict[str, Any], argv: list[str], code: int, obj: Any) -> list[str] | None:
    rows, cols, clues = truth["rows"], truth["cols"], truth["clues"]
    if rows * cols - len(clues) > KOBURIN_FREE:
        return None
    graph = rectangle(rows, cols)
    index = {rc: i for i, rc in enumerate(graph.coords)}
    answers = koburin_oracle.brute_force(
        KoburinInstance(graph, {index[rc]: v for rc, v in clues.items()})
    )
    found = _counts(len(answers), obj)
    if code == 1 and answers:
        found.append(f"no solution claimed; brute force finds {len(answers)}")
    if isinstance(obj, dict) and obj.get("status") == "solved":
        shown = obj.get("solution")
        black = frozenset(index[_cell_of(n, "c", "_")] for n in shown.get("black", []))
        loop = [index[_cell_of(n, "c", "_")] for n in shown.get("loop", [])]
        links = (
            frozenset(
                (min(a, b), max(a, b)) for a, b in zip(loop, loop[1:] + loop[:1], strict=True)
            )
            if len(loop) > 2
            else frozenset()
        )
        if Solution(black, links) not in answers:
            found.append(f"an answer brute force does not have (it has {len(answers)})")
    return found
