"""Searching for Nurikabe solutions: one incremental solver, two connectivity strategies.

``distance``: the whole formula at once (islands and wall as distance-to-root regions),
in phases (:data:`PHASES`): a first check cut short after a few conflicts, then a
backtracking search over the deductions (:mod:`.backtrack`), then the solver again, on
a rectangle with and without the white-region count.
``lazy``: the incremental method of lazy connectivity cuts - solve without connectivity,
look at the model, and
for every island or wall piece that is cut off add a constraint that rules out that
piece (it must lose a cell or gain a neighbour), then solve again on the same solver.
Both start from what the deductions and one level of hypotheses prove (:func:`prepare`),
unless presolving is off (``presolve="none"``: the rules alone, and no detours).

Every picture is checked by :mod:`.check` before it is returned; a failure is a bug.
Counting and uniqueness are projected on the black/white picture: a found picture is
blocked as a whole, so different distance labellings of it count once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ... import runner
from ... import z3lazy as z3
from ...engines import Stats, new_context, new_solver, parse_into, parse_terms
from ...limits import Budget
from ...outcome import Outcome
from ...smtlib import Block, Script, or_
from .check import problems
from .model import NurikabeInstance, Picture
from .presolve.backtrack import Trial, backtrack
from .presolve.deduce import Contradiction, deduce
from .presolve.grow import grow_wall
from .presolve.probe import probe
from .rules import CONNECTIVITY_RULES, COUNT, PRESOLVE, Encoding, encode, reach

#: The rule name of a forbidden picture's block.
FORBIDDEN = "a picture found, forbidden"

CONNECTIVITY = ("distance", "lazy")

#: The engine each strategy is fastest with (measured on the janko corpus): the distance
#: equations suit the simplex of the general solver far better than bit-blasting, while
#: the lazy loop's purely Boolean formulas suit the SAT core.
BEST_ENGINE = {"distance": "smt", "lazy": "sat"}

#: The distance strategy's plan on a plain rectangle, as (white-region count?, conflicts each check
#: gets; ``None``: no limit): the formula without the count, briefly; with it, briefly; then without
#: it for good (elsewhere there is no count: see :data:`PLAIN_PHASES`). The count
#: (:func:`.rules.islands_counted`) decides some puzzles of a few huge islands at once but slows
#: others down, and tried first it cost every puzzle its larger formula (docs/decisions.md).
#: Each phase starts a new solver; the last one
#: repeats the first phase's conflicts, a small price on puzzles that need more than a few thousand.
#: Between the phases run the searches of :data:`DETOURS` (:meth:`Search.detour`).
PHASES: tuple[tuple[bool, int | None], ...] = ((False, 2000), (True, 1000), (False, None))
#: The plan off plain rectangles, where there is no count: the first phase, the
#: searches of :data:`DETOURS`, then the solver without a limit.
PLAIN_PHASES: tuple[tuple[bool, int | None], ...] = ((False, 2000), (False, None))

#: The searches run between phases, one after each phase but the last ones, which all
#: run before the last phase: each with the least time it may take (it may also take
#: as long as the search has taken so far). Backtracking over the deductions
#: (:mod:`.presolve.backtrack`) settles most puzzles the first phase leaves open; growing
#: the wall (:mod:`.presolve.grow`) settles puzzles of a few big islands where the solver
#: and the backtracking stall, but is slower on most others, so it comes after the
#: count's phase and only where few wall cells are open (docs/decisions.md).
DETOURS: dict[str, tuple[Callable[..., Trial], float]] = {
    "backtracking": (backtrack, 1.0),
    "growing the wall": (grow_wall, 10.0),
}

#: The share of the time left that hypotheses may take (with no time limit, they run
#: until they find no more): what they leave open, the solver searches.
PROBE_SHARE = 2 / 3


def prepare(
    puzzle: NurikabeInstance,
    budget: Budget | None = None,
    stats: Stats | None = None,
    presolve: str = "full",
) -> tuple[Encoding, bool]:
    """The formula a search starts from: the rules, and as facts what the deductions and
    then one level of hypotheses (:mod:`.probe`) prove; and True when the hypotheses
    prove that there is no solution (the facts are then the plain deductions).
    ``presolve="none"``: the rules alone.

    Hypotheses run before any solver, on every puzzle: puzzles of many islands whose
    search stalls are often decided by them to the last cell, and over the corpus they
    cost nothing at the median (docs/decisions.md).
    """
    if presolve not in PRESOLVE:
        raise ValueError(f"unknown presolve {presolve!r}; expected one of {PRESOLVE}")
    if presolve == "none":
        return encode(puzzle), False
    reach(puzzle)  # a puzzle too large to encode is refused before any deduction
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
    """The rules a strategy's search starts from, and the facts (what ``--dry-run``
    shows, with the encoding of :func:`prepare`)."""
    return enc.terms(connectivity=strategy == "distance", counted=False)


class Search(runner.Search[Picture]):
    """An incremental solver over one puzzle, and the hooks the runner
    (:mod:`smtpuzzles.runner`) asks for checked pictures.

    Each solver reads the text of the encoding's script (the rules the phase or the
    strategy uses, and the facts), then every block added since (forbidden pictures,
    guards, lazy cuts) as text."""

    backbone = True

    def __init__(
        self,
        puzzle: NurikabeInstance,
        strategy: str = "distance",
        budget: Budget | None = None,
        stats: Stats | None = None,
        engine: str | None = None,
        presolve: str = "full",
    ) -> None:
        if strategy not in CONNECTIVITY:
            raise ValueError(f"unknown strategy {strategy!r}; expected one of {CONNECTIVITY}")
        self.puzzle = puzzle
        self.name = puzzle.name
        self.strategy = strategy
        self.budget = budget or Budget()
        self.stats = stats
        self.presolve = presolve
        self.enc, self.refuted = prepare(puzzle, self.budget, stats, presolve)
        self.engine = engine or BEST_ENGINE[strategy]
        self.phased = strategy == "distance"  #: the lazy loop has one phase
        has_count = bool(self.enc.blocks[COUNT].asserts)
        plan = (PHASES if has_count else PLAIN_PHASES) if self.phased else ((False, None),)
        self.phases = list(plan)
        self.counted, self.limit = self.phases.pop(0)
        #: the detours still to run (searches that prove facts: presolving)
        self.detours = list(DETOURS) if self.phased and presolve == "full" else []
        #: pictures a detour found without proving them all, for :meth:`next` to give first
        self.found: list[Picture] = []
        self.blocked_pictures: set[Picture] = set()
        #: blocks beyond the rules (forbidden pictures, guards, cuts), for a new solver
        self.added: list[Block] = []
        self.solver = self._new_solver()
        self.began = time.monotonic()

    def _new_solver(self) -> z3.Solver:
        """A solver over the rules and everything added so far. With phases, each solver
        has a Z3 context of its own, so the last phase repeats the first exactly before
        it goes on: in one shared context the terms left by earlier solvers change the
        order Z3 searches in, which can cost a phase many times its time."""
        ctx = new_context() if self.phased else None
        solver = new_solver(self.engine, ctx=ctx)
        parse_into(solver, self.enc.text(self.strategy == "distance", self.counted))
        if self.limit is not None:
            solver.set("max_conflicts", self.limit)
        if self.added:
            parse_into(solver, "".join(block.text() for block in self.added))
        self.black = self.enc.black_vars(solver.ctx)  #: the picture's variables, in its context
        self.island = self.enc.island_vars(solver.ctx) if self.strategy == "lazy" else {}
        return solver

    def script(self, upto: int | None = None) -> Script:
        """The question the solver now answers: every rule (connectivity and the count
        included, whichever the current solver reads), the facts, and every block
        added since (``upto``: only the first that many)."""
        p = self.puzzle
        title = [
            f"Nurikabe {p.name}: {len(p)} cells, {len(p.clues)} clues",
            f"strategy {self.strategy}, presolve {self.presolve}",
        ]
        skipped = [] if self.strategy == "distance" else list(CONNECTIVITY_RULES)
        skipped += [] if self.counted else [COUNT]
        if skipped:
            title.append("the solver read every block but " + ", ".join(skipped))
        return self.enc.script(title).asking(self.added[:upto])

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
        least time or as long as the search has taken so far, if longer (a portfolio's
        balance: on the largest grids a node is costly). Searched whole, its tree
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

    def next(self, assumptions: Sequence[str] = ()) -> Picture | None | str:
        """A new checked picture, ``None`` when there is none, or ``"unknown"``
        (``assumptions``: names of Boolean guards assumed true for this check)."""
        return runner.find(self, self.budget, self.stats, assumptions)

    # -- the runner's hooks ----------------------------------------------------------------

    def ready(self, assumptions: Sequence[str]) -> Picture | str | None:
        """``"unsat"`` when the hypotheses or a detour proved that there is no solution;
        else a picture a detour found that the solver has not given yet."""
        if self.refuted:
            return "unsat"
        while self.found and not assumptions:
            picture = self.found.pop(0)
            if picture not in self.blocked_pictures:  # the solver may have given it already
                return picture
        return None

    def label(self, stats: Stats | None) -> str:
        return f"round {self.checks}"

    def stalled(self) -> bool:
        """A phase's conflicts ran out: the next phase goes on."""
        if self.phases and "conflicts" in self.solver.reason_unknown():
            self._next_phase()
            return True
        return False

    def decode(self, model: z3.ModelRef) -> Picture:
        return tuple(z3.is_true(model.eval(b, True)) for b in self.black)

    def cut(self, model: z3.ModelRef, picture: Picture) -> Block | None:
        """With ``lazy``: cuts against every island or wall piece the model cuts off."""
        if self.strategy != "lazy":
            return None
        cuts = lazy_cuts(self.enc, self.island, model, picture)
        if not cuts:
            return None
        return Block(
            "cuts against cut-off pieces",
            "Implied by the connectivity rules: a piece of an island or of"
            " the wall cut off in a model loses a cell or gains a neighbour.",
            cuts,
        )

    def problems(self, picture: Picture) -> list[str]:
        return problems(self.puzzle.graph, self.puzzle.clues, self.puzzle.pools, picture)

    def cells(self, picture: Picture) -> dict[int, bool]:
        return dict(enumerate(picture))

    def differs(self, first: Picture, cells: Sequence[int]) -> list[str]:
        names = self.enc.black_names
        return [f"(not {names[i]})" if first[i] else names[i] for i in cells]

    @property
    def formula(self) -> list[z3.BoolRef]:
        """What the solver holds but the forbidden pictures, as Z3 terms (in the
        solver's context, as :attr:`blocked`)."""
        rules = self.enc.terms(self.strategy == "distance", self.counted, self.solver.ctx)
        cuts = [b for b in self.added if b.rule != FORBIDDEN]
        return rules + self._terms(cuts)

    @property
    def blocked(self) -> list[z3.BoolRef]:
        """The pictures ruled out, one "differs from it" each, in the solver's context."""
        return self._terms([b for b in self.added if b.rule == FORBIDDEN])

    def _terms(self, blocks: list[Block]) -> list[z3.BoolRef]:
        text = "\n".join(self.enc.declarations()) + "".join(b.text() for b in blocks)
        return parse_terms(text, self.solver.ctx) if blocks else []

    def block(self, picture: Picture) -> None:
        """Rule this picture out from now on."""
        names = self.enc.black_names
        differs = or_([f"(not {n})" if v else n for n, v in zip(names, picture)])
        self.blocked_pictures.add(picture)
        says = "Some cell's colour differs from a picture found before."
        self.add(Block(FORBIDDEN, says, [differs]))


def lazy_cuts(
    enc: Encoding,
    island: dict[int, dict[int, z3.BoolRef]],
    model: z3.ModelRef,
    picture: Picture,
) -> list[str]:
    """Constraints (SMT-LIB terms) that rule out every disconnected piece of the model's
    islands and wall (``island``: the variables in the model's context).

    A piece ``D`` cut off from its clue (or from the wall's root) stays cut off as long
    as ``D``'s cells keep their colour and none of its outside neighbours joins it; so
    each cell of ``D`` demands that some neighbour of ``D`` changes.
    """
    graph = enc.puzzle.graph
    nbrs = enc.puzzle.neighbours
    cuts: list[str] = []
    for k, cells in island.items():
        members = [i for i, v in cells.items() if z3.is_true(model.eval(v, True))]
        for part in graph.components(members):
            if k in part:
                continue
            rim = _rim(nbrs, part)
            joins = [enc.has(k, j) for j in rim if j in cells]
            cuts.extend(or_([f"(not {enc.has(k, i)})", *joins]) for i in part)
    wall = [i for i, b in enumerate(picture) if b]
    parts = graph.components(wall)
    if len(parts) > 1:
        root = enc.wall_root
        keep = next((p for p in parts if root in p), None) if root is not None else None
        for part in parts:
            if part is keep:
                continue
            joins = [enc.b(j) for j in _rim(nbrs, part)]
            if keep is None:
                # No cell is known black: the piece must grow, or another piece vanish.
                other = next(p for p in parts if p is not part)[0]
                joins.append(enc.w(other))
            cuts.extend(or_([enc.w(i), *joins]) for i in part)
    return cuts


def _rim(nbrs, part: list[int]) -> list[int]:
    inside = set(part)
    return sorted({j for i in part for j in nbrs[i] if j not in inside})


def solve(
    puzzle: NurikabeInstance,
    connectivity: str = "distance",
    budget: Budget | None = None,
    stats: Stats | None = None,
    *,
    unique: bool = False,
    count: int | None = None,
    engine: str | None = None,
    presolve: str = "full",
) -> tuple[Outcome, Search | None]:
    """Find a picture; with ``unique`` prove it unique (and find the fixed cells),
    with ``count`` find up to that many distinct pictures (:func:`smtpuzzles.runner.solve`).
    ``presolve``: see :data:`~.rules.PRESOLVE`."""
    budget = budget or Budget()
    stats = stats if stats is not None else Stats()

    def make() -> Search:
        return Search(puzzle, connectivity, budget, stats, engine, presolve)

    outcome, search = runner.solve(make, runner.Ask(unique, count), budget, stats)
    if search is not None:
        outcome.notes.insert(0, f"connectivity {connectivity}")
    return outcome, search  # type: ignore[return-value]
