"""The CNF Z3 bit-blasts from a puzzle's script, solved by a SAT solver from PyPI
(pycosat): its model, read back through the ``c`` lines, passes the puzzle's independent
checker; a Flood-It question one move below the optimum is unsat for the SAT solver too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pycosat
import pytest

from smtpuzzles.dimacs import clauses, from_dimacs_model, to_dimacs
from smtpuzzles.puzzles.floodit.check import check_solution
from smtpuzzles.puzzles.floodit.formats import load_board
from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.rules import FloodFormula
from smtpuzzles.puzzles.koburin import problems as koburin_problems
from smtpuzzles.puzzles.koburin import script as koburin_script
from smtpuzzles.puzzles.koburin.formats import parse as parse_koburin
from smtpuzzles.puzzles.nurikabe import encode as nurikabe_encode
from smtpuzzles.puzzles.nurikabe import problems as nurikabe_problems
from smtpuzzles.puzzles.nurikabe.formats import parse as parse_nurikabe

INSTANCES = Path(__file__).resolve().parents[2] / "instances"
OPTIMA: dict[str, int] = json.loads((INSTANCES / "floodit" / "manifest.json").read_text())


def sat_model(cnf: str) -> list[int] | None:
    """pycosat's model of ``cnf`` (the true and false literals), or None when unsat."""
    found = pycosat.solve(clauses(cnf))
    assert found != "UNKNOWN"
    return None if found == "UNSAT" else list(found)


@pytest.mark.parametrize("name", ["gen_8x8_s1.txt", "gen_10x10_s1.txt", "prism.table"])
def test_koburin_cnf_model_passes_the_checker(name: str) -> None:
    puzzle = parse_koburin((INSTANCES / "koburin" / name).read_text(), name)
    cnf = to_dimacs(koburin_script(puzzle).text())
    assert any(line.startswith("c loop_dist_") for line in cnf.splitlines())
    model = sat_model(cnf)
    assert model is not None
    values = from_dimacs_model(cnf, model)
    g = puzzle.graph
    black = [i for i in range(len(g)) if values[f"black_{_escape(g.names[i])}"] is True]
    links = [
        e
        for e in puzzle.edges()
        if values[f"loop_{_escape(g.names[e[0]])}_{_escape(g.names[e[1]])}"] is True
    ]
    assert koburin_problems(puzzle, black, links) == []


def _escape(name: str) -> str:
    from smtpuzzles.smtlib import escape

    return escape(name)


@pytest.mark.parametrize("name", ["square_05x05.txt", "hex_05x06.txt", "table_ring.txt"])
def test_nurikabe_cnf_model_passes_the_checker(name: str) -> None:
    puzzle = parse_nurikabe((INSTANCES / "nurikabe" / name).read_text())
    enc = nurikabe_encode(puzzle)  # the rules alone, distances included
    cnf = to_dimacs(enc.script().text())
    model = sat_model(cnf)
    assert model is not None
    values = from_dimacs_model(cnf, model)
    picture = tuple(values[n] is True for n in enc.black_names)
    assert nurikabe_problems(puzzle.graph, puzzle.clues, puzzle.pools, picture) == []


@pytest.mark.parametrize("name", ["b04x04c3.txt", "b06x06c5.txt", "b08x08c4.txt"])
def test_floodit_cnf_solves_at_the_optimum_and_not_below(name: str) -> None:
    board = load_board(str(INSTANCES / "floodit" / name))
    best = OPTIMA[name]
    formula = FloodFormula(cluster_graph(board.grid), feed=False)
    cnf = to_dimacs(formula.script(best).text())
    assert any(line.startswith("c colour_t0 = 0 ") for line in cnf.splitlines())
    model = sat_model(cnf)
    assert model is not None
    values = from_dimacs_model(cnf, model)
    length = next(t for t in range(best + 1) if values[f"done_t{t}"] is True)
    moves = [values[f"colour_t{t}"] for t in range(length)]
    assert all(isinstance(m, int) for m in moves)
    check_solution(board.grid, moves)  # raises on a wrong answer
    below = to_dimacs(formula.script(best - 1).text())
    assert sat_model(below) is None
    # without the colour counting Z3's rewriting leaves the refutation to the SAT solver
    plain = FloodFormula(cluster_graph(board.grid), counting=False, feed=False)
    below = to_dimacs(plain.script(best - 1).text())
    assert "p cnf 0 1" not in below
    assert sat_model(below) is None


def test_the_variables_are_the_declared_ones_and_an_unbounded_integer_only_matters_used() -> None:
    """The ``c`` lines name every declared Boolean (``free`` where the clauses never
    mention it) and each bounded integer; an integer without bounds is refused where a
    formula uses it and passed over where it is only declared."""
    text = (
        "(declare-fun a () Bool)\n(declare-fun |b c| () Bool)\n(declare-fun idle () Bool)\n"
        "(declare-const x Int)\n(declare-fun y () Int)\n"
        "(assert (<= 0 x 3))\n(assert (=> a (= x 2)))\n(assert (or a |b c|))\n"
    )
    lines = to_dimacs(text).splitlines()
    assert "c idle free" in lines
    assert any(line.startswith("c x = 2 ") for line in lines)
    assert not any(line.startswith("c y") for line in lines)
    with pytest.raises(ValueError, match="integer y has no bounds"):
        to_dimacs(text + "(assert (=> |b c| (= y 5)))\n")
