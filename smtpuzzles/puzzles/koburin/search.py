"""Solving Koburin: one solution, a proof of uniqueness, or a count of solutions.

Solutions are told apart by their loop links alone (the links fix which cells are on the
loop, hence which are black), so different distance labellings of one picture count
once. Every solution passes :mod:`.check` before it is returned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ... import result
from ... import z3lazy as z3
from ...errors import CheckFailure
from ...smtlib import Block, Question, Script, question
from ...solving import (
    Budget,
    Interrupted,
    Stats,
    TimeUp,
    check,
    deadline,
    hold,
    new_solver,
    parse_into,
)
from .check import problems, walk_loop
from .model import Koburin, Solution
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


@dataclass
class Outcome(result.Outcome):
    """The shared outcome, with what ``--print-asserts`` needs of a Koburin search."""

    cuts: int = 0  #: separate-loop cuts added (lazy connectivity)
    blocked: list[Solution] = field(default_factory=list)  #: solutions forbidden in turn


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
        parse_into(self.solver, fed.body())
        self.cuts = 0
        self.rounds = 0  #: rounds of cuts so far

    def add(self, block: Block) -> None:
        """Feed ``block`` to the solver and keep it for the script of later questions."""
        parse_into(self.solver, block.text())
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
                self.rounds += 1
                if self.rounds >= LAZY_ROUNDS:
                    self.add_distances()
                continue
            found = problems(self.puzzle, solution.black, solution.edges, solution.loop())
            if found:
                raise CheckFailure("solver answer breaks the rules: " + "; ".join(found))
            return solution

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


def _answer(result: Solution | str) -> str:
    """A check's answer as a script's: a solution is ``sat``."""
    return "sat" if not isinstance(result, str) else "unsat" if result == "unsat" else "unknown"


def blocking_term(enc: Encoding, solution: Solution) -> str:
    """SMT-LIB for "not this picture": some loop link differs."""
    differ = [f"(not {enc.v(e)})" if e in solution.edges else enc.v(e) for e in enc.link]
    return f"(or {' '.join(differ)} false)"


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
    stats = stats if stats is not None else Stats()
    try:
        with deadline(budget):
            search = Search(puzzle, connectivity, presolve=presolve)
    except TimeUp:
        return Outcome(status="unknown", stopped="timeout", stats=stats)
    hold(search)  # freed when the next run starts: freeing a large formula takes seconds
    wanted = max(count or 1, 2 if unique else 1)
    found: list[Solution] = []
    questions: list[Question] = []
    last = "unsat"
    while len(found) < wanted:
        try:
            with deadline(budget):
                answer = search.next(budget, stats)
        except (Interrupted, KeyboardInterrupt):
            answer = "interrupted"
        except TimeUp:
            answer = "unknown"
        if not found:  # the first question, with the cuts a lazy search added on the way
            questions.append(question("puzzle", search.script(), _answer(answer)))
        if isinstance(answer, str):
            last = answer
            break
        found.append(answer)
        if len(found) < wanted:
            search.block(answer)
    asked = len(found) - (len(found) == wanted)  #: solutions forbidden in the last question
    if asked > 0:  # the last question: every solution found before it forbidden
        name = "another" if asked == 1 else f"another-{asked}"
        said = "sat" if len(found) > asked else _answer(last)
        questions.append(question(name, search.script(), said))
    outcome = Outcome(
        status="unsat",
        solutions=found,
        stats=stats,
        questions=questions,
        cuts=search.cuts,
        blocked=found[: wanted - 1],
    )
    outcome.notes.append(f"connectivity {connectivity}")
    if search.cuts:
        outcome.notes.append(f"separate-loop cuts: {search.cuts}")
    if connectivity == "lazy" and not search.lazy:
        outcome.notes.append(f"distances added after {LAZY_ROUNDS} rounds of cuts")
    outcome.details["cuts"] = search.cuts
    if last == "interrupted":
        outcome.stopped = "interrupted"
    elif last == "unknown":
        outcome.stopped = "timeout"
    if found:
        outcome.status = "solved"
    elif outcome.stopped:
        outcome.status = "unknown"
    ran_dry = len(found) < wanted and last == "unsat"
    if len(found) > 1:
        outcome.unique = False
    elif found and ran_dry:
        outcome.unique = True
    outcome.count_complete = ran_dry
    if ran_dry and found:
        outcome.fixed = fixed_cells(puzzle, found)
    return outcome


def fixed_cells(puzzle: Koburin, solutions: Sequence[Solution]) -> dict[int, bool]:
    """Empty cells black in every solution (``True``) or on the loop in every one
    (``False``); exact when ``solutions`` is every solution."""
    fixed = {}
    for i in puzzle.empty:
        states = {i in s.black for s in solutions}
        if len(states) == 1:
            fixed[i] = states.pop()
    return fixed
