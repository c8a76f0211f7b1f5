"""The Nurikabe formula: each rule a small named function over one :class:`Encoding`.

Variables: ``black_<cell>`` for every cell, and ``island_<clue>_has_<cell>`` for every
cell a clue's island can reach (see :func:`~.puzzle.deduce`): a white cell belongs to
exactly one island. Islands are distance-to-clue regions, the wall one distance-to-root
region (``island_<clue>_dist_<cell>``, ``wall_dist_<cell>``); the lazy strategy leaves
those two rules out and adds cuts instead (:mod:`.solve`).

Every rule is written as SMT-LIB text, and Z3 reads the whole formula in one go: its
parser builds terms in C, about ten times faster than the Python API term by term
(0.6 s for a 10x10 puzzle, 7 s for 20x36, more than Z3 needs to solve most of them).
The text is also what ``--print-asserts`` shows, after Z3 has read it back.

Both regions come from :func:`smtpuzzles.connectivity.connected_smtlib` with its "nearer"
step (every member but the root has a member neighbour with a smaller distance): any
chain of strictly decreasing distances ends at the root, and inequalities are lighter for
the simplex than "exactly one more". Each distance gets the bounds the deductions prove:
at least the cell's least distance from its clue (or the wall's root) through cells it
may use, at most the island's size less one (or the number of cells the wall can have
less one); a cell beyond that is white.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import z3

from ...connectivity import connected_smtlib
from ...smtlib import and_, count, escape, or_
from ...solving import parse_terms
from .model import Nurikabe
from .presolve.deduce import Deductions, deduce, distances_within, wall_size

CONNECTIVITY = ("islands_connected", "wall_connected")
#: The redundant count of white regions, which the search uses only at first (see
#: :data:`~.solve.PHASES`).
COUNT = "islands_counted"


@dataclass
class Encoding:
    """Variables and constraints of one puzzle, grouped by the rule they say (as text)."""

    puzzle: Nurikabe
    known: Deductions
    #: the SMT-LIB name of "cell ``i`` is black", per cell
    black_names: list[str]
    #: per clue, the cells its island can reach and the names of "the island holds it"
    island: dict[int, dict[int, str]]
    rules: dict[str, list[str]] = field(default_factory=dict)
    #: declarations of the connectivity rules' own variables (distances, root chains)
    helpers: list[str] = field(default_factory=list)
    wall_root: int | None = None

    def b(self, i: int) -> str:
        """The SMT-LIB name of "cell ``i`` is black"."""
        return self.black_names[i]

    def w(self, i: int) -> str:
        return f"(not {self.b(i)})"

    def has(self, k: int, i: int) -> str:
        """The SMT-LIB name of "clue ``k``'s island holds cell ``i``"."""
        return self.island[k][i]

    def add(self, rule: str, constraints: list[str]) -> None:
        self.rules.setdefault(rule, []).extend(constraints)

    def text(self, connectivity: bool = True, counted: bool = True) -> str:
        """Declarations and assertions (no ``check-sat``): every rule, or every rule but
        connectivity (what the lazy strategy starts from), with or without the
        white-region count (:func:`islands_counted`)."""
        names = list(self.black_names)
        names += [self.has(k, i) for k, cells in self.island.items() for i in cells]
        lines = [f"(declare-fun {n} () Bool)" for n in names]
        if connectivity:
            lines += self.helpers
        for rule, terms in self.rules.items():
            if (connectivity or rule not in CONNECTIVITY) and (counted or rule != COUNT):
                lines += [f"(assert {t})" for t in terms]
        return "\n".join(lines) + "\n"

    def terms(
        self, connectivity: bool = True, counted: bool = True, ctx: z3.Context | None = None
    ) -> list[z3.BoolRef]:
        """The assertions of :meth:`text` as Z3 terms (of ``ctx``)."""
        return parse_terms(self.text(connectivity, counted), ctx)

    def local(self) -> list[z3.BoolRef]:
        """Every rule but connectivity and the count: what the lazy strategy starts from."""
        return self.terms(connectivity=False, counted=False)

    def connectivity(self) -> list[z3.BoolRef]:
        """The connectivity rules alone."""
        return self.terms(counted=False)[len(self.local()) :]

    def black_vars(self, ctx: z3.Context | None = None) -> list[z3.BoolRef]:
        """ "Cell ``i`` is black" as Z3 terms of ``ctx``: made where a solver needs them,
        so that a search in a context of its own never builds Z3's main context."""
        return [z3.Bool(n, ctx) for n in self.black_names]

    def island_vars(self, ctx: z3.Context | None = None) -> dict[int, dict[int, z3.BoolRef]]:
        """ "Clue ``k``'s island holds cell ``i``" as Z3 terms of ``ctx``."""
        return {k: {i: z3.Bool(n, ctx) for i, n in c.items()} for k, c in self.island.items()}


def variables(puzzle: Nurikabe, known: Deductions) -> Encoding:
    name = [escape(n) for n in puzzle.graph.names]
    black_names = [f"black_{n}" for n in name]
    island_names = {
        k: {i: f"island_{name[k]}_has_{name[i]}" for i in sorted(cells)}
        for k, cells in known.reach.items()
    }
    return Encoding(puzzle, known, black_names, island_names)


def clues_are_white(enc: Encoding) -> None:
    enc.add("clues_are_white", [enc.has(k, k) for k in enc.puzzle.clues])


def deduced_cells(enc: Encoding) -> None:
    """The facts :func:`~.puzzle.deduce` proved, as unit constraints."""
    facts = [enc.b(i) for i in sorted(enc.known.black)]
    for i, k in sorted(enc.known.owner.items()):
        facts.append(enc.has(k, i) if i in enc.island[k] else "false")
    enc.add("deduced_cells", facts)


def one_clue_per_island(enc: Encoding) -> None:
    """A white cell is in exactly one island; a black cell in none."""
    out = []
    for i in range(len(enc.puzzle)):
        mine = [enc.has(k, i) for k in enc.known.owners(i)]
        out.append(f"(= {enc.w(i)} {or_(mine)})" if mine else enc.b(i))
        out.extend(f"(not (and {a} {b}))" for n, a in enumerate(mine) for b in mine[n + 1 :])
    enc.add("one_clue_per_island", out)


def islands_are_whole(enc: Encoding) -> None:
    """A white neighbour of an island's cell is in that island: islands never touch."""
    out = []
    nbrs = enc.puzzle.neighbours
    for k, cells in enc.island.items():
        for i in cells:
            for j in nbrs[i]:
                joins = enc.b(j) if j not in cells else f"(or {enc.b(j)} {enc.has(k, j)})"
                out.append(f"(=> {enc.has(k, i)} {joins})")
    enc.add("islands_are_whole", out)


def island_sizes(enc: Encoding) -> None:
    out = []
    for k, size in enc.puzzle.clues.items():
        if size is not None:
            out.append(f"(= {count([enc.has(k, i) for i in enc.island[k]])} {size})")
    enc.add("island_sizes", out)


def no_pools(enc: Encoding) -> None:
    enc.add("no_pools", [or_([enc.w(i) for i in pool]) for pool in enc.puzzle.pools])


def islands_connected(enc: Encoding) -> None:
    """Each island is a distance-to-clue region, no deeper than its size allows; its
    known cells joined to the clue through known cells have their distances fixed."""
    out: list[str] = []
    owners = enc.known.owner
    for k, cells in enc.island.items():
        if len(cells) == 1:
            continue
        size = enc.puzzle.clues[k]
        high = len(cells) - 1 if size is None else min(size, len(cells)) - 1
        member = {i: enc.has(k, i) for i in cells}
        prefix = f"island_{escape(enc.puzzle.graph.names[k])}"
        own = [i for i in cells if owners.get(i) == k]
        out += _region(enc, member, prefix, k, enc.known.reach[k], high, own)
    enc.add("islands_connected", out)


def _region(
    enc: Encoding,
    member: dict[int, str],
    prefix: str,
    root: int | None,
    low: dict[int, int],
    high: int,
    known: Collection[int] = (),
) -> list[str]:
    """One distance-to-root region (:mod:`smtpuzzles.connectivity`, "a nearer member"
    steps, ``known`` members), its helper variables declared in ``enc``."""
    graph = enc.puzzle.graph
    region = connected_smtlib(graph, member, prefix, root, high, step="less", low=low, known=known)
    enc.helpers.extend(region.declarations)
    return region.constraints


def wall_connected(enc: Encoding) -> None:
    """The wall is one distance-to-root region, rooted at a cell known to be black.

    A cell further from the root than the wall is long, or cut off from it by known
    white cells, is white. Known black cells joined to the root through known black
    cells have their distances fixed.
    """
    puzzle = enc.puzzle
    candidates = [i for i in range(len(puzzle)) if i not in enc.known.owner]
    size = wall_size(puzzle)
    if size is not None and size <= 1 or len(candidates) <= 1:
        return
    known_black = sorted(enc.known.black.intersection(candidates))
    enc.wall_root = known_black[0] if known_black else None
    high = len(candidates) - 1 if size is None else min(size, len(candidates)) - 1
    low: dict[int, int] = {}
    if enc.wall_root is not None:
        allowed = set(candidates)
        steps = distances_within(
            puzzle.neighbours, enc.wall_root, len(puzzle), allowed.__contains__
        )
        low = {i: steps.get(i, high + 1) for i in candidates}
    member = {i: enc.b(i) for i in candidates}
    enc.add("wall_connected", _region(enc, member, "wall", enc.wall_root, low, high, known_black))


def islands_counted(enc: Encoding) -> None:
    """On a plain rectangle, the white cells form exactly one region per clue.

    Redundant with the distances, and what solves puzzles of a few huge islands: the
    Euler characteristic of the white cells (cells, less white links, plus all-white 2x2
    blocks) is the number of white regions less the number of holes in them. Every
    hole holds a black cell, and with one connected wall the only possible hole is the
    whole wall, when it is not empty and touches no border cell. One linear equation, so
    the simplex sees a global count that the local rules never add up to (janko 0029,
    two islands of 36 and 37 cells: no answer in 240 s without it, 0.1 s with it).
    "The wall is not empty" is left out of the equation when the clues or the deductions
    already say so: written into it, it took 0029 back to no answer in 30 s.
    """
    puzzle = enc.puzzle
    graph = puzzle.graph
    if not puzzle.is_grid or len(puzzle) < 2:
        return
    white = [enc.w(i) for i in range(len(puzzle))]
    links = [f"(and {white[i]} {white[j]})" for i, j in graph.undirected_edges()]
    blocks = [and_([white[i] for i in block]) for block in graph.squares()]
    last_row, last_col = graph.rows - 1, graph.cols - 1
    border = [
        i for i, (r, c) in enumerate(graph.coords) if r in (0, last_row) or c in (0, last_col)
    ]
    walled = [] if enc.known.black or wall_size(puzzle) else [or_(enc.black_names)]
    enclosed = "false" if wall_size(puzzle) == 0 else and_([*(white[i] for i in border), *walled])
    euler = f"(+ {count(white)} (- {count(links)}) {count(blocks)} (ite {enclosed} 1 0))"
    enc.add("islands_counted", [f"(= {euler} {len(puzzle.clues)})"])


RULES = (
    clues_are_white,
    deduced_cells,
    one_clue_per_island,
    islands_are_whole,
    island_sizes,
    no_pools,
    islands_connected,
    wall_connected,
    islands_counted,
)


def encode(puzzle: Nurikabe, known: Deductions | None = None) -> Encoding:
    """Every rule of ``puzzle`` (connectivity included; :meth:`Encoding.local` drops it)."""
    enc = variables(puzzle, known or deduce(puzzle))
    for rule in RULES:
        rule(enc)
    return enc
