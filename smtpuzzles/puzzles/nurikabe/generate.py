"""Random Nurikabe puzzles with a unique solution, over any graph, that look human-made.

1. A picture (:func:`grown_picture`): islands grown from random seeds to sizes drawn
   as in published puzzles, as many as the clue density asks, never touching each other
   and never parting the wall; then every black pool is broken by growing an island
   next to it by one cell, or by a new island of one cell where none can grow.
2. One clue per island, on a random cell of it (with ``rot180``, clue cells in pairs
   turned half round the grid).
3. Uniqueness (:func:`repair`): small changes, many places at once, each scored by
   the deductions on a window round it, until the deductions of :mod:`.presolve`
   decide every cell: then the picture is the only solution, no search needed.
   Where they stall (:func:`settle`), one search, our picture forbidden, asks for
   another. Another picture always leaves black some cell that ours has white (both have as many
   white cells), so moving that island's clue onto it rules the other picture out: a
   clue cell is white. The move chosen also keeps every picture met so far ruled out,
   where one does; then ask again.
4. A picture that takes more than its share of work (:data:`WORK`, counted in
   deductions, not seconds, so that a seed makes one puzzle anywhere) is dropped for
   a new one, which may take more: most pictures need a fraction of it, the rest many
   times more. On a large grid, the islands near the cells the deductions leave open
   are first drawn anew (:func:`_redrawn`): most of the grid is settled by then.

A puzzle made can be handed to ``accept`` (the command line's ``--grade`` rates it as
``rate`` does) and another picture drawn when it is refused. An easy grade asked draws
every picture easier: small islands, densely clued, made unique by the plain
deductions alone (no hypotheses), and only puzzles they settle are handed over. Each
puzzle is also given clue statistics (:func:`clue_statistics`), the figures a setter
compares with published puzzles.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from ...errors import InputError
from ...graph import Graph, hex_grid, rectangle, rectangle_with_holes, torus
from ...limits import Budget, Interrupted, TimeUp, interrupts_seen
from ...sources import check_size
from .check import problems
from .model import NurikabeInstance, Picture
from .presolve.backtrack import backtrack
from .presolve.deduce import Contradiction, deduce
from .presolve.probe import probe
from .search import Search


def _island(nbrs: tuple[tuple[int, ...], ...], white: set[int], start: int) -> set[int]:
    """The cells of ``white`` joined to ``start`` through ``white``."""
    seen, queue = {start}, deque([start])
    while queue:
        for j in nbrs[queue.popleft()]:
            if j in white and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen


def _linked(nbrs: tuple[tuple[int, ...], ...], cells: set[int]) -> bool:
    """Are ``cells`` one piece?"""
    return not cells or len(_island(nbrs, cells, next(iter(cells)))) == len(cells)


def random_picture(
    shape: NurikabeInstance, rng: random.Random, max_island: int = 6, density: float = 0.15
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


def clues_of(
    shape: NurikabeInstance, picture: Picture, rng: random.Random
) -> dict[int, int | None]:
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


#: The share of each island size among the clues of the janko corpus (sizes 1 to 12;
#: larger ones are rarer than one in a hundred): what :func:`grown_picture` draws from.
ISLAND_SIZES = (136, 234, 218, 154, 92, 54, 37, 26, 19, 8, 5, 3)

#: The default clue density (clues per cell): the janko corpus's median.
DENSITY = 0.12

#: The largest share of 1-clues the generator makes by itself (the corpus's 95th
#: percentile is a third; its median under a tenth).
MAX_ONES = 0.2

#: The default largest island.
MAX_ISLAND = 9

SYMMETRIES = ("none", "rot180")

GRADES = ("easy", "medium", "hard")


def _wall_stays_linked(nbrs: tuple[tuple[int, ...], ...], black: list[bool], i: int) -> bool:
    """Would whitening cell ``i`` keep the wall in one piece? A search from each of its
    black neighbours, in turn a cell at a time, round ``i``: yes once they have all met
    (most meet at once), no once one has run out of cells alone (it cut off a part of
    the wall, often a small one)."""
    around = [j for j in nbrs[i] if black[j]]
    if len(around) <= 1:
        return True
    group = list(range(len(around)))  #: the searches that have met, as a union-find

    def top(a: int) -> int:
        while group[a] != a:
            a = group[a]
        return a

    found = {j: a for a, j in enumerate(around)}  #: the search that found each cell
    found[i] = -1
    queues = [deque([j]) for j in around]
    apart = len(around)
    while True:
        for a, queue in enumerate(queues):
            if not queue:
                mine = top(a)
                if all(not queues[b] for b in range(len(around)) if top(b) == mine):
                    return False
                continue
            for j in nbrs[queue.popleft()]:
                if not black[j]:
                    continue
                b = found.get(j)
                if b is None:
                    found[j] = a
                    queue.append(j)
                elif b >= 0 and top(a) != top(b):
                    group[top(a)] = top(b)
                    apart -= 1
                    if apart == 1:
                        return True


class _Drawing:
    """A picture being drawn: black cells, and the island each white cell is in."""

    def __init__(self, shape: NurikabeInstance) -> None:
        self.nbrs = shape.neighbours
        self.black = [True] * len(shape)
        self.island: dict[int, int] = {}
        self.cells: list[list[int]] = []

    def free_for(self, i: int, k: int) -> bool:
        """May island ``k`` (``-1``: a new one) take cell ``i``? It is black, touches no
        other island, and whitening it keeps the wall in one piece."""
        if not self.black[i]:
            return False
        if any(self.island.get(j, k) != k for j in self.nbrs[i]):
            return False
        return _wall_stays_linked(self.nbrs, self.black, i)

    def whiten(self, i: int, k: int) -> int:
        if k == -1:
            k = len(self.cells)
            self.cells.append([])
        self.black[i] = False
        self.island[i] = k
        self.cells[k].append(i)
        return k

    def grow_pair(
        self,
        pair: list[int],
        size: int,
        rng: random.Random,
        clue_at: dict[int, int],
        turn: list[int],
    ) -> None:
        """Start islands at a cell and its turned mate (``pair``), and grow them to
        ``size`` cells as each other's image turned half round, as far as that fits (a
        picture near symmetric lets a change and its turned image both be made)."""
        first, second = pair
        if not self.free_for(first, -1):
            return
        k = clue_at[first] = self.whiten(first, -1)
        if not self.free_for(second, -1):
            self.grow(k, size, rng)
            return
        m = clue_at[second] = self.whiten(second, -1)
        while len(self.cells[k]) < size:
            step = self.step_out(k, rng)
            if step is None:
                break
            self.whiten(step, k)
            touches = any(self.island.get(j) == m for j in self.nbrs[turn[step]])
            if touches and self.free_for(turn[step], m):
                self.whiten(turn[step], m)
        self.grow(m, size, rng)

    def grow(self, k: int, size: int, rng: random.Random) -> None:
        """Grow island ``k`` by random free neighbours up to ``size`` cells."""
        while len(self.cells[k]) < size:
            step = self.step_out(k, rng)
            if step is None:
                return
            self.whiten(step, k)

    def step_out(self, k: int, rng: random.Random) -> int | None:
        """A random black neighbour of island ``k`` it may take (``None``: none)."""
        edge = sorted({j for i in self.cells[k] for j in self.nbrs[i] if self.black[j]})
        rng.shuffle(edge)
        return next((j for j in edge if self.free_for(j, k)), None)


def _rotated(graph: Graph) -> list[int] | None:
    """Each cell turned half round the grid (``None``: no half turn maps the grid onto
    itself, as on a grid with holes or a hex grid of an odd number of rows, whose turned
    rows would sit half a cell aside)."""
    if graph.coords is None or graph.rows is None or graph.cols is None:
        return None
    turned = [graph.at(graph.rows - 1 - r, graph.cols - 1 - c) for r, c in graph.coords]
    if any(j is None for j in turned):
        return None
    turn = [j for j in turned if j is not None]
    if any({turn[j] for j in graph.out[i]} != set(graph.out[turn[i]]) for i in range(len(graph))):
        return None
    return turn


def grown_picture(
    shape: NurikabeInstance,
    rng: random.Random,
    density: float = DENSITY,
    max_island: int = MAX_ISLAND,
    symmetry: str = "none",
) -> tuple[Picture, dict[int, int]] | None:
    """A picture with a connected wall and no black pool, and a clue cell per island
    (``None`` if stuck): ``density`` islands per cell, their sizes drawn from
    :data:`ISLAND_SIZES` up to ``max_island``."""
    n = len(shape)
    turn = _rotated(shape.graph) if symmetry == "rot180" else None
    if symmetry == "rot180" and turn is None:
        raise InputError(
            "--symmetry rot180 needs a grid a half turn maps onto itself"
            " (square, torus, or hex with an even number of rows)"
        )
    sizes = _island_sizes(max_island)
    drawing = _Drawing(shape)
    clue_at: dict[int, int] = {}
    wanted = max(1, round(density * n))
    _plant(drawing, rng.sample(range(n), n), rng, sizes, wanted=wanted, clue_at=clue_at, turn=turn)
    if not _break_pools(
        shape, drawing, rng, sizes, max_island=max_island, clue_at=clue_at, turn=turn
    ):
        return None
    if turn is not None and any(turn[i] not in clue_at for i in clue_at):
        return None
    return tuple(drawing.black), clue_at


def _island_sizes(max_island: int) -> tuple[list[int], list[int]]:
    """The island sizes a picture draws from, up to ``max_island``, and their weights
    (:data:`ISLAND_SIZES`)."""
    sizes = list(range(1, min(max_island, len(ISLAND_SIZES)) + 1))
    return sizes, [ISLAND_SIZES[s - 1] for s in sizes]


def _plant(
    drawing: _Drawing,
    order: list[int],
    rng: random.Random,
    sizes: tuple[list[int], list[int]],
    *,
    wanted: int,
    clue_at: dict[int, int],
    turn: list[int] | None,
) -> None:
    """Start an island at each cell of ``order`` a new island may take, grown to a size
    drawn from ``sizes``, until ``clue_at`` holds ``wanted`` clues (with ``turn``: a cell
    and its turned mate together, never two neighbours)."""
    for seed in order:
        if len(clue_at) >= wanted:
            break
        pair = [seed] if turn is None or turn[seed] == seed else [seed, turn[seed]]
        if len(pair) == 2 and pair[1] in drawing.nbrs[seed]:
            continue
        if not all(drawing.free_for(i, -1) for i in pair):
            continue
        size = rng.choices(*sizes)[0]
        if len(pair) == 2:
            drawing.grow_pair(pair, size, rng, clue_at, turn)
            continue
        clue_at[seed] = k = drawing.whiten(seed, -1)
        drawing.grow(k, size, rng)


def _break_pools(
    shape: NurikabeInstance,
    drawing: _Drawing,
    rng: random.Random,
    sizes: tuple[list[int], list[int]],
    *,
    max_island: int,
    clue_at: dict[int, int],
    turn: list[int] | None,
) -> bool:
    """Whiten a cell of every black pool: an island grows into it where one may (up to
    ``max_island``), else a new island starts there. Where neither may (the pool is the
    wall's only way through), an island beside it is taken back, to try again
    (False: none is left to take back)."""
    black = drawing.black
    for _ in range(4 * len(shape.pools) + 10):
        left = [pool for pool in shape.pools if all(black[i] for i in pool)]
        if not left:
            return True
        pool = rng.choice(left)
        cells = rng.sample(list(pool), len(pool))
        if _grow_into(shape, drawing, cells, max_island):
            continue
        started = False
        for i in cells:
            pair = [i] if turn is None or turn[i] == i else [i, turn[i]]
            if len(pair) == 2 and pair[1] in shape.neighbours[i]:
                continue
            if all(drawing.free_for(j, -1) for j in pair):
                for j in pair:
                    if drawing.free_for(j, -1):
                        k = drawing.whiten(j, -1)
                        clue_at[j] = k
                        drawing.grow(k, rng.choices(*sizes)[0], rng)
                started = True
                break
        if started:
            continue
        near = sorted(
            {drawing.island[j] for i in pool for j in shape.neighbours[i] if j in drawing.island}
        )
        if not near:
            return False
        _take_back(drawing, clue_at, rng.choice(near), turn)
    return False


def _grow_into(
    shape: NurikabeInstance, drawing: _Drawing, cells: list[int], max_island: int
) -> bool:
    """Grow the one island beside one of ``cells`` into it, if one may."""
    for i in cells:
        near = {drawing.island[j] for j in shape.neighbours[i] if j in drawing.island}
        if len(near) == 1:
            k = near.pop()
            if len(drawing.cells[k]) < max_island and drawing.free_for(i, k):
                drawing.whiten(i, k)
                return True
    return False


def _take_back(drawing: _Drawing, clue_at: dict[int, int], k: int, turn: list[int] | None) -> None:
    """Make island ``k`` black again (with ``turn``, its mate too, so clues stay paired)."""
    doomed = {k}
    if turn is not None:
        clue = next(c for c, owner in clue_at.items() if owner == k)
        doomed.add(clue_at.get(turn[clue], k))
    for gone in doomed:
        for i in drawing.cells[gone]:
            drawing.black[i] = True
            del drawing.island[i]
        drawing.cells[gone] = []
        for c in [c for c, owner in clue_at.items() if owner == gone]:
            del clue_at[c]


def decided(puzzle: NurikabeInstance, hypotheses: bool = True) -> Picture | None:
    """The picture the deductions of :mod:`.presolve` prove, cell by cell, when they
    decide every cell (``hypotheses``: with one level of hypotheses); else ``None``."""
    try:
        known = deduce(puzzle, strict=True)
        if hypotheses and len(known.black) + len(known.owner) < len(puzzle):
            known = probe(puzzle, known)
    except Contradiction:
        return None
    if len(known.black) + len(known.owner) < len(puzzle):
        return None
    return tuple(i in known.black for i in range(len(puzzle)))


def clue_statistics(puzzle: NurikabeInstance) -> dict[str, float]:
    """The figures that tell a published puzzle's clues from a machine's: clues per
    cell, the share of clues that are 1, the mean and largest clue, and how many
    island sizes occur."""
    values = [v for v in puzzle.clues.values() if v is not None]
    clues = max(len(values), 1)
    return {
        "clues": len(values),
        "density": round(len(values) / len(puzzle), 4),
        "ones": round(sum(1 for v in values if v == 1) / clues, 4),
        "mean_clue": round(sum(values) / clues, 3),
        "max_clue": max(values, default=0),
        "sizes": len(set(values)),
    }


def _with_clues(
    shape: NurikabeInstance, clues: dict[int, int | None], name: str
) -> NurikabeInstance:
    """``shape`` with ``clues``, its neighbour and pool tables shared rather than worked
    out again: the generator makes thousands of puzzles on one graph."""
    return _instance(shape.graph, clues, shape.pools, name, shape.neighbours, shape.pools_at)


def _instance(
    graph: Graph,
    clues: dict[int, int | None],
    pools: tuple[tuple[int, ...], ...],
    name: str,
    neighbours: tuple[tuple[int, ...], ...],
    pools_at: tuple[tuple[int, ...], ...],
) -> NurikabeInstance:
    """A puzzle whose neighbour and pool tables the caller has already (each cell's
    neighbours both ways, in order; the pools of each cell)."""
    puzzle = object.__new__(NurikabeInstance)
    for key, value in (
        ("graph", graph),
        ("clues", clues),
        ("pools", pools),
        ("name", name),
        ("neighbours", neighbours),
        ("pools_at", pools_at),
    ):
        object.__setattr__(puzzle, key, value)
    return puzzle


class _Layout:
    """A picture being made unique: its black cells, its islands, the clue cell of each."""

    def __init__(
        self,
        shape: NurikabeInstance,
        picture: Picture,
        islands: list[list[int]],
        clue_at: dict[int, int],
        max_island: int = MAX_ISLAND,
    ) -> None:
        self.shape = shape
        self.black = list(picture)
        self.islands = [list(cells) for cells in islands]
        self.clue = {k: c for c, k in clue_at.items()}
        self.max_island = max_island
        #: the most clues changes may make (a share of 0.16 of the cells)
        self.most_clues = max(len(clue_at), int(0.16 * len(picture)))
        self._home: dict[int, int] | None = None

    def copy(self) -> _Layout:
        """A copy to change (the island lists are shared: replace one, never edit it)."""
        new = _Layout.__new__(_Layout)
        new.shape, new.black, new.max_island = self.shape, list(self.black), self.max_island
        new.most_clues = self.most_clues
        new.islands, new.clue = list(self.islands), dict(self.clue)
        new._home = None
        return new

    def puzzle(self, name: str) -> NurikabeInstance:
        clues: dict[int, int | None] = {c: len(self.islands[k]) for k, c in self.clue.items()}
        return _with_clues(self.shape, clues, name)

    def picture(self) -> Picture:
        return tuple(self.black)

    def signature(self) -> tuple[Picture, tuple[tuple[int, int], ...]]:
        """What the deductions see of the layout: its picture and its clues (by cell)."""
        sizes = map(len, map(self.islands.__getitem__, self.clue))
        return tuple(self.black), tuple(sorted(zip(self.clue.values(), sizes)))

    def room_for(self, more: int) -> bool:
        """May ``more`` clues be added (at most :attr:`most_clues`)?"""
        return len(self.clue) + more <= self.most_clues

    def ones(self) -> int:
        return sum(1 for k in self.clue if len(self.islands[k]) == 1)

    def home(self) -> dict[int, int]:
        """The island of each white cell (worked out once: a layout is changed only as
        it is made, before this is asked)."""
        if self._home is None:
            self._home = {i: k for k in self.clue for i in self.islands[k]}
        return self._home

    def grown(self, k: int, i: int) -> _Layout:
        """The layout with island ``k`` grown into the black cell ``i``."""
        new = self.copy()
        new.black[i] = False
        new.islands[k] = [*self.islands[k], i]
        return new

    def can_shrink(self, k: int, i: int) -> bool:
        """May cell ``i`` of island ``k`` turn black? The island stays in one piece, the
        cell touches the wall (so the wall stays in one piece) and fills no pool."""
        cells = self.islands[k]
        if len(cells) < 2 or not self.can_blacken(i):
            return False
        return _linked(self.shape.neighbours, set(cells) - {i})

    def split(self, k: int, i: int, rng: random.Random) -> _Layout | None:
        """The layout with cell ``i`` of island ``k`` black and the island parted in two
        or more, each new part with a clue on a random cell (``None``: it does not part)."""
        if not self.can_blacken(i):
            return None
        rest = set(self.islands[k]) - {i}
        parts: list[set[int]] = []
        while rest:
            part = _island(self.shape.neighbours, rest, next(iter(rest)))
            parts.append(part)
            rest -= part
        if len(parts) < 2:
            return None
        new = self.copy()
        new.black[i] = True
        for part in parts:
            if self.clue[k] in part:
                new.islands[k] = sorted(part)
            else:
                new.islands.append(sorted(part))
                new.clue[len(new.islands) - 1] = rng.choice(sorted(part))
        return new

    def can_blacken(self, i: int) -> bool:
        """May white cell ``i`` turn black as far as the wall goes? It touches the wall
        and fills no pool."""
        if not any(self.black[j] for j in self.shape.neighbours[i]):
            return False
        pools, at = self.shape.pools, self.shape.pools_at[i]
        return not any(all(self.black[j] or j == i for j in pools[p]) for p in at)

    def merged(self, k: int, m: int, i: int) -> _Layout | None:
        """The layout with islands ``k`` and ``m`` joined through the black cell ``i``,
        with ``k``'s clue (``None``: too large, or the clue goes out of the range)."""
        if len(self.islands[k]) + len(self.islands[m]) + 1 > self.max_island:
            return None
        new = self.copy()
        new.black[i] = False
        new.islands[k] = [*self.islands[k], *self.islands[m], i]
        new.islands[m] = []
        del new.clue[m]
        return new

    def shrunk(self, k: int, i: int) -> _Layout:
        """The layout with cell ``i`` of island ``k`` black."""
        new = self.copy()
        new.black[i] = True
        new.islands[k] = [j for j in self.islands[k] if j != i]
        return new


#: A change to a layout: ("move", island, cell) or ("new", -1, cell).
Change = tuple[str, int, int]


def _changed(layout: _Layout, change: Change, turn: list[int] | None = None) -> _Layout:
    """The layout after ``change`` (with ``turn``, a clue's move also moves its mate)."""
    kind, k, cell = change
    new = layout.copy()
    if kind == "move":
        if turn is not None:  # the clue turned half round moves with it
            home = {i: m for m in layout.clue for i in layout.islands[m]}
            new.clue[home[turn[layout.clue[k]]]] = turn[cell]
        new.clue[k] = cell
    else:
        new.black[cell] = False
        new.islands.append([cell])
        new.clue[len(new.islands) - 1] = cell
    return new


@dataclass(frozen=True)
class _Job:
    """What a picture is made unique under: the random numbers, the time limit, the
    largest share of 1-clues, the puzzle's name, with rot180 each cell's turned mate, the
    clue density pictures are drawn with, and whether the plain deductions alone must
    decide every cell (an easy grade asked: hypotheses are what a hard puzzle needs)."""

    rng: random.Random
    budget: Budget
    max_ones: float
    name: str
    turn: list[int] | None = None
    density: float = DENSITY
    plain: bool = False


def settle(layout: _Layout, job: _Job, steps: int = 40) -> _Layout | None:
    """``layout`` changed until its picture is the only solution, or ``None`` after
    ``steps`` rounds without success or :data:`STALE` without getting closer. Raises
    :class:`TimeUp` when the budget runs out.

    Mostly by the deductions of :mod:`.presolve` alone (:func:`_improve`): each round
    tries small changes near the cells they leave open and keeps the one after which
    they decide the most cells; when every cell is decided the picture is the only
    solution, no search needed. Where the deductions stall, one level of hypotheses,
    then a search for another picture, our own forbidden: a change that rules that one
    out is made (:func:`_killers`), and the rounds go on."""
    score = _decided_count(layout, job.name)
    stalled = 0
    best, since_best = score, 0
    for _ in range(steps):
        if job.budget.expired():
            raise TimeUp
        if score == len(layout.black):
            return layout
        best, since_best = (score, 0) if score > best else (best, since_best + 1)
        if since_best > STALE:
            return None
        better = _improve(layout, job.rng, job.max_ones, job.turn, job.name)
        if better is not None and better[0] >= score:
            stalled = 0 if better[0] > score else stalled + 1
            score, layout = better
        else:
            stalled += 1
        if stalled < PATIENCE:
            continue
        stalled = 0
        if decided(layout.puzzle(job.name), hypotheses=not job.plain) is not None:
            return layout
        killed = _kill(layout, job, hypotheses=False)
        if killed is None or killed is layout:
            return killed
        layout, score = killed, _decided_count(killed, job.name)
    return None


def repair(layout: _Layout, job: _Job, rounds: int = 400) -> tuple[_Layout, bool]:
    """``layout`` changed, many places at once, until the deductions decide every cell:
    the layout, and whether they do (else the layout that came closest).

    Each round the deductions run once on the whole grid; then at spots among the cells
    they leave open, apart from each other, a few small changes (:func:`_changes_at`)
    are scored by the deductions on a window round the spot alone, its rim given as
    the picture has it (:func:`_local_count`): a change costs a deduction over a
    hundred cells, not the grid, and a round mends the whole grid. The best change at a
    spot is kept when the deductions on the whole grid decide no fewer cells after it
    (the same number: a step aside, once progress stalls): together when they do
    no worse together, one run of the deductions for the round (:func:`_kept`).
    First with the plain deductions; when those stop getting closer or leave few
    cells open (:data:`HYPOTHESES_BELOW`), with one level of hypotheses too (on a
    grid of over :data:`SETTLE_UP_TO` cells, a picture whose plain deductions stop
    getting closer with many cells open is given up: the deductions find it hard, and
    a new picture is cheaper than hypotheses over many open cells)
    (:mod:`.presolve.probe`), which settles what a human solver settles by a guess;
    when a few cells stay open, another solution is ruled out (:func:`_kill`), and
    every solution ruled out stays so.
    Raises :class:`TimeUp` when the budget runs out."""
    nbrs = layout.shape.neighbours
    hypotheses, kills = False, 0
    fewest, idle, best_layout = len(layout.black) + 1, 0, layout
    others: list[Picture] = []
    known: set[int] | None = None  #: what the deductions decide on ``layout``, if known
    few_open = max(FEW_OPEN, int(KILL_SHARE * len(layout.black)))
    few_enough = max(HYPOTHESES_BELOW, int(FEW_ENOUGH_SHARE * len(layout.black)))
    n, redraws = len(layout.black), 0
    worth_it = int(HYPOTHESES_SHARE * len(layout.black))
    # on a large grid, hypotheses over many open cells cost more than a new picture
    large = len(layout.black) > SETTLE_UP_TO
    for _ in range(rounds):
        if job.budget.expired():
            raise TimeUp
        decided = known if known is not None else _decided_cells(layout, job.name, hypotheses)
        known = None
        now = len(decided)
        still = [i for i in range(len(layout.black)) if i not in decided]
        if not still:
            return layout, True
        if len(still) < fewest:
            fewest, idle, best_layout = len(still), 0, layout
        else:
            idle += 1
        if not hypotheses and large and len(still) > few_enough:
            if idle > 2 * REPAIR_STALE and fewest > worth_it:
                return best_layout, False
            stalled = idle > 2 * REPAIR_STALE
        else:
            stalled = idle > REPAIR_STALE or len(still) <= few_enough
        if job.plain and idle > REPAIR_STALE and fewest > few_open:
            return best_layout, False
        if not hypotheses and stalled and not job.plain:
            hypotheses, fewest, idle, layout = True, len(layout.black) + 1, 0, best_layout
            continue
        if hypotheses and idle > REPAIR_STALE and fewest > few_open:
            if not large or job.turn is not None or redraws >= REDRAWS:
                return best_layout, False
            redraws += 1
            left = set(range(n)) - _decided_cells(best_layout, job.name, True)
            layout = best_layout = _redrawn(best_layout, left, job) or best_layout
            fewest, idle = n + 1, 0
            continue
        if idle > KILL_AFTER and fewest <= few_open:
            kills += 1
            if kills > MOST_KILLS + len(layout.black) // 20:
                return best_layout, False
            killed = _kill(best_layout, job, hypotheses=hypotheses, others=others)
            if killed is None or killed is best_layout:
                return best_layout, killed is not None
            layout = best_layout = killed
            fewest = len(layout.black) - len(_decided_cells(layout, job.name, hypotheses))
            idle = 0
            continue
        open_cells, taken = set(still), set()
        picked: list[tuple[int, _Layout]] = []
        for u in job.rng.sample(still, len(still)):
            if u in taken:
                continue
            if job.budget.expired():
                raise TimeUp
            ball = _ball_around(nbrs, {u}, RADIUS)
            taken |= _ball_around(nbrs, ball, 1)
            sites = [i for i in (u, *nbrs[u]) if i in open_cells]
            frames: dict[frozenset[int], _Frame] = {}
            base = _local_count(layout, ball, job.name, hypotheses, frames)
            scored = []
            known_scores: dict[tuple, tuple[int, int]] = {}  # a change drawn again
            for _ in range(AT_SPOT):
                found = _changes_at(layout, job.rng.choice(sites), job.rng, job.max_ones, job.turn)
                if found is not None:
                    key = found[1].signature()
                    hit = known_scores.get(key)
                    if hit is None:
                        before = _work_now()
                        score = _local_count(found[1], ball, job.name, hypotheses, frames)
                        hit = known_scores[key] = (score, before - _work_now())
                    elif not large:  # a small grid's share of work counts it still
                        _spend(hit[1])
                    scored.append((hit[0], job.rng.random(), found[1]))
            if not scored:
                continue
            score, _, best = max(scored, key=lambda t: t[:2])
            if score > base or score == base and idle >= ASIDE_AFTER:
                if not _revives(best, others):
                    picked.append((score - base, best))
        layout, known = _kept(layout, picked, now, others, job, hypotheses=hypotheses, halves=large)
    return best_layout, False


#: Times :func:`repair` may draw the islands near the cells left open anew on a large
#: grid, where the hypotheses stop getting closer with too many open to rule out other
#: solutions one by one, before the picture is given up.
REDRAWS = 3

#: Steps round the cells left open within which :func:`_redrawn` draws anew.
REDRAW_RADIUS = 2


def _redrawn(layout: _Layout, around: set[int], job: _Job) -> _Layout | None:
    """``layout`` with its islands near ``around`` (the cells the deductions leave open)
    drawn anew as :func:`grown_picture` draws, the rest of the picture and its clues
    kept: the part of a large grid the deductions find hard is drawn again, not the
    whole grid (``None``: its pools cannot all be broken)."""
    shape = layout.shape
    region = _ball_around(shape.neighbours, around, REDRAW_RADIUS)
    home = layout.home()
    dropped = {home[i] for i in region if i in home}
    drawing = _Drawing(shape)
    clue_at: dict[int, int] = {}
    for k, c in layout.clue.items():
        if k not in dropped:
            clue_at[c] = len(drawing.cells)
            drawing.cells.append([])
            for i in layout.islands[k]:
                drawing.whiten(i, clue_at[c])
    sizes = _island_sizes(layout.max_island)
    wanted = len(clue_at) + max(1, round(job.density * len(region)))
    order = job.rng.sample(sorted(region), len(region))
    _plant(drawing, order, job.rng, sizes, wanted=wanted, clue_at=clue_at, turn=None)
    if not _break_pools(
        shape, drawing, job.rng, sizes, max_island=layout.max_island, clue_at=clue_at, turn=None
    ):
        return None
    picture = tuple(drawing.black)
    return _Layout(shape, picture, _islands(shape, picture, clue_at), clue_at, layout.max_island)


def _kept(
    layout: _Layout,
    picked: list[tuple[int, _Layout]],
    now: int,
    others: list[Picture],
    job: _Job,
    *,
    hypotheses: bool,
    halves: bool = True,
) -> tuple[_Layout, set[int] | None]:
    """The layout a round of :func:`repair` ends with, and the cells the deductions
    decide on it (``None``: not worked out). First every change ``picked`` (what it
    gained on its window, the layout after it) made together, kept when the
    deductions on the whole grid then decide no fewer than ``now`` cells: one run of
    them for the round. A change can undo a deduction beyond its window, so where
    together they do worse, the better half of them is tried, then the better half of
    that, down to the best alone: a few runs, not one a change (not ``halves``: they
    are added one at a time, best gain first, each kept when that holds). Never a
    change that makes a solution met before a solution again (``others``)."""
    picked = sorted(picked, key=lambda t: -t[0])
    changes = [c for _, c in picked]
    if len(changes) > 1:
        together = _combined(layout, changes, job.max_ones)
        if together is not None and not _revives(together, others):
            found = _decided_cells(together, job.name, hypotheses)
            if len(found) >= now:
                return together, found
    if not halves:
        kept: list[_Layout] = []
        result: tuple[_Layout, set[int] | None] = (layout, None)
        for change in changes:
            trial = _combined(layout, [*kept, change], job.max_ones)
            if trial is None or _revives(trial, others):
                continue
            found = _decided_cells(trial, job.name, hypotheses)
            if len(found) >= now:
                kept.append(change)
                now, result = len(found), (trial, found)
        return result
    size = len(changes) // 2 if len(changes) > 1 else 1
    while size >= 1:
        trial = _combined(layout, changes[:size], job.max_ones)
        if trial is not None and not _revives(trial, others):
            found = _decided_cells(trial, job.name, hypotheses)
            if len(found) >= now:
                return trial, found
        size //= 2
    return layout, None


def _combined(base: _Layout, changed: list[_Layout], max_ones: float) -> _Layout | None:
    """``base`` with the changes of every layout of ``changed`` (each made from
    ``base``, at spots apart); one that touches an island an earlier one touched, or
    that would take the share of 1-clues past ``max_ones`` (where it is not already),
    is left out. ``None`` when together they part the wall or pass the clue limit."""
    new = base.copy()
    touched: set[int] = set()
    old = len(base.islands)
    ones = base.ones()
    for c in changed:
        diff = {
            k
            for k in range(old)
            if c.islands[k] is not base.islands[k] or c.clue.get(k) != base.clue.get(k)
        }
        if diff & touched:
            continue
        more = c.ones() - base.ones()
        if more > 0 and ones + more > max_ones * (len(new.clue) + len(c.clue) - len(base.clue)):
            continue
        ones += more
        touched |= diff
        for k in diff:
            new.islands[k] = c.islands[k]
            if k in c.clue:
                new.clue[k] = c.clue[k]
            else:
                new.clue.pop(k, None)
        for k in range(old, len(c.islands)):
            new.islands.append(c.islands[k])
            new.clue[len(new.islands) - 1] = c.clue[k]
        for i, b in enumerate(c.black):
            if b != base.black[i]:
                new.black[i] = b
    if len(changed) > 1:
        if len(new.clue) > max(new.most_clues, len(base.clue)):
            return None
        wall = {i for i, b in enumerate(new.black) if b}
        if wall and not _linked(base.shape.neighbours, wall):
            return None
    return new


def _kill(
    layout: _Layout, job: _Job, hypotheses: bool = True, others: list[Picture] | None = None
) -> _Layout | None:
    """Where the deductions stall: another solution is searched for (:func:`_another`);
    with none, ``layout`` itself (its picture is the only solution). Else the layout
    after the change that rules that solution out (:func:`_killers`) after which the
    deductions (with one level of ``hypotheses``) decide the most cells (``None``: no
    change does). ``others``, the solutions met so far, gains the new one, and a
    change that would make one of them a solution again is not made: without that
    memory, two changes can undo each other for ever."""
    puzzle = layout.puzzle(job.name)
    other = _another(puzzle, layout.picture(), job.budget)
    if other is None:
        return layout
    others = others if others is not None else []
    others.append(other)
    ones_left = layout.ones() + 1 <= job.max_ones * (len(layout.clue) + 1)
    options = _killers(layout, other, ones_left, job.turn)
    job.rng.shuffle(options)
    changed = [_changed(layout, o, job.turn) for o in options[: 2 * TRIES]]
    differ = [i for i, b in enumerate(other) if b != layout.black[i]]
    if job.turn is not None:  # a pair of new islands, one on a cell ``other`` has white
        whites = [i for i in differ if layout.black[i]] if layout.room_for(2) else []
        for i in job.rng.sample(whites, min(len(whites), 2 * TRIES)):
            found = _new_island(layout, i, job.max_ones, job.turn)
            if found is not None:
                changed.append(found[1])
    for u in job.rng.sample(differ, min(len(differ), 2 * TRIES)):
        found = _changes_at(layout, u, job.rng, job.max_ones, job.turn)
        if found is not None:
            changed.append(found[1])
    changed = [c for c in changed if not _revives(c, others)]
    if not changed:
        return None
    ball = _ball_around(layout.shape.neighbours, set(differ), RIM)
    frames: dict[frozenset[int], _Frame] = {}
    scored = sorted(changed, key=lambda c: -_local_count(c, ball, job.name, hypotheses, frames))
    return max(scored[:3], key=lambda c: len(_decided_cells(c, job.name, hypotheses)))


def _revives(layout: _Layout, others: list[Picture]) -> bool:
    """Is one of ``others`` (solutions ruled out before) a solution of ``layout``'s clues?"""
    shape = layout.shape
    clues = {c: len(layout.islands[k]) for k, c in layout.clue.items()}
    return any(not problems(shape.graph, clues, shape.pools, o) for o in others)


#: Open cells few enough for :func:`repair` to score changes with one level of
#: hypotheses (or a sixth of the cells, if more): they cost a deduction run per guess,
#: but decide at once most of what the plain deductions need many rounds of changes for.
HYPOTHESES_BELOW = 60


#: The share of the cells open few enough for :func:`repair` to go on with hypotheses
#: (or :data:`HYPOTHESES_BELOW`, if more).
FEW_ENOUGH_SHARE = 1 / 6


#: On grids of over :data:`SETTLE_UP_TO` cells, the share of the cells that may be
#: open when the plain deductions stop getting closer for :func:`repair` to go on with
#: hypotheses; with more open, the picture is dropped.
HYPOTHESES_SHARE = 1 / 3


#: Changes that rule another solution out :func:`repair` may make before it hands over
#: (and one more for every twenty cells).
MOST_KILLS = 12

#: Rounds of :func:`repair` with hypotheses and no fewer open cells before it rules out
#: another solution.
KILL_AFTER = 1

#: Open cells few enough for :func:`repair` to rule out another solution (or a
#: twentieth of the cells, if more; more open: it hands over).
FEW_OPEN = 12

#: The share of the cells few enough open for :func:`repair` to rule out another
#: solution (or :data:`FEW_OPEN`, if more).
KILL_SHARE = 1 / 20

#: Steps round a spot of :func:`repair` whose cells its local deductions score.
RADIUS = 4

#: Changes :func:`repair` tries at a spot.
AT_SPOT = 12

#: Rounds of :func:`repair` without fewer open cells before it takes steps aside too.
ASIDE_AFTER = 2

#: Rounds of :func:`repair` without fewer open cells before it tries hypotheses, then
#: (each time again) rules out another solution.
REPAIR_STALE = 4


class _GiveUp(Exception):
    """The picture being made unique has had its share of work (:func:`_spend`)."""


#: The work left for the picture being made unique, in cells deduced (a deduction
#: run on a puzzle of ``n`` cells costs ``n``; with hypotheses, ``n`` more for every
#: cell they try), or ``None``: no limit. Work, not time, so that a seed makes the
#: same puzzle on every machine and under any load.
_work_left: ContextVar[list[int] | None] = ContextVar("_work_left", default=None)


def _work_now() -> int:
    """The work left for the picture (0: no limit), to tell what a step cost."""
    left = _work_left.get()
    return 0 if left is None else left[0]


def _spend(cells: int) -> None:
    """Count ``cells`` of deduction work against the picture's share; past it, raise
    :class:`_GiveUp`."""
    left = _work_left.get()
    if left is not None:
        left[0] -= cells
        if left[0] < 0:
            raise _GiveUp


def _deduced(
    puzzle: NurikabeInstance,
    hypotheses: bool,
    black: set[int] | None = None,
    owner: dict[int, int] | None = None,
    cells: set[int] | None = None,
) -> set[int]:
    """The cells the deductions decide from the facts ``black`` and ``owner`` (with
    ``hypotheses``, one level of them on ``cells``, or on every open cell)."""
    known = deduce(puzzle, black=black or (), owner=owner)
    left = len(puzzle) - len(known.black) - len(known.owner)
    _spend(len(puzzle) * (1 + (left if hypotheses else 0)))
    if hypotheses and left:
        try:
            known = probe(puzzle, known, cells=cells)
        except Contradiction:
            pass
    return known.black | known.owner.keys()


#: The cells the deductions decided on the last few layouts of the picture being made
#: unique, by what they see of it (:meth:`_Layout.signature`) and whether with
#: hypotheses: a layout the kill picked was scored on the whole grid already, and the
#: next round asks again.
_memo: ContextVar[dict[tuple, set[int]] | None] = ContextVar("_memo", default=None)

#: Layouts :data:`_memo` remembers before it starts afresh.
MEMO_SIZE = 16


def _decided_cells(layout: _Layout, name: str, hypotheses: bool) -> set[int]:
    """The cells the deductions decide from the layout's clues alone (the set is
    shared with :data:`_memo`: read it, never change it)."""
    memo = _memo.get()
    if memo is None:
        return _deduced(layout.puzzle(name), hypotheses)
    key = (layout.signature(), hypotheses)
    found = memo.get(key)
    if found is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        found = memo[key] = _deduced(layout.puzzle(name), hypotheses)
    return found


def _local_count(
    layout: _Layout,
    ball: set[int],
    name: str,
    hypotheses: bool,
    frames: dict[frozenset[int], _Frame] | None = None,
) -> int:
    """How many cells of ``ball`` the deductions decide on a window round it alone
    (:func:`_window`): its rim, and the islands it meets, given as the layout's
    picture has them. Hypotheses, if any, on ``ball`` only."""
    puzzle, black, owner, inside = _window(layout, ball, name, frames)
    found = _deduced(puzzle, hypotheses, black, owner, inside)
    return len(found & inside)


#: The width of the rim round a window of :func:`_window`.
RIM = 2


class _Frame(NamedTuple):
    """The graph of a window (:func:`_window`), which depends on its cells alone: the
    cells in order, their new numbers, the graph, its pools, and each cell's pools."""

    order: list[int]
    at: dict[int, int]
    graph: Graph
    pools: tuple[tuple[int, ...], ...]
    pools_at: tuple[tuple[int, ...], ...]


def _window(
    layout: _Layout,
    ball: set[int],
    name: str,
    frames: dict[frozenset[int], _Frame] | None = None,
) -> tuple[NurikabeInstance, set[int], dict[int, int], set[int]]:
    """A puzzle of the cells near ``ball`` alone, with the facts its rim gives: the
    cells within :data:`RIM` steps of ``ball`` and the whole of every island they
    meet, numbered anew; one more cell, black, stands for the rest of the grid, beside
    every cell that borders it, so that the wall stays joined through it. The cells
    outside ``ball`` are given as the picture has them: no island from outside can
    then reach in, and the wall inside has exactly the cells the picture gives it.
    Returns the puzzle, its black and owned facts, and the numbers of ``ball``'s cells.
    ``frames`` keeps the graphs of windows built before, by their cells: the changes
    scored at one spot mostly meet the same cells."""
    shape = layout.shape
    home = layout.home()
    cells = _ball_around(shape.neighbours, ball, RIM)
    for i in list(cells):
        if i in home:
            cells.update(layout.islands[home[i]])
    key = frozenset(cells)
    frame = None if frames is None else frames.get(key)
    if frame is None:
        frame = _frame(shape, cells)
        if frames is not None:
            frames[key] = frame
    order, at, graph = frame.order, frame.at, frame.graph
    clues: dict[int, int | None] = {
        at[c]: len(layout.islands[k]) for k, c in layout.clue.items() if c in at
    }
    puzzle = _instance(graph, clues, frame.pools, name, graph.out, frame.pools_at)
    black = {at[c] for c in order if c not in ball and layout.black[c]}
    if len(order) < len(graph):
        black.add(len(order))  # the stand-in for the rest of the grid
    owner = {at[c]: at[layout.clue[home[c]]] for c in order if c not in ball and c in home}
    return puzzle, black, owner, {at[c] for c in ball}


def _frame(shape: NurikabeInstance, cells: set[int]) -> _Frame:
    """The graph of the window of ``cells`` (:func:`_window`)."""
    nbrs = shape.neighbours
    order = sorted(cells)
    at = {c: j for j, c in enumerate(order)}
    rest = len(order)
    out: list[tuple[int, ...]] = []
    border: list[int] = []
    for c in order:
        links = [at[x] for x in nbrs[c] if x in at]
        if len(links) < len(nbrs[c]):
            links.append(rest)
            border.append(at[c])
        out.append(tuple(links))
    if border:
        out.append(tuple(border))
    seen_pools = {p for c in order for p in shape.pools_at[c]}
    pools = tuple(
        tuple(at[c] for c in shape.pools[p])
        for p in sorted(seen_pools)
        if all(c in at for c in shape.pools[p])
    )
    pools_at: list[list[int]] = [[] for _ in out]
    for p, pool in enumerate(pools):
        for j in pool:
            pools_at[j].append(p)
    # each cell's links come in order and both ways (the grid's are): its neighbours
    graph = Graph(_names(len(out)), tuple(out))
    return _Frame(order, at, graph, pools, tuple(map(tuple, pools_at)))


@cache
def _names(n: int) -> tuple[str, ...]:
    """The names of a window's cells: their numbers (one tuple for each size)."""
    return tuple(str(j) for j in range(n))


def _ball_around(nbrs: tuple[tuple[int, ...], ...], cells: set[int], radius: int) -> set[int]:
    """The cells within ``radius`` steps of ``cells``."""
    seen, level = set(cells), list(cells)
    for _ in range(radius):
        level = [j for i in level for j in nbrs[i] if j not in seen and not seen.add(j)]
    return seen


#: Rounds of :func:`settle` without a new best before the picture is given up.
STALE = 60

#: Rounds of :func:`settle` without progress before hypotheses and a search are tried.
PATIENCE = 8


def _decided_count(layout: _Layout, name: str) -> int:
    """How many cells the plain deductions decide from the layout's clues."""
    return len(_decided_cells(layout, name, False))


#: Changes tried in a round of :func:`_improve`.
TRIES = 12


def _improve(
    layout: _Layout, rng: random.Random, max_ones: float, turn: list[int] | None, name: str
) -> tuple[int, _Layout] | None:
    """The best of a few small changes near the cells the deductions leave open, with
    how many cells the deductions decide after it (:func:`_changes_at`). Changes that
    each do better than none, far enough apart not to meet, are made together when
    together they do better still: on a large grid, many places at once."""
    known = deduce(layout.puzzle(name))
    undecided = [i for i in range(len(layout.black)) if i not in known.black | known.owner.keys()]
    if not undecided:
        return None
    now = len(layout.black) - len(undecided)
    tries: list[tuple[int, int, str, _Layout]] = []
    for u in rng.sample(undecided, min(len(undecided), 3 * TRIES)):
        found = _changes_at(layout, u, rng, max_ones, turn)
        if found is not None:
            kind, changed = found
            tries.append((_decided_count(changed, name), u, kind, changed))
        if len(tries) >= TRIES:
            break
    if not tries:
        return None
    tries.sort(key=lambda t: -t[0])
    best = tries[0]
    coords = layout.shape.graph.coords
    if coords is None or best[0] <= now:
        return best[0], best[3]
    together, spots = best[3], [coords[best[1]]]
    for score, u, kind, _ in tries[1:]:
        (r, c) = coords[u]
        if score <= now or any(abs(r - r2) + abs(c - c2) <= APART for r2, c2 in spots):
            continue
        found = _changes_at(together, u, rng, max_ones, turn, (kind,))
        if found is not None:
            together = found[1]
            spots.append((r, c))
    if len(spots) > 1:
        score = _decided_count(together, name)
        if score > best[0]:
            return score, together
    return best[0], best[3]


#: How far apart (steps along rows and columns) changes made together lie.
APART = 6


def _changes_at(
    layout: _Layout,
    u: int,
    rng: random.Random,
    max_ones: float,
    turn: list[int] | None,
    kinds: tuple[str, ...] = ("move", "shrink", "split", "grow", "merge", "new"),
) -> tuple[str, _Layout] | None:
    """One random change of ``kinds`` the layout allows at the open cell ``u``, and its
    kind (``None``: none): a clue moved onto ``u`` in its island, ``u`` made black
    (its island shrunk, or split in two with a clue on the new part), an island beside
    ``u`` grown into it, two islands beside it joined through it (one clue fewer), or
    (while 1-clues are few enough) a new island of one cell."""
    home = layout.home()
    nbrs = layout.shape.neighbours
    if u in home:
        k = home[u]
        order = [kind for kind in ("move", "shrink", "split") if kind in kinds]
        rng.shuffle(order)
        for kind in order:
            if kind == "split" and layout.room_for(1 if turn is None else 2):
                for i in rng.sample(layout.islands[k], len(layout.islands[k])):
                    parted = layout.split(k, i, rng) if i != layout.clue[k] else None
                    if parted is not None and turn is not None:
                        parted = _split_mates(layout, parted, rng, max_ones, turn)
                    if parted is None or len(parted.clue) > layout.most_clues:
                        continue
                    if parted.ones() <= max_ones * len(parted.clue):
                        return kind, parted
            if kind == "move" and u != layout.clue[k]:
                if turn is None:
                    return kind, _changed(layout, ("move", k, u))
                c0 = layout.clue[k]
                if turn[c0] != c0 and turn[u] != u and home.get(turn[u]) == home.get(turn[c0]):
                    return kind, _changed(layout, ("move", k, u), turn)
            if kind == "shrink" and u != layout.clue[k] and layout.can_shrink(k, u):
                shrunk = layout.shrunk(k, u)
                if shrunk.ones() <= max(layout.ones(), max_ones * len(shrunk.clue)):
                    return kind, shrunk
        return None
    near = sorted({home[j] for j in nbrs[u] if j in home})
    if "grow" in kinds and len(near) == 1 and len(layout.islands[near[0]]) < layout.max_island:
        if _wall_stays_linked(nbrs, layout.black, u):
            return "grow", layout.grown(near[0], u)
    if "merge" in kinds and len(near) == 2:
        merged = layout.merged(near[0], near[1], u)
        if merged is not None and turn is not None:
            merged = _mate_dropped(merged, turn[layout.clue[near[1]]], rng, turn)
        if merged is not None and _wall_stays_linked(nbrs, layout.black, u):
            return "merge", merged
    if "new" in kinds and not near and layout.room_for(1 if turn is None else 2):
        return _new_island(layout, u, max_ones, turn)
    return None


def _split_mates(
    before: _Layout, parted: _Layout, rng: random.Random, max_ones: float, turn: list[int]
) -> _Layout | None:
    """``parted`` (``before`` with an island split) with its clue cells in turned pairs
    again: each new part's clue on a cell whose mate can be made a clue cell too
    (:func:`_mate_clue`; ``None``: no cell of a part has such a mate)."""
    new = parted
    for m in range(len(before.islands), len(parted.islands)):
        cells = list(new.islands[m])
        for c in rng.sample(cells, len(cells)):
            trial = new.copy()
            trial.clue[m] = c
            trial = _mate_clue(trial, turn[c], rng, max_ones)
            if trial is not None:
                new = trial
                break
        else:
            return None
    return new


def _mate_clue(layout: _Layout, cell: int, rng: random.Random, max_ones: float) -> _Layout | None:
    """``layout`` with a clue at ``cell`` (the turned mate of a new clue cell): a new
    island there when it is black (one cell, or two once 1-clues are used up), or its
    island parted by one black cell, ``cell`` in a part of its own (``None``: neither
    fits, or the parting leaves a third part without a clue)."""
    if cell in layout.clue.values():
        return layout
    if layout.black[cell]:
        size = 1 if layout.ones() + 1 <= max_ones * (len(layout.clue) + 1) else 2
        return _grown_from(layout, cell, size)
    m = layout.home()[cell]
    nbrs = layout.shape.neighbours
    for x in rng.sample(layout.islands[m], len(layout.islands[m])):
        if x in (cell, layout.clue[m]) or not layout.can_blacken(x):
            continue
        rest = set(layout.islands[m]) - {x}
        ours = _island(nbrs, rest, layout.clue[m])
        theirs = rest - ours
        if cell in ours or not _linked(nbrs, theirs):
            continue
        new = layout.copy()
        new.black[x] = True
        new.islands[m] = sorted(ours)
        new.islands.append(sorted(theirs))
        new.clue[len(new.islands) - 1] = cell
        return new
    return None


def _mate_dropped(
    layout: _Layout, gone: int, rng: random.Random, turn: list[int]
) -> _Layout | None:
    """``layout``, whose clue at ``gone``'s mate went (two islands joined), without the
    clue at ``gone`` too, so that clue cells stay in turned pairs: its island joined to
    another through a black cell beside both, or, of one cell, made black (``None``: no
    such change fits)."""
    home = layout.home()
    m = home.get(gone)
    if m is None or layout.clue.get(m) != gone:
        return layout  # ``gone`` was the centre cell, its own mate
    nbrs = layout.shape.neighbours
    joins = []
    for v in sorted({j for i in layout.islands[m] for j in nbrs[i] if layout.black[j]}):
        near = {home[j] for j in nbrs[v] if j in home}
        if len(near) == 2 and _wall_stays_linked(nbrs, layout.black, v):
            other = next(k for k in near if k != m)
            joins.append((other, v))
    rng.shuffle(joins)
    for other, v in joins:
        joined = layout.merged(other, m, v)
        if joined is not None:
            return joined
    if len(layout.islands[m]) == 1 and layout.can_blacken(gone):
        new = layout.copy()
        new.black[gone] = True
        new.islands[m] = []
        del new.clue[m]
        return new
    return None


def _new_island(
    layout: _Layout, u: int, max_ones: float, turn: list[int] | None
) -> tuple[str, _Layout] | None:
    """A new island at the black cell ``u``, which no island touches (with ``turn``,
    and another at its turned mate): of one cell while 1-clues are few enough, else
    of two, ``u`` and a free neighbour; the wall stays in one piece (``None``: not here)."""
    nbrs = layout.shape.neighbours
    starts = [u] if turn is None else [u, turn[u]]
    if len(starts) == 2 and (starts[1] == u or starts[1] in nbrs[u]):
        return None
    added = len(starts)
    size = 1 if layout.ones() + added <= max_ones * (len(layout.clue) + added) else 2
    changed = layout
    for start in starts:
        changed = _grown_from(changed, start, size)
        if changed is None:
            return None
    return "new", changed


def _grown_from(layout: _Layout, start: int, size: int) -> _Layout | None:
    """``layout`` with a new island of ``size`` (1 or 2) cells from the black cell
    ``start``, touching no island, the wall in one piece (``None``: none fits)."""
    nbrs = layout.shape.neighbours
    black = list(layout.black)
    cells: list[int] = []
    for i in [start, *nbrs[start]]:
        if len(cells) == size:
            break
        if i != start and not cells:
            return None
        if not black[i] or any(not black[j] and j not in cells for j in nbrs[i]):
            continue
        if not _wall_stays_linked(nbrs, black, i):
            continue
        black[i] = False
        cells.append(i)
    if len(cells) < size:
        return None
    new = layout.copy()
    new.black = black
    new.islands.append(cells)
    new.clue[len(new.islands) - 1] = start
    return new


def _killers(
    layout: _Layout, other: Picture, ones_left: bool, turn: list[int] | None
) -> list[Change]:
    """Changes that rule ``other`` out, as a clue cell must be white and an island holds
    one clue: a clue moved within its island onto a cell ``other`` has black, or (while
    ``ones_left``) an island of one cell where ``other`` is white and ours black. With
    ``turn`` (clue cells placed in turned pairs) only moves that keep the pairs (new
    islands come in pairs: :func:`_kill` plants them)."""
    home = {i: k for k in layout.clue for i in layout.islands[k]}
    found: list[Change] = []
    for k, c0 in layout.clue.items():
        for c in layout.islands[k]:
            if not other[c] or c == c0:
                continue
            if turn is not None and (
                turn[c0] == c0 or turn[c] == c or home.get(turn[c]) != home.get(turn[c0])
            ):
                continue
            found.append(("move", k, c))
    if ones_left and turn is None:
        drawing = _Drawing(layout.shape)
        drawing.black, drawing.island = layout.black, home
        for i, black in enumerate(layout.black):
            if black and not other[i] and drawing.free_for(i, -1):
                found.append(("new", -1, i))
    return found


def _backtracked(puzzle: NurikabeInstance) -> list[Picture] | None:
    """Up to two solutions, by backtracking over the deductions (:mod:`.presolve`),
    when that search settles the question within :data:`BACKTRACK_NODES` nodes: the
    two it found, or all there are (``None``: cut short, the question stays open)."""
    try:
        known = deduce(puzzle, strict=True)
    except Contradiction:
        return []
    trial = backtrack(puzzle, known, nodes=BACKTRACK_NODES, most=2)
    if len(trial.solutions) < 2 and not trial.finished:
        return None
    return [tuple(i in s.black for i in range(len(puzzle))) for s in trial.solutions]


#: Grids of fewer cells have too few clues for the published look to mean much, and
#: often no unique puzzle of that look: after :data:`RELAX_AFTER` tries, :func:`generate`
#: allows more clues (a share of 0.3) and any share of 1s there.
SMALL = 64

#: Pictures drawn with the asked look on a small grid before the look is relaxed.
RELAX_AFTER = 10

#: Rounds of :func:`settle` on one picture before another is drawn (and one more for
#: every two cells).
STEPS = 200

#: Grids of more cells draw a new picture where :func:`repair` gives up, without
#: :func:`settle`: its rounds each run the deductions on the whole grid a dozen times.
SETTLE_UP_TO = 400

#: Nodes the backtracking over the deductions may visit before the solver is asked.
BACKTRACK_NODES = 300


def _another(puzzle: NurikabeInstance, ours: Picture, budget: Budget) -> Picture | None:
    """A solution other than ``ours``, or ``None`` when there is none: first by
    backtracking over the deductions, which settles small puzzles and finds a second
    solution of many others at once, then by the solver. The search
    stopped by the time limit raises :class:`TimeUp`, by Ctrl-C :class:`Interrupted`
    (Z3 says "unknown" to both, and its own timeout can fire a moment before ours)."""
    trial = _backtracked(puzzle)
    if trial is not None:
        return next((s for s in trial if s != ours), None)
    seen = interrupts_seen()
    search = Search(puzzle, "distance", budget)
    search.block(ours)
    found = search.next()
    if isinstance(found, str):
        raise Interrupted if interrupts_seen() != seen else TimeUp
    return found


#: The work (:func:`_spend`) the first picture may take, per cell squared; each next
#: picture may take :data:`GROWTH` times as much as the one before. Most pictures are made
#: unique within a fraction of it; the few that are not cost many times more, and a new
#: picture is the quicker way.
WORK = 16
GROWTH = 1.5

#: How many times :data:`WORK` a picture on a grid of over :data:`SETTLE_UP_TO` cells
#: may take: there it is worked on with hypotheses and drawn anew in parts
#: (:func:`repair`) rather than dropped, and most are made unique within this.
LARGE_WORK = 5


def generate(
    graph: Graph,
    pools: tuple[tuple[int, ...], ...],
    seed: int,
    max_island: int = MAX_ISLAND,
    *,
    density: float = DENSITY,
    symmetry: str = "none",
    accept: Callable[[NurikabeInstance], int] | None = None,
    budget: Budget | None = None,
    max_ones: float = MAX_ONES,
    tries: int = 200,
    lean: int = 0,
) -> tuple[NurikabeInstance, Picture] | None:
    """A puzzle whose only solution is a picture drawn at random (one ``accept`` keeps,
    if given: it says 0 to keep a puzzle, else how many grades too hard, negative too
    easy; a puzzle refused is dropped for a new picture), or ``None`` after
    ``tries`` pictures (on a grid of under :data:`SMALL`
    cells, the later ones with more clues and any share of 1s). ``lean`` above 0 (the
    command line's ``--grade`` for an easy range) makes every candidate easier
    (:func:`_easier_look`, :func:`_plain_enough`); there is no harder lean. Raises
    :class:`TimeUp` when the budget runs out (and ``KeyboardInterrupt`` passes through)."""
    if symmetry not in SYMMETRIES:
        raise InputError(f"unknown symmetry {symmetry!r}; expected one of {SYMMETRIES}")
    if not 0 < density <= 0.5:
        raise InputError(f"--density {density}: expected a share of cells above 0, up to 0.5")
    budget = budget or Budget()
    rng = random.Random(seed)
    shape = NurikabeInstance(graph, {}, pools)
    name = f"seed {seed}"
    if lean > 0:
        max_island, density, max_ones = _easier_look(max_island, density, max_ones)
    for attempt in range(tries):
        if budget.expired():
            raise TimeUp
        if attempt == RELAX_AFTER and len(graph) < SMALL:
            density, max_ones = max(density, 0.3), 1.0
        drawn = grown_picture(shape, rng, density, max_island, symmetry)
        if drawn is None:
            continue
        picture, clue_at = drawn
        islands = _islands(shape, picture, clue_at)
        layout = _Layout(shape, picture, islands, clue_at, max_island)
        # islands paired across the centre that found no room to grow: few changes
        # keep the pairs, and none of them joins 1s, so such a picture is drawn again
        turn = _rotated(graph) if symmetry == "rot180" else None
        if turn is not None and layout.ones() > max_ones * len(layout.clue):
            continue
        steps = STEPS + len(graph) // 2
        work = WORK * (LARGE_WORK if len(graph) > SETTLE_UP_TO else 1)
        share = _work_left.set([int(work * len(graph) ** 2 * GROWTH ** min(attempt, 20))])
        memo = _memo.set({})
        try:
            job = _Job(rng, budget, max_ones, name, turn, density, plain=lean > 0)
            layout, done = repair(layout, job)
            made = layout if done else None
            if made is None and len(graph) <= SETTLE_UP_TO:
                made = settle(layout, job, steps=steps)
        except _GiveUp:
            made = None
        finally:
            _work_left.reset(share)
            _memo.reset(memo)
        if made is None:
            continue
        puzzle = made.puzzle(name)
        if problems(graph, puzzle.clues, pools, made.picture()):  # a change broke a rule
            continue
        if turn is not None and any(turn[c] not in puzzle.clues for c in puzzle.clues):
            continue
        if lean > 0 and not _plain_enough(puzzle):
            continue
        if accept is not None and accept(puzzle) != 0:
            continue
        return puzzle, made.picture()
    return None


#: The largest island of a puzzle made easier (:func:`_easier_look`): clues of 1 and 2
#: alone. With islands of up to 3 cells most 15x15 candidates rated just above easy.
EASY_ISLAND = 2

#: The clue density a puzzle made easier starts from at least: the most published
#: puzzles have.
EASY_DENSITY = 0.16

#: The share of 1-clues a puzzle made easier may have at least: published puzzles'
#: upper quarter.
EASY_ONES = 0.25

#: The largest share of the cells the plain deductions (no hypotheses) may leave open
#: in a puzzle made easier (:func:`_plain_enough`): none, since a puzzle they leave
#: even a few cells of open mostly rates above easy (its explanation needs a case
#: split there), while most they settle rate easy.
EASY_OPEN = 0.0


def _easier_look(max_island: int, density: float, max_ones: float) -> tuple[int, float, float]:
    """The look of a puzzle made easier: islands of at most :data:`EASY_ISLAND` cells,
    at least :data:`EASY_DENSITY` clues a cell and :data:`EASY_ONES` of them 1s. Small
    islands, densely clued, are settled a clue or a cell at a time; a large island's
    clue reaches far, and the steps that rule its cells in or out weigh many clues."""
    return (
        min(max_island, EASY_ISLAND),
        max(density, EASY_DENSITY),
        max(max_ones, EASY_ONES),
    )


def _plain_enough(puzzle: NurikabeInstance) -> bool:
    """Do the plain deductions (no hypotheses) leave at most :data:`EASY_OPEN` of the
    cells open? Rating a candidate costs many times making it, and one the plain
    deductions settle rates easy more often than one they leave open somewhere (its
    explanation needs fewer case splits), so the others go unrated."""
    try:
        known = deduce(puzzle, strict=True)
    except Contradiction:
        return False
    return len(puzzle) - len(known.black) - len(known.owner) <= EASY_OPEN * len(puzzle)


def _numbered(clue_at: dict[int, int]) -> list[tuple[int, int]]:
    return sorted(clue_at.items())


def _islands(shape: NurikabeInstance, picture: Picture, clue_at: dict[int, int]) -> list[list[int]]:
    """The cells of each island, indexed as ``clue_at`` numbers them."""
    white = {i for i, b in enumerate(picture) if not b}
    islands: list[list[int]] = [[] for _ in range(max(clue_at.values(), default=-1) + 1)]
    for c, k in clue_at.items():
        islands[k] = sorted(_island(shape.neighbours, white, c))
    return islands
