"""The Python API: load from path, text and URL; solve; check; well-formed pictures;
short reprs; bad input raises InputError."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import z3

import smtpuzzles
from smtpuzzles import FloodIt, Koburin, Nurikabe, Result, check, formula, load, solve
from smtpuzzles.errors import InputError
from smtpuzzles.puzzles.nurikabe.pictures import drawable

ROOT = Path(__file__).resolve().parents[2]
INST = ROOT / "instances"
FLOOD = INST / "floodit" / "b05x05c4.txt"  # optimum 5 (manifest)
NURI = INST / "nurikabe" / "square_05x05.txt"
KOBU = INST / "koburin" / "gen_8x8_s1.txt"
NURI_URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
KOBU_URL = "https://puzz.link/p?koburin/5/5/clcbg.n"


def well_formed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


# ---------------------------------------------------------------------------- load


def test_public_names_are_exported() -> None:
    for name in ("load", "solve", "formula", "check", "Result", "FloodIt", "Nurikabe", "Koburin"):
        assert name in smtpuzzles.__all__
        assert getattr(smtpuzzles, name) is not None
    with pytest.raises(AttributeError):
        smtpuzzles.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    ("path", "kind"),
    [(FLOOD, FloodIt), (NURI, Nurikabe), (KOBU, Koburin)],
)
def test_load_path_str_and_text_agree(path: Path, kind: type) -> None:
    by_path = load(path)
    by_str = load(str(path))
    by_text = load(path.read_text(), kind.__name__.lower())
    assert isinstance(by_path, kind) and isinstance(by_str, kind) and isinstance(by_text, kind)
    assert str(by_path) == str(by_str) == str(by_text)
    assert str(by_path).strip()
    well_formed(by_path._repr_svg_())


@pytest.mark.parametrize(("url", "kind"), [(NURI_URL, Nurikabe), (KOBU_URL, Koburin)])
def test_load_url_takes_the_kind_from_the_url(url: str, kind: type) -> None:
    p = load(url)
    assert isinstance(p, kind)
    result = solve(p, unique=True)
    assert result.status == "solved" and result.unique is True
    assert check(p, result) == []


def test_flood_it_text_is_recognised_and_start_is_kept() -> None:
    p = load("0011\n2211\n", start=(1, 3))
    assert isinstance(p, FloodIt) and p.start == (1, 3)
    p2 = load("0011\n2211\n", start="1,3")
    assert p2 == p


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: load(INST / "floodit" / "missing.txt"), "no such file"),
        (lambda: load("0012\n01\n", "floodit"), ""),
        (lambda: load("- 1\n2 -\n"), "cannot tell which puzzle"),
        (lambda: load(FLOOD, "sudoku"), "unknown puzzle"),
        (lambda: load("https://puzz.link/p?sudoku/4/4/abc"), "sudoku"),
        (lambda: load(NURI, format="nonsense"), "unknown format"),
        (lambda: load(FLOOD, start=(9, 9)), "outside"),
        (lambda: load(NURI, start=(0, 0)), "not an option of Nurikabe"),
        (lambda: solve(load(FLOOD), "exact"), "needs n"),
        (lambda: solve(load(FLOOD), "search", lo=5, hi=3), "lo must not exceed hi"),
        (lambda: solve(load(FLOOD), "fastest"), "Flood-It has no mode"),
        (lambda: solve(load(FLOOD), "min", unique=True), "not Flood-It options"),
        (lambda: solve(load(FLOOD), "min", colourful=True), "not an option of Flood-It"),
        (lambda: solve(load(NURI), "min"), "Nurikabe has no mode"),
        (lambda: solve(load(NURI), connectivity="psychic"), "connectivity"),
        (lambda: solve(load(KOBU), engine="smt"), "engine= is not an option of Koburin"),
        (lambda: solve(load(KOBU), count=0), "at least 1"),
        (lambda: solve(42), "not a puzzle"),
        (lambda: formula(load(NURI), horizon=3), "horizon= is not an option of Nurikabe"),
        # the command line's checks of types and ranges, for every argument
        (lambda: solve(load(FLOOD), "exact", n=2.5), "n=2.5: expected a whole number"),
        (lambda: solve(load(FLOOD), "exact", n=True), "n=True: expected a whole number"),
        (lambda: solve(load(FLOOD), "search", lo="1", hi=3), "lo='1': expected a whole"),
        (lambda: formula(load(FLOOD), horizon="x"), "horizon='x': expected a whole number"),
        (lambda: formula(load(FLOOD), horizon=10**5), "within 100000 moves: more moves"),
        (lambda: formula(load(FLOOD), horizon=3, exact="y"), "exact='y': expected True"),
        (lambda: formula(load(NURI), connectivity="x"), "connectivity='x': expected one of"),
        (lambda: check(load(KOBU), [1, 2]), "not a Koburin answer"),
        (lambda: check(load(KOBU), 5), "not a Koburin answer"),
        (lambda: check(load(NURI), 5), "not a Nurikabe answer"),
        (lambda: check(load(FLOOD), "junk"), "expected a list of colour numbers"),
        (lambda: check(load(FLOOD), [1.5, 0]), "1.5 is not a colour number"),
        (lambda: solve(load(FLOOD), "min", bound_nodes=-1), "bound_nodes=-1: expected at least 0"),
        (lambda: solve(load(FLOOD), "min", bound_nodes=1.5), "bound_nodes=1.5: expected a"),
        (lambda: solve(load(FLOOD), "min", counting="no"), "counting='no': expected True"),
        (lambda: solve(load(KOBU), count=1.5), "count=1.5: expected a whole number"),
        (lambda: solve(load(KOBU), unique="yes"), "unique='yes': expected True or False"),
        (lambda: load("1,1 10,0\n", "nurikabe", index=[1, 2]), "index=[1, 2]: expected a whole"),
        (lambda: load(NURI, index=0), "index=0: expected at least 1"),
        (lambda: load(NURI, format=["grid"]), "format=['grid']: expected the name of a format"),
    ],
)
def test_bad_input_raises_input_error(call, fragment: str) -> None:
    with pytest.raises(InputError) as caught:
        call()
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------------------- solve


def test_floodit_min_is_the_known_optimum_with_frames() -> None:
    board = load(FLOOD)
    result = solve(board, "min")
    assert result.status == "optimal" and len(result.answer) == 5
    assert result.bounds == (5, 5)
    frames = result.frames()
    assert len(frames) == 6 and len(result.captions()) == 6
    for frame in frames:
        well_formed(frame)
    assert len(set(result.boards()[-1][0])) == 1  # one colour at the end
    root = well_formed(result._repr_svg_())
    assert len(root) >= 6  # one nested picture per frame (plus captions)
    moves = "".join(str(m) for m in result.answer)
    assert "status: optimal" in str(result) and f"moves: {moves}" in str(result)


def test_floodit_stats_list_each_probe() -> None:
    board = load(INST / "floodit" / "b08x08c4.txt")
    result = solve(board, "search", lo=2, hi=12, bound_nodes=0)  # Z3 probes, not A*
    probes = result.stats["probes"]
    assert probes and all({"label", "answer", "seconds"} <= set(p) for p in probes)
    assert result.stats["checks"] == len(probes)


# ---------------------------------------------------------------------------- check


def test_check_finds_broken_answers() -> None:
    board = load(FLOOD)
    moves = solve(board, "min").answer
    assert check(board, moves) == []
    assert check(board, moves[:-1])  # one move short: the board is not one colour
    nuri = load(NURI)
    picture = list(solve(nuri).answer)
    flipped = picture.copy()
    flipped[next(i for i in range(len(picture)) if i not in nuri.puzzle.clues)] ^= True
    assert check(nuri, picture) == [] and check(nuri, flipped)
    kob = load(KOBU)
    answer = solve(kob).to_json()["solution"]
    assert check(kob, answer) == []
    broken = {**answer, "black": answer["black"][1:]}
    assert check(kob, broken)
    assert check(kob, None) == ["no answer"]


# ---------------------------------------------------------------------------- pictures


@pytest.mark.parametrize(
    ("name", "shape"),
    [("torus_06x06.txt", "ghost"), ("hex_05x06.txt", "polygon"), ("holes_07x08.txt", "hole")],
)
def test_generated_tables_are_drawn_as_their_grids(name: str, shape: str) -> None:
    p = load(INST / "nurikabe" / name)
    assert drawable(p.puzzle.graph).coords is not None
    svg = solve(p).svg()
    well_formed(svg)
    assert shape in svg


def test_hand_written_table_stays_a_table() -> None:
    p = load(INST / "nurikabe" / "table_ring.txt")
    assert drawable(p.puzzle.graph).coords is None
    well_formed(solve(p)._repr_svg_())


def test_koburin_picture_draws_the_loop_and_fixed_cells() -> None:
    result = solve(load(KOBU), unique=True)
    well_formed(result.svg())
    assert 'class="loop"' in result.svg()
    assert result.fixed is not None and len(result.fixed) == len(load(KOBU).puzzle.empty)
    # Without its numbers a puzzle has many solutions; fixed cells agree in all of them.
    loose = load("5 5\n- - - - -\n- - - - -\n- - 1 - -\n- - - - -\n- - - - 0\n", "koburin")
    many = solve(loose, count=200)
    assert many.count_complete and many.count > 1 and many.fixed is not None
    for i, black in many.fixed.items():
        assert all((i in s.black) == black for s in many.solutions)
    for i in set(loose.puzzle.empty) - set(many.fixed):
        assert len({i in s.black for s in many.solutions}) == 2
    well_formed(many.svg())


# ---------------------------------------------------------------------------- formula


def test_floodit_formula_is_sat_at_the_optimum_and_unsat_below() -> None:
    board = load(FLOOD)
    at, below = formula(board, 5), formula(board, 4)
    assert at.horizon == 5 and at.size()["assertions"] == len(at.assertions)
    assert at.smtlib().rstrip().endswith("(check-sat)") and "(set-logic QF_LIA)" in at.smtlib()
    for f, answer in ((at, z3.sat), (below, z3.unsat)):
        s = z3.Solver()
        s.add(f.assertions)
        assert s.check() == answer
    assert formula(board).horizon >= 5
    assert formula(board, 5, counting=False).size()["assertions"] < at.size()["assertions"]


@pytest.mark.parametrize("source", [NURI, KOBU])
def test_grid_puzzle_formula_has_the_solution(source: Path) -> None:
    p = load(source)
    f = formula(p)
    assert f.size()["assertions"] == len(f.assertions) > 0
    s = z3.Solver()
    s.add(z3.parse_smt2_string(f.smtlib()))
    assert s.check() == z3.sat
    assert formula(p, connectivity="lazy").size()["assertions"] < f.size()["assertions"]


def test_result_is_a_result() -> None:
    assert isinstance(solve(str(NURI)), Result)


def test_reprs_are_short_and_status_is_its_string() -> None:
    p = load(NURI)
    assert repr(p) == "<Nurikabe " + str(NURI) + " 5x5 square, 6 clues>"
    result = solve(p, unique=True)
    assert re.fullmatch(r"<NurikabeResult solved 5x5 unique [0-9.]+ s>", repr(result))
    assert result.status == "solved" and f"{result.status}" == "solved"
    assert json.dumps(result.status) == '"solved"'


def test_answers_are_read_by_cell_name_or_position() -> None:
    p = load(NURI)
    result = solve(p)
    rows = result.to_json()["solution"]
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            assert result[(r, c)] is (mark == "#") and result[f"r{r}c{c}"] is (mark == "#")
    with pytest.raises(KeyError):
        result["nowhere"]
    with pytest.raises(TypeError):
        solve(load(FLOOD), "min")["r0c0"]


def test_one_json_vocabulary_for_every_puzzle() -> None:
    """The same keys for every puzzle, and Flood-It's own four after them."""
    keys = {"puzzle", "name", "mode", "status", "solution", "unique", "stopped", "elapsed_s"}
    counted = keys | {"count", "count_complete", "fixed"}
    assert set(solve(load(NURI), count=2).to_json()) == counted
    assert set(solve(load(KOBU), count=2).to_json()) == counted
    assert set(solve(load(NURI)).to_json()) == keys
    floodit = set(solve(load(FLOOD), "min").to_json())
    assert floodit == keys | {"moves", "length", "lower_bound", "upper_bound"}
