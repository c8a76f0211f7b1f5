"""The five ways to ask for a Flood-It solution, on one incremental solver per search.

- ``solve``: any solution within the length of a heuristic playout (always enough).
- ``exact N``: exactly N moves, each flooding at least one new cluster.
- ``search LO HI``: the least length in [LO, HI], proven.
- ``min``: the least length, proven; LO and HI come from the bounds.
- ``opt``: the least length through Z3's Optimize.

Every solution is replayed by the independent checker before it is returned. A time
limit or Ctrl-C ends a search with what is known: the best solution and proven bounds.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ... import dimacs, runner
from ... import z3lazy as z3
from ...engines import CADICAL_MISSING, cadical_available, check_clauses, check_sat, parse_into
from ...errors import CheckFailure, InputError
from ...limits import Budget, TimeUp, deadline, hold, raise_pending, room_left
from ...outcome import Outcome, follow
from ...smtlib import OPTIMIZE_NOTE, Question, Script, join_questions, plus, question
from . import presolve as presolve_module
from .check import check_solution
from .model import Board, ClusterGraph, cluster_graph
from .presolve import SearchResult, greedy_moves, lower_bound, shortest_by_search, upper_bound
from .rules import FloodFormula

T = TypeVar("T")

#: ``min`` searches upward from the lower bound when the bounds are at most this far
#: apart, and by bisection otherwise: on wider gaps upward probing cost more than
#: bisection, whose first probe below the optimum is the hard one either way (figures:
#: docs/decisions.md).
UPWARD_GAP = 1

#: ``min`` runs a beam of :data:`WIDE_WIDTH` (within :data:`WIDE_BUDGET_S` seconds) when
#: the default beam ends this many moves or more above the lower bound. On such boards Z3
#: spends long on each sat probe above the optimum, while a wide beam finds short plays
#: at once; most boards end closer and never pay for it (docs/decisions.md).
WIDE_GAP = 6
WIDE_WIDTH = 200
WIDE_BUDGET_S = 10.0

#: How ``min`` and ``search`` walk the horizons once a solution of length HI is known:
#: ``downward`` asks HI-1 first (unsat there proves HI optimal with one probe, and the
#: beam playout is often optimal) and then below each shorter model; ``mixed`` goes
#: upward from LO or bisects, as above. ``downward`` is the faster of the two on easy
#: and hard boards alike (docs/decisions.md).
STRATEGIES = ("downward", "mixed")
STRATEGY = "downward"

#: States a bounded A* search expands before any SMT probe (``--bound-nodes``; 0 turns
#: it off, ``None`` is the default below). It raises the lower bound, and when it
#: finishes it proves the optimum without Z3 (its solution, or nothing shorter than the
#: playout). ``None``: with the compiled A* (built at install where a C compiler is at
#: hand), :data:`COMPILED_NODES_FEW` on boards of at most :data:`FEW_CLUSTERS_PER_COLOUR`
#: clusters per colour and :data:`COMPILED_NODES` on the others. Z3 is weakest where
#: colours are many for the clusters, and the A* strongest, so there it gets more
#: states; on boards of many clusters per colour Z3 does better, and the states an A*
#: that runs out anyway expands would cost several times Z3's time and memory. Where
#: the A* does not finish, Z3 goes on from the bound it reached. With the A* in Python,
#: about thirty times slower, :data:`AUTO_NODES` on boards of at most
#: :data:`AUTO_CLUSTERS_PER_COLOUR` clusters per colour, else off (figures:
#: docs/decisions.md).
BOUND_NODES: int | None = None
COMPILED_NODES = 300_000
COMPILED_NODES_FEW = 1_000_000
FEW_CLUSTERS_PER_COLOUR = 13
AUTO_NODES = 20_000
AUTO_CLUSTERS_PER_COLOUR = 7.5

#: A second, deeper A* in ``min``, below the best length found by the beam and the
#: weighted A* (:data:`SHORTER_NODES`), where the first A* (below the greedy playout's
#: length) did not decide the board: the tighter ceiling keeps fewer states, and on
#: large boards this search proves in seconds what Z3 takes a minute for. It must
#: expand every state whose estimate is below that length, and those grow several
#: times over with each move of the estimate, so it runs only when the first A*'s
#: layers predict (:meth:`presolve.SearchResult.predicted_below`) that it ends within
#: the states an A* keeps and, under a time limit, within :data:`DEEP_SHARE` of the
#: time left at the first one's pace (docs/decisions.md). Where it is predicted to
#: end, Z3's probe for the same question is seldom faster.
DEEP_SHARE = 0.75

#: Every A* keeps at most this many megabytes of states (less when ``--memory`` leaves
#: less room).
A_STAR_MB = 700

#: Before that deep A*, weighted ones (Puchert's bound counted one and a half times)
#: look for a solution shorter than the best, within this many states each, again while
#: they find one: they often find the optimum in a second where Z3's probe for it takes
#: half a minute, and the deep A* and Z3 then start from the shorter ceiling
#: (docs/decisions.md).
SHORTER_NODES = 300_000
SHORTER_WEIGHT = (3, 2)


def kept_states(graph: ClusterGraph) -> int:
    """The most states the compiled A* keeps on this board, for :data:`A_STAR_MB`: a
    state holds its flooded set, two sets of colours and a few counters, and has slots
    in the hash table and the queue."""
    words = (len(graph) + 63) // 64
    colour_words = (graph.n_colours + 63) // 64
    per_state = 8 * words + 16 * colour_words + 56
    room = room_left()
    megabytes = A_STAR_MB * 2**20 if room is None else min(A_STAR_MB * 2**20, room * 3 // 4)
    return megabytes // per_state


def auto_nodes(graph: ClusterGraph) -> int:
    """The default ``--bound-nodes`` for a board (see :data:`BOUND_NODES`)."""
    if presolve_module.COMPILED is not None:
        few = len(graph) <= FEW_CLUSTERS_PER_COLOUR * graph.n_colours
        return COMPILED_NODES_FEW if few else COMPILED_NODES
    few = len(graph) <= AUTO_CLUSTERS_PER_COLOUR * graph.n_colours
    return AUTO_NODES if few else 0


#: Conflicts after which a probe moves to the formula with the flood rule as clauses
#: (0: never). Easy boards' unsat probes end far below it and keep the compact formula,
#: which Z3 reads in half the time; hard boards pass it early (docs/decisions.md).
CLAUSES_AFTER = 10_000
UNLIMITED_CONFLICTS = 2**32 - 1  #: Z3's "no limit" for ``max_conflicts``

#: The modes whose formula requires every move before done to flood something new:
#: ``exact N`` means N moves that each do something, and ``solve`` promises such moves.
#: ``opt`` keeps the formula Z3's Optimize was measured with. For ``min`` and ``search``
#: it would only break symmetry (see ``FloodFormula.progress``).
PROGRESS_MODES = ("exact", "solve", "opt")

#: Presolve levels: ``full`` computes bounds and heuristic playouts before the solver
#: runs (they choose the horizons asked, and often prove the optimum); ``none`` asks the
#: solver alone: ``min`` from 0 moves upward until the answer is sat, ``solve`` and
#: ``opt`` within as many moves as clusters less one (always enough: each move can take
#: a neighbouring cluster's colour), ``search`` upward or by bisection over LO..HI.
PRESOLVE = ("none", "full")


@dataclass
class FloodOutcome(Outcome):
    """The shared outcome, with how a Flood-It mode got there. The answer (``moves``) is
    the first of ``solutions``; ``lower_bound``/``upper_bound`` are what is proven."""

    mode: str = "solve"
    elapsed_s: float = 0.0
    strategy: str = ""  #: how min/search walked the horizons: "upward" or "binary"
    derived: tuple[int, int] | None = None  #: LO..HI that min/search started from
    #: what proved the optimum: "bounds", "A*", "z3" or "cadical" (``--engine cadical``)
    proven_by: str | None = None
    smtlib: str | None = None
    clusters: int | None = None  #: clusters of the board (None: stopped before counting)
    #: The search behind the outcome, kept alive with it: freeing a large solver takes Z3
    #: a second or more, which belongs after the answer is out (or to a process that
    #: ends without freeing, see ``limits.exit_now``), not inside the time limit.
    held: Any = field(default=None, repr=False, compare=False)

    @property
    def moves(self) -> list[int] | None:
        return self.solutions[0] if self.solutions else None

    @moves.setter
    def moves(self, moves: list[int] | None) -> None:
        self.solutions = [] if moves is None else [moves]

    @property
    def length(self) -> int | None:
        return None if self.moves is None else len(self.moves)


def _cadical_installed() -> bool:
    """Is python-sat there? Asked without importing it, which would cost every run that
    never hands a probe over (most do not) a large part of its start-up."""
    return importlib.util.find_spec("pysat") is not None


class _TimeUp(TimeUp):
    """The budget ran out during a probe (Z3's ``unknown``, told from the deadline's
    own :class:`TimeUp` where it matters)."""


class Search:
    """One board, one incremental formula, and what the probes have proven so far."""

    def __init__(
        self,
        board: Board,
        start: tuple[int, int] = (0, 0),
        *,
        engine: str = "sat",
        counting: bool = True,
        mode: str = "min",
        bound_nodes: int | None = BOUND_NODES,
        strategy: str = STRATEGY,
        presolve: str = "full",
        graph: ClusterGraph | None = None,
        budget: Budget | None = None,
    ) -> None:
        if presolve not in PRESOLVE:
            raise ValueError(f"unknown presolve {presolve!r}; expected one of {PRESOLVE}")
        #: ``auto``: Z3's SAT core until a probe proves hard, then CaDiCaL (see :meth:`hand_over`)
        self.handing_over = engine == "auto" and mode != "opt" and _cadical_installed()
        if engine == "auto":
            engine = "sat"
        if engine == "cadical":
            if mode == "opt":
                raise InputError("--engine cadical: opt is Z3's Optimize; use min")
            if not cadical_available():
                raise InputError(CADICAL_MISSING)
        self.presolve = presolve
        self.opt_horizon = 0  #: the horizon ``opt`` minimised within
        self.board = board
        self.strategy = strategy
        self.start = start
        self.engine = engine
        self.counting = counting
        self.budget = budget if budget is not None else Budget()
        self.outcome = FloodOutcome(mode=mode)
        self.graph: ClusterGraph = graph or cluster_graph(board.grid, start)
        self.outcome.clusters = len(self.graph)
        self.bound_nodes = auto_nodes(self.graph) if bound_nodes is None else bound_nodes
        self.auto_bound_nodes = bound_nodes is None
        self._formula: FloodFormula | None = None
        self.asking: tuple[int, bool] | None = None  #: the question a limit may cut short
        self.clauses = False  #: build the flood rule as clauses (see :meth:`probe`)
        self.lb = lower_bound(self.graph) if presolve == "full" else 0
        self.lb_without_z3 = self.lb  #: the part of the lower bound the bounds proved
        #: Puchert's bound alone: the gaps that choose the formula and the wide beam are
        #: measured from it, as they were tuned, also after an A* search raised the bound
        self.puchert = self.lb
        self.outcome.lower_bound = self.lb
        #: the first A* (not weighted) and its pace in states a second, which predict
        #: what a deeper one costs (see :data:`DEEP_SHARE`)
        self.first_search: SearchResult | None = None
        self.first_pace = 0.0

    @property
    def formula(self) -> FloodFormula:
        if self._formula is None:
            self._formula = self._new_formula(feed=self.engine != "cadical")
        return self._formula

    def _new_formula(self, feed: bool) -> FloodFormula:
        """This search's formula; ``feed``: into a Z3 solver of its engine as it grows.
        CaDiCaL reads the flood rule as clauses, from the text alone."""
        cadical = self.engine == "cadical"
        return FloodFormula(
            self.graph,
            "sat" if cadical else self.engine,
            self.counting,
            feed=feed,
            clauses=self.clauses or cadical,
            progress=self.outcome.mode in PROGRESS_MODES,
        )

    # -- bookkeeping --------------------------------------------------------------------

    def accept(self, moves: list[int]) -> None:
        """Replay ``moves`` with the checker and keep them if they are the best so far."""
        check_solution(self.board.grid, moves, self.start)
        best = self.outcome.moves
        if best is None or len(moves) < len(best):
            self.outcome.moves = moves
            self.outcome.upper_bound = len(moves)

    def prove_at_least(self, length: int) -> None:
        self.lb = max(self.lb, length)
        self.outcome.lower_bound = self.lb

    def probe(self, horizon: int, exact: bool = False) -> bool:
        """Is there a solution within ``horizon`` moves (exactly, if ``exact``)?

        A probe that passes :data:`CLAUSES_AFTER` conflicts on the compact formula is
        asked again on the formula with the flood rule as clauses, which every later
        probe then uses: hard searches go about twice as fast on it, while easy boards
        would pay more to read it than they search."""
        label = f"T={horizon}" + (" exact" if exact else "")
        self.asking = (horizon, exact)
        if self.engine == "cadical":
            return self._probe_cnf(horizon, exact, label)
        compact = self.engine == "sat" and not self.clauses and CLAUSES_AFTER > 0
        answer = self._ask(horizon, exact, label, CLAUSES_AFTER if compact else 0)
        if answer == z3.unknown and compact:
            solver = self.formula.solver
            if solver is not None and "conflicts" in solver.reason_unknown():
                if self.hand_over(f"T={horizon} passed {CLAUSES_AFTER} conflicts in Z3"):
                    return self._probe_cnf(horizon, exact, label + " cadical")
                self.clauses = True
                self._formula = None
                self.outcome.stats.next_solver()
                self.outcome.notes.append(
                    f"flood rule as clauses from T={horizon} on (over {CLAUSES_AFTER} conflicts)"
                )
                answer = self._ask(horizon, exact, label + " clauses", 0)
        solver = self.formula.solver
        assert solver is not None
        return self._settle(horizon, exact, str(answer), solver.model)

    def _probe_cnf(self, horizon: int, exact: bool, label: str) -> bool:
        """:meth:`probe` with CaDiCaL: the script of the question (the text
        ``--print-asserts`` prints), bit-blasted to CNF by Z3 as ``--cnf`` writes it, and
        the model read back through the CNF's variable map. Each probe is a new solver.
        The CNF is made in CaDiCaL's own process (see :func:`check_clauses`): Z3's tactics
        end the process they run in when the memory cap refuses them an allocation."""
        script = self.formula.script(horizon, exact)
        text = self._in_time(script.text)
        made: list[str] = []

        def clauses() -> list[list[int]]:
            made.append(dimacs.to_dimacs(text))
            return dimacs.clauses(made[0])

        answer, values = check_clauses(
            clauses,
            self.budget,
            self.outcome.stats,
            label,
            read_model=lambda model: dimacs.from_dimacs_model(made[0], model),
        )
        return self._settle(horizon, exact, answer, lambda: values)

    def _settle(self, horizon: int, exact: bool, answer: str, model: Callable[[], Any]) -> bool:
        """What a probe's answer (``sat``, ``unsat`` or ``unknown``) means for the search:
        the solution in ``model()`` accepted, the lower bound raised, or the time up."""
        if answer == "sat":
            moves = self.formula.moves(model())
            if exact and len(moves) != horizon:
                raise CheckFailure(f"exact {horizon}: the model has {len(moves)} moves")
            self.accept(moves)
            return True
        if answer == "unsat":
            if not exact:
                self.prove_at_least(horizon + 1)
            return False
        raise _TimeUp()

    def _ask(self, horizon: int, exact: bool, label: str, max_conflicts: int) -> z3.CheckSatResult:
        """One check of "done within ``horizon``", stopped after ``max_conflicts`` (0: none)."""
        goal = self._in_time(lambda: self.formula.goal(horizon, exact))
        solver = self.formula.solver
        assert solver is not None
        if self.engine == "sat":
            solver.set("max_conflicts", max_conflicts or UNLIMITED_CONFLICTS)
        return check_sat(solver, self.budget, goal, self.outcome.stats, label)

    def _in_time(self, build: Callable[[], T]) -> T:
        """``build()``, ended by the time-out like a check: Z3 stops itself in a check, but
        building layers is Python, which would otherwise run past the limit."""
        try:
            with deadline(self.budget):
                return build()
        except TimeUp:
            raise _TimeUp() from None

    def hand_over(self, why: str) -> bool:
        """With ``--engine auto``, move this search's probes to CaDiCaL for good (once a
        probe is hard: the long unsat probes that prove optima are CaDiCaL's strength,
        while the quick probes of easy boards stay with Z3, which reads them faster).
        False when the search does not hand over."""
        if not self.handing_over or self.engine == "cadical":
            return False
        self.engine = "cadical"
        self._formula = None
        self.outcome.stats.next_solver()
        self.outcome.notes.append(f"probes handed to CaDiCaL: {why}")
        return True

    def far(self, length: int) -> bool:
        """Is a solution of this length :data:`WIDE_GAP` or more above Puchert's bound?"""
        return length - self.puchert >= WIDE_GAP

    def judge(self, playout: int) -> bool:
        """Is the playout :meth:`far` from the bound? That marks a hard search, whose
        formula has the flood rule as clauses from the start."""
        far = self.far(playout)
        if far and self.hand_over(f"the playout is {playout - self.puchert} above Puchert's bound"):
            return far
        if far and self._formula is None and not self.clauses:
            self.clauses = True
            self.outcome.notes.append(
                f"flood rule as clauses: the playout is {playout - self.puchert} above "
                "Puchert's lower bound"
            )
        return far

    def playout_budget(self) -> float | None:
        """A quarter of the time left for the beam search, so the solver gets the rest."""
        left = self.budget.remaining()
        return None if left is None else left / 4

    def enough(self) -> int:
        """Moves that always suffice without a playout: one per cluster but the start."""
        return max(0, len(self.graph) - 1)

    def playout(self) -> list[int]:
        """A heuristic solution; its length is an upper bound (and :meth:`judge` says
        whether it is far from the lower bound)."""
        moves = upper_bound(self.graph, budget_s=self.playout_budget())
        self.accept(moves)
        self.judge(len(moves))
        return self.outcome.moves or moves

    def a_star_first(self) -> bool:
        """Run the A* search below the greedy playout, before the beam? With the compiled
        search, yes: it expands about as many states below the greedy length as below
        the beam's, in less time than the beam takes in Python, and when it finishes the
        beam is not needed (docs/decisions.md)."""
        return self.bound_nodes > 0 and presolve_module.COMPILED is not None

    def goes_deeper(self) -> bool:
        """Go on, when the first A* did not decide the board, to weighted A* searches
        and a deeper one? By default (``--bound-nodes`` not given) with the compiled
        search only."""
        return self.auto_bound_nodes and presolve_module.COMPILED is not None

    def deep_prediction(self) -> tuple[int | None, int]:
        """The states a second A* below the best length is predicted to expand, and the
        states that fit in the memory an A* keeps and :data:`DEEP_SHARE` of the time
        left at the first A*'s pace."""
        best = len(self.outcome.moves or [])
        if self.first_search is None or self.lb >= best:
            return None, 0
        room = kept_states(self.graph)
        left = self.budget.remaining()
        if left is not None:
            room = min(room, round(self.first_pace * DEEP_SHARE * left))
        return self.first_search.predicted_below(best), room

    def deepen(self) -> None:
        """A second A* below the best length, when the first one predicts that it ends
        in time and memory (see :data:`DEEP_SHARE`)."""
        if self.outcome.proven_by is not None:
            return
        predicted, room = self.deep_prediction()
        best = len(self.outcome.moves or [])
        if predicted is None:
            return
        if predicted > room:
            self.outcome.notes.append(
                f"A*: about {predicted:,} states predicted below {best} moves, too many to search"
            )
            return
        left = self.budget.remaining()
        self.raise_lower_bound(best, room, budget_s=None if left is None else DEEP_SHARE * left)

    def shorten(self) -> None:
        """Weighted A* searches below the best length while each finds a shorter
        solution (see :data:`SHORTER_NODES`), until the second A* is predicted to end
        in time: that one finds a shorter solution itself, if there is one."""
        while self.outcome.proven_by is None:
            best = len(self.outcome.moves or [])
            self.raise_lower_bound(best, SHORTER_NODES, SHORTER_WEIGHT)
            if len(self.outcome.moves or []) >= best:
                return
            predicted, room = self.deep_prediction()
            if predicted is not None and predicted <= room:
                return

    def greedy(self) -> list[int]:
        """The greedy playout (see :func:`presolve.greedy_moves`), kept as the best so far."""
        moves = greedy_moves(self.graph)
        self.accept(moves)
        return moves

    def widen(self) -> None:
        """When the best solution is far above the lower bound, try a wider beam (see
        :data:`WIDE_GAP`)."""
        assert self.outcome.moves is not None
        if self.far(len(self.outcome.moves)):
            budget = self.playout_budget()
            budget = WIDE_BUDGET_S if budget is None else min(budget, WIDE_BUDGET_S)
            self.accept(upper_bound(self.graph, width=WIDE_WIDTH, budget_s=budget))

    # -- the search over horizons ---------------------------------------------------------

    def least(self, lo: int, hi: int, hi_known: bool) -> bool:
        """Find the least horizon in ``[lo, hi]``, given that none below ``lo`` works and,
        if ``hi_known``, that ``hi`` works. False when no horizon up to ``hi`` works."""
        if hi_known and self.strategy == "downward":
            self.outcome.strategy = "downward"
            while lo < hi and self.probe(hi - 1):
                hi = len(self.outcome.moves or [])
            return True
        if hi - lo <= UPWARD_GAP:
            self.outcome.strategy = "upward"
            for horizon in range(lo, hi if hi_known else hi + 1):
                if self.probe(horizon):
                    return True
            return hi_known
        self.outcome.strategy = "binary"
        if not hi_known:
            if not self.probe(hi):
                return False
            hi = len(self.outcome.moves or [])
        while lo < hi:
            mid = (lo + hi) // 2
            if self.probe(mid):
                hi = len(self.outcome.moves or [])
            else:
                lo = mid + 1
        return True

    def raise_lower_bound(
        self,
        ceiling: int,
        nodes: int | None = None,
        weight: tuple[int, int] = (1, 1),
        budget_s: float | None = None,
    ) -> None:
        """Run a bounded A* below ``ceiling`` (``nodes`` states, else ``--bound-nodes``)
        for ``budget_s`` seconds (else a quarter of the time left): it raises the lower
        bound and, when it finishes, proves the optimum without a solver (its solution,
        or the ceiling). Weighted (see
        :func:`presolve.shortest_by_search`), it looks for a shorter solution instead,
        and proves the ceiling only when nothing below it exists."""
        nodes = self.bound_nodes if nodes is None else nodes
        if nodes <= 0 or self.lb >= ceiling:
            return
        left = self.budget.remaining()
        if budget_s is None:
            budget_s = None if left is None else left / 4
        elif left is not None:
            budget_s = min(budget_s, left)
        began = time.monotonic()
        try:
            found = shortest_by_search(
                self.graph,
                nodes,
                ceiling,
                budget_s=budget_s,
                limit_states=kept_states(self.graph),
                weight=weight,
            )
        except MemoryError:  # its states are freed: Z3 may still fit in what is left
            self.outcome.notes.append(f"A*: out of memory below {ceiling} moves")
            return
        name = "A*" if weight == (1, 1) else f"A* weighted {weight[0]}/{weight[1]}"
        if found.moves is not None and weight != (1, 1):
            ended = f", found {len(found.moves)}"
        elif found.moves is not None or found.proven >= ceiling:
            ended = ", finished"
        else:
            ended = ""
        self.outcome.notes.append(
            f"{name}: {found.expanded} states expanded below {ceiling} moves{ended}"
        )
        if weight == (1, 1) and self.first_search is None:
            self.first_search = found
            self.first_pace = found.expanded / max(time.monotonic() - began, 1e-3)
        if found.moves is not None:
            self.accept(found.moves)
        self.lb_without_z3 = max(self.lb_without_z3, min(found.proven, ceiling))
        self.prove_at_least(self.lb_without_z3)
        if self.outcome.moves is not None and self.lb >= len(self.outcome.moves):
            self.outcome.proven_by = "A*"

    def finish_optimal(self) -> None:
        assert self.outcome.moves is not None
        if self.outcome.proven_by is None:
            proven = self.lb_without_z3 >= len(self.outcome.moves)
            solver = "cadical" if self.engine == "cadical" else "z3"
            self.outcome.proven_by = "bounds" if proven else solver
        self.prove_at_least(len(self.outcome.moves))
        self.outcome.status = "optimal"

    # -- modes ----------------------------------------------------------------------------

    def solve(self) -> None:
        if self.presolve == "none":
            if not self.probe(self.enough()):
                raise CheckFailure(f"no solution within {self.enough()} moves")
            self.outcome.status = "solved"
            return
        play = self.playout()
        self.outcome.moves = None  # the answer is the solver's, within the playout's length
        try:
            found = self.probe(len(play))
        finally:
            if self.outcome.moves is None:  # cut short: the playout is the best known
                self.outcome.moves = play
        if not found:
            raise CheckFailure(f"no solution within {len(play)} moves, though the playout has one")
        self.outcome.status = "solved"

    def exact(self, n: int) -> None:
        if n > len(self.graph) - 1:  # each move floods a new cluster: no formula needed
            self.outcome.notes.append(
                f"{n} moves cannot each flood a new cluster of {len(self.graph)}"
            )
            self.outcome.status = "unsat"
            return
        self.outcome.status = "solved" if self.probe(n, exact=True) else "unsat"

    def search(self, lo: int, hi: int) -> None:
        if lo > self.lb and self.probe(lo - 1):
            self.outcome.status = "solved"
            self.outcome.notes.append(f"the optimum is below {lo}: a shorter solution exists")
            return
        lo = max(lo, self.lb)
        if lo > hi:
            self.outcome.status = "unsat"
            return
        if self.presolve == "none":
            self.outcome.derived = (lo, hi)
            if self.least(lo, hi, False):
                self.finish_optimal()
            else:
                self.outcome.status = "unsat"
            return
        play = upper_bound(self.graph, budget_s=self.playout_budget())
        self.judge(len(play))
        known = len(play) <= hi
        if known:
            self.accept(play)
            hi = len(play)
        self.raise_lower_bound(hi + (0 if known else 1))
        if self.outcome.moves is not None and len(self.outcome.moves) <= hi:
            known, hi = True, len(self.outcome.moves)  # A* may have found a shorter one
        lo = max(lo, self.lb)
        if lo > hi:
            self.outcome.status = "unsat"
            return
        self.outcome.derived = (lo, hi)
        if self.least(lo, hi, known):
            self.finish_optimal()
        else:
            self.outcome.status = "unsat"

    def minimum(self) -> None:
        if self.presolve == "none":
            self.outcome.derived = (0, self.enough())
            self.outcome.strategy = "upward"
            horizon = 0
            while not self.probe(horizon):
                horizon += 1
            self.finish_optimal()
            return
        if self.a_star_first():
            hi = len(self.greedy())
            self.raise_lower_bound(hi)
            if self.outcome.proven_by is None:
                self.playout()
        else:
            hi = len(self.playout())
            self.raise_lower_bound(hi)
        if self.outcome.proven_by is None:
            self.widen()
        if self.outcome.proven_by is None and self.goes_deeper():
            self.shorten()
            self.deepen()
        hi = len(self.outcome.moves or [])  # A* or a beam may have found a shorter one
        self.outcome.derived = (self.lb, hi)
        self.least(self.lb, hi, True)
        self.finish_optimal()

    def optimize(self) -> Script:
        """``opt``: minimise the number of moves before done, within the playout's length
        (presolve ``none``: within :meth:`enough`); returns the script Optimize read."""
        hi = len(self.playout()) if self.presolve == "full" else self.enough()
        self.opt_horizon = hi
        opt, formula, script = self._in_time(
            lambda: optimize_problem(self.graph, hi, self.counting, self.title())
        )
        answer = check_sat(opt, self.budget, (), self.outcome.stats, f"optimize T<={hi}")
        if answer == z3.sat:
            moves = formula.moves(opt.model())
            check_solution(self.board.grid, moves, self.start)
            self.outcome.moves, self.outcome.upper_bound = moves, len(moves)
            self.outcome.proven_by = "z3"  # Optimize proved it
            self.finish_optimal()
        elif answer == z3.unsat:
            raise CheckFailure(f"Optimize: no solution within {hi} moves, though one exists")
        else:
            raise _TimeUp()
        return script

    # -- scripts ----------------------------------------------------------------------------

    def title(self, *more: str) -> list[str]:
        """The comment lines that head every script of this search."""
        b = self.board
        lines = [f"{b.name}: Flood-It, {b.rows}x{b.cols}, {b.n_colours} colours"]
        lines.append(f"mode {self.outcome.mode}, presolve {self.presolve}")
        return lines + list(more)

    def ask(self, name: str, horizon: int, exact: bool, answer: str) -> Question:
        """The question "done within ``horizon``" as the script the solver reads (built
        without a solver when the bounds answered without one)."""
        if self._formula is None:
            self._formula = self._new_formula(feed=False)
        words = f"exactly {horizon} moves" if exact else f"within {horizon} moves"
        script = self._formula.script(horizon, exact, self.title(words))
        return question(name, script, answer)

    def questions(self, mode: str, args: tuple[int, ...]) -> list[Question]:
        """The questions behind the outcome: ``optimum-L`` (sat) and ``below-L-1`` (unsat)
        for ``min`` and ``search``; ``exactly-N`` for ``exact``; ``within-T`` for
        ``solve`` and an unsat ``search``; none when a time limit cut the search short or
        no formula was needed."""
        out = self.outcome
        if out.stopped is not None or mode == "opt":
            return []
        if mode == "exact":
            if args[0] > self.enough():  # answered without a formula
                return []
            return [self.ask(f"exactly-{args[0]}", args[0], True, _answer(out.status))]
        if mode == "solve":
            return [self.ask(f"within-{out.length}", out.length or 0, False, "sat")]
        if out.status == "unsat":
            return [self.ask(f"within-{args[1]}", args[1], False, "unsat")]
        if out.length is None:
            return []
        best = out.length
        if out.status != "optimal":  # a solution below ``search``'s LO, not proven least
            return [self.ask(f"within-{best}", best, False, "sat")]
        found = [self.ask(f"optimum-{best}", best, False, "sat")]
        if best > 0:
            found.append(self.ask(f"below-{best - 1}", best - 1, False, "unsat"))
        return found


def run_mode(
    board: Board,
    mode: str,
    args: tuple[int, ...] = (),
    *,
    print_asserts: bool = False,
    budget: Budget | None = None,
    **settings: Any,
) -> FloodOutcome:
    """Run ``mode`` (solve, exact, search, min, opt) on ``board`` and return the outcome;
    with ``print_asserts``, also the questions behind it (:meth:`Search.questions`;
    ``opt``: the script Optimize read, in Z3's dialect, always). ``settings`` are the
    :class:`Search`'s (``start``, ``engine``, ``counting``, ``bound_nodes``, ``strategy``,
    ``presolve``, ``graph``), but the engine is ``auto`` unless given.

    Never raises on a time limit, the memory cap or Ctrl-C: the outcome then has status
    ``unknown``, the best solution found and the proven bounds, and ``stopped`` says
    why. Everything runs under the deadline: the cluster graph, the bounds, the
    playouts and their checks, the formula text and the scripts of the questions.
    ``budget`` (else one without a time limit) holds the limits; a front end makes it at
    its start, so that the clock counts from there.
    """
    began = time.monotonic()
    budget = budget if budget is not None else Budget()
    outcome = FloodOutcome(mode=mode)
    opt: Script | None = None
    s: Search | None = None
    with runner.stopping(budget) as stop:
        s = Search(board, mode=mode, budget=budget, **{"engine": "auto", **settings})
        outcome = s.outcome
        follow(outcome)
        outcome.held = s
        hold(s)  # freed when the next run starts: freeing a large formula takes seconds
        if mode == "solve":
            s.solve()
        elif mode == "exact":
            s.exact(args[0])
        elif mode == "search":
            s.search(args[0], args[1])
        elif mode == "min":
            s.minimum()
        elif mode == "opt":
            opt = s.optimize()
        else:
            raise ValueError(f"unknown mode {mode!r}")
        if opt is not None:
            outcome.questions = [question(f"optimize-{s.opt_horizon}", opt, "sat")]
        elif print_asserts:  # when the bounds proved the optimum, a whole new formula
            outcome.questions = s.questions(mode, args)
    if stop.why is not None:
        outcome.stopped = stop.why
    if outcome.stopped is not None:
        outcome.status = "unknown"
        if print_asserts and s is not None:
            outcome.questions = _cut_short(s)
    elif print_asserts:
        outcome.smtlib = join_questions(outcome.questions) or _no_formula(outcome, args)
    outcome.elapsed_s = time.monotonic() - began
    return outcome


def _cut_short(s: Search) -> list[Question]:
    """The question a limit cut short, answer ``unknown``, when its formula is at hand
    (its script is then text of what the solver already holds, quick to make)."""
    asking = s.asking
    if asking is None or s._formula is None:
        return []
    horizon, exact = asking
    name = f"exactly-{horizon}" if exact else f"within-{horizon}"
    with runner.stopping():
        return [s.ask(name, horizon, exact, "unknown")]
    return []


def _answer(status: str) -> str:
    return "unsat" if status == "unsat" else "sat" if status in ("solved", "optimal") else "unknown"


def _no_formula(out: FloodOutcome, args: tuple[int, ...]) -> str:
    """The comment printed where no formula was needed (``exact`` beyond the clusters)."""
    why = out.notes[0] if out.notes else "no formula needed"
    return f"; exactly {args[0] if args else '?'} moves: no formula needed ({why})\n"


def optimize_problem(
    g: ClusterGraph, horizon: int, counting: bool = True, title: Sequence[str] = ()
) -> tuple[z3.Optimize, FloodFormula, Script]:
    """Z3's Optimize over the formula up to ``horizon`` (known to be enough), minimising
    the number of moves made before the board is done; and the script it read (in Z3's
    dialect: ``minimize`` is no SMT-LIB 2)."""
    opt = z3.Optimize()
    # Turning 0-1 integers into pseudo-Booleans made Optimize 6x slower here.
    opt.set("elim_01", False)
    formula = FloodFormula(g, counting=counting, feed=False)
    script = formula.script(horizon, False, [*title, OPTIMIZE_NOTE])
    before = [f"(ite done_t{t} 0 1)" for t in range(horizon)]
    script.commands = [f"(minimize {plus(before)})"]
    # Optimize keeps no declarations from one parse to the next, so the text goes to a
    # solver in pieces (which a time limit or Ctrl-C can stop) and on from there.
    helper = z3.Solver()
    parse_into(helper, script.body())
    for i, term in enumerate(helper.assertions()):
        if i % 1000 == 0:
            raise_pending()
        opt.add(term)
    moves = [z3.If(z3.Bool(f"done_t{t}"), 0, 1) for t in range(horizon)]
    opt.minimize(z3.Sum(moves) if moves else z3.IntVal(0))
    return opt, formula, script


def dry_run(
    board: Board,
    mode: str,
    args: tuple[int, ...],
    start: tuple[int, int] = (0, 0),
    counting: bool = True,
    budget: Budget | None = None,
) -> tuple[dict[str, Any], Script]:
    """Build, do not solve, the formula a mode would ask first (``exact``: N moves;
    ``search``: HI; otherwise the playout's length): its sizes and its script.

    Runs under ``budget``'s deadline: raises :class:`TimeUp` when it runs out and
    ``KeyboardInterrupt`` on Ctrl-C (there is no partial answer to report)."""
    with deadline(budget if budget is not None else Budget()):
        g = cluster_graph(board.grid, start)
        if mode == "exact" and args[0] > len(g) - 1:
            raise InputError(
                f"exact {args[0]}: more moves than can each flood a new cluster "
                f"({len(g)} clusters); the answer is unsat without a formula"
            )
        if mode == "search" and args[1] > len(g) - 1:
            raise InputError(
                f"within {args[1]} moves: more moves than can each flood a new cluster "
                f"({len(g)} clusters); within {len(g) - 1} asks the same"
            )
        if mode == "exact":
            horizon = args[0]
        else:
            horizon = args[1] if mode == "search" else len(upper_bound(g))
        title = [f"{board.name}: Flood-It, {mode}, horizon {horizon} (not solved)"]
        if mode == "opt":
            _, _, script = optimize_problem(g, horizon, counting, title)
        else:
            progress = mode in PROGRESS_MODES
            formula = FloodFormula(g, counting=counting, feed=False, progress=progress)
            script = formula.script(horizon, mode == "exact", title)
        return {"horizon": horizon, "clusters": len(g), **script.size()}, script
