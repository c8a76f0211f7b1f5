"""The Nurikabe formula: each rule a small named function over one :class:`Encoding`.

Variables: ``black_<cell>`` for every cell, and ``island_<clue>_has_<cell>`` for every
cell a clue's island can reach (see :func:`~.puzzle.deduce`): a white cell belongs to
exactly one island. Islands are distance-to-clue regions, the wall one distance-to-root
region (:mod:`smtpuzzles.connectivity`); the lazy strategy leaves those two out and adds
cuts instead (:mod:`.solve`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ...connectivity import connected
from .puzzle import Deductions, Nurikabe, deduce


@dataclass
class Encoding:
    """Variables and constraints of one puzzle, grouped by the rule they say."""

    puzzle: Nurikabe
    known: Deductions
    black: list[z3.BoolRef]
    island: dict[int, dict[int, z3.BoolRef]]
    rules: dict[str, list[z3.BoolRef]] = field(default_factory=dict)
    wall_root: int | None = None

    def white(self, i: int) -> z3.BoolRef:
        return z3.Not(self.black[i])

    def add(self, rule: str, constraints: list[z3.BoolRef]) -> None:
        self.rules.setdefault(rule, []).extend(constraints)

    def local(self) -> list[z3.BoolRef]:
        """Every rule but connectivity: what the lazy strategy starts from."""
        return [c for rule, cs in self.rules.items() if rule not in CONNECTIVITY for c in cs]

    def connectivity(self) -> list[z3.BoolRef]:
        return [c for rule in CONNECTIVITY for c in self.rules.get(rule, [])]


CONNECTIVITY = ("islands_connected", "wall_connected")


def count(terms: list[z3.BoolRef]) -> z3.ArithRef:
    """How many of ``terms`` hold, as an ``ite`` sum (never a one-argument ``+``,
    which some SMT-LIB readers reject)."""
    ones = [z3.If(t, 1, 0) for t in terms]
    return z3.Sum(ones) if len(ones) > 1 else ones[0] if ones else z3.IntVal(0)


def variables(puzzle: Nurikabe, known: Deductions) -> Encoding:
    name = puzzle.cell
    black = [z3.Bool(f"black_{name(i)}") for i in range(len(puzzle))]
    island = {
        k: {i: z3.Bool(f"island_{name(k)}_has_{name(i)}") for i in sorted(cells)}
        for k, cells in known.reach.items()
    }
    return Encoding(puzzle, known, black, island)


def clues_are_white(enc: Encoding) -> None:
    enc.add("clues_are_white", [enc.island[k][k] for k in enc.puzzle.clues])


def deduced_cells(enc: Encoding) -> None:
    """The facts :func:`~.puzzle.deduce` proved, as unit constraints."""
    facts = [enc.black[i] for i in sorted(enc.known.black)]
    for i, k in sorted(enc.known.owner.items()):
        facts.append(enc.island[k][i] if i in enc.island[k] else z3.BoolVal(False))
    enc.add("deduced_cells", facts)


def one_clue_per_island(enc: Encoding) -> None:
    """A white cell is in exactly one island; a black cell in none."""
    out = []
    for i in range(len(enc.puzzle)):
        mine = [enc.island[k][i] for k in enc.known.owners(i)]
        out.append(enc.white(i) == z3.Or(mine) if mine else enc.black[i])
        if len(mine) > 1:
            out.append(count(mine) <= 1)
    enc.add("one_clue_per_island", out)


def islands_are_whole(enc: Encoding) -> None:
    """A white neighbour of an island's cell is in that island: islands never touch."""
    out = []
    nbrs = enc.puzzle.neighbours
    for cells in enc.island.values():
        for i, here in cells.items():
            for j in nbrs[i]:
                there = cells.get(j)
                joins = [enc.black[j]] if there is None else [enc.black[j], there]
                out.append(z3.Implies(here, z3.Or(joins)))
    enc.add("islands_are_whole", out)


def island_sizes(enc: Encoding) -> None:
    out = []
    for k, size in enc.puzzle.clues.items():
        if size is not None:
            out.append(count(list(enc.island[k].values())) == size)
    enc.add("island_sizes", out)


def no_pools(enc: Encoding) -> None:
    enc.add("no_pools", [z3.Or([enc.white(i) for i in pool]) for pool in enc.puzzle.pools])


def islands_connected(enc: Encoding) -> None:
    """Each island is a distance-to-clue region, no deeper than its size allows."""
    out: list[z3.BoolRef] = []
    for k, cells in enc.island.items():
        if len(cells) == 1:
            continue
        size = enc.puzzle.clues[k]
        limit = None if size is None else size - 1
        region = connected(
            enc.puzzle.graph, cells, f"island_{enc.puzzle.cell(k)}", root=k, max_dist=limit
        )
        out.extend(region.constraints)
        out.extend(region.dist[i] >= d for i, d in enc.known.reach[k].items() if d > 0)
    enc.add("islands_connected", out)


def wall_size(puzzle: Nurikabe) -> int | None:
    """Cells the wall must have (unknown when a clue is ``?``)."""
    if any(size is None for size in puzzle.clues.values()):
        return None
    return len(puzzle) - sum(s for s in puzzle.clues.values() if s is not None)


def wall_connected(enc: Encoding) -> None:
    """The wall is one distance-to-root region, rooted at a cell known to be black."""
    puzzle = enc.puzzle
    candidates = {i: enc.black[i] for i in range(len(puzzle)) if i not in enc.known.owner}
    size = wall_size(puzzle)
    if size is not None and size <= 1 or len(candidates) <= 1:
        return
    roots = sorted(enc.known.black & candidates.keys())
    enc.wall_root = roots[0] if roots else None
    limit = None if size is None else size - 1
    region = connected(puzzle.graph, candidates, "wall", root=enc.wall_root, max_dist=limit)
    out = list(region.constraints)
    if enc.wall_root is not None:
        # A cell further from the root than the wall is long, or cut off from it by
        # known white cells, is white. (Bounds must stay consistent: Z3's finite-domain
        # engine gives up on an integer whose range is empty.)
        top = len(candidates) - 1 if limit is None else limit
        steps = _distances(puzzle.neighbours, enc.wall_root, set(candidates))
        for i in candidates:
            d = steps.get(i)
            if d is None or d > top:
                out.append(enc.white(i))
            elif d > 0:
                out.append(region.dist[i] >= d)
    enc.add("wall_connected", out)


def _distances(nbrs, start: int, allowed: set[int]) -> dict[int, int]:
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for i in frontier:
            for j in nbrs[i]:
                if j in allowed and j not in dist:
                    dist[j] = dist[i] + 1
                    nxt.append(j)
        frontier = nxt
    return dist


RULES = (
    clues_are_white,
    deduced_cells,
    one_clue_per_island,
    islands_are_whole,
    island_sizes,
    no_pools,
    islands_connected,
    wall_connected,
)


def encode(puzzle: Nurikabe, known: Deductions | None = None) -> Encoding:
    """Every rule of ``puzzle`` (connectivity included; :meth:`Encoding.local` drops it)."""
    enc = variables(puzzle, known or deduce(puzzle))
    for rule in RULES:
        rule(enc)
    return enc
