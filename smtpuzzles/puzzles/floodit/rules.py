"""The Flood-It formula over the cluster graph, grown one move (layer) at a time.

Variables: ``colour_t<t>`` (Int in ``[0, k)``, the colour chosen by move t),
``flooded_c<i>_t<t>`` (cluster i is flooded after t moves) and ``done_t<t>`` (every
cluster is flooded after t moves). A search asks for "done by T" by passing ``done_t<T>``
as an assumption, so one incremental solver answers every horizon and keeps what it
learned. The rules, one small method each:

- a move changes the region's colour (:meth:`FloodFormula._move_rules`);
- a cluster is flooded after move t iff it was, or it has the move's colour and a
  flooded neighbour (:meth:`_flood_rule`), as one equivalence or, for hard searches,
  as its clauses (:meth:`_flood_clauses`); a cluster farther than t steps from the
  start cannot be flooded after t moves, so no variable exists for it;
- ``done_t`` implies every cluster flooded, and ``done_t`` implies ``done_t+1``: "done by
  T" is monotone in T, which makes searching over T sound (:meth:`_done_rules`);
- until done, every move floods at least one new cluster (:meth:`_progress_rule`; only
  where the answer's meaning needs it, see :attr:`progress`);
- redundant colour counting: after u moves, every colour that still owns an unflooded
  cluster needs a move of its own, so done by s leaves at most ``s - u`` such colours
  (:meth:`_counting_rules`; ``ite`` sums, standard SMT-LIB).

The rules are written as SMT-LIB text, each move's layer a list of commented blocks
(one per rule), and handed to Z3's parser a layer at a time: the parser builds terms in
C, many times faster than the Python API term by term (the building used to dominate
the solving time). :meth:`FloodFormula.script` puts the layers up to a horizon together
with the question: the very text the solver read, which ``--print-asserts`` prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ... import z3lazy as z3
from ...engines import new_solver, parse_into, parse_terms
from ...smtlib import Block, Script, and_, or_, plus
from .model import ClusterGraph

#: The rules of a layer, in the order each layer states them, with what they say.
RULES: dict[str, str] = {
    "move": "Move t picks a colour of the board (0 .. k-1) other than the region's colour.",
    "flood": "A cluster is flooded after move t iff it was before, or it has move t's colour"
    " and a flooded neighbour (or is next to the start cluster).",
    "done": "done_t: every cluster is flooded after t moves; done stays done.",
    "progress": "Until done, move t floods at least one new cluster.",
    "counting": "Redundant: done by s leaves at most s - u colours that still own an unflooded"
    " cluster after u moves (each needs a move of its own).",
}

#: ``flooded[t][i]``: the name of the variable, ``"true"`` for the start cluster, or
#: ``None`` where cluster i cannot be flooded after t moves.
Layer = list[str | None]


#: Z3's SAT core without failed-literal probing, whose pass took a large share of the SAT
#: time on unsat probes and never paid on harder ones; nor subsumption, without which
#: hard unsat probes took fewer conflicts over several seeds (docs/decisions.md).
SAT_PARAMS = {"sat.probing": False, "sat.subsumption": False}


class FloodFormula:
    """The formula for horizons ``0 .. horizon``; :meth:`extend` adds moves.

    Each layer goes into an incremental solver of ``engine`` as soon as it is built;
    ``feed=False`` only collects the text (for Z3's Optimize, which reads it at once).
    """

    def __init__(
        self,
        g: ClusterGraph,
        engine: str = "sat",
        counting: bool = True,
        feed: bool = True,
        clauses: bool = False,
        progress: bool = True,
    ) -> None:
        self.g = g
        self.k = g.n_colours
        self.dist = g.distances()
        self.counting = counting
        #: Write the flood rule as clauses rather than as one equivalence per cluster.
        #: Z3's SAT core then searches faster on hard unsat probes, but reads and
        #: preprocesses twice the terms first, which dominates easy boards.
        self.clauses = clauses
        #: Require every move before done to flood something new. ``exact`` needs it (N
        #: moves that each do something); for "done within T" it only breaks symmetry,
        #: and leaving it out made cold unsat probes faster (docs/decisions.md):
        #: :meth:`moves` then drops the moves of a model that flood nothing.
        self.progress = progress
        self.solver: z3.Solver | None = new_solver(engine, sat_params=SAT_PARAMS) if feed else None
        self.by_colour: list[list[int]] = [[] for _ in range(self.k)]
        for i, c in enumerate(g.colours):
            self.by_colour[c].append(i)
        first: Layer = [None] * len(g)
        first[g.start] = "true"
        self.flooded: list[Layer] = [first]
        #: each time's blocks by rule: the moves' variables and rules, in order
        self.layers: list[dict[str, Block]] = [{}]
        self._add_done(0)
        self._feed(0)

    @property
    def horizon(self) -> int:
        return len(self.flooded) - 1

    # -- building -------------------------------------------------------------------------

    def _block(self, t: int, rule: str) -> Block:
        layer = self.layers[t]
        if rule not in layer:
            when = f"after move {t - 1}" if t > 0 else "at the start"
            said = any(rule in earlier for earlier in self.layers[:t])
            layer[rule] = Block(f"{rule} ({when})", "" if said else RULES[rule])
        return layer[rule]

    def _say(self, t: int, term: str, rule: str) -> None:
        """Assert ``term`` under ``rule`` in layer t."""
        self._block(t, rule).asserts.append(term)

    def _declare(self, t: int, name: str, sort: str, rule: str) -> None:
        self._block(t, rule).declarations.append(f"(declare-fun {name} () {sort})")

    def _feed(self, t: int) -> None:
        if self.solver is not None:
            parse_into(self.solver, "".join(b.text() for b in self.layers[t].values()))

    def extend(self, horizon: int) -> None:
        """Add layers until the formula reaches ``horizon`` moves."""
        while self.horizon < horizon:
            t = self.horizon
            try:
                self._add_move(t)
            except BaseException:  # a limit or Ctrl-C mid-move: take the move back whole,
                del self.layers[t + 1 :]  # so the formula stays one a script can be made of
                del self.flooded[t + 1 :]
                raise
            try:
                self._feed(t + 1)
            except BaseException:  # the solver may hold the move or not: it asks no more,
                self.solver = None  # and scripts are still made of the layers
                raise

    def _add_move(self, t: int) -> None:
        """Move t takes the board from time t to time t+1."""
        self.layers.append({})
        self._declare(t + 1, f"colour_t{t}", "Int", "move")
        self._move_rules(t)
        before = self.flooded[t]
        after: Layer = [None] * len(self.g)
        after[self.g.start] = "true"
        for i in range(len(self.g)):
            if i != self.g.start and self.dist[i] <= t + 1:
                after[i] = self._flood_rule(t, i, before)
        self.flooded.append(after)
        self._add_done(t + 1)
        if self.progress:
            self._progress_rule(t)

    def _move_rules(self, t: int) -> None:
        """Move t picks a colour of the board, other than the region's current colour."""
        self._say(t + 1, f"(and (<= 0 colour_t{t}) (< colour_t{t} {self.k}))", "move")
        previous = f"colour_t{t - 1}" if t > 0 else str(self.g.colours[self.g.start])
        self._say(t + 1, f"(not (= colour_t{t} {previous}))", "move")

    def _flood_rule(self, t: int, i: int, before: Layer) -> str:
        """Cluster i is flooded after move t iff it was, or it takes the move's colour and
        touches the flooded region (as one equivalence, or as its clauses)."""
        var = f"flooded_c{i}_t{t + 1}"
        self._declare(t + 1, var, "Bool", "flood")
        pick = f"(= colour_t{t} {self.g.colours[i]})"
        touching = [before[j] for j in self.g.neighbours[i] if before[j] is not None]
        if "true" in touching:  # next to the start cluster, which is always flooded
            touching = []
        if self.clauses:
            self._flood_clauses(t + 1, var, before[i], pick, touching)
            return var
        grows = f"(and {pick} {or_(touching)})" if touching else pick
        was = before[i]
        self._say(t + 1, f"(= {var} {grows if was is None else f'(or {was} {grows})'})", "flood")
        return var

    def _flood_clauses(
        self, t: int, var: str, was: str | None, pick: str, touching: list[str]
    ) -> None:
        """The flood rule as the clauses of its equivalence, one per flooded neighbour
        (``touching`` empty: next to the start): no helper variables for the ``and``
        and the inner ``or`` (see :attr:`clauses`)."""
        grown_by = [f"(and {pick} {j})" for j in touching] or [pick]
        for cause in ([] if was is None else [was]) + grown_by:
            self._say(t, f"(=> {cause} {var})", "flood")
        held = "" if was is None else f" {was}"
        self._say(t, f"(or (not {var}){held} {pick})", "flood")
        if touching:
            self._say(t, f"(or (not {var}){held} {' '.join(touching)})", "flood")

    def _add_done(self, t: int) -> None:
        self._declare(t, f"done_t{t}", "Bool", "done")
        self._done_rules(t)
        if self.counting and all(f is not None for f in self.flooded[t]):
            self._counting_rules(t)

    def _done_rules(self, t: int) -> None:
        """done_t: every cluster is flooded after t moves; and done stays done."""
        layer = self.flooded[t]
        if any(f is None for f in layer):
            self._say(t, f"(not done_t{t})", "done")
        elif len(layer) > 1:
            rest = [f for i, f in enumerate(layer) if i != self.g.start and f is not None]
            self._say(t, f"(=> done_t{t} {and_(rest)})", "done")
        if t > 0:
            self._say(t, f"(=> done_t{t - 1} done_t{t})", "done")

    def _progress_rule(self, t: int) -> None:
        """Until the board is done, move t floods at least one new cluster."""
        before, after = self.flooded[t], self.flooded[t + 1]
        fresh = []
        for i, f in enumerate(after):
            if f is None or i == self.g.start:
                continue
            fresh.append(f if before[i] is None else f"(and (not {before[i]}) {f})")
        self._say(t + 1, or_([f"done_t{t}", *fresh]), "progress")

    def _colours_left(self, u: int) -> tuple[int, list[str]]:
        """Colours owning an unflooded cluster after u moves: (certain count, open cases)."""
        layer = self.flooded[u]
        certain = 0
        open_cases: list[str] = []
        for members in self.by_colour:
            if any(layer[i] is None for i in members):
                certain += 1
                continue
            unflooded = [f"(not {layer[i]})" for i in members if i != self.g.start]
            if unflooded:
                open_cases.append(or_(unflooded))
        return certain, open_cases

    def _counting_rules(self, s: int) -> None:
        """Done by s leaves at most ``s - u`` colours unflooded after u moves (u < s)."""
        for u in range(max(0, s - self.k + 1), s):
            certain, open_cases = self._colours_left(u)
            room = s - u - certain
            if room < 0:
                self._say(s, f"(not done_t{s})", "counting")
                return
            if room < len(open_cases):
                count = plus([f"(ite {b} 1 0)" for b in open_cases])
                self._say(s, f"(=> done_t{s} (<= {count} {room}))", "counting")

    # -- asking -----------------------------------------------------------------------------

    def goal(self, horizon: int, exact: bool = False) -> list[z3.BoolRef]:
        """Assumptions for "done within ``horizon`` moves" (``exact``: not one fewer)."""
        self.extend(horizon)
        if exact and horizon > 0:
            return [z3.Bool(f"done_t{horizon}"), z3.Not(z3.Bool(f"done_t{horizon - 1}"))]
        return [z3.Bool(f"done_t{horizon}")]

    def moves(self, model: z3.ModelRef | dict[str, bool | int]) -> list[int]:
        """The moves of a model up to the first time the board is done, leaving out the
        moves that flood no new cluster (possible without :attr:`progress`): the others
        flood the same clusters without them, as a move's effect depends only on the
        flooded region and the colour chosen. ``model`` is Z3's, or the values another
        solver gave the variables (:func:`smtpuzzles.dimacs.from_dimacs_model`)."""
        if isinstance(model, dict):
            values = model

            def true(name: str) -> bool:
                return bool(values.get(name, False))

            def number(name: str) -> int:
                return int(values[name])
        else:
            z3_model = model

            def true(name: str) -> bool:
                return z3.is_true(z3_model.eval(z3.Bool(name), True))

            def number(name: str) -> int:
                return z3_model.eval(z3.Int(name), True).as_long()

        length = next(t for t in range(self.horizon + 1) if true(f"done_t{t}"))
        moves = []
        for t in range(length):
            if self.progress or self._floods_something(true, t):
                moves.append(number(f"colour_t{t}"))
        return moves

    def _floods_something(self, true: Callable[[str], bool], t: int) -> bool:
        """Does move t flood a cluster that was not flooded before it (``true``: a
        Boolean's value in the model)?"""
        before, after = self.flooded[t], self.flooded[t + 1]
        for was, now in zip(before, after, strict=True):
            if now is None or now == "true" or not true(now):
                continue
            if was is None or not true(was):
                return True
        return False

    def blocks(self, horizon: int) -> list[Block]:
        """The blocks of every layer up to ``horizon``, in the order the solver read them."""
        self.extend(horizon)
        return [b for layer in self.layers[: horizon + 1] for b in layer.values()]

    def text(self, horizon: int) -> str:
        """The declarations and assertions of every layer up to ``horizon``."""
        return "".join(b.text() for b in self.blocks(horizon))

    def goal_block(self, horizon: int, exact: bool = False) -> Block:
        """The question "done within ``horizon`` moves" (``exact``: not one fewer) as
        asserts: what the search passes the solver as assumptions."""
        terms = [f"done_t{horizon}"]
        if exact and horizon > 0:
            terms.append(f"(not done_t{horizon - 1})")
        says = f"The board is done after {horizon} moves"
        return Block("question", says + (", and not before." if exact else "."), terms)

    def script(self, horizon: int, exact: bool = False, title: Sequence[str] = ()) -> Script:
        """The script of "done within ``horizon`` moves" (QF_LIA): the layers the solver
        read up to ``horizon``, and the question."""
        return Script(
            title=list(title),
            legend=legend(self.g),
            blocks=self.blocks(horizon),
            question=[self.goal_block(horizon, exact)],
        )

    def assertions(self, horizon: int, exact: bool = False) -> list[z3.BoolRef]:
        """The formula "done within ``horizon`` moves" as Z3 terms (for sizes, tests)."""
        return parse_terms(self.script(horizon, exact).body())


def legend(g: ClusterGraph) -> list[str]:
    """What the variables mean, and each cluster's cells (the board's r<row>c<col>)."""
    lines = [
        f"colour_t<t> (Int, 0..{g.n_colours - 1}): the colour move t picks (moves from 0)",
        "flooded_c<i>_t<t> (Bool): cluster i belongs to the flooded region after t moves",
        "done_t<t> (Bool): every cluster is flooded after t moves",
        f"clusters (c<i>, colour, cells); c{g.start} is the start, flooded from the outset:",
    ]
    for i, cells in enumerate(g.cells):
        shown = " ".join(f"r{r}c{c}" for r, c in cells)
        lines.append(f"  c{i} colour {g.colours[i]}: {shown}")
    return lines
