"""Solving Koburin: one solution, a proof of uniqueness, or a count of solutions.

Solutions are told apart by their loop links alone (the links fix which cells are on the
loop, hence which are black), so different distance labellings of one picture count
once. Every solution passes :mod:`.check` before it is returned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ... import runner
from ... import z3lazy as z3
from ...engines import Stats, new_solver, parse_into
from ...limits import Budget
from ...outcome import Outcome
from ...smtlib import Block, Script
from .check import problems, walk_loop
from .model import KoburinInstance, Solution
from .rules import CONNECTED, Encoding, encode

#: ``lazy`` (the default; faster on the janko corpus and the 30x30): solve without rule B's
#: distances and forbid each separate loop found, until one loop is left;
#: ``distance``: rule B as distances to a root (one formula, solved once).
CONNECTIVITY = ("lazy", "distance")

#: Rounds of cuts after which a lazy search gives the solver rule B's distances after
#: all. On puzzles with few numbers (mostly empty grids) separate loops can be formed in
#: so many ways that cuts alone take minutes (a 70x3 grid with two numbers: over 10,000
#: rounds), where the distances answer in a second; puzzles of the corpora need a
#: handful of rounds.
LAZY_ROUNDS = 50

#: The Z3 engine each strategy is fastest with (measured on the janko corpus): lazy cuts
#: are pure Boolean, so the SAT engine; distances are difference constraints, which the
#: SMT engine's arithmetic handles better than bit-blasting.
ENGINE = {"lazy": "sat", "distance": "smt"}

#: A Boolean variable set true in a model's SMT-LIB text.
_TRUE = re.compile(r"\(define-fun (\S+) \(\) Bool\s+true\)")


class Search(runner.Search[Solution]):
    """One incremental solver over one encoding, and the hooks the runner
    (:mod:`smtpuzzles.runner`) asks for checked solutions.

    The solver reads the text of :attr:`script`: every rule (with ``lazy``
    connectivity all but rule B's distances), then each cut and each forbidden
    solution as a block of its own."""

    def __init__(
        self,
        puzzle: KoburinInstance,
        connectivity: str = "lazy",
        engine: str | None = None,
        ctx: z3.Context | None = None,
        presolve: str = "full",
    ):
        if connectivity not in CONNECTIVITY:
            raise ValueError(f"unknown connectivity {connectivity!r}")
        self.puzzle = puzzle
        self.connectivity = connectivity
        self.lazy = connectivity == "lazy"
        self.ctx = ctx
        self.enc: Encoding = encode(puzzle, presolve=presolve)
        title = [
            f"Koburin: {len(puzzle.graph)} cells, {len(puzzle.clues)} numbers",
            f"connectivity {connectivity}",
        ]
        if self.lazy:
            title.append(
                f"solved lazily: the solver read every block but '{CONNECTED}', and the cuts"
            )
        self.rules: Script = self.enc.script(title)
        self.added: list[Block] = []  #: cuts and forbidden solutions, in order
        self.solver = new_solver(engine or ENGINE[connectivity], ctx)
        fed = replace(
            self.rules,
            blocks=[b for b in self.rules.blocks if not (self.lazy and b.rule == CONNECTED)],
        )
        parse_into(self.solver, fed.body())
        self.cuts = 0
        self.rounds = 0  #: rounds of cuts so far

    def script(self, upto: int | None = None) -> Script:
        """The question the solver now answers: every rule (rule B's distances
        included), then the cuts and forbidden solutions added so far (``upto``: only
        the first that many)."""
        return self.rules.asking(self.added[:upto])

    def next(
        self, budget: Budget, stats: Stats | None, assumptions: Sequence[str] = ()
    ) -> Solution | str:
        """The next solution, or ``"unsat"`` / ``"unknown"``."""
        found = runner.find(self, budget, stats, assumptions)
        return "unsat" if found is None else found

    # -- the runner's hooks ----------------------------------------------------------------

    def ready(self, assumptions: Sequence[str]) -> None:
        """After :data:`LAZY_ROUNDS` rounds of cuts, rule B's distances join the solver."""
        if self.lazy and self.rounds >= LAZY_ROUNDS:
            self.add_distances()

    def label(self, stats: Stats | None) -> str:
        return f"solution {len(stats.probes) + 1 if stats else ''}".strip()

    def decode(self, model: z3.ModelRef) -> Solution:
        return self.read(model)

    def cut(self, model: z3.ModelRef, solution: Solution) -> Block | None:
        """With ``lazy``: cuts against the separate loops of the model."""
        pieces = walk_loop(solution.edges)
        if not self.lazy or len(pieces) <= 1:
            return None
        self.cuts += len(pieces)
        self.rounds += 1
        return self.separate_loop_cuts(pieces)

    def problems(self, solution: Solution) -> list[str]:
        return problems(self.puzzle, solution.black, solution.edges, solution.loop())

    def cells(self, solution: Solution) -> dict[int, bool]:
        """Empty cells, black (``True``) or on the loop (``False``)."""
        return {i: i in solution.black for i in self.puzzle.empty}

    def add_distances(self) -> None:
        """Go on with rule B's distances, left out so far, on a new solver of the engine
        distances are fastest with: it reads every rule, the cuts and the forbidden
        solutions (the script of a question, unchanged), and every model has one loop."""
        self.solver = new_solver(ENGINE["distance"], self.ctx)
        parse_into(self.solver, self.script().body())
        self.lazy = False

    def read(self, model: z3.ModelRef) -> Solution:
        """The picture of a model, read from its SMT-LIB text (one call into Z3 instead
        of one per variable; a variable the model leaves out is false)."""
        true = {name.strip("|") for name in _TRUE.findall(model.sexpr())}
        enc = self.enc
        black = frozenset(i for i in self.puzzle.empty if enc.b(i) in true)
        links = frozenset(e for e in enc.link if enc.v(e) in true)
        return Solution(black, links)

    def block(self, solution: Solution) -> None:
        """Forbid this picture: some link must differ."""
        self.add(
            Block(
                "a solution found, forbidden",
                "Some loop link differs from the solution found before.",
                [blocking_term(self.enc, solution)],
            )
        )

    def separate_loop_cuts(self, pieces: list[list[int]]) -> Block:
        """A loop through a piece that is not the whole loop must leave it: if a cell of
        the piece is on the loop and a cell outside is too, a link crosses the border."""
        enc = self.enc
        texts = []
        for cells in pieces:
            piece = set(cells)
            crossing = [enc.v(e) for e in enc.link if (e[0] in piece) != (e[1] in piece)]
            outside = [enc.b(i) for i in self.puzzle.empty if i not in piece]
            all_black = f"(and {' '.join(outside)} true)"
            texts.append(f"(or {' '.join(crossing)} {enc.b(min(piece))} {all_black})")
        return Block(
            "B cuts against separate loops",
            "Implied by rule B: a loop through one of these pieces leaves it by some link,"
            " unless the piece's first cell is black or every cell outside is.",
            texts,
        )


def blocking_term(enc: Encoding, solution: Solution) -> str:
    """SMT-LIB for "not this picture": some loop link differs."""
    differ = [f"(not {enc.v(e)})" if e in solution.edges else enc.v(e) for e in enc.link]
    return f"(or {' '.join(differ)} false)"


def solve(
    puzzle: KoburinInstance,
    budget: Budget | None = None,
    stats: Stats | None = None,
    *,
    unique: bool = False,
    count: int | None = None,
    connectivity: str = "lazy",
    presolve: str = "full",
) -> Outcome:
    """Find a solution; with ``unique`` look for a second one; with ``count`` find up to
    ``count`` solutions (:func:`smtpuzzles.runner.solve`)."""
    budget = budget or Budget()
    stats = stats if stats is not None else Stats()

    def make() -> Search:
        return Search(puzzle, connectivity, presolve=presolve)

    outcome, search = runner.solve(make, runner.Ask(unique, count), budget, stats)
    if not isinstance(search, Search):
        return outcome
    outcome.notes.append(f"connectivity {connectivity}")
    if search.cuts:
        outcome.notes.append(f"separate-loop cuts: {search.cuts}")
    if connectivity == "lazy" and not search.lazy:
        outcome.notes.append(f"distances added after {LAZY_ROUNDS} rounds of cuts")
    outcome.details["cuts"] = search.cuts
    return outcome
