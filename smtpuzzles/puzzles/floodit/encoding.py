"""The Flood-It formula over the cluster graph, grown one move (layer) at a time.

Variables: ``colour_t<t>`` (Int in ``[0, k)``, the colour chosen by move t),
``flooded_c<i>_t<t>`` (cluster i is flooded after t moves) and ``done_t<t>`` (every
cluster is flooded after t moves). A search asks for "done by T" by passing ``done_t<T>``
as an assumption, so one incremental solver answers every horizon and keeps what it
learned. The rules, one small function each:

- a move changes the region's colour (:meth:`FloodFormula._move_rules`);
- a cluster is flooded after move t iff it was, or it has the move's colour and a
  flooded neighbour (:meth:`_flood_rule`); a cluster farther than t steps from the
  start cannot be flooded after t moves, so no variable exists for it;
- ``done_t`` implies every cluster flooded, and ``done_t`` implies ``done_t+1``: "done by
  T" is monotone in T, which makes searching over T sound (:meth:`_done_rules`);
- until done, every move floods at least one new cluster (:meth:`_progress_rule`);
- redundant colour counting: after u moves, every colour that still owns an unflooded
  cluster needs a move of its own, so done by s needs at most ``s - u`` such colours
  (:meth:`_counting_rules`; ``If`` sums, standard SMT-LIB).
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from ...solving import new_solver, smtlib_script
from .clusters import ClusterGraph

#: ``flooded[t][i]``: a Bool term, or ``None`` where the cluster cannot be flooded yet.
Layer = list[z3.BoolRef | None]


class FloodFormula:
    """The formula for horizons ``0 .. horizon``; :meth:`extend` adds moves."""

    def __init__(
        self,
        g: ClusterGraph,
        engine: str = "sat",
        counting: bool = True,
        solver: z3.Solver | None = None,
    ) -> None:
        self.g = g
        self.k = g.n_colours
        self.dist = g.distances()
        self.eccentricity = max(self.dist)
        self.counting = counting
        self.ctx = z3.main_ctx()
        self.solver = solver if solver is not None else new_solver(engine)
        self.by_colour: list[list[int]] = [[] for _ in range(self.k)]
        for i, c in enumerate(g.colours):
            self.by_colour[c].append(i)
        self.colour: list[z3.ArithRef] = []
        self.picks: list[list[z3.BoolRef]] = []  #: picks[t][c] is ``colour_t == c``
        self.done: list[z3.BoolRef] = []
        start_layer: Layer = [None] * len(g)
        start_layer[g.start] = z3.BoolVal(True)
        self.flooded: list[Layer] = [start_layer]
        self.layers: list[list[z3.BoolRef]] = [[]]  #: assertions, by the last time they mention
        self._add_done(0)

    @property
    def horizon(self) -> int:
        return len(self.flooded) - 1

    # -- building -------------------------------------------------------------------------

    def _assert(self, t: int, fact: z3.BoolRef) -> None:
        self.layers[t].append(fact)
        self.solver.add(fact)

    def extend(self, horizon: int) -> None:
        """Add layers until the formula reaches ``horizon`` moves."""
        while self.horizon < horizon:
            self._add_move()

    def _add_move(self) -> None:
        t = self.horizon  # the move being added takes the board from time t to t+1
        self.layers.append([])
        colour = z3.Int(f"colour_t{t}")
        self.colour.append(colour)
        self.picks.append([colour == c for c in range(self.k)])
        self._move_rules(t)
        before = self.flooded[t]
        after: Layer = [None] * len(self.g)
        after[self.g.start] = before[self.g.start]
        for i in range(len(self.g)):
            if i != self.g.start and self.dist[i] <= t + 1:
                after[i] = self._flood_rule(t, i, before)
        self.flooded.append(after)
        self._add_done(t + 1)
        self._progress_rule(t)

    def _move_rules(self, t: int) -> None:
        """Move t picks a colour of the board, other than the region's current colour."""
        colour = self.colour[t]
        self._assert(t + 1, z3.And(colour >= 0, colour < self.k))
        previous = self.colour[t - 1] if t > 0 else self.g.colours[self.g.start]
        self._assert(t + 1, colour != previous)

    def _flood_rule(self, t: int, i: int, before: Layer) -> z3.BoolRef:
        """Cluster i is flooded after move t iff it was, or it takes the move's colour and
        touches the flooded region."""
        var = z3.Bool(f"flooded_c{i}_t{t + 1}")
        pick = self.picks[t][self.g.colours[i]]
        if self.g.start in self.g.neighbours[i]:
            grows = pick  # the start cluster is always flooded
        else:
            touching = [before[j] for j in self.g.neighbours[i] if before[j] is not None]
            reached = touching[0] if len(touching) == 1 else z3.Or(touching)
            grows = z3.And(pick, reached)
        was = before[i]
        self._assert(t + 1, var == (grows if was is None else z3.Or(was, grows)))
        return var

    def _add_done(self, t: int) -> None:
        done = z3.Bool(f"done_t{t}")
        self.done.append(done)
        self._done_rules(t)
        if self.counting:
            self._counting_rules(t)

    def _done_rules(self, t: int) -> None:
        """done_t: every cluster is flooded after t moves; and done stays done."""
        layer = self.flooded[t]
        if any(f is None for f in layer):
            self._assert(t, z3.Not(self.done[t]))
        elif len(layer) > 1:
            self._assert(
                t,
                z3.Implies(
                    self.done[t], z3.And([f for i, f in enumerate(layer) if i != self.g.start])
                ),
            )
        if t > 0:
            self._assert(t, z3.Implies(self.done[t - 1], self.done[t]))

    def _progress_rule(self, t: int) -> None:
        """Until the board is done, move t floods at least one new cluster."""
        before, after = self.flooded[t], self.flooded[t + 1]
        fresh = []
        for i, f in enumerate(after):
            if f is None or i == self.g.start:
                continue
            fresh.append(f if before[i] is None else z3.And(z3.Not(before[i]), f))
        self._assert(t + 1, z3.Or([self.done[t], *fresh]))

    def _colours_left(self, u: int) -> tuple[int, list[z3.BoolRef]]:
        """Colours owning an unflooded cluster after u moves: (certain count, open cases)."""
        layer = self.flooded[u]
        certain = 0
        open_cases: list[z3.BoolRef] = []
        for members in self.by_colour:
            if any(layer[i] is None for i in members):
                certain += 1
            else:
                unflooded = [z3.Not(layer[i]) for i in members if i != self.g.start]
                if unflooded:
                    open_cases.append(unflooded[0] if len(unflooded) == 1 else z3.Or(unflooded))
        return certain, open_cases

    def _counting_rules(self, s: int) -> None:
        """done by s leaves at most ``s - u`` colours unflooded after u moves (u < s)."""
        for u in range(max(0, s - self.k + 1), s):
            certain, open_cases = self._colours_left(u)
            room = s - u - certain
            if room < 0:
                self._assert(s, z3.Not(self.done[s]))
                return
            if room < len(open_cases):
                count = z3.Sum([z3.If(b, 1, 0) for b in open_cases])
                self._assert(s, z3.Implies(self.done[s], count <= room))

    # -- asking -----------------------------------------------------------------------------

    def goal(self, horizon: int, exact: bool = False) -> list[z3.BoolRef]:
        """Assumptions for "done within ``horizon`` moves" (``exact``: not one fewer)."""
        self.extend(horizon)
        if exact and horizon > 0:
            return [self.done[horizon], z3.Not(self.done[horizon - 1])]
        return [self.done[horizon]]

    def moves(self, model: z3.ModelRef) -> list[int]:
        """The moves of a model, up to the first time the board is done."""
        length = next(
            t for t in range(len(self.done)) if z3.is_true(model.eval(self.done[t], True))
        )
        return [model.eval(self.colour[t], True).as_long() for t in range(length)]

    def assertions(self, horizon: int) -> list[z3.BoolRef]:
        """Every assertion that mentions no time beyond ``horizon``."""
        self.extend(horizon)
        return [a for layer in self.layers[: horizon + 1] for a in layer]

    def script(self, horizon: int, exact: bool = False, comments: Sequence[str] = ()) -> str:
        """The SMT-LIB 2 script of "done within ``horizon`` moves" (QF_LIA)."""
        facts = self.assertions(horizon) + self.goal(horizon, exact)
        return smtlib_script(facts, "QF_LIA", comments)
