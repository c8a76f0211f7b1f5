"""The rules of Koburin as constraints, one function per rule of seeds/002.

A  Paint some empty white cells black:        ``black_<cell>`` for every cell.
B  One closed loop through all other cells:   :func:`loop_connected` (and :func:`loop_exists`).
C  A number counts its black neighbours:      :func:`numbers_count_black_neighbours`.
D  Black cells may be away from numbers:      nothing ties a black cell to a number.
E  Numbered cells are never painted black:    :func:`numbered_cells_never_black`.
F  Black cells never touch orthogonally:      :func:`black_cells_never_touch`.
G  The loop never crosses or branches:        :func:`loop_degree_two`.
H  Loop sections join neighbouring cells:     ``loop_<a>_<b>`` only for linked cells,
                                              one variable per link, so "linked back" holds.

A cell is on the loop exactly when it has no number and is not black. G and H together
say every loop cell has exactly two chosen links and every other cell none; B adds that
the chosen links form one piece (distance to a root over chosen links), which makes
them a single cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ...connectivity import connected
from .puzzle import Koburin

Edge = tuple[int, int]


@dataclass
class Encoding:
    """The variables of one puzzle and its constraints grouped by rule."""

    puzzle: Koburin
    black: dict[int, z3.BoolRef] = field(default_factory=dict)
    link: dict[Edge, z3.BoolRef] = field(default_factory=dict)
    incident: dict[int, list[z3.BoolRef]] = field(default_factory=dict)
    rules: dict[str, list[z3.BoolRef]] = field(default_factory=dict)

    def on_loop(self, cell: int) -> z3.BoolRef:
        """A cell is on the loop iff it has no number and is not black."""
        if cell in self.puzzle.clues:
            return z3.BoolVal(False)
        return z3.Not(self.black[cell])

    def links_at(self, cell: int) -> list[z3.BoolRef]:
        return self.incident.get(cell, [])

    def assertions(self) -> list[z3.BoolRef]:
        return [c for constraints in self.rules.values() for c in constraints]


def declare(puzzle: Koburin) -> Encoding:
    """Rule A and H: a black variable per cell, a loop variable per link of empty cells."""
    enc = Encoding(puzzle)
    names = puzzle.graph.names
    enc.black = {i: z3.Bool(f"black_{names[i]}") for i in range(len(names))}
    enc.link = {(i, j): z3.Bool(f"loop_{names[i]}_{names[j]}") for i, j in puzzle.edges()}
    for (i, j), v in enc.link.items():
        enc.incident.setdefault(i, []).append(v)
        enc.incident.setdefault(j, []).append(v)
    return enc


def numbers_count_black_neighbours(enc: Encoding) -> list[z3.BoolRef]:
    """C: a number equals the count of black cells it sees (``?`` says nothing)."""
    return [
        z3.Sum([z3.If(enc.black[j], 1, 0) for j in enc.puzzle.counted[i]]) == number
        for i, number in sorted(enc.puzzle.clues.items())
        if number is not None
    ]


def numbered_cells_never_black(enc: Encoding) -> list[z3.BoolRef]:
    """E: a numbered cell is not black (nor on the loop: see :meth:`Encoding.on_loop`)."""
    return [z3.Not(enc.black[i]) for i in sorted(enc.puzzle.clues)]


def black_cells_never_touch(enc: Encoding) -> list[z3.BoolRef]:
    """F: no two linked cells are both black."""
    return [
        z3.Or(z3.Not(enc.black[i]), z3.Not(enc.black[j]))
        for i, j in enc.puzzle.undirected.undirected_edges()
        if i not in enc.puzzle.clues and j not in enc.puzzle.clues
    ]


def loop_degree_two(enc: Encoding) -> list[z3.BoolRef]:
    """G, H: a loop cell has exactly two chosen links, any other cell none."""
    constraints = []
    for i in enc.puzzle.empty:
        links = enc.links_at(i)
        on = enc.on_loop(i)
        constraints.append(z3.Implies(on, z3.Sum([z3.If(v, 1, 0) for v in links]) == 2))
        constraints.extend(z3.Implies(z3.Not(on), z3.Not(v)) for v in links)
    return constraints


def loop_exists(enc: Encoding) -> list[z3.BoolRef]:
    """B: there is a loop: some cell is on it."""
    return [z3.Or([enc.on_loop(i) for i in enc.puzzle.empty])]


def loop_connected(enc: Encoding) -> list[z3.BoolRef]:
    """B: every loop cell reaches the root (the loop cell of least index) over chosen
    links, one step closer each time (distance to a root)."""
    member = {i: enc.on_loop(i) for i in enc.puzzle.empty}
    region = connected(enc.puzzle.undirected, member, "loop", edges=enc.link)
    return region.constraints


def encode(puzzle: Koburin, connectivity: str = "distance") -> Encoding:
    """All rules; with ``connectivity="lazy"`` rule B's distances are left out (the
    solver then adds cuts against separate loops as it finds them)."""
    enc = declare(puzzle)
    enc.rules["C numbers count black neighbours"] = numbers_count_black_neighbours(enc)
    enc.rules["E numbered cells never black"] = numbered_cells_never_black(enc)
    enc.rules["F black cells never touch"] = black_cells_never_touch(enc)
    enc.rules["G/H loop degree two"] = loop_degree_two(enc)
    enc.rules["B loop exists"] = loop_exists(enc)
    if connectivity == "distance":
        enc.rules["B loop connected"] = loop_connected(enc)
    return enc
