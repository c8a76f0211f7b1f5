"""The Nurikabe generator: its puzzles have exactly the answer it wrote down, their clues
look like published puzzles', and a batch folder reads back into bench."""

from __future__ import annotations

import inspect
import random
from collections import Counter
from pathlib import Path

import pytest
from oracles.cli import benched, cli, generated
from oracles.nurikabe import brute_force as nurikabe_brute_force

from smtpuzzles.graph import rectangle
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.nurikabe import generate as generate_module
from smtpuzzles.puzzles.nurikabe.check import problems
from smtpuzzles.puzzles.nurikabe.formats import parse, solution_rows
from smtpuzzles.puzzles.nurikabe.generate import (
    EASY_ISLAND,
    EASY_OPEN,
    RADIUS,
    REDRAW_RADIUS,
    _ball_around,
    _break_pools,
    _changes_at,
    _combined,
    _islands,
    _Job,
    _Layout,
    _new_island,
    _redrawn,
    _revives,
    _rotated,
    _wall_stays_linked,
    _window,
    clue_statistics,
    generate,
    grown_picture,
    settle,
    shape_graph,
)
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance
from smtpuzzles.puzzles.nurikabe.presolve.deduce import deduce
from smtpuzzles.puzzles.nurikabe.search import solve


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_puzzle_is_unique_with_its_answer(seed: int) -> None:
    graph = rectangle(7, 7)
    made = generate(graph, tuple(graph.squares()), seed)
    assert made is not None
    puzzle, picture = made
    assert problems(graph, puzzle.clues, puzzle.pools, picture) == []
    outcome, _ = solve(puzzle, "distance", unique=True)
    assert outcome.unique is True and outcome.solutions[0] == picture


def test_drawn_pictures_have_clues_like_published_puzzles() -> None:
    """Over many drawings (no uniqueness asked): density near the janko median, few 1s,
    islands of many sizes, every picture valid."""
    graph = rectangle(20, 20)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    rng = random.Random(5)
    for _ in range(5):
        drawn = grown_picture(shape, rng)
        assert drawn is not None
        picture, clue_at = drawn
        sizes: dict[int, int | None] = {c: len(_island(graph, picture, c)) for c in clue_at}
        puzzle = NurikabeInstance(graph, sizes, shape.pools)
        assert problems(graph, puzzle.clues, puzzle.pools, picture) == []
        stats = clue_statistics(puzzle)
        assert 0.08 <= stats["density"] <= 0.16, stats
        assert stats["ones"] <= 0.25 and stats["sizes"] >= 5, stats


def _island(graph: object, picture: tuple[bool, ...], i: int) -> set[int]:
    seen, todo = {i}, [i]
    while todo:
        for j in graph.out[todo.pop()]:  # type: ignore[attr-defined]
            if not picture[j] and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def test_batch_folder_holds_answers_and_manifest_and_bench_reads_it(tmp_path: Path) -> None:
    folder = tmp_path / "made"
    puzzles = generated(["nurikabe", "generate", "6", "6", "--count", "2"], folder)
    assert [e["seed"] for e in puzzles] == [1, 2]
    for entry in puzzles:
        text = (folder / entry["file"]).read_text()
        puzzle = parse(text, entry["file"], "auto", 1)
        answer = solution_rows((folder / entry["file"]).with_suffix(".sol").read_text())
        picture = tuple(ch == "#" for row in answer for ch in row)
        assert problems(puzzle.graph, puzzle.clues, puzzle.pools, picture) == []
        assert entry["clues"] == len(puzzle.clues)
    rows = benched("nurikabe", folder, tmp_path / "rows.jsonl")
    assert len(rows) == 2 and all(r["verdict"] == "ok" for r in rows), rows


def test_count_without_a_folder_is_refused() -> None:
    result = cli("nurikabe", "generate", "6", "6", "--count", "2")
    assert result.exit_code == 2 and "-o FOLDER" in result.stderr


def test_rot180_places_clue_cells_in_turned_pairs() -> None:
    graph = rectangle(6, 6)
    made = generate(graph, tuple(graph.squares()), 1, symmetry="rot180")
    assert made is not None
    puzzle, picture = made
    cells = {graph.coords[i] for i in puzzle.clues}  # type: ignore[index]
    assert cells == {(5 - r, 5 - c) for r, c in cells}
    outcome, _ = solve(puzzle, "distance", unique=True)
    assert outcome.unique is True and outcome.solutions[0] == picture


def test_rot180_on_hex_needs_an_even_number_of_rows() -> None:
    """A half turn maps a hex grid onto itself only when the turned rows keep their
    offset: with an odd number of rows the pairs were placed, but the picture was not
    symmetric to the eye."""
    odd = cli("nurikabe", "generate", "7", "8", "--shape", "hex", "--symmetry", "rot180")
    assert odd.exit_code == 2 and "even number of rows" in odd.stderr
    assert len(odd.stderr.strip().splitlines()) == 1
    out = cli("nurikabe", "generate", "8", "6", "--shape", "hex", "--symmetry", "rot180")
    assert out.exit_code == 0, out.stderr
    lines = out.stdout.splitlines()
    links = [line.split(":") for line in lines if ":" in line and not line.startswith("#")]
    table = {name.strip(): set(rest.split()) for name, rest in links}
    clued = {line.split()[1] for line in lines if line.startswith("clue ")}
    assert len(table) == 48 and clued

    def turned(name: str) -> str:
        r, c = name[1:].split("c")
        return f"r{7 - int(r)}c{5 - int(c)}"

    assert {turned(name) for name in clued} == clued
    for name, near in table.items():
        assert {turned(n) for n in near} == table[turned(name)]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_small_torus_gets_a_unique_puzzle(seed: int) -> None:
    """A 3x4 torus has no unique puzzle of the published look: the generator relaxes
    it there, and backtracking over the deductions settles uniqueness (the solver once
    stalled on it without end)."""
    graph, pools = shape_graph("torus", 3, 4, seed)
    made = generate(graph, pools, seed, budget=Budget(120))
    assert made is not None
    puzzle, picture = made
    assert problems(graph, puzzle.clues, puzzle.pools, picture) == []
    assert nurikabe_brute_force(puzzle) == {picture}


@pytest.mark.parametrize("function", [generate, settle, _break_pools])
def test_options_are_keyword_only(function: object) -> None:
    """At most six parameters may be given by position; the options go by name."""
    kinds = [p.kind for p in inspect.signature(function).parameters.values()]  # type: ignore[arg-type]
    assert kinds.count(inspect.Parameter.POSITIONAL_OR_KEYWORD) <= 6


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3])
def test_a_larger_puzzle_is_unique_and_looks_published(seed: int) -> None:
    """A 12x12 puzzle: its only solution is the picture drawn, and its clues stay in
    the published range (density 0.08-0.16, at most a quarter 1s, many sizes)."""
    graph = rectangle(12, 12)
    made = generate(graph, tuple(graph.squares()), seed, budget=Budget(120))
    assert made is not None
    puzzle, picture = made
    stats = clue_statistics(puzzle)
    assert 0.08 <= stats["density"] <= 0.16 and stats["ones"] <= 0.25, stats
    assert stats["sizes"] >= 4, stats
    outcome, _ = solve(puzzle, "distance", unique=True)
    assert outcome.unique is True and outcome.solutions[0] == picture


def test_a_window_keeps_the_picture_a_solution_and_its_deductions_agree() -> None:
    """The window a change is scored on (``_window``): the drawn picture, cut to the
    window with the stand-in for the rest black, breaks none of its rules, and what the
    deductions decide there from the rim is what the picture has."""
    graph = rectangle(14, 14)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    rng = random.Random(3)
    drawn = grown_picture(shape, rng)
    assert drawn is not None
    picture, clue_at = drawn
    layout = _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at)
    for centre in rng.sample(range(len(graph)), 12):
        ball = _ball_around(shape.neighbours, {centre}, 3)
        puzzle, black, owner, inside = _window(layout, ball, "w")
        cells = sorted(_window_cells(layout, ball))  # numbered in this order
        assert len(cells) == len(puzzle) - 1
        built = NurikabeInstance(puzzle.graph, puzzle.clues, puzzle.pools)  # tables given
        assert (puzzle.neighbours, puzzle.pools_at) == (built.neighbours, built.pools_at)
        cut = tuple(picture[c] for c in cells) + (True,)
        assert problems(puzzle.graph, puzzle.clues, puzzle.pools, cut) == []
        known = deduce(puzzle, black=black, owner=owner, strict=True)
        for j in inside:
            if j in known.black or j in known.owner:
                assert (j in known.black) == cut[j]


def _window_cells(layout: _Layout, ball: set[int]) -> set[int]:
    home = layout.home()
    cells = _ball_around(layout.shape.neighbours, ball, 2)
    for i in list(cells):
        if i in home:
            cells |= set(layout.islands[home[i]])
    return cells


def _drawn_layout(size: int, seed: int) -> tuple[NurikabeInstance, _Layout, random.Random]:
    graph = rectangle(size, size)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    rng = random.Random(seed)
    drawn = grown_picture(shape, rng)
    assert drawn is not None
    picture, clue_at = drawn
    return shape, _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at), rng


def _valid(layout: _Layout) -> bool:
    clues: dict[int, int | None] = {c: len(layout.islands[k]) for k, c in layout.clue.items()}
    shape = layout.shape
    return problems(shape.graph, clues, shape.pools, tuple(layout.black)) == []


def test_changes_made_together_keep_the_picture_a_solution() -> None:
    """Changes at spots apart, each made on the same layout, made together
    (``_combined``): the picture they give is a solution of the clues they give, and
    every change's own cells are as that change left them."""
    shape, layout, rng = _drawn_layout(16, 4)
    nbrs = shape.neighbours
    made = 0
    for _ in range(8):
        changes, taken = [], set()
        for u in rng.sample(range(len(shape)), len(shape)):  # spots apart, as repair takes
            if u in taken:
                continue
            taken |= _ball_around(nbrs, {u}, RADIUS + 1)
            found = _changes_at(layout, rng.choice((u, *nbrs[u])), rng, 0.25, None)
            if found is not None:
                changes.append(found[1])
        together = _combined(layout, changes, 0.25)
        if together is None:  # they parted the wall or passed the clue limit
            continue
        made += len(changes) > 1
        assert _valid(together)
        assert together.ones() <= max(layout.ones(), 0.25 * len(together.clue))
        changed = [i for i in range(len(shape)) if together.black[i] != layout.black[i]]
        assert all(
            any(c.black[i] == together.black[i] != layout.black[i] for c in changes)
            for i in changed
        )
        layout = together
    assert made >= 4


def test_a_solution_ruled_out_is_known_when_a_change_brings_it_back() -> None:
    """``_revives``: the layout's own picture is a solution of its clues; after a clue
    of size 2 or more moves off a cell onto a cell the other picture has black, it is
    not, and a change that moves it back revives it."""
    shape, layout, _ = _drawn_layout(10, 2)
    assert _valid(layout)
    assert _revives(layout, [tuple(layout.black)])
    k = next(k for k, cells in enumerate(layout.islands) if len(cells) >= 2)
    other = list(layout.black)
    moved = layout.copy()
    moved.clue[k] = next(c for c in layout.islands[k] if c != layout.clue[k])
    other[moved.clue[k]] = True  # the other picture has the new clue cell black
    assert not _revives(moved, [tuple(other)])
    assert _revives(layout, [tuple(layout.black)]) and _valid(moved)


@pytest.mark.parametrize("turned", [False, True])
def test_a_new_island_has_two_cells_once_1s_are_used_up(turned: bool) -> None:
    """``_new_island``: one cell while 1-clues may grow, else two; with rot180 a pair
    of islands on turned cells; each touches no other island and the wall stays in one
    piece. (On a sparse lattice of 1-islands: drawn pictures leave few free cells.)"""
    graph = rectangle(12, 12)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    white = [graph.at(r, c) for r in range(1, 12, 4) for c in range(1, 12, 4)]
    picture = tuple(i not in white for i in range(len(graph)))
    clue_at = {c: k for k, c in enumerate(white)}
    layout = _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at)
    turn = _rotated(graph) if turned else None
    for max_ones, size in ((1.0, 1), (0.0, 2)):
        made = [m for u in range(len(graph)) if (m := _new_island(layout, u, max_ones, turn))]
        assert made
        for _, new in made:
            added = new.islands[len(layout.islands) :]
            assert len(added) == (2 if turned else 1)
            assert all(len(cells) == size for cells in added)
            if turn is not None:
                first, second = (new.clue[len(layout.islands) + j] for j in range(2))
                assert turn[first] == second
            black = {i for i, b in enumerate(new.black) if b}
            assert len(graph.components(sorted(black))) == 1
            assert len(graph.components([i for i in range(len(graph)) if i not in black])) == (
                len(new.clue)
            )


def test_a_seed_makes_one_puzzle_whatever_the_work_share(monkeypatch) -> None:
    """Pictures are dropped by deduction work, not by time: the same seed gives the
    same puzzle twice, also when the share is so small that pictures are dropped."""
    graph = rectangle(8, 8)
    pools = tuple(graph.squares())
    monkeypatch.setattr(generate_module, "WORK", 1)
    first = generate(graph, pools, 5)
    assert first is not None and first == generate(graph, pools, 5)
    assert problems(graph, first[0].clues, pools, first[1]) == []


@pytest.mark.parametrize("shape", ["square", "torus", "hex", "holes"])
def test_a_cell_whitened_keeps_the_wall_whole_exactly_when_its_black_neighbours_stay_joined(
    shape: str,
) -> None:
    """``_wall_stays_linked`` against the wall's pieces counted afresh, on random walls."""
    rng = random.Random(shape)
    for trial in range(40):
        graph, pools = shape_graph(shape, rng.randint(2, 9), rng.randint(2, 9), trial)
        nbrs = NurikabeInstance(graph, {}, pools).neighbours
        share = rng.random()
        black = [rng.random() < share for _ in nbrs]
        for i in range(len(nbrs)):
            around = [j for j in nbrs[i] if black[j]]
            rest = [j for j in range(len(nbrs)) if black[j] and j != i]
            pieces = graph.components(rest)
            joined = len({next(k for k, p in enumerate(pieces) if j in p) for j in around}) <= 1
            assert _wall_stays_linked(nbrs, black, i) == joined, (trial, i)


def test_a_part_drawn_anew_keeps_the_rest_and_the_rules() -> None:
    """``_redrawn``: the islands near the cells given are drawn again, the picture stays
    a solution of its clues (one wall, no pool, islands apart), and every island away
    from those cells (beyond the islands drawn again, which pools left by them may make
    grow) keeps its cells and its clue cell."""
    shape, layout, rng = _drawn_layout(30, 6)
    job = _Job(rng, Budget(60), 0.25, "redrawn")
    nbrs = shape.neighbours
    checked = 0
    for _ in range(5):
        around = set(_ball_around(nbrs, {rng.randrange(len(shape))}, 1))
        new = _redrawn(layout, around, job)
        if new is None:
            continue
        assert _valid(new)
        near = _ball_around(nbrs, around, REDRAW_RADIUS + layout.max_island + 2)
        far = {
            (layout.clue[k], tuple(sorted(layout.islands[k])))
            for k in layout.clue
            if near.isdisjoint(layout.islands[k])
        }
        kept = {(new.clue[k], tuple(sorted(new.islands[k]))) for k in new.clue}
        assert far <= kept
        checked += len(far)
        layout = new
    assert checked


def test_a_rot180_picture_is_a_solution_of_clues_in_turned_pairs() -> None:
    """Islands grown in pairs, each the other's image where it fits: every white cell
    lies in an island with a clue (a mate cell whitened away from its island once
    left a white region without one), and clue cells come in turned pairs."""
    graph = rectangle(12, 12)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    turn = _rotated(graph)
    assert turn is not None
    rng = random.Random(6)
    made = 0
    for _ in range(12):
        drawn = grown_picture(shape, rng, symmetry="rot180")
        if drawn is None:
            continue
        picture, clue_at = drawn
        layout = _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at)
        assert _valid(layout)
        assert {turn[c] for c in clue_at} == set(clue_at)
        made += 1
    assert made >= 3


def test_every_change_under_rot180_keeps_clue_cells_paired_and_the_picture_a_solution() -> None:
    """With clue cells in turned pairs, a split makes the mate of its new clue a clue
    cell too and a merge drops the mate of the clue it drops (``_split_mates``,
    ``_mate_dropped``): every change leaves the pairs whole and the picture a solution
    of its clues, and splits and merges are made at all (once they were never made
    under rot180, and no 12x12 puzzle was made within minutes)."""
    graph = rectangle(12, 12)
    shape = NurikabeInstance(graph, {}, tuple(graph.squares()))
    turn = _rotated(graph)
    assert turn is not None
    kinds: Counter[str] = Counter()
    for seed in range(1, 4):
        rng = random.Random(seed)
        drawn = None
        while drawn is None:
            drawn = grown_picture(shape, rng, symmetry="rot180")
        picture, clue_at = drawn
        layout = _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at)
        for u in range(len(graph)):
            for kind in ("move", "shrink", "split", "grow", "merge", "new"):
                found = _changes_at(layout, u, rng, 1.0, turn, (kind,))
                if found is None:
                    continue
                changed = found[1]
                assert _valid(changed), (seed, u, kind)
                assert {turn[c] for c in changed.clue.values()} == set(changed.clue.values())
                assert len(changed.clue) <= max(layout.most_clues, len(layout.clue))
                kinds[kind] += 1
    assert kinds["split"] and kinds["merge"] and kinds["move"], kinds


def test_rot180_makes_a_12x12_puzzle() -> None:
    """A size where no symmetric puzzle was made within a minute (any seed tried)
    before splits and merges kept the pairs: unique, with the picture as its answer."""
    graph = rectangle(12, 12)
    made = generate(graph, tuple(graph.squares()), 5, symmetry="rot180", budget=Budget(60))
    assert made is not None
    puzzle, picture = made
    cells = {graph.coords[i] for i in puzzle.clues}  # type: ignore[index]
    assert cells == {(11 - r, 11 - c) for r, c in cells}
    outcome, _ = solve(puzzle, "distance", unique=True)
    assert outcome.unique is True and outcome.solutions[0] == picture


@pytest.mark.parametrize("side, seed", [(8, 1), (10, 2)])
def test_a_puzzle_made_easier_has_small_islands_and_is_nearly_settled_plainly(
    side: int, seed: int
) -> None:
    """``lean=1`` (``--grade easy``): islands of at most :data:`EASY_ISLAND` cells, the
    plain deductions leave at most :data:`EASY_OPEN` of the cells open, and the picture
    is the only solution, as the solver and the checker say."""
    graph = rectangle(side, side)
    made = generate(graph, tuple(graph.squares()), seed, lean=1, budget=Budget(120))
    assert made is not None
    puzzle, picture = made
    assert problems(graph, puzzle.clues, puzzle.pools, picture) == []
    assert max(v for v in puzzle.clues.values() if v is not None) <= EASY_ISLAND
    known = deduce(puzzle, strict=True)
    assert len(puzzle) - len(known.black) - len(known.owner) <= EASY_OPEN * len(puzzle)
    outcome, _ = solve(puzzle, "distance", unique=True)
    assert outcome.unique is True and outcome.solutions[0] == picture
