"""Searching for Nurikabe solutions: one incremental solver, two connectivity strategies.

``distance``: the whole formula at once (islands and wall as distance-to-root regions),
in phases (:data:`PHASES`): a first check cut short after a few conflicts, then a
backtracking search over the deductions (:mod:`.backtrack`), then the solver again, on
a rectangle with and without the white-region count.
``lazy``: the method of seeds/004 - solve without connectivity, look at the model, and
for every island or wall piece that is cut off add a constraint that rules out that
piece (it must lose a cell or gain a neighbour), then solve again on the same solver.
Both start from what the deductions and one level of hypotheses prove (:func:`prepare`).

Every picture is checked by :mod:`.check` before it is returned; a failure is a bug.
Counting and uniqueness are projected on the black/white picture: a found picture is
blocked as a whole, so different distance labellings of it count once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import z3

from ...errors import CheckFailure
from ...result import Outcome
from ...solving import (
    Budget,
    Interrupted,
    Stats,
    TimeUp,
    check,
    deadline,
    new_context,
    new_solver,
    parse_into,
)
from .check import problems
from .model import Nurikabe, Picture
from .presolve.backtrack import Trial, backtrack
from .presolve.deduce import Contradiction, deduce
from .presolve.grow import grow_wall
from .presolve.probe import probe
from .rules import COUNT, Encoding, encode

STRATEGIES = ("distance", "lazy")

#: The engine each strategy is fastest with (measured on the janko corpus): the distance
#: equations suit the simplex of the general solver far better than bit-blasting, while
#: the lazy loop's purely Boolean formulas suit the SAT core.
BEST_ENGINE = {"distance": "smt", "lazy": "sat"}

#: The distance strategy's plan on a plain rectangle, as (white-region count?, conflicts each check
#: gets; ``None``: no limit): the formula without the count, briefly; with it, briefly; then without
#: it for good (elsewhere there is no count: see :data:`PLAIN_PHASES`). The count
#: (:func:`.encode.islands_counted`) decides some puzzles of a few huge islands at once (janko 0029:
#: no conflict at all, against no answer in 240 s without it) but slows others down (0683: no answer
#: in 40 s, against 2.2 s and 21,000 conflicts without it), and tried first it cost every puzzle its
#: larger formula (the corpus median 12% slower). Each phase starts a new solver; the last one
#: repeats the first phase's conflicts, a small price on puzzles that need more than a few thousand.
#: Between the phases run the searches of :data:`DETOURS` (:meth:`Search.detour`).
PHASES: tuple[tuple[bool, int | None], ...] = ((False, 2000), (True, 1000), (False, None))
#: The plan off plain rectangles, where there is no count: the first phase, the
#: searches of :data:`DETOURS`, then the solver without a limit.
PLAIN_PHASES: tuple[tuple[bool, int | None], ...] = ((False, 2000), (False, None))

#: The searches run between phases, one after each phase but the last ones, which all
#: run before the last phase: each with the least time it may take (it may also take
#: as long as the search has taken so far). Backtracking over the deductions
#: (:mod:`.backtrack`) settles most puzzles the first phase leaves open (janko 1091:
#: 0.45 s, after a first phase of 0.5 s); growing the wall (:mod:`.grow`) settles
#: puzzles of a few big islands (0753: 5 s, where the solver and the backtracking gave
#: no answer in 60 s) but is slower on most others, so it comes after the count's
#: phase, which settles 0029 at once, and only where few wall cells are open.
DETOURS: dict[str, tuple[Callable[..., Trial], float]] = {
    "backtracking": (backtrack, 1.0),
    "growing the wall": (grow_wall, 10.0),
}

#: The share of the time left that hypotheses may take (with no time limit, they run
#: until they find no more): what they leave open, the solver searches.
PROBE_SHARE = 2 / 3


def prepare(
    puzzle: Nurikabe, budget: Budget | None = None, stats: Stats | None = None
) -> tuple[Encoding, bool]:
    """The formula a search starts from: the rules over what the deductions and then
    one level of hypotheses (:mod:`.probe`) prove; and True when the hypotheses prove
    that there is no solution (the formula is then over the plain deductions).

    Hypotheses run before any solver, on every puzzle: puzzles of many islands whose
    search stalls are often decided by them to the last cell (janko 0459, 20x36, and
    1055, 40x57: no answer in 90 s and 240 s without them, 1.4 s and 14 s with them),
    and over the corpus they cost nothing at the median (paired runs).
    """
    known = deduce(puzzle)
    began = time.monotonic()
    left = budget.remaining() if budget is not None else None
    try:
        probed = probe(puzzle, known, None if left is None else left * PROBE_SHARE)
    except Contradiction:
        probed = None
    if stats is not None:
        if probed is None:
            answer = "no solution"
        else:
            decided = len(probed.black) + len(probed.owner) - len(known.black) - len(known.owner)
            answer = f"{decided} cells decided"
        seconds = round(time.monotonic() - began, 4)
        stats.probes.append({"label": "hypotheses", "answer": answer, "seconds": seconds})
    return encode(puzzle, known if probed is None else probed), probed is None


def starting_formula(enc: Encoding, strategy: str) -> list[z3.BoolRef]:
    """The rules a strategy's search starts from (what ``--dry-run`` shows, with the
    encoding of :func:`prepare`)."""
    return enc.terms(connectivity=strategy == "distance", counted=False)


class Search:
    """An incremental solver over one puzzle, yielding checked pictures."""

    def __init__(
        self,
        puzzle: Nurikabe,
        strategy: str = "distance",
        budget: Budget | None = None,
        stats: Stats | None = None,
        engine: str | None = None,
    ) -> None:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {STRATEGIES}")
        self.puzzle = puzzle
        self.strategy = strategy
        self.budget = budget or Budget()
        self.stats = stats
        self.enc, self.refuted = prepare(puzzle, self.budget, stats)
        self.engine = engine or BEST_ENGINE[strategy]
        self.phased = strategy == "distance"  #: the lazy loop has one phase
        has_count = bool(self.enc.rules.get(COUNT))
        plan = (PHASES if has_count else PLAIN_PHASES) if self.phased else ((False, None),)
        self.phases = list(plan)
        self.counted, self.limit = self.phases.pop(0)
        self.detours = list(DETOURS) if self.phased else []  #: those still to run
        #: pictures a detour found without proving them all, for :meth:`next` to give first
        self.found: list[Picture] = []
        self.cuts: list[z3.BoolRef] = []
        self._blocked: list[z3.BoolRef] = []
        self.blocked_pictures: set[Picture] = set()
        self.added: list[z3.BoolRef] = []  #: blocked pictures and guards, for a new solver
        self.rounds = 0
        self.solver = self._new_solver()
        self.began = time.monotonic()

    def _new_solver(self) -> z3.Solver:
        """A solver over the rules and everything added so far. With phases, each solver
        has a Z3 context of its own, so the last phase repeats the first exactly before
        it goes on: in one shared context the terms left by earlier solvers change the
        order Z3 searches in (janko 0683 took 17 s where it had taken 2.2 s)."""
        ctx = new_context() if self.phased else None
        solver = new_solver(self.engine, ctx=ctx)
        parse_into(solver, self.enc.text(self.strategy == "distance", self.counted))
        if self.limit is not None:
            solver.set("max_conflicts", self.limit)
        solver.add(*(self._here(c, solver) for c in self.added))
        self.black = self.enc.black_vars(solver.ctx)  #: the picture's variables, in its context
        self.island = self.enc.island_vars(solver.ctx) if self.strategy == "lazy" else {}
        return solver

    def _here(self, term: z3.BoolRef, solver: z3.Solver | None = None) -> z3.BoolRef:
        """``term`` in the context of ``solver`` (by default the current one)."""
        ctx = (solver or self.solver).ctx
        return term if term.ctx == ctx else term.translate(ctx)

    def _next_phase(self) -> None:
        """Start over with the next formula of :data:`PHASES`, after a search of
        :data:`DETOURS` (all of those left, before the last phase) with what it proves."""
        while self.detours and not self.refuted:
            self.detour(self.detours.pop(0))
            if len(self.phases) > 1:
                break
        self.counted, self.limit = self.phases.pop(0)
        del self.solver  # freed before the next one is built: one solver in memory at a time
        self.solver = self._new_solver()
        if self.stats is not None:
            self.stats.next_solver()

    def detour(self, name: str) -> None:
        """Run the search ``name`` of :data:`DETOURS` over the cells left open, for its
        least time or as long as the search has taken so far, if longer (a portfolio's balance:
        on a puzzle of 40x57 a backtracking node costs 5 ms). Searched whole, its tree
        proves the solutions: none (the search is then over), or one, whose every cell
        the formula of the next phases states (and no other detour runs). Cut short, it
        proves nothing, but the pictures it found are solutions all the same: :meth:`next`
        gives them first (a plain solve needs no more), and the solver goes on from there
        with them blocked."""
        search, least = DETOURS[name]
        began = time.monotonic()
        allowed = max(least, began - self.began)
        trial = search(self.puzzle, self.enc.known, seconds=allowed)
        if trial.finished and not trial.solutions:
            self.refuted, answer = True, "no solution"
        elif trial.finished:
            self.enc, answer = encode(self.puzzle, trial.solutions[0]), "one solution"
            self.detours = []
        elif trial.solutions:
            answer = f"{len(trial.solutions)} solutions found, then stopped"
            size = range(len(self.puzzle))
            self.found += [tuple(i in d.black for i in size) for d in trial.solutions]
        elif not trial.nodes:
            answer = "not tried"
        else:
            answer = f"stopped after {trial.nodes} nodes"
        if self.stats is not None:
            seconds = round(time.monotonic() - began, 4)
            self.stats.probes.append({"label": name, "answer": answer, "seconds": seconds})

    def add(self, *constraints: z3.BoolRef) -> None:
        """Constraints beyond the rules (blocked pictures, guards), kept for a new solver."""
        self.added += constraints
        self.solver.add(*(self._here(c) for c in constraints))

    def next(self, assumptions: list[z3.BoolRef] = ()) -> Picture | None | str:
        """A new checked picture, ``None`` when there is none, or ``"unknown"``."""
        while True:
            if self.refuted:  # the hypotheses or a detour proved that there is no solution
                return None
            while self.found and not assumptions:
                picture = self.found.pop(0)
                if picture not in self.blocked_pictures:  # the solver may have given it already
                    return self._checked(picture)
            self.rounds += 1
            assumed = [self._here(a) for a in assumptions]
            answer = check(self.solver, self.budget, assumed, self.stats, f"round {self.rounds}")
            if answer == z3.unknown:
                if self.phases and "conflicts" in self.solver.reason_unknown():
                    self._next_phase()
                    continue
                return "unknown"
            if answer == z3.unsat:
                return None
            model = self.solver.model()
            picture = tuple(z3.is_true(model.eval(b, True)) for b in self.black)
            if self.strategy == "lazy":
                cuts = lazy_cuts(self.enc, self.black, self.island, model, picture)
                if cuts:
                    self.cuts += cuts
                    self.solver.add(*cuts)
                    continue
            return self._checked(picture)

    def _checked(self, picture: Picture) -> Picture:
        """``picture``, once the independent rule checker passes it (else a bug)."""
        found = problems(self.puzzle.graph, self.puzzle.clues, self.puzzle.pools, picture)
        if found:
            raise CheckFailure(f"{self.puzzle.name}: picture breaks a rule: {found[0]}")
        return picture

    @property
    def formula(self) -> list[z3.BoolRef]:
        """What the solver holds but the blocked pictures: the rules, and the lazy cuts
        (in the solver's context, as :attr:`blocked`)."""
        rules = self.enc.terms(self.strategy == "distance", self.counted, self.solver.ctx)
        return rules + self.cuts

    @property
    def blocked(self) -> list[z3.BoolRef]:
        """The pictures ruled out, one "differs from it" each, in the solver's context."""
        return [self._here(b) for b in self._blocked]

    def block(self, picture: Picture) -> None:
        """Rule this picture out from now on."""
        differs = z3.Or([z3.Not(b) if v else b for b, v in zip(self.black, picture)])
        self._blocked.append(differs)
        self.blocked_pictures.add(picture)
        self.add(differs)


def lazy_cuts(
    enc: Encoding,
    black: list[z3.BoolRef],
    island: dict[int, dict[int, z3.BoolRef]],
    model: z3.ModelRef,
    picture: Picture,
) -> list[z3.BoolRef]:
    """Constraints that rule out every disconnected piece of the model's islands and wall
    (``black`` and ``island``: the variables in the model's context).

    A piece ``D`` cut off from its clue (or from the wall's root) stays cut off as long
    as ``D``'s cells keep their colour and none of its outside neighbours joins it; so
    each cell of ``D`` demands that some neighbour of ``D`` changes.
    """
    graph = enc.puzzle.graph
    nbrs = enc.puzzle.neighbours
    cuts: list[z3.BoolRef] = []
    for k, cells in island.items():
        members = [i for i, v in cells.items() if z3.is_true(model.eval(v, True))]
        for part in graph.components(members):
            if k in part:
                continue
            rim = _rim(nbrs, part)
            joins = [cells[j] for j in rim if j in cells]
            cuts.extend(z3.Or(z3.Not(cells[i]), *joins) for i in part)
    wall = [i for i, b in enumerate(picture) if b]
    parts = graph.components(wall)
    if len(parts) > 1:
        root = enc.wall_root
        keep = next((p for p in parts if root in p), None) if root is not None else None
        for part in parts:
            if part is keep:
                continue
            joins = [black[j] for j in _rim(nbrs, part)]
            if keep is None:
                # No cell is known black: the piece must grow, or another piece vanish.
                other = next(p for p in parts if p is not part)[0]
                joins.append(z3.Not(black[other]))
            cuts.extend(z3.Or(z3.Not(black[i]), *joins) for i in part)
    return cuts


def _rim(nbrs, part: list[int]) -> list[int]:
    inside = set(part)
    return sorted({j for i in part for j in nbrs[i] if j not in inside})


def solve(
    puzzle: Nurikabe,
    strategy: str = "distance",
    budget: Budget | None = None,
    stats: Stats | None = None,
    unique: bool = False,
    count: int | None = None,
    engine: str | None = None,
) -> tuple[Outcome, Search | None]:
    """Find a picture; with ``unique`` prove it unique (and find the fixed cells),
    with ``count`` find up to that many distinct pictures."""
    budget = budget or Budget()
    stats = stats if stats is not None else Stats()
    try:
        with deadline(budget):
            search = Search(puzzle, strategy, budget, stats, engine)
    except TimeUp:
        return Outcome("unknown", count_complete=False, stopped="timeout", stats=stats), None
    wanted = max(count or 1, 2 if unique else 1)
    outcome = Outcome("unknown", stats=stats)
    outcome.notes.append(f"connectivity {strategy}")
    complete = True
    try:
        while len(outcome.solutions) < wanted:
            try:
                with deadline(budget):
                    found = search.next()
            except TimeUp:
                found = "unknown"
            if found == "unknown":
                complete = False
                outcome.stopped = "timeout"
                break
            if found is None:
                break
            outcome.solutions.append(found)
            if len(outcome.solutions) < wanted or unique:  # a search for another follows
                search.block(found)
        else:
            complete = count is None or len(outcome.solutions) < count
    except (Interrupted, KeyboardInterrupt):
        complete = False
        outcome.stopped = "interrupted"
    outcome.count_complete = complete
    if not outcome.solutions:
        outcome.status = "unknown" if not complete else "unsat"
        return outcome, search
    outcome.status = "solved"
    if unique or count:
        n = len(outcome.solutions)
        outcome.unique = True if n == 1 and complete else (False if n > 1 else None)
    if unique and outcome.unique is not None and outcome.stopped is None:
        try:
            outcome.fixed = fixed_cells(search, outcome)
        except (Interrupted, KeyboardInterrupt):
            outcome.stopped = "interrupted"
        if outcome.fixed is None and outcome.stopped is None:
            outcome.stopped = "timeout"
    elif count and complete:  # every solution is known: the fixed cells are plain to see
        first = outcome.solutions[0]
        same = [i for i in range(len(first)) if all(s[i] == first[i] for s in outcome.solutions)]
        outcome.fixed = {i: first[i] for i in same}
    return outcome, search


def fixed_cells(search: Search, outcome: Outcome) -> dict[int, bool] | None:
    """Cells with one colour in every solution (the backbone), or None if time ran out.

    Ask for a picture that differs from the first on some still-agreeing cell; every
    answer removes cells, an ``unsat`` proves the rest fixed. Found pictures are blocked
    already, which is harmless: they agree on every candidate cell.
    """
    first = outcome.solutions[0]
    candidates = {i for i in range(len(first)) if all(s[i] == first[i] for s in outcome.solutions)}
    if outcome.unique:
        return {i: first[i] for i in sorted(candidates)}
    while candidates:
        black = search.black
        guard = z3.Bool(f"differs_{search.rounds}", search.solver.ctx)
        differs = [z3.Not(black[i]) if first[i] else black[i] for i in candidates]
        search.add(z3.Implies(guard, z3.Or(differs)))
        found = search.next([guard])
        if found == "unknown":
            return None
        if found is None:
            break
        candidates = {i for i in candidates if found[i] == first[i]}
        search.block(found)
    return {i: first[i] for i in sorted(candidates)}
