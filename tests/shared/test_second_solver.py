"""A second opinion on the command line's scripts: the ``--print-asserts`` script of the
JSON answer is read by cvc5 (its own parser, Python API) and by the z3 executable, and
each says sat or unsat as our answer implies.

Flood-It ``min`` prints two scripts (sat at the optimum, unsat one move fewer); Nurikabe
and Koburin print the formula behind the solution (sat) and, with ``--unique``, the one
that excludes it (unsat: the proof of uniqueness). Shipped instances of up to 14x14 cells
are read here; test_scripts runs the scripts of every shipped instance, the largest
included, in both solvers, so the large ones are not run twice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from oracles.cli import INSTANCES, cli
from oracles.solvers import cvc5_answer, z3_executable, z3_result, z3_start

SIZE = re.compile(r"\d+(?=x)|(?<=x)\d+")


def pieces(script: str) -> list[str]:
    """The scripts of a ``--print-asserts`` text, each ending in ``(check-sat)``."""
    out, current = [], []
    for line in script.splitlines():
        current.append(line)
        if line.strip() == "(check-sat)":
            out.append("\n".join(current) + "\n")
            current = []
    return out


def expected_answer(piece: str, fallback: str) -> str:
    """The answer a script announces in its comment, else ``fallback``."""
    m = re.search(r"^; expected answer: (sat|unsat)$", piece, re.MULTILINE)
    return m.group(1) if m else fallback


def second_opinions(script: str, fallback: str) -> list[tuple[str, str, str]]:
    """(expected, cvc5, z3) for every piece of ``script``."""
    found = []
    for piece in pieces(script):
        by_z3 = z3_start(piece)  # runs beside cvc5
        found.append((expected_answer(piece, fallback), cvc5_answer(piece), z3_result(by_z3)))
    assert found, "the output holds at least one script"
    return found


#: The largest side of an instance read here (a table, which names no size, is small).
MOST_SIDE = 14


def files(puzzle: str) -> list[Path]:
    """The shipped instances of ``puzzle`` whose name gives no side above MOST_SIDE."""
    folder = INSTANCES / puzzle
    found = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".table"))
    return [p for p in found if all(int(n) <= MOST_SIDE for n in SIZE.findall(p.stem))]


def test_the_z3_executable_is_found() -> None:
    assert z3_executable() is not None


@pytest.mark.parametrize("board", files("floodit"), ids=lambda p: p.name)
@pytest.mark.slow
def test_floodit_min_scripts(board: Path) -> None:
    manifest = json.loads((INSTANCES / "floodit" / "manifest.json").read_text())
    result = cli("floodit", "min", str(board), "--print-asserts", "--json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["status"] == "optimal" and answer["length"] == manifest[board.name]
    opinions = second_opinions(answer["smtlib"], "sat")
    assert [e for e, _, _ in opinions] == (["sat", "unsat"] if answer["length"] else ["sat"])
    for expected, by_cvc5, by_z3 in opinions:
        assert by_cvc5 == expected and by_z3 == expected


@pytest.mark.parametrize(
    "kind,puzzle",
    [(kind, p) for kind in ("nurikabe", "koburin") for p in files(kind)],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
@pytest.mark.slow
def test_solution_and_uniqueness_scripts(kind: str, puzzle: Path) -> None:
    result = cli(kind, "solve", str(puzzle), "--print-asserts", "--json", "--unique")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["status"] == "solved" and answer["unique"] is True
    # With --unique the final formula excludes the solution found: unsat proves it unique.
    for expected, by_cvc5, by_z3 in second_opinions(answer["smtlib"], "unsat"):
        assert by_cvc5 == expected and by_z3 == expected
    result = cli(kind, "solve", str(puzzle), "--print-asserts", "--json")
    assert result.exit_code == 0, result.stderr
    for expected, by_cvc5, by_z3 in second_opinions(json.loads(result.stdout)["smtlib"], "sat"):
        assert by_cvc5 == expected and by_z3 == expected
