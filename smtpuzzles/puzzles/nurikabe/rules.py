"""The Nurikabe formula: each rule a small function returning its commented block.

Variables: ``black_<cell>`` for every cell, and ``island_<clue>_has_<cell>`` for every
cell within a clue's breadth-first reach (:func:`reach`: within its size less one steps,
through cells no other clue claims): a white cell belongs to exactly one island. Islands
are distance-to-clue regions, the wall one distance-to-root region
(``island_<clue>_dist_<cell>``, ``wall_dist_<cell>``); the lazy strategy leaves those two
rules out and adds cuts instead (:mod:`.search`).

Every rule is stated whatever presolving proved, the distance-to-root connectivity
included. Presolving (:mod:`.presolve`: deductions, hypotheses, a detour's search) only
narrows the variables (an island's variables range over the reach it left, the wall is
rooted at a cell it proved black) and states what it proved after the rules as a block
of unit facts (:func:`facts`); the answer is the same with or without it. The text is
what Z3 parses (in one go: its parser builds terms in C, about ten times faster than
the Python API term by term) and what ``--print-asserts`` prints.

Both regions come from :func:`smtpuzzles.connectivity.connected_smtlib` with its "nearer"
step (every member but the root has a member neighbour with a smaller distance): any
chain of strictly decreasing distances ends at the root, and inequalities are lighter for
the simplex than "exactly one more". Each distance is bounded by the reach: at least
the cell's least distance from its clue (or the wall's given root), at most the island's
size less one (or the number of cells the wall can have less one).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ... import z3lazy as z3
from ...connectivity import connected_smtlib
from ...engines import parse_terms
from ...errors import InputError
from ...smtlib import Block, Script, and_, count, escape, or_
from .model import NurikabeInstance
from .presolve.deduce import Deductions, _reach, distances_within, wall_size

#: Presolve levels: ``none`` gives the solver the rules alone; ``full`` adds what the
#: deductions, hypotheses and the detours' searches prove.
PRESOLVE = ("none", "full")

CONNECTIVITY_RULES = ("islands connected", "wall connected")
#: The redundant count of white regions, which the search uses only at first (see
#: :data:`~.search.PHASES`).
COUNT = "islands counted"


#: The most (clue, cell) pairs the island variables may number: as many as the largest
#: grid has cells. Each pair is a few variables and assertions, so a formula beyond it
#: (a large grid with many ``?`` clues, each of whose islands could reach every cell)
#: would not fit in memory; the largest published puzzles need a few thousand.
MAX_ISLAND_CELLS = 250_000


def reach(puzzle: NurikabeInstance) -> Deductions:
    """The breadth-first reach of every clue, and nothing else: the cells within its size
    less one steps through cells that are neither another clue nor beside one (a ``?``
    clue: any number of steps). What defines the island variables; no cell decided.
    Refuses a puzzle whose reaches add up to more than :data:`MAX_ISLAND_CELLS`."""
    claims: dict[int, int] = {}
    for k in puzzle.clues:
        for j in (k, *puzzle.neighbours[k]):
            claims[j] = k if claims.get(j, k) == k else -1
    cells = {}
    total = 0
    for k, size in puzzle.clues.items():
        limit = len(puzzle) if size is None else size - 1
        cells[k] = _reach(puzzle.neighbours, k, limit, set(), claims)
        total += len(cells[k])
        if total > MAX_ISLAND_CELLS:
            raise InputError(
                f"too large to encode: its islands could cover more than {MAX_ISLAND_CELLS} "
                "(clue, cell) pairs (each '?' clue may reach every cell); give fewer '?' "
                "clues or a smaller grid",
                puzzle.name,
            )
    return Deductions(cells, set(), {k: k for k in puzzle.clues})


@dataclass
class Encoding:
    """Variables and rules of one puzzle (as blocks of text), and the facts presolving
    proved (``known``; the plain reach when nothing was presolved)."""

    puzzle: NurikabeInstance
    #: the reach of every clue, which defines the island variables: the plain
    #: breadth-first reach, or what presolving left of it
    base: Deductions
    known: Deductions  #: what presolving proved (``base`` itself under ``none``)
    presolved: bool = False  #: ``known`` came from presolving (its facts are stated)
    #: the SMT-LIB name of "cell ``i`` is black", per cell
    black_names: list[str] = field(default_factory=list)
    #: per clue, the cells its island can reach and the names of "the island holds it"
    island: dict[int, dict[int, str]] = field(default_factory=dict)
    blocks: dict[str, Block] = field(default_factory=dict)
    #: per region (a clue, or ``WALL``), each cell's distance term and the region's bounds
    dist: dict[int, tuple[dict[int, str], int]] = field(default_factory=dict)
    #: the wall's given root, a cell presolving proved black (the lazy cuts keep its piece)
    wall_root: int | None = None

    def b(self, i: int) -> str:
        """The SMT-LIB name of "cell ``i`` is black"."""
        return self.black_names[i]

    def w(self, i: int) -> str:
        return f"(not {self.b(i)})"

    def has(self, k: int, i: int) -> str:
        """The SMT-LIB name of "clue ``k``'s island holds cell ``i``"."""
        return self.island[k][i]

    def declarations(self) -> list[str]:
        names = list(self.black_names)
        names += [self.has(k, i) for k, cells in self.island.items() for i in cells]
        return [f"(declare-fun {n} () Bool)" for n in names]

    def script(
        self, title: Sequence[str] = (), connectivity: bool = True, counted: bool = True
    ) -> Script:
        """The rules (all, or all but connectivity and/or the white-region count) and
        the facts, as one :class:`~smtpuzzles.smtlib.Script`."""
        kept = [
            b
            for name, b in self.blocks.items()
            if (connectivity or name not in CONNECTIVITY_RULES) and (counted or name != COUNT)
        ]
        return Script(
            title=list(title),
            legend=legend(self),
            declarations=self.declarations(),
            blocks=kept,
            facts=facts(self, connectivity),
        )

    def text(self, connectivity: bool = True, counted: bool = True) -> str:
        """Declarations and assertions (no ``check-sat``) of :meth:`script`."""
        return self.script((), connectivity, counted).body()

    def terms(
        self, connectivity: bool = True, counted: bool = True, ctx: z3.Context | None = None
    ) -> list[z3.BoolRef]:
        """The assertions of :meth:`text` as Z3 terms (of ``ctx``)."""
        return parse_terms(self.text(connectivity, counted), ctx)

    def black_vars(self, ctx: z3.Context | None = None) -> list[z3.BoolRef]:
        """ "Cell ``i`` is black" as Z3 terms of ``ctx``: made where a solver needs them,
        so that a search in a context of its own never builds Z3's main context."""
        return [z3.Bool(n, ctx) for n in self.black_names]

    def island_vars(self, ctx: z3.Context | None = None) -> dict[int, dict[int, z3.BoolRef]]:
        """ "Clue ``k``'s island holds cell ``i``" as Z3 terms of ``ctx``."""
        return {k: {i: z3.Bool(n, ctx) for i, n in c.items()} for k, c in self.island.items()}


def variables(puzzle: NurikabeInstance, base: Deductions, known: Deductions | None) -> Encoding:
    name = [escape(n) for n in puzzle.graph.names]
    black_names = [f"black_{n}" for n in name]
    island_names = {
        k: {i: f"island_{name[k]}_has_{name[i]}" for i in sorted(cells)}
        for k, cells in base.reach.items()
    }
    presolved = known is not None
    return Encoding(puzzle, base, known or base, presolved, black_names, island_names)


def legend(enc: Encoding) -> list[str]:
    """What each variable family means, in the puzzle's cell names."""
    names = enc.puzzle.graph.names
    lines = [
        "black_<cell> (Bool): the cell is black (part of the wall)",
        "island_<clue>_has_<cell> (Bool): the cell is white and in the island of that clue",
        "island_<clue>_dist_<cell> (Int): steps from the clue inside its island",
        "wall_dist_<cell> (Int): steps from the wall's root inside the wall",
        "wall_none_before_<k> (Bool): no black cell among the first k wall candidates",
    ]
    if enc.puzzle.is_grid:
        lines.append("cells are named r<row>c<col> from r0c0 at the top left")
    for k, cells in enc.island.items():
        size = enc.puzzle.clues[k]
        shown = " ".join(escape(names[i]) for i in cells)
        lines.append(f"clue {escape(names[k])} ({'?' if size is None else size}): {shown}")
    return lines


def clues_are_white(enc: Encoding) -> Block:
    return Block(
        "clues are white",
        "A clue's cell is white and in its own island.",
        [enc.has(k, k) for k in enc.puzzle.clues],
    )


def one_clue_per_island(enc: Encoding) -> Block:
    """A white cell is in exactly one island; a black cell in none."""
    out = []
    for i in range(len(enc.puzzle)):
        mine = [enc.has(k, i) for k in enc.base.owners(i)]
        out.append(f"(= {enc.w(i)} {or_(mine)})" if mine else enc.b(i))
        out.extend(f"(not (and {a} {b}))" for n, a in enumerate(mine) for b in mine[n + 1 :])
    return Block(
        "one clue per island",
        "A cell is white exactly when some island holds it, and no two islands hold the"
        " same cell; a cell no clue reaches is black.",
        out,
    )


def islands_are_whole(enc: Encoding) -> Block:
    """A white neighbour of an island's cell is in that island: islands never touch."""
    out = []
    nbrs = enc.puzzle.neighbours
    for k, cells in enc.island.items():
        for i in cells:
            for j in nbrs[i]:
                joins = enc.b(j) if j not in cells else f"(or {enc.b(j)} {enc.has(k, j)})"
                out.append(f"(=> {enc.has(k, i)} {joins})")
    return Block(
        "islands are whole",
        "A neighbour of an island's cell is black or in the same island: islands never touch.",
        out,
    )


def island_sizes(enc: Encoding) -> Block:
    out = []
    for k, size in enc.puzzle.clues.items():
        if size is not None:
            out.append(f"(= {count([enc.has(k, i) for i in enc.island[k]])} {size})")
    return Block("island sizes", "Each island has as many cells as its clue says.", out)


def no_pools(enc: Encoding) -> Block:
    return Block(
        "no pools",
        "Every 2x2 block (every pool of the adjacency table) has a white cell.",
        [or_([enc.w(i) for i in pool]) for pool in enc.puzzle.pools],
    )


def islands_connected(enc: Encoding) -> Block:
    """Each island is a distance-to-clue region, no deeper than its size allows."""
    out: list[str] = []
    declared: list[str] = []
    for k, cells in enc.island.items():
        if len(cells) == 1:
            continue
        size = enc.puzzle.clues[k]
        high = len(cells) - 1 if size is None else min(size, len(cells)) - 1
        member = {i: enc.has(k, i) for i in cells}
        prefix = f"island_{escape(enc.puzzle.graph.names[k])}"
        region = connected_smtlib(
            enc.puzzle.graph, member, prefix, k, high, step="less", low=enc.base.reach[k]
        )
        declared += region.declarations
        out += region.constraints
        enc.dist[k] = (region.dist, high)
    return Block(
        "islands connected",
        "Distance to the clue: the clue is at 0, and every other cell of an island has a"
        " neighbour in the island at a smaller distance, at most the size less one.",
        out,
        declared,
    )


def wall_connected(enc: Encoding) -> Block:
    """The wall is one distance-to-root region: rooted at the black cell of least index,
    or under presolving at the first cell it proved black (the root is then the constant
    0, and cells it proved white are no candidates).

    Its distances are at least a cell's steps from a given root through the candidates,
    at most the number of cells the wall has less one.
    """
    puzzle = enc.puzzle
    white = enc.known.owner if enc.presolved else puzzle.clues
    candidates = [i for i in range(len(puzzle)) if i not in white]
    size = wall_size(puzzle)
    known_black = sorted(enc.known.black.intersection(candidates)) if enc.presolved else []
    root = known_black[0] if known_black else None
    if root is None:
        says = (
            "Distance to a root: the black cell of least index is the root at 0, and every"
            " other black cell has a black neighbour at a smaller distance."
        )
    else:
        name = escape(puzzle.graph.names[root])
        says = (
            f"Distance to a root: {name}, a cell presolving proved black, is the root at 0,"
            " and every other black cell has a black neighbour at a smaller distance."
        )
    if size is not None and size <= 1 or len(candidates) <= 1:
        return Block("wall connected", says + " (At most one cell: always connected.)")
    high = len(candidates) - 1 if size is None else min(size, len(candidates)) - 1
    low: dict[int, int] = {}
    if root is not None:
        allowed = set(candidates)
        steps = distances_within(puzzle.neighbours, root, len(puzzle), allowed.__contains__)
        low = {i: steps.get(i, high + 1) for i in candidates}
    member = {i: enc.b(i) for i in candidates}
    region = connected_smtlib(puzzle.graph, member, "wall", root, high, step="less", low=low)
    enc.dist[WALL] = (region.dist, high)
    enc.wall_root = root
    return Block("wall connected", says, region.constraints, region.declarations)


def islands_counted(enc: Encoding) -> Block:
    """On a plain rectangle, the white cells form exactly one region per clue.

    Redundant with the distances, and what solves puzzles of a few huge islands: the
    Euler characteristic of the white cells (cells, less white links, plus all-white 2x2
    blocks) is the number of white regions less the number of holes in them. Every
    hole holds a black cell, and with one connected wall the only possible hole is the
    whole wall, when it is not empty and touches no border cell. One linear equation, so
    the simplex sees a global count that the local rules never add up to (what decides
    puzzles of two or three huge islands; docs/decisions.md).
    """
    puzzle = enc.puzzle
    graph = puzzle.graph
    says = (
        "Redundant: white cells less white links plus all-white 2x2 blocks (plus one when"
        " the wall is enclosed) equals the number of clues: one white region per clue."
    )
    if not puzzle.is_grid or len(puzzle) < 2:
        return Block(COUNT, says + " (Only on plain rectangles.)")
    white = [enc.w(i) for i in range(len(puzzle))]
    links = [f"(and {white[i]} {white[j]})" for i, j in graph.undirected_edges()]
    blocks = [and_([white[i] for i in block]) for block in graph.squares()]
    last_row, last_col = graph.rows - 1, graph.cols - 1
    border = [
        i for i, (r, c) in enumerate(graph.coords) if r in (0, last_row) or c in (0, last_col)
    ]
    walled = [] if wall_size(puzzle) else [or_(enc.black_names)]
    enclosed = "false" if wall_size(puzzle) == 0 else and_([*(white[i] for i in border), *walled])
    euler = f"(+ {count(white)} (- {count(links)}) {count(blocks)} (ite {enclosed} 1 0))"
    return Block(COUNT, says, [f"(= {euler} {len(puzzle.clues)})"])


#: The key of the wall's distances in :attr:`Encoding.dist`.
WALL = -1


def _labels(enc: Encoding, region: int, root: int, members: set[int]) -> list[str]:
    """Distances for the known members joined to ``root`` through known members: their
    steps from it inside that part (where those fit the region's bounds)."""
    names, high = enc.dist.get(region, ({}, 0))
    nbrs = enc.puzzle.neighbours
    steps, queue = {root: 0}, deque([root])
    while queue:
        i = queue.popleft()
        for j in nbrs[i]:
            if j in members and j not in steps:
                steps[j] = steps[i] + 1
                queue.append(j)
    low = enc.base.reach.get(region, {})
    return [
        f"(= {names[i]} {d})"
        for i, d in sorted(steps.items())
        if i != root and i in names and not names[i].isdigit() and low.get(i, 0) <= d <= high
    ]


def facts(enc: Encoding, labels: bool = True) -> Block | None:
    """What presolving proved, as unit assertions: cells known black and cells known in
    an island (cells it proved out of an island's reach have no variable: see
    :func:`encode`); then distance labels of the
    known cells (steps from the root through known cells: not implied, one labelling
    of the many every solution has, which keeps the answer; left out with ``labels``
    false, for a formula without the connectivity rules)."""
    known = enc.known
    if not enc.presolved:
        return None
    out = [enc.b(i) for i in sorted(known.black)]
    for i, k in sorted(known.owner.items()):
        if i != k:
            out.append(enc.has(k, i) if i in enc.island[k] else "false")
    for k in enc.island if labels else ():
        mine = {i for i, o in known.owner.items() if o == k}
        out += _labels(enc, k, k, mine)
    if labels and enc.wall_root is not None:
        out += _labels(enc, WALL, enc.wall_root, known.black)
    return Block(
        "presolve facts",
        "Proved before the solver ran (deductions, hypotheses, searches). The cells are"
        " implied by the rules above; the distances are one labelling that every solution"
        " has. The answer is the same without them.",
        out,
    )


#: Every rule, in the order the script states them.
RULES: tuple[Callable[[Encoding], Block], ...] = (
    clues_are_white,
    one_clue_per_island,
    islands_are_whole,
    island_sizes,
    no_pools,
    islands_connected,
    wall_connected,
    islands_counted,
)


def encode(puzzle: NurikabeInstance, known: Deductions | None = None) -> Encoding:
    """Every rule of ``puzzle``, and the facts ``known`` (none when it is ``None``).

    The island variables range over each clue's reach: the plain breadth-first reach
    (:func:`reach`), or the reach presolving left (``known``): a cell it proved out of
    an island's reach has no variable for it, so every rule is over fewer variables,
    which the solver reads and searches faster."""
    enc = variables(puzzle, reach(puzzle) if known is None else known, known)
    for rule in RULES:
        block = rule(enc)
        enc.blocks[block.rule] = block
    return enc
