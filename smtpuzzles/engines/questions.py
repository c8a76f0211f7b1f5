"""Many questions under assumptions to one formula: "with these literals assumed, is it
satisfiable?", each bounded in conflicts, with the assumptions of an unsat answer's core
and a sat answer's model. Literals are signed integers (``-x`` is ``not x``), one
variable per Boolean of the formula's own names, more made for questions as needed.

Two engines answer them, on the same SMT-LIB text:

- ``smt``: Z3's incremental QF_LIA solver on the text as it is;
- ``cadical``: CaDiCaL (python-sat) on the CNF Z3 bit-blasts from the text
  (:mod:`smtpuzzles.dimacs`: every integer bounded by its own range). The same formula,
  so a core is one of the printed script as well; a conflict costs a fraction of one of
  the SMT solver, and the questions of an explanation are many and small (see the
  method in the docs on explanations).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Sequence
from typing import Any

from .. import z3lazy as z3
from ..limits import Budget, Interrupted, TimeUp, ensure_room, raise_pending
from .solvers import check_sat, new_context, new_solver, parse_into
from .stats import Stats

#: The engines that answer questions (see the module's description).
ENGINES = ("smt", "cadical")

#: Z3's setting for "no bound on conflicts".
_NO_BOUND = 2**32 - 1

#: Conflicts CaDiCaL searches between two looks at the clock and at Ctrl-C.
CONFLICTS_AT_ONCE = 500

#: Room to ask for before CaDiCaL reads the clauses, per literal given.
_BYTES_PER_LITERAL = 64


class Questions:
    """The interface: literals by name, clauses added, checks, cores and models."""

    #: the engine's name (see :data:`ENGINES`)
    engine = ""

    def lit(self, name: str) -> int:
        """The literal of the formula's Boolean ``name``."""
        raise NotImplementedError

    def fresh(self) -> int:
        """A new literal no clause speaks of yet."""
        raise NotImplementedError

    def add(self, clause: Sequence[int]) -> None:
        """Assert the disjunction of ``clause`` for good."""
        raise NotImplementedError

    def check(
        self,
        assumptions: Sequence[int],
        budget: Budget,
        effort: int,
        stats: Stats | None,
        label: str,
    ) -> str:
        """``sat`` or ``unsat`` under ``assumptions``; ``unknown`` when ``effort``
        conflicts (0: no bound) were not enough. Raises :class:`TimeUp` when ``budget``
        runs out and :class:`Interrupted` on Ctrl-C."""
        raise NotImplementedError

    def core(self) -> set[int]:
        """The assumptions in the last unsat answer's core."""
        raise NotImplementedError

    def conflicts(self) -> int:
        """The conflicts the last check took."""
        raise NotImplementedError

    def values(self, lits: Sequence[int]) -> list[bool]:
        """Whether each of ``lits`` holds in the last sat answer's model."""
        raise NotImplementedError


def new_questions(engine: str, text: str, names: Sequence[str], budget: Budget) -> Questions:
    """The engine's questions to the SMT-LIB ``text`` (declarations and assertions),
    whose Booleans ``names`` are asked about."""
    if engine == "smt":
        return Z3Questions(text, names)
    if engine == "cadical":
        return CadicalQuestions(text, names, budget)
    raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")


class Z3Questions(Questions):
    """Z3's incremental SMT solver, assumptions its Boolean terms."""

    engine = "smt"

    def __init__(self, text: str, names: Sequence[str]) -> None:
        self.ctx = new_context()
        self.solver = new_solver("smt", self.ctx)
        parse_into(self.solver, text)
        self._terms: list[Any] = [None]  # literal -> term (index 0 unused)
        self._by_name: dict[str, int] = {}
        self._by_id: dict[int, int] = {}  # a term's id -> its literal
        self._negated: dict[int, Any] = {}
        self._decls: list[Any] = [None]
        for name in names:
            self._new(z3.Bool(name, self.ctx), name)
        self._model: Any = None
        self._last_conflicts = 0

    def _new(self, term: Any, name: str | None = None) -> int:
        x = len(self._terms)
        self._terms.append(term)
        self._decls.append(term.decl().ast)
        self._by_id[term.get_id()] = x
        if name is not None:
            self._by_name[name] = x
        return x

    def lit(self, name: str) -> int:
        return self._by_name[name]

    def fresh(self) -> int:
        return self._new(z3.Bool(f"ask_{len(self._terms)}", self.ctx))

    def _term(self, lit: int) -> Any:
        if lit > 0:
            return self._terms[lit]
        found = self._negated.get(-lit)
        if found is None:
            found = self._negated[-lit] = z3.Not(self._terms[-lit])
            self._by_id[found.get_id()] = lit
        return found

    def add(self, clause: Sequence[int]) -> None:
        terms = [self._term(x) for x in clause]
        self.solver.add(terms[0] if len(terms) == 1 else z3.Or(terms))

    def check(
        self,
        assumptions: Sequence[int],
        budget: Budget,
        effort: int,
        stats: Stats | None,
        label: str,
    ) -> str:
        if effort:
            self.solver.set("max_conflicts", effort)
        before = self._conflicts_so_far()
        try:
            terms = [self._term(x) for x in assumptions]
            answer = check_sat(self.solver, budget, terms, stats, label)
        finally:
            if effort:
                self.solver.set("max_conflicts", _NO_BOUND)
        after = self._conflicts_so_far()
        # Z3's count runs from the first check on, or starts again at each: a count
        # lower than before is this check's own
        self._last_conflicts = after - before if after >= before else after
        if answer == z3.unknown:
            if not (effort and "conflicts" in self.solver.reason_unknown().lower()):
                raise TimeUp()
            return "unknown"
        self._model = self.solver.model() if answer == z3.sat else None
        return "sat" if answer == z3.sat else "unsat"

    def _conflicts_so_far(self) -> int:
        found = self.solver.statistics()
        return int(found.get_key_value("conflicts")) if "conflicts" in found.keys() else 0

    def conflicts(self) -> int:
        return self._last_conflicts

    def core(self) -> set[int]:
        # read through Z3's C interface: the Python wrappers cost more than a small
        # question's answer
        ref = self.ctx.ref()
        vec = z3.Z3_solver_get_unsat_core(ref, self.solver.solver)
        z3.Z3_ast_vector_inc_ref(ref, vec)
        try:
            n = z3.Z3_ast_vector_size(ref, vec)
            ids = {z3.Z3_get_ast_id(ref, z3.Z3_ast_vector_get(ref, vec, i)) for i in range(n)}
        finally:
            z3.Z3_ast_vector_dec_ref(ref, vec)
        return {self._by_id[i] for i in ids if i in self._by_id}

    def values(self, lits: Sequence[int]) -> list[bool]:
        ref, m = self.ctx.ref(), self._model.model
        out = []
        for x in lits:
            interp = z3.Z3_model_get_const_interp(ref, m, self._decls[abs(x)])
            # a null pointer where the model leaves the variable out: false there
            true = bool(interp) and z3.Z3_get_bool_value(ref, interp) == 1
            out.append(true if x > 0 else not true)
        return out


class CadicalQuestions(Questions):
    """CaDiCaL on the CNF of the text: its literals are the CNF's own."""

    engine = "cadical"

    def __init__(self, text: str, names: Sequence[str], budget: Budget) -> None:
        from pysat.solvers import Solver

        from .. import dimacs

        cnf = dimacs.to_dimacs(text, budget=budget)
        mapped: dict[str, str] = {}
        for line in cnf.splitlines():
            if not line.startswith("c "):
                break
            parts = line.split()
            if len(parts) == 3:
                mapped[parts[1]] = parts[2]
        clauses = dimacs.clauses(cnf)
        ensure_room(_BYTES_PER_LITERAL * sum(len(c) for c in clauses))
        self.top = max((abs(x) for c in clauses for x in c), default=0)
        self._by_name: dict[str, int] = {}
        for name in names:
            found = mapped.get(name, "free")
            # a Boolean the clauses do not mention gets a variable of its own
            self._by_name[name] = self.fresh() if found == "free" else int(found)
        self.solver = Solver(name="cadical195", bootstrap_with=clauses)
        # freed at exit while python-sat's module still stands: its own finaliser, run
        # after the module is torn down, prints an ignored TypeError
        weakref.finalize(self, self.solver.delete)
        self._model: list[int] = []
        self._core: set[int] = set()
        self._last_conflicts = 0

    def lit(self, name: str) -> int:
        return self._by_name[name]

    def fresh(self) -> int:
        self.top += 1
        return self.top

    def add(self, clause: Sequence[int]) -> None:
        self.solver.add_clause(list(clause))

    def check(
        self,
        assumptions: Sequence[int],
        budget: Budget,
        effort: int,
        stats: Stats | None,
        label: str,
    ) -> str:
        began = time.monotonic()
        before = self.solver.accum_stats()
        left = effort
        result: bool | None = None
        while result is None:
            raise_pending()
            remaining = budget.remaining()
            if remaining is not None and remaining <= 0.0:
                raise TimeUp()
            if effort and left <= 0:
                break
            step = min(left, CONFLICTS_AT_ONCE) if effort else CONFLICTS_AT_ONCE
            self.solver.conf_budget(step)
            try:
                result = self.solver.solve_limited(list(assumptions), expect_interrupt=True)
            except KeyboardInterrupt:
                raise Interrupted() from None
            except Exception as exc:
                # python-sat reports a Ctrl-C during its search as its own error
                if "keyboard interrupt" in str(exc).lower():
                    raise Interrupted() from None
                raise
            left -= step
        answer = "sat" if result is True else "unsat" if result is False else "unknown"
        if result is True:
            # the model as CaDiCaL gives it: the value of variable v at index v - 1
            self._model = self.solver.get_model() or []
        elif result is False:
            self._core = set(self.solver.get_core() or ())
        after = self.solver.accum_stats()
        counts = {k: after.get(k, 0) - before.get(k, 0) for k in ("conflicts", "decisions")}
        self._last_conflicts = counts["conflicts"]
        if stats is not None:
            stats.add_counts(counts, time.monotonic() - began, label, answer)
        return answer

    def core(self) -> set[int]:
        return set(self._core)

    def conflicts(self) -> int:
        return self._last_conflicts

    def values(self, lits: Sequence[int]) -> list[bool]:
        model, size = self._model, len(self._model)
        # a variable beyond the model's end (made after the answer) is false in it
        return [(model[abs(x) - 1] > 0 if abs(x) <= size else False) == (x > 0) for x in lits]
