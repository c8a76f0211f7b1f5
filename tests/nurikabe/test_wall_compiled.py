"""The wall's cut cells (``deduce._wall_cuts``, and its compiled copy ``_wall.cuts``):
on random facts over every shape, both give what the definition gives (a cell not known
white or black whose whiteness would part the black cells, and the room the wall can
reach), and the compiled one exactly what the Python one gives."""

from __future__ import annotations

import os
import random

import pytest

from smtpuzzles.puzzles.nurikabe.generate import shape_graph
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance
from smtpuzzles.puzzles.nurikabe.presolve import deduce as deduce_module
from smtpuzzles.puzzles.nurikabe.presolve.deduce import _wall_cuts, wall_cuts

COMPILED = deduce_module.COMPILED


def _reached(nbrs: tuple[tuple[int, ...], ...], allowed: set[int], start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for j in nbrs[todo.pop()]:
            if j in allowed and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def by_definition(
    nbrs: tuple[tuple[int, ...], ...], white: set[int], black: set[int]
) -> tuple[set[int], int | None]:
    """Each open cell tried: the black cells stay joined through the cells not white."""
    free = set(range(len(nbrs))) - white
    if not black:
        return set(), len(free)
    reached = _reached(nbrs, free, min(black))
    if not black <= reached:
        return set(), None
    cuts = set()
    for c in free - black:
        if not black <= _reached(nbrs, free - {c}, min(black)):
            cuts.add(c)
    return cuts, len(reached)


def _random_facts(rng: random.Random, n: int) -> tuple[set[int], dict[int, int]]:
    black_share, white_share = rng.random(), rng.random()
    black = {i for i in range(n) if rng.random() < 0.8 * black_share}
    white = {i: 0 for i in range(n) if i not in black and rng.random() < 0.6 * white_share}
    return black, white


@pytest.mark.parametrize("shape", ["square", "holes", "torus", "hex"])
def test_wall_cuts_are_the_cells_that_part_the_wall(shape: str) -> None:
    rng = random.Random(shape)
    for trial in range(60):
        graph, pools = shape_graph(shape, rng.randint(2, 7), rng.randint(2, 7), trial)
        nbrs = NurikabeInstance(graph, {}, pools).neighbours
        black, white = _random_facts(rng, len(nbrs))
        expected = by_definition(nbrs, set(white), black)
        assert _wall_cuts(nbrs, white, black) == expected, (shape, trial)
        assert wall_cuts(nbrs, white, black) == expected, (shape, trial)


@pytest.mark.skipif(COMPILED is None and not os.environ.get("CI"), reason="not built here")
def test_the_compiled_search_gives_what_the_python_one_gives() -> None:
    """Grids up to 40x40, and facts that break the rules (a cell both black and white,
    as the deductions hold them when not strict): the same cells and room."""
    assert COMPILED is not None, "the compiled wall search was not built"
    rng = random.Random(11)
    for trial in range(200):
        size = rng.choice((3, 10, 25, 40))
        graph, pools = shape_graph("square", size, size, trial)
        nbrs = NurikabeInstance(graph, {}, pools).neighbours
        black, white = _random_facts(rng, len(nbrs))
        if black and trial % 5 == 0:
            white[rng.choice(sorted(black))] = 0
        assert COMPILED.cuts(nbrs, white, black) == _wall_cuts(nbrs, white, black), trial


@pytest.mark.skipif(COMPILED is None and not os.environ.get("CI"), reason="not built here")
def test_the_compiled_search_refuses_a_cell_off_the_graph() -> None:
    assert COMPILED is not None, "the compiled wall search was not built"
    nbrs = ((1,), (0,))
    with pytest.raises(IndexError):
        COMPILED.cuts(nbrs, {}, {0, 5})
    with pytest.raises(IndexError):
        COMPILED.cuts(nbrs, {-1: 0}, {0})
