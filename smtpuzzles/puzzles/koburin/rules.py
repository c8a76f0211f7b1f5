"""The rules of Koburin as constraints, one function per rule of seeds/002.

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

Every rule is written as SMT-LIB terms (rule B's distances by
:func:`~smtpuzzles.connectivity.connected_smtlib`) and parsed by Z3 in one go: building
the same terms through Z3's Python API costs about ten times as long (0.1 to 0.3 s for a
12x12 puzzle, more than Z3 needs to solve it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import z3

from ...connectivity import RegionText, connected_smtlib
from ...smtlib import count, escape
from ...solving import parse_terms as parse_text
from .model import Koburin

Edge = tuple[int, int]


@dataclass
class Encoding:
    """The variables of one puzzle and its constraints grouped by rule."""

    puzzle: Koburin
    ctx: z3.Context | None = None  #: the Z3 context of every term (None: Z3's main one)
    black: dict[int, z3.BoolRef] = field(default_factory=dict)
    link: dict[Edge, z3.BoolRef] = field(default_factory=dict)
    incident: dict[int, list[Edge]] = field(default_factory=dict)
    rules: dict[str, list[z3.BoolRef]] = field(default_factory=dict)
    texts: dict[str, list[str]] = field(default_factory=dict)  #: the same, as SMT-LIB
    declarations: str | None = None  #: SMT-LIB declarations of the variables (cached)
    region: RegionText | None = None  #: rule B's distances, when they are encoded

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

    def assertions(self) -> list[z3.BoolRef]:
        return [c for constraints in self.rules.values() for c in constraints]


def declare(puzzle: Koburin, ctx: z3.Context | None = None) -> Encoding:
    """Rules A and H: a black variable per cell, a loop variable per link of empty cells."""
    enc = Encoding(puzzle, ctx)
    enc.black = {i: z3.Bool(enc.b(i), ctx) for i in range(len(puzzle.graph))}
    for e in puzzle.edges():
        enc.link[e] = z3.Bool(enc.v(e), ctx)
        enc.incident.setdefault(e[0], []).append(e)
        enc.incident.setdefault(e[1], []).append(e)
    return enc


def numbers_count_black_neighbours(enc: Encoding) -> list[str]:
    """C: a number equals the count of black cells it sees (``?`` says nothing)."""
    return [
        f"(= {count([enc.b(j) for j in enc.puzzle.counted[i]])} {number})"
        for i, number in sorted(enc.puzzle.clues.items())
        if number is not None
    ]


def numbered_cells_never_black(enc: Encoding) -> list[str]:
    """E: a numbered cell is not black (nor on the loop: it has no loop variables)."""
    return [f"(not {enc.b(i)})" for i in sorted(enc.puzzle.clues)]


def black_cells_never_touch(enc: Encoding) -> list[str]:
    """F: no two linked cells are both black."""
    clues = enc.puzzle.clues
    return [
        f"(not (and {enc.b(i)} {enc.b(j)}))"
        for i, j in enc.puzzle.undirected.undirected_edges()
        if i not in clues and j not in clues
    ]


def loop_degree_two(enc: Encoding) -> list[str]:
    """G, H: a loop cell has exactly two chosen links; a black cell has none."""
    constraints = []
    for i in enc.puzzle.empty:
        links = [enc.v(e) for e in enc.incident.get(i, [])]
        constraints.append(f"(=> (not {enc.b(i)}) (= {count(links)} 2))")
        constraints.extend(f"(=> {enc.b(i)} (not {v}))" for v in links)
    return constraints


def loop_exists(enc: Encoding) -> list[str]:
    """B: there is a loop: some empty cell is not black."""
    empty = enc.puzzle.empty
    if not empty:
        return ["false"]
    return [f"(or {' '.join(f'(not {enc.b(i)})' for i in empty)} false)"]


def loop_connected(enc: Encoding) -> list[str]:
    """B: every loop cell reaches the root (the loop cell of least index) over chosen
    links, each step closer (distance to a root; "closer" rather than "one closer": Z3's
    arithmetic solver finds such labels faster, measured in the README)."""
    member = {i: enc.on_loop(i) for i in enc.puzzle.empty}
    links = {e: enc.v(e) for e in enc.link}
    graph = enc.puzzle.undirected
    enc.region = connected_smtlib(graph, member, "loop", edges=links, step="less")
    return enc.region.constraints


def parse_terms(enc: Encoding, terms: list[str]) -> list[z3.BoolRef]:
    """Z3 terms from SMT-LIB text over the encoding's variables. The variables are
    declared in the text itself (Z3 gives a name and sort one declaration, so they are
    the same terms): passing them as ``decls`` costs more than parsing."""
    if not terms:
        return []
    if enc.declarations is None:
        names = [enc.b(i) for i in enc.black] + [enc.v(e) for e in enc.link]
        enc.declarations = "".join(f"(declare-fun {n} () Bool)\n" for n in names)
        if enc.region is not None:
            enc.declarations += "".join(f"{d}\n" for d in enc.region.declarations)
    text = enc.declarations + "".join(f"(assert {t})\n" for t in terms)
    return parse_text(text, enc.ctx)


def _parse(enc: Encoding, rules: dict[str, list[str]]) -> None:
    """Parse every rule's terms at once and file the results under their rules."""
    enc.texts.update(rules)
    parsed = parse_terms(enc, [t for terms in rules.values() for t in terms])
    at = 0
    for name, terms in rules.items():
        enc.rules[name] = parsed[at : at + len(terms)]
        at += len(terms)


def encode(
    puzzle: Koburin, connectivity: str = "distance", ctx: z3.Context | None = None
) -> Encoding:
    """All rules; with ``connectivity="lazy"`` rule B's distances are left out (the
    solver then adds cuts against separate loops as it finds them)."""
    enc = declare(puzzle, ctx)
    rules = {
        "C numbers count black neighbours": numbers_count_black_neighbours(enc),
        "E numbered cells never black": numbered_cells_never_black(enc),
        "F black cells never touch": black_cells_never_touch(enc),
        "G/H loop degree two": loop_degree_two(enc),
        "B loop exists": loop_exists(enc),
    }
    if connectivity == "distance":
        rules["B loop connected"] = loop_connected(enc)
    _parse(enc, rules)
    return enc
