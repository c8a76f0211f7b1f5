"""Random Nurikabe puzzles with a unique solution, over any graph.

Draw a valid picture first (start all black; whiten random cells of black pools while
the wall stays connected and islands stay small), read one clue per island off it,
and keep the puzzle only if the solver proves the picture is its only solution.
"""

from __future__ import annotations

import random
from collections import deque

from ...graph import Graph, hex_grid, rectangle, rectangle_with_holes, torus
from ...solving import Budget, Interrupted, TimeUp
from ...sources import check_size
from .model import Nurikabe, Picture
from .search import solve


def _linked(nbrs: tuple[tuple[int, ...], ...], cells: set[int]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen, queue = {start}, deque([start])
    while queue:
        for j in nbrs[queue.popleft()]:
            if j in cells and j not in seen:
                seen.add(j)
                queue.append(j)
    return len(seen) == len(cells)


def _island(nbrs: tuple[tuple[int, ...], ...], white: set[int], start: int) -> set[int]:
    seen, queue = {start}, deque([start])
    while queue:
        for j in nbrs[queue.popleft()]:
            if j in white and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen


def random_picture(
    shape: Nurikabe, rng: random.Random, max_island: int = 6, density: float = 0.15
) -> Picture | None:
    """A picture with a connected wall and no black pool (``None`` if stuck).

    ``shape`` gives the graph and pools (its clues are ignored). Besides breaking
    pools, a ``density`` share of random cells is whitened too, for variety.
    """
    nbrs = shape.neighbours
    n = len(shape)
    black = set(range(n))
    white: set[int] = set()

    def whiten(i: int) -> bool:
        if i in white or not _linked(nbrs, black - {i}):
            return False
        if len(_island(nbrs, white | {i}, i)) > max_island:
            return False
        black.discard(i)
        white.add(i)
        return True

    for i in rng.sample(range(n), int(density * n)):
        whiten(i)
    while True:
        pools = [p for p in shape.pools if all(i in black for i in p)]
        if not pools:
            break
        pool = rng.choice(pools)
        if not any(whiten(i) for i in rng.sample(list(pool), len(pool))):
            return None
    if not white:
        return None
    return tuple(i in black for i in range(n))


def clues_of(shape: Nurikabe, picture: Picture, rng: random.Random) -> dict[int, int | None]:
    nbrs = shape.neighbours
    white = {i for i, b in enumerate(picture) if not b}
    clues: dict[int, int | None] = {}
    while white:
        island = _island(nbrs, white, min(white))
        clues[rng.choice(sorted(island))] = len(island)
        white -= island
    return clues


SHAPES = ("square", "holes", "torus", "hex")


def hex_pools(graph: Graph) -> tuple[tuple[int, ...], ...]:
    """Triangles of three mutually adjacent hexes: the hex grid's smallest "pools"."""
    links = [set(t) for t in graph.out]
    return tuple(
        (i, j, k)
        for i in range(len(graph))
        for j in sorted(links[i])
        if j > i
        for k in sorted(links[i] & links[j])
        if k > j
    )


def shape_graph(shape: str, rows: int, cols: int, seed: int) -> tuple[Graph, tuple]:
    """A graph of the named shape and its pools (holes drawn at random, one in ten)."""
    check_size(rows, cols)
    if shape == "square":
        graph = rectangle(rows, cols)
    elif shape == "torus":
        graph = torus(rows, cols)
    elif shape == "hex":
        graph = hex_grid(rows, cols)
        return graph, hex_pools(graph)
    elif shape == "holes":
        rng = random.Random(seed)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        while True:
            graph = rectangle_with_holes(rows, cols, rng.sample(cells, len(cells) // 10))
            if len(graph.components(range(len(graph)))) == 1:
                break
    else:
        raise ValueError(f"unknown shape {shape!r}; expected one of {SHAPES}")
    return graph, tuple(graph.squares())


def generate(
    graph: Graph,
    pools: tuple[tuple[int, ...], ...],
    seed: int,
    max_island: int = 6,
    tries: int = 200,
    budget: Budget | None = None,
) -> tuple[Nurikabe, Picture] | None:
    """A puzzle whose only solution is a random picture, or ``None`` after ``tries``.
    Raises :class:`TimeUp` or :class:`Interrupted` when the search was stopped."""
    rng = random.Random(seed)
    shape = Nurikabe(graph, {}, pools)
    for _ in range(tries):
        picture = random_picture(shape, rng, max_island)
        if picture is None:
            continue
        puzzle = Nurikabe(graph, clues_of(shape, picture, rng), pools, f"seed {seed}")
        outcome, _ = solve(puzzle, "lazy", budget, unique=True)
        if outcome.stopped == "interrupted":
            raise Interrupted
        if outcome.stopped is not None:
            raise TimeUp
        if outcome.unique:
            return puzzle, picture
    return None
