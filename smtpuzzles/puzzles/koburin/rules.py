"""The rules of Koburin as constraints, one function per rule (A to H).

A  Paint some empty white cells black:        ``black_<cell>`` for every cell.
B  One closed loop through all other cells:   :func:`loop_exists`, :func:`loop_connected`.
C  A number counts its black neighbours:      :func:`numbers_count_black_neighbours`.
D  Black cells may be away from numbers:      nothing ties a black cell to a number.
E  Numbered cells are never painted black:    :func:`numbered_cells_never_black`.
F  Black cells never touch orthogonally:      :func:`black_cells_never_touch`.
G  The loop never crosses or branches:        :func:`loop_degree_two`.
H  Loop sections join neighbouring cells:     ``loop_<a>_<b>`` only for linked cells,
                                              one variable per link, so "linked back" holds.

A cell is on the loop exactly when it has no number and is not black. G and H together
say every loop cell has exactly two chosen links and every other cell none; B adds that
the chosen links form one piece (distance to a root over chosen links, from
:mod:`smtpuzzles.connectivity`), which makes them a single cycle.

Every rule is a function returning its :class:`~smtpuzzles.smtlib.Block` of SMT-LIB
(rule B's distances by :func:`~smtpuzzles.connectivity.connected_smtlib`); :data:`RULES`
lists them. :func:`script` puts them together, and that text is what Z3 parses (in one
go: building the same terms through Z3's Python API costs about ten times as long) and
what ``--print-asserts`` prints. Koburin has no presolving: every choice of
:data:`PRESOLVE` gives the same formula.

Explanations ask many small questions of a SAT solver: they add G and H summed along
each row and column line (:func:`loop_crosses_lines_evenly`), and give B by its cuts
(see :mod:`.explain`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ... import z3lazy as z3
from ...connectivity import RegionText, connected_smtlib
from ...engines import parse_terms
from ...smtlib import Block, Script, count, escape, not_
from .model import KoburinInstance

Edge = tuple[int, int]

#: The presolve levels a search accepts; Koburin proves nothing before the solver runs.
PRESOLVE = ("none", "full")


@dataclass
class Encoding:
    """The variables of one puzzle and its rules as blocks of SMT-LIB."""

    puzzle: KoburinInstance
    link: list[Edge] = field(default_factory=list)
    incident: dict[int, list[Edge]] = field(default_factory=dict)
    blocks: dict[str, Block] = field(default_factory=dict)  #: by rule name, in order
    region: RegionText | None = None  #: rule B's distances, once encoded

    def b(self, cell: int) -> str:
        """The SMT-LIB name of "cell is black"."""
        return f"black_{escape(self.puzzle.graph.names[cell])}"

    def v(self, edge: Edge) -> str:
        """The SMT-LIB name of "the loop uses this link"."""
        names = self.puzzle.graph.names
        return f"loop_{escape(names[edge[0]])}_{escape(names[edge[1]])}"

    def on_loop(self, cell: int) -> str:
        """A cell is on the loop iff it has no number and is not black."""
        return "false" if cell in self.puzzle.clues else f"(not {self.b(cell)})"

    def declarations(self) -> list[str]:
        """``declare-fun`` lines of the black and loop variables."""
        names = [self.b(i) for i in range(len(self.puzzle.graph))]
        names += [self.v(e) for e in self.link]
        return [f"(declare-fun {n} () Bool)" for n in names]

    def script(self, title: Sequence[str] = ()) -> Script:
        """Every rule encoded so far as one script (see :func:`script`)."""
        return Script(
            title=list(title),
            legend=legend(self),
            declarations=self.declarations(),
            blocks=list(self.blocks.values()),
        )

    def assertions(self, ctx: z3.Context | None = None) -> list[z3.BoolRef]:
        """The rules as Z3 terms, parsed from the script's text (for sizes and tests)."""
        return parse_terms(self.script().body(), ctx)


def declare(puzzle: KoburinInstance) -> Encoding:
    """Rules A and H: a black variable per cell, a loop variable per link of empty cells."""
    enc = Encoding(puzzle)
    enc.link = list(puzzle.edges())
    for e in enc.link:
        enc.incident.setdefault(e[0], []).append(e)
        enc.incident.setdefault(e[1], []).append(e)
    return enc


def legend(enc: Encoding) -> list[str]:
    """What each variable family means, in the puzzle's cell names."""
    names = enc.puzzle.graph.names
    example = names[0] if names else "r0c0"
    return [
        f"black_<cell> (Bool): the cell is painted black, e.g. black_{escape(example)}",
        "loop_<a>_<b> (Bool): the loop runs between neighbouring cells a and b",
        "loop_dist_<cell> (Int): steps along the loop's links from its root (rule B)",
        "loop_none_before_<k> (Bool): no loop cell among the first k empty cells (the root"
        " is the first loop cell)",
        "cells are named r<row>c<col> from r0c0 at the top left (tables: their own names)",
    ]


def numbers_count_black_neighbours(enc: Encoding) -> Block:
    """C: a number equals the count of black cells it sees (``?`` says nothing)."""
    terms = [
        f"(= {count([enc.b(j) for j in enc.puzzle.counted[i]])} {number})"
        for i, number in sorted(enc.puzzle.clues.items())
        if number is not None
    ]
    return Block(
        "C numbers count black neighbours",
        "Each number equals how many of the cells it sees are black.",
        terms,
    )


def numbered_cells_never_black(enc: Encoding) -> Block:
    """E: a numbered cell is not black (nor on the loop: it has no loop variables)."""
    return Block(
        "E numbered cells never black",
        "A numbered cell is not painted black (and has no loop links).",
        [f"(not {enc.b(i)})" for i in sorted(enc.puzzle.clues)],
    )


def black_cells_never_touch(enc: Encoding) -> Block:
    """F: no two linked cells are both black."""
    clues = enc.puzzle.clues
    terms = [
        f"(not (and {enc.b(i)} {enc.b(j)}))"
        for i, j in enc.puzzle.undirected.undirected_edges()
        if i not in clues and j not in clues
    ]
    return Block("F black cells never touch", "No two neighbouring cells are both black.", terms)


def loop_degree_two(enc: Encoding) -> Block:
    """G, H: a loop cell has exactly two chosen links; a black cell has none."""
    terms = []
    for i in enc.puzzle.empty:
        links = [enc.v(e) for e in enc.incident.get(i, [])]
        terms.append(f"(=> (not {enc.b(i)}) (= {count(links)} 2))")
        terms.extend(f"(=> {enc.b(i)} (not {v}))" for v in links)
    return Block(
        "G/H loop degree two",
        "An empty cell that is not black has exactly two loop links (the loop neither"
        " crosses nor branches); a black cell has none.",
        terms,
    )


def loop_exists(enc: Encoding) -> Block:
    """B: there is a loop: some empty cell is not black."""
    empty = enc.puzzle.empty
    term = f"(or {' '.join(f'(not {enc.b(i)})' for i in empty)} false)" if empty else "false"
    return Block("B loop exists", "Some empty cell is not black: there is a loop.", [term])


def loop_connected(enc: Encoding) -> Block:
    """B: every loop cell reaches the root (the loop cell of least index) over chosen
    links, each step closer (distance to a root; "closer" rather than "one closer": Z3's
    arithmetic solver finds such labels faster, measured in the README)."""
    member = {i: enc.on_loop(i) for i in enc.puzzle.empty}
    links = {e: enc.v(e) for e in enc.link}
    graph = enc.puzzle.undirected
    enc.region = connected_smtlib(graph, member, "loop", edges=links, step="less")
    return Block(
        CONNECTED,
        "The loop is one piece: its first cell is the root at distance 0, and every other"
        " loop cell has a linked loop neighbour at a smaller distance.",
        enc.region.constraints,
        enc.region.declarations,
    )


#: The name of rule B's distance block, which the lazy strategy leaves to cuts.
CONNECTED = "B loop connected"


#: The name of the parity rule explanations add (:func:`loop_crosses_lines_evenly`).
EVEN = "G/H the loop crosses each line between rows or columns an even number of times"


def loop_crosses_lines_evenly(enc: Encoding) -> Block:
    """G and H, summed, for explanations: the links of a closed loop that leave the
    cells above a line between two rows (left of one between two columns) are even in
    number, since each cell on the loop has two links and a link inside counts twice.
    The solver cannot add degrees up itself; stated as parities, it propagates them."""
    graph = enc.puzzle.graph
    terms = []
    for axis, size in ((0, graph.rows), (1, graph.cols)):
        if graph.coords is None or size is None:
            continue
        for line in range(size - 1):
            side = {i for i, at in enumerate(graph.coords) if at[axis] <= line}
            crossing = [enc.v(e) for e in enc.link if (e[0] in side) != (e[1] in side)]
            if len(crossing) == 1:
                terms.append(not_(crossing[0]))
            elif crossing:
                terms.append(f"(not (xor {' '.join(crossing)}))")
    return Block(
        EVEN,
        "Each loop cell has two links, so the loop's links that cross a line between two"
        " rows or two columns are even in number.",
        terms,
    )


#: Every rule, in the order the script states them.
RULES: tuple[Callable[[Encoding], Block], ...] = (
    numbers_count_black_neighbours,
    numbered_cells_never_black,
    black_cells_never_touch,
    loop_degree_two,
    loop_exists,
    loop_connected,
)


def encode(
    puzzle: KoburinInstance, connectivity: str = "distance", presolve: str = "full"
) -> Encoding:
    """Every rule of ``puzzle``; with ``connectivity="lazy"`` rule B's distances are left
    out (the lazy search adds cuts instead). ``presolve``: see :data:`PRESOLVE`."""
    if presolve not in PRESOLVE:
        raise ValueError(f"unknown presolve {presolve!r}; expected one of {PRESOLVE}")
    enc = declare(puzzle)
    for rule in RULES:
        if connectivity == "lazy" and rule is loop_connected:
            continue
        block = rule(enc)
        enc.blocks[block.rule] = block
    return enc


def script(puzzle: KoburinInstance, presolve: str = "full", title: Sequence[str] = ()) -> Script:
    """The whole formula of ``puzzle`` (rule B by distances) as a
    :class:`~smtpuzzles.smtlib.Script`."""
    return encode(puzzle, "distance", presolve).script(title)
