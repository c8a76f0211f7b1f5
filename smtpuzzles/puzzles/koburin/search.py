"""Solving Koburin: one solution, a proof of uniqueness, or a count of solutions.

Solutions are told apart by their loop links alone (the links fix which cells are on the
loop, hence which are black), so different distance labellings of one picture count
once. Every solution passes :mod:`.check` before it is returned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import z3

from ...errors import CheckFailure
from ...smtlib import Block, Question, Script, question
from ...solving import Budget, Interrupted, Stats, TimeUp, check, deadline, new_solver
from .check import problems, walk_loop
from .model import Koburin, Solution
from .rules import CONNECTED, Encoding, encode

#: ``lazy`` (the default; faster on the janko corpus and the 30x30): solve without rule B's
#: distances and forbid each separate loop found, until one loop is left;
#: ``distance``: rule B as distances to a root (one formula, solved once).
CONNECTIVITY = ("lazy", "distance")

#: The Z3 engine each strategy is fastest with (measured on the janko corpus): lazy cuts
#: are pure Boolean, so the SAT engine; distances are difference constraints, which the
#: SMT engine's arithmetic handles better than bit-blasting.
ENGINE = {"lazy": "sat", "distance": "smt"}

#: A Boolean variable set true in a model's SMT-LIB text.
_TRUE = re.compile(r"\(define-fun (\S+) \(\) Bool\s+true\)")


@dataclass
class Outcome:
    """What a search established. ``count`` is set when solutions were counted."""

    status: str  #: "solved", "unsat" or "unknown"
    solution: Solution | None = None
    other: Solution | None = None  #: a second solution, when one was found
    solutions: list[Solution] = field(default_factory=list)  #: every solution found
    unique: bool | None = None
    count: int | None = None
    count_exact: bool = False  #: ``count`` is every solution (the search ran dry)
    cuts: int = 0  #: separate-loop cuts added (lazy connectivity)
    blocked: list[Solution] = field(default_factory=list)  #: solutions forbidden in turn
    interrupted: bool = False  #: Ctrl-C stopped the search (what is known is kept)
    #: each question asked, as the complete script the solver answered
    questions: list[Question] = field(default_factory=list)


class Search:
    """One incremental solver over one encoding: next solution, block it, repeat.

    The solver reads the text of :attr:`script`: every rule (with ``lazy``
    connectivity all but rule B's distances), then each cut and each forbidden
    solution as a block of its own."""

    def __init__(
        self,
        puzzle: Koburin,
        connectivity: str = "lazy",
        engine: str | None = None,
        ctx: z3.Context | None = None,
        presolve: str = "full",
    ):
        if connectivity not in CONNECTIVITY:
            raise ValueError(f"unknown connectivity {connectivity!r}")
        self.puzzle = puzzle
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
        self.solver.from_string(fed.body())
        self.cuts = 0

    def add(self, block: Block) -> None:
        """Feed ``block`` to the solver and keep it for the script of later questions."""
        self.solver.from_string(block.text())
        self.added.append(block)

    def script(self) -> Script:
        """The question the solver now answers: every rule (rule B's distances
        included), then the cuts and forbidden solutions added so far."""
        return self.rules.asking(self.added)

    def next(
        self, budget: Budget, stats: Stats | None, assumptions: Sequence[z3.BoolRef] = ()
    ) -> Solution | str:
        """The next solution, or ``"unsat"`` / ``"unknown"``."""
        while True:
            label = f"solution {len(stats.probes) + 1 if stats else ''}".strip()
            answer = check(self.solver, budget, assumptions, stats=stats, label=label)
            if answer != z3.sat:
                return "unsat" if answer == z3.unsat else "unknown"
            solution = self.read(self.solver.model())
            pieces = walk_loop(solution.edges)
            if self.lazy and len(pieces) > 1:
                self.add(self.separate_loop_cuts(pieces))
                self.cuts += len(pieces)
                continue
            found = problems(self.puzzle, solution.black, solution.edges, solution.loop())
            if found:
                raise CheckFailure("solver answer breaks the rules: " + "; ".join(found))
            return solution

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


def _answer(result: Solution | str) -> str:
    """A check's answer as a script's: a solution is ``sat``."""
    return "sat" if not isinstance(result, str) else "unsat" if result == "unsat" else "unknown"


def blocking_term(enc: Encoding, solution: Solution) -> str:
    """SMT-LIB for "not this picture": some loop link differs."""
    differ = [f"(not {enc.v(e)})" if e in solution.edges else enc.v(e) for e in enc.link]
    return f"(or {' '.join(differ)} false)"


def whole_script(
    puzzle: Koburin, blocked: Sequence[Solution] = (), comments: Sequence[str] = ()
) -> str:
    """The puzzle itself as an SMT-LIB script (every rule, B by distances to a root),
    with the ``blocked`` solutions forbidden."""
    enc = encode(puzzle)
    extra = [Block("the solutions found, forbidden", "", [blocking_term(enc, s) for s in blocked])]
    return enc.script(comments).asking(extra if blocked else []).text()


def solve(
    puzzle: Koburin,
    budget: Budget | None = None,
    stats: Stats | None = None,
    unique: bool = False,
    count: int | None = None,
    connectivity: str = "lazy",
    presolve: str = "full",
) -> Outcome:
    """Find a solution; with ``unique`` look for a second one; with ``count`` find up to
    ``count`` solutions. The first and the last question asked are recorded in
    ``questions``: ``puzzle``, then ``another`` (``another-N`` after N solutions) with
    the solutions found forbidden."""
    budget = budget or Budget()
    try:
        with deadline(budget):
            search = Search(puzzle, connectivity, presolve=presolve)
    except TimeUp:
        return Outcome(status="unknown")
    wanted = max(count or 1, 2 if unique else 1)
    found: list[Solution] = []
    questions: list[Question] = []
    last = "unsat"
    while len(found) < wanted:
        try:
            with deadline(budget):
                result = search.next(budget, stats)
        except (Interrupted, KeyboardInterrupt):
            result = "interrupted"
        except TimeUp:
            result = "unknown"
        if not found:  # the first question, with the cuts a lazy search added on the way
            questions.append(question("puzzle", search.script(), _answer(result)))
        if isinstance(result, str):
            last = result
            break
        found.append(result)
        if len(found) < wanted:
            search.block(result)
    asked = len(found) - (len(found) == wanted)  #: solutions forbidden in the last question
    if asked > 0:  # the last question: every solution found before it forbidden
        name = "another" if asked == 1 else f"another-{asked}"
        answer = "sat" if len(found) > asked else _answer(last)
        questions.append(question(name, search.script(), answer))
    blocked = found[: wanted - 1]
    outcome = Outcome(status="unsat", cuts=search.cuts, blocked=blocked, questions=questions)
    outcome.interrupted = last == "interrupted"
    if found:
        outcome.status = "solved"
        outcome.solution = found[0]
        outcome.other = found[1] if len(found) > 1 else None
        outcome.solutions = found
    elif last in ("unknown", "interrupted"):
        outcome.status = "unknown"
    ran_dry = len(found) < wanted and last == "unsat"
    if len(found) > 1:
        outcome.unique = False
    elif found and ran_dry:
        outcome.unique = True
    if count is not None:
        outcome.count = len(found)
        outcome.count_exact = ran_dry
    return outcome
