"""Is a fact forced, and by which premises? The engine behind explanations.

A puzzle states its rules as named groups (:class:`~smtpuzzles.smtlib.Block`) and its
premises (a clue's number at its cell) as terms; this module puts each rule group and
each premise under an assumption literal (``rule_<n>``, ``given_<n>``) in one
incremental solver (:mod:`smtpuzzles.engines.questions`: CaDiCaL on the CNF Z3
bit-blasts from that text, or Z3's SMT solver on the text itself). A fact (a
variable's value) is *forced* by a set of premises when the rules, those premises and
the fact's negation are unsatisfiable: a check under assumptions, so the solver is
built once and asked many questions. Decided facts become premises in turn (their own
literals are the assumptions).

A step's premises are a subset-minimal set (:meth:`Forcing.minimal`: the solver's core,
then deletion: dropping any one premise leaves the fact unforced), its rules the rule
groups of the solver's core. The path (:func:`explain`) takes the step with the fewest premises
among those found by asking each premise alone, then growing windows of premises around
each undecided fact (radius 0, 1, 2, ... up to :data:`RADIUS`), and where none is found,
the step with the smallest reason over the whole grid, marked as a case split when it
has more than :data:`HARD` premises or could not be minimised within the bounds.
After the first step, a step of one premise already found is taken before anything is
asked (none can have fewer). Questions are bounded in conflicts (:data:`EFFORT`,
:data:`WINDOW_EFFORT`): with most numbers left open, a question can be far harder than
the puzzle. Every core found is kept (:attr:`Forcing.cores`): premises that force a
fact force it whatever else becomes known, so a question whose premises hold a kept
core needs no solver.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .engines import Stats
from .engines.questions import new_questions
from .errors import CheckFailure
from .limits import Budget
from .runner import stop_again, stopping
from .smtlib import Block, Script, and_, not_

#: The largest window radius (graph steps from a fact's cells) searched for a reason
#: before a step takes its reason from the whole grid.
RADIUS = 3

#: The conflicts a question of the search may take before it counts as undecided:
#: questions with few premises can be far harder than the puzzle (most of its numbers
#: left open), and a smaller reason is usually found elsewhere.
EFFORT = 2000

#: A last resort's questions (:meth:`_Path._last_resort`) get this many times the effort.
PATIENCE = 5

#: The conflicts a last resort's deletion question may take when it leaves at most one
#: premise (see :func:`_deletion_bound`).
FEW_EFFORT = 2 * EFFORT

#: The conflicts a question about a window (:meth:`Forcing.backbone`) may take: most
#: windows force nothing, and finding a model where a fact fails with most numbers open
#: can be hard; a window left undecided is not asked again.
WINDOW_EFFORT = 300

#: The solver the questions are asked of (see :mod:`smtpuzzles.engines`).
ENGINE = "cadical"

#: The models of the rules kept to answer "not forced" without asking (the latest).
MODELS_KEPT = 400


#: The cores kept a fact (the smallest; see :meth:`Forcing.known_core`).
CORES_KEPT = 64

#: A step found over the whole grid with more premises than this is a case split.
HARD = 6

#: Before the reasons over the whole grid are sought, only reasons of at most this many
#: premises (unminimised) are minimised: the windows are asked first. A core over the
#: whole grid that an earlier step found and left in the pool is mostly large, seldom
#: minimised within the bounds, and each attempt costs a dozen bounded questions (on a
#: 15x15 with islands of 20 cells, a hundred such cores took a minute a step).
NEAR = 2 * HARD

#: Over the whole grid, the conflicts that questions left undecided may take, summed,
#: while reasons fail to be minimised, before a step's last resort
#: (:meth:`_Path._last_resort`): as much as one of its questions. A large core over the
#: whole grid mostly fails (a question whether one of its premises can go stays
#: undecided), and a step's search tried a hundred of them (a minute of CPU on a 15x15
#: with islands of 20 cells); a failure whose questions were left undecided before
#: costs nothing and counts nothing.
FAR_SPEND = PATIENCE * EFFORT

#: With no reason in the pool, the open facts asked for a core over the whole grid
#: (:meth:`_Path._global`) before, none having one, the rest are left to the whole-grid
#: question.
GLOBAL_TRIES = 4

#: The questions of the whole-grid step (:meth:`_Path._whole`) about one dropped premise
#: that are split into halves when they stay undecided (none): on a puzzle of a few huge
#: islands a model without one number is as hard to find as the puzzle, and split down
#: to single facts they took a minute a premise.
WHOLE_SPLITS = 0

#: The radii (steps from a fact and a dropped premise) within which a last resort's
#: question whether the premise can go first looks for a model, the solution kept
#: beyond (see :meth:`Forcing._nearby`).
NEARBY = (3, 6)

#: The open facts a premise is asked alone about, one at a time where a question about
#: many stays undecided, lie within this many steps of it; the farther ones are asked
#: together only (see :meth:`_Path._singles`).
REACH = 4

#: The conflicts a question about one premise alone may take: most such questions
#: force nothing, and one premise leaves the grid so open that a model can be hard to
#: find, while a premise that forces a fact shows it at once (at most 33 conflicts over
#: the one-premise steps of janko 10x10 puzzles of both kinds, some more on the shipped
#: 6x6 with its thin wall).
SINGLE_EFFORT = 60


@dataclass(frozen=True)
class Fact:
    """A variable of the formula at a value: ``var`` (an SMT-LIB Bool) is ``value``.

    ``cells`` place it on the grid (windows and pictures); ``json`` and ``words`` say it
    (``{"cell": "r3c4", "value": "black"}``, ``"r3c4 is black"``)."""

    var: str
    value: bool
    cells: tuple[int, ...]
    json: dict[str, Any]
    words: str

    @property
    def key(self) -> str:
        return f"{self.var}={int(self.value)}"


@dataclass(frozen=True)
class Clue:
    """A premise given by the puzzle: ``term`` (SMT-LIB) holds; ``cell`` is where."""

    key: str
    term: str
    cell: int
    json: dict[str, Any]
    words: str


#: A premise: a clue, or a fact an earlier step decided.
Premise = Clue | Fact


#: A rule's cuts: given a model's value of every variable, the clauses (each a list of
#: ``(variable, value)``) that hold in every model of the rule and that this model breaks;
#: none when the model keeps the rule.
Cuts = Callable[[Mapping[str, bool]], list[list[tuple[str, bool]]]]


@dataclass
class Problem:
    """What a puzzle gives the engine: its variables' declarations, its rules as named
    groups (in the order tried for dropping: global first), its clues, the variables
    that can be decided, the neighbours of each cell (windows are measured in steps
    over them), and how a fact is said."""

    declarations: list[str]
    rules: list[Block]
    clues: list[Clue]
    #: the variables that can be decided, with the cells they sit on
    variables: list[tuple[str, tuple[int, ...]]]
    neighbours: Sequence[Sequence[int]]
    #: the fact "variable is value", with its words
    say: Callable[[str, bool], Fact]
    #: the rule groups that look at the whole grid (connectivity): a question is first
    #: asked without them, which is far cheaper and, when that forces the fact, enough
    global_rules: tuple[str, ...] = ()
    #: a single fact this many steps from a premise, whose question about that premise
    #: alone stays undecided within :data:`SINGLE_EFFORT`, is asked again within
    #: :data:`WINDOW_EFFORT` (-1: none is)
    close: int = 2
    #: the puzzle's own solver: up to two solutions (the value of every variable) and
    #: whether they are all, or None when it finds none within the budget. One solution
    #: is the backbone at once: the engine's first model can take far longer (the rules
    #: with every number a premise are a harder formula than the puzzle's)
    solutions: Callable[[Budget], Solutions | None] | None = None
    #: counts the rules imply that the solver cannot add up by itself, as clauses over
    #: the CNF's literals: given the literal of a variable or clue (by its name or key)
    #: and the largest literal in use, the clauses and the largest literal they use.
    #: Asked only where no fact has a core within the bounds (:meth:`_Path._whole`): stated for
    #: every question, they slowed the others down
    counts: Callable[[Callable[[str], int], int], tuple[list[list[int]], int]] | None = None
    #: the declared Booleans beyond :attr:`variables` and the clues whose literals the
    #: counts speak of (a cell's membership of an island)
    count_names: Sequence[str] = ()
    #: rule groups the engine states by their cuts instead of their blocks (see
    #: :class:`Forcing`), by name
    cuts: Mapping[str, Cuts] = field(default_factory=dict)
    #: the puzzle's independent checker, asked of a complete explanation: the rules
    #: broken by the solution its facts make (the value of every variable). The facts
    #: may come from the engine's own model, which no checker has seen
    check: Callable[[Mapping[str, bool]], list[str]] | None = None


@dataclass
class Step:
    """One deduction: ``facts`` follow from ``premises`` by ``rules``.

    ``case_split`` marks a step whose reason was not found near its cells and has more
    than :data:`HARD` premises, or kept a premise the solver could not rule out within its
    bound (no small reason was found near or far: a human would try a value and follow
    it: a case split)."""

    facts: list[Fact]
    premises: list[Premise]
    rules: list[str]
    case_split: bool = False
    #: the wrong entry this step refutes, when it answers a ``--state`` (else None)
    wrong: Fact | None = None
    #: premises kept because the solver could not tell within its bound whether the
    #: rest force the facts (only in a case split; 0: the premises are proven minimal)
    unsure: int = 0
    #: draws the step (text and SVG) with its facts and premises marked: asked the first
    #: time a picture is (see :func:`draw_steps`; JSON has none)
    drawer: Callable[[], tuple[str, str]] | None = field(default=None, repr=False, compare=False)
    _drawn: tuple[str, str] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.premises)

    @property
    def picture(self) -> str:
        """The step as text ("" when it has no drawer)."""
        return self._pictures()[0]

    @property
    def svg(self) -> str:
        """The step as SVG ("" when it has no drawer)."""
        return self._pictures()[1]

    def _pictures(self) -> tuple[str, str]:
        if self._drawn is None:
            self._drawn = self.drawer() if self.drawer is not None else ("", "")
        return self._drawn

    @property
    def text(self) -> str:
        facts = ", ".join(f.words for f in self.facts)
        if self.premises:
            because = "; ".join(p.words for p in self.premises)
        else:
            because = "the rules alone"
        rules = ", ".join(self.rules) if self.rules else "no rule"
        how = " (case split: no small reason)" if self.case_split else ""
        head = f"{self.wrong.words} is wrong: " if self.wrong is not None else ""
        return f"{head}{facts}, because {because} (rules: {rules}){how}"

    def _repr_html_(self) -> str:
        """In a notebook: the sentence, then the picture."""
        return f"<p>{html.escape(self.text)}</p>{self.svg}"

    def to_json(self) -> dict[str, Any]:
        out = {
            "facts": [f.json for f in self.facts],
            "premises": [p.json for p in self.premises],
            "rules": list(self.rules),
            "size": self.size,
            "text": self.text,
            "case_split": self.case_split,
        }
        if self.wrong is not None:
            out["wrong"] = self.wrong.json
        return out


#: Seconds the puzzle's own solver may take to prove its solution unique before an
#: explanation starts from that solution unproven (its steps prove what they decide),
#: or from the engine's own first model when it found none. Nearly every janko puzzle
#: up to 15x15 is proven within a fifth of a second; those that are not mostly stay
#: unproven however long it takes, and the time is the explanation's own (where the
#: solver finds nothing, the engine's first model can take a fraction of a second).
UNIQUE_S = 1.0

#: :attr:`Problem.solutions`' answer: the solutions found (as the values of the
#: variables) and whether they are all there are (none, one proven unique, or two)
Solutions = tuple[list[dict[str, bool]], bool]


def solved(outcome: Any, values: Callable[[Any], dict[str, bool]]) -> Solutions | None:
    """:attr:`Problem.solutions` from the puzzle's own search asked for uniqueness: each
    solution found as the values of the variables (``values``), and whether they are
    all; ``None`` when the search found none and could not tell. A Ctrl-C or memory
    limit that ended the search is raised again (the explanation stops with it); its
    time running out is the end of its own share of the time (:data:`UNIQUE_S`)."""
    if outcome.stopped != "timeout":
        stop_again(outcome.stopped)
    found = [values(answer) for answer in outcome.solutions]
    if outcome.unique is not None:
        return found, True
    if outcome.stopped is None and outcome.status == "unsat":
        return [], True
    return (found, False) if found else None


class Unsolvable(Exception):
    """The clues admit no solution: there is nothing to explain."""


class Forcing:
    """One incremental solver over a :class:`Problem`: every rule group and clue under
    an assumption literal, asked "is this fact forced by these premises?".

    The models it finds (each satisfies every rule) are kept: a kept model in which the
    premises hold and the fact fails shows without a question that the premises do not
    force the fact.

    A rule with cuts (:attr:`Problem.cuts`; with ``cuts``, the default) is not stated:
    its literal guards the cuts found so far instead. A question that assumes it and
    finds a model asks the rule's cuts of that model, adds those it breaks (under the
    literal, so that a core names the rule) and asks again, within the question's
    conflicts; a model that breaks none keeps the rule. The cuts follow from the rule,
    so an answer is the same as with the rule stated, and a core is one of the rule
    (a loop through a Koburin grid is found in a few conflicts this way, where its
    connectivity stated as distances made most models a long search)."""

    def __init__(
        self,
        problem: Problem,
        budget: Budget,
        stats: Stats | None = None,
        engine: str | None = None,
        cuts: bool = True,
    ) -> None:
        self.problem = problem
        self.budget = budget
        self.stats = stats
        lines = list(problem.declarations)
        self.rule_lit: dict[str, Any] = {}  # names, then literals
        lazy = dict(problem.cuts) if cuts else {}
        apart = _ranges_apart(problem)
        for n, block in enumerate(problem.rules):
            guard = f"rule_{n}"
            lines.append(f"(declare-fun {guard} () Bool)")
            self.rule_lit[block.rule] = guard
            if block.rule in lazy:
                continue
            lines += block.declarations
            bounds, rest = apart[n]
            lines += [f"(assert {t})" for t in bounds]
            lines += [f"(assert (=> {guard} {t}))" for t in rest]
        self.clue_lit: dict[str, Any] = {}  # names, then literals
        for n, clue in enumerate(problem.clues):
            # a name for the clue's statement: assumed, it asserts the clue; in a model,
            # it says whether the clue holds there
            guard = f"given_{n}"
            lines.append(f"(declare-fun {guard} () Bool)")
            lines.append(f"(assert (= {guard} {clue.term}))")
            self.clue_lit[clue.key] = guard
        names = [*self.rule_lit.values(), *self.clue_lit.values()]
        names += [v for v, _ in problem.variables]
        names += list(problem.count_names)
        text = "\n".join(lines) + "\n"
        try:
            self.q = new_questions(engine or ENGINE, text, names, budget)
        except ValueError:
            # an integer without a range of its own has no CNF: Z3's SMT solver asks
            self.q = new_questions("smt", text, names, budget)
        self.rule_lit = {k: self.q.lit(v) for k, v in self.rule_lit.items()}
        #: the rules stated by their cuts: each literal with the rule's cuts
        self.lazy = [(self.rule_lit[name], found) for name, found in lazy.items()]
        self.clue_lit = {k: self.q.lit(v) for k, v in self.clue_lit.items()}
        self.vars = {v: self.q.lit(v) for v, _ in problem.variables}
        #: every variable and clue literal by name, with its declaration (models are read
        #: through it)
        self._read = [*self.vars.items(), *self.clue_lit.items()]
        self.all_rules = [b.rule for b in problem.rules]
        self.local_rules = [r for r in self.all_rules if r not in problem.global_rules]
        #: the ids of the assumptions in the last "forced all?" core
        self.last_core: set[int] = set()
        self.rule_id = dict(self.rule_lit)
        self.asked = 0  #: questions asked with a literal of their own
        #: premises kept by :meth:`minimal` because their question stayed undecided
        self.unsure = 0
        #: models of every rule found so far: each the value of every variable and clue
        self.models: deque[dict[str, bool]] = deque(maxlen=MODELS_KEPT)
        #: models of the local rules alone (:attr:`Problem.global_rules` left out), found
        #: by local questions: where premises hold and a fact fails, the local question
        #: is satisfiable without asking
        self.local_models: deque[dict[str, bool]] = deque(maxlen=MODELS_KEPT)
        #: the cores found, by fact: sets of premise keys that force it, with the rule
        #: groups of the solver's core (a set that forces a fact forces it whatever else
        #: becomes known, so a question whose premises hold a core needs no solver)
        self.cores: dict[str, dict[frozenset[str], tuple[str, ...]]] = {}
        #: the cores proven minimal, by fact (minimality is the set's own property)
        self.minimal_cores: dict[str, set[frozenset[str]]] = {}
        #: questions left undecided: (fact, premises) -> the largest effort they took
        self.undecided: dict[tuple[str, frozenset[str]], int] = {}
        #: the conflicts the questions left undecided could take, summed
        self.spent = 0
        #: the literal under which :attr:`Problem.counts` hold (0: not stated yet)
        self._counted = 0
        #: by fact, the premises of the core of a backbone question with the counts that
        #: proved it forced (:meth:`whole` asks no such question again)
        self.counted_cores: dict[str, list[Premise]] = {}

    # ------------------------------------------------------------------ literals

    def lit(self, premise: Premise) -> int:
        if isinstance(premise, Clue):
            return self.clue_lit[premise.key]
        v = self.vars[premise.var]
        return v if premise.value else -v

    def _core_ids(self) -> set[int]:
        """The assumptions in the last (unsat) answer's core."""
        return self.q.core()

    def negation(self, fact: Fact) -> int:
        v = self.vars[fact.var]
        return -v if fact.value else v

    def _check(self, assumptions: list[int], label: str, effort: int = 0) -> str:
        """``sat`` or ``unsat``; with ``effort`` (conflicts, 0: no bound) also
        ``unknown`` when the check needs more than that. Raises :class:`TimeUp` when the
        budget runs out. A model of rules with cuts is one that breaks none of them: the
        cuts it breaks are added and the question asked again."""
        assumed = set(assumptions)
        lazy = [(guard, found) for guard, found in self.lazy if guard in assumed]
        left = effort
        while True:
            answer = self.q.check(assumptions, self.budget, left, self.stats, label)
            if answer != "sat" or not lazy:
                return answer
            values = self._values()
            broken = [(guard, clause) for guard, found in lazy for clause in found(values)]
            if not broken:
                return answer
            for guard, clause in broken:
                self.q.add([-guard, *(self.vars[v] if x else -self.vars[v] for v, x in clause)])
            if effort:
                # every round counts one conflict at least: the rounds end
                left -= max(1, self.q.conflicts())
                if left <= 0:
                    return "unknown"

    def _all_rules(self) -> list[int]:
        return [self.rule_lit[r] for r in self.all_rules]

    def _refuted(self, fact: Fact, premises: Sequence[Premise], label: str, effort: int) -> str:
        """Check ``premises`` and the negation of ``fact`` under every rule, first under
        the local rules alone when some rules are global: unsat there is unsat under
        every rule, and a local question is far cheaper. The solver's core is the
        answer's. The local question is skipped when a kept model of the local rules
        shows it satisfiable (local models are kept as the models of every rule are:
        a deletion asks many questions that one such model answers)."""
        lits = [*(self.lit(p) for p in premises), self.negation(fact)]
        if len(self.local_rules) < len(self.all_rules) and not self._witness_in(
            self.local_models, fact, premises
        ):
            local = [self.rule_lit[r] for r in self.local_rules]
            answer = self._check([*local, *lits], label + " locally", effort or EFFORT)
            if answer == "unsat":
                return answer
            if answer == "sat":
                self.local_models.append(self._values())
        return self._check([*self._all_rules(), *lits], label, effort)

    def counted(self) -> int | None:
        """The literal under which the problem's counts (:attr:`Problem.counts`) hold,
        their clauses added the first time it is asked for; None without counts (or
        without python-sat, which writes them)."""
        if self.problem.counts is None:
            return None
        if not self._counted:
            names = {**self.vars, **self.clue_lit}
            names.update((n, self.q.lit(n)) for n in self.problem.count_names)
            guard = self.q.fresh()
            try:
                clauses, top = self.problem.counts(names.__getitem__, guard)
            except ImportError:
                self.problem.counts = None
                return None
            while self.q.fresh() < top:
                pass
            for clause in clauses:
                self.q.add([-guard, *clause])
            self._counted = guard
        return self._counted

    # ------------------------------------------------------------------ models

    def _remember(self) -> dict[str, bool]:
        """Keep the solver's model (of every rule) and return it."""
        values = self._values()
        self.models.append(values)
        return values

    def _values(self) -> dict[str, bool]:
        """The solver's model: the value of every variable and clue."""
        found = self.q.values([x for _, x in self._read])
        return {name: value for (name, _), value in zip(self._read, found)}

    # ------------------------------------------------------------------ answers kept

    def known_core(
        self, fact: Fact, premises: Sequence[Premise], minimal: bool = False, local: bool = False
    ) -> list[Premise] | None:
        """The smallest core found so far (proven minimal, with ``minimal``; forcing
        ``fact`` under the local rules alone, with ``local``) for ``fact`` that
        ``premises`` hold, in their order; None when there is none."""
        best = self._smallest_core(fact, premises, minimal, local)
        return None if best is None else [p for p in premises if p.key in best]

    def _smallest_core(
        self, fact: Fact, premises: Iterable[Premise], minimal: bool = False, local: bool = False
    ) -> frozenset[str] | None:
        found = (self.minimal_cores if minimal else self.cores).get(fact.key)
        if not found:
            return None
        keys = {p.key for p in premises}
        cores = self.cores[fact.key]
        return min(
            (c for c in found if c <= keys and not (local and self._global_in(cores[c]))),
            key=len,
            default=None,
        )

    def _global_in(self, rules: Iterable[str]) -> bool:
        return any(r in self.problem.global_rules for r in rules)

    def _learn(self, fact: Fact, core: Iterable[Premise], rules: Iterable[str]) -> None:
        """Keep ``core`` as a set of premises that forces ``fact`` with ``rules`` (the
        smallest :data:`CORES_KEPT` a fact)."""
        keys = frozenset(p.key for p in core)
        found = self.cores.setdefault(fact.key, {})
        if keys not in found:
            found[keys] = tuple(rules)
            if len(found) > CORES_KEPT:
                largest = max(found, key=len)
                del found[largest]
                self.minimal_cores.get(fact.key, set()).discard(largest)

    def _hopeless(self, fact: Fact, premises: Sequence[Premise], effort: int) -> bool:
        """Was this question left undecided with at least ``effort`` conflicts before?"""
        tried = self.undecided.get((fact.key, frozenset(p.key for p in premises)), 0)
        return bool(effort) and effort <= tried

    def _gave_up(self, fact: Fact, premises: Sequence[Premise], effort: int) -> None:
        key = (fact.key, frozenset(p.key for p in premises))
        self.undecided[key] = max(effort, self.undecided.get(key, 0))
        self.spent += effort

    def _core_of(self, fact: Fact, premises: Sequence[Premise]) -> list[Premise]:
        """The premises in the solver's core of its last (unsat) check, kept with the
        rule groups of that core."""
        core = self._core_ids()
        found = [q for q in premises if self.lit(q) in core]
        self._learn(fact, found, [r for r in self.all_rules if self.rule_id[r] in core])
        return found

    def witness(self, fact: Fact, premises: Sequence[Premise]) -> bool:
        """Is there a kept model where ``premises`` hold and ``fact`` fails?"""
        return self._witness_in(self.models, fact, premises)

    @staticmethod
    def _witness_in(
        models: Iterable[dict[str, bool]], fact: Fact, premises: Sequence[Premise]
    ) -> bool:
        for m in models:
            if m[fact.var] != fact.value and all(_holds(m, p) for p in premises):
                return True
        return False

    # ------------------------------------------------------------------ questions

    def forced(
        self, fact: Fact, premises: Iterable[Premise], rules: Iterable[str] | None = None
    ) -> bool:
        """Do ``premises`` and ``rules`` (all rules when None) force ``fact``?"""
        kept = self.all_rules if rules is None else rules
        lits = [self.rule_lit[r] for r in kept] + [self.lit(p) for p in premises]
        return self._check([*lits, self.negation(fact)], "forced?") == "unsat"

    def decide(self, fact: Fact, premises: Sequence[Premise], effort: int) -> bool | None:
        """Do ``premises`` force ``fact`` (under every rule)? None when the solver cannot
        tell within ``effort`` conflicts. A kept model answers first."""
        if self.known_core(fact, premises) is not None:
            return True
        if self.witness(fact, premises):
            return False
        if self._hopeless(fact, premises, effort):
            return None
        answer = self._refuted(fact, premises, "forced?", effort)
        if answer == "sat":
            self._remember()
            return False
        if answer == "unsat":
            self._core_of(fact, premises)
            return True
        self._gave_up(fact, premises, effort)
        return None

    def whole(
        self, premises: Sequence[Premise], facts: Sequence[Fact], effort: int
    ) -> list[Premise] | None:
        """The premises of the solver's core when ``premises`` force every one of
        ``facts`` under every rule and the problem's counts (:meth:`counted`, which the
        rules imply: the core is kept as each fact's, with every rule); None without
        counts, when a fact can fail (the model is kept), or when the solver cannot tell
        within ``effort`` conflicts."""
        guard = self.counted()
        if guard is None:
            return None
        keys = {p.key for p in premises}
        kept = [self.counted_cores.get(f.key) for f in facts]
        if all(c is not None and {p.key for p in c} <= keys for c in kept):
            # a backbone with the counts answered this question already
            used = {p.key for c in kept for p in c or ()}
            found = [p for p in premises if p.key in used]
            self.learn_whole(facts, found)
            return found
        lits = [*self._all_rules(), guard, *(self.lit(p) for p in premises)]
        some = self._some_fails(facts)
        answer = self._check([*lits, some], "whole", effort)
        core = self._core_ids() if answer == "unsat" else set()
        if answer == "sat":
            self._remember()
        self.q.add([-some])
        if answer != "unsat":
            return None
        found = [p for p in premises if self.lit(p) in core]
        self.learn_whole(facts, found)
        return found

    def learn_whole(self, facts: Iterable[Fact], core: list[Premise]) -> None:
        """Keep ``core`` as each of ``facts``' reason, with every rule: a whole-grid
        reason, proven under the counts the rules imply together."""
        for fact in facts:
            self._learn(fact, core, self.all_rules)

    def consistent(
        self, premises: Iterable[Premise], counted: bool = False
    ) -> dict[str, bool] | None:
        """A model of the rules and ``premises`` (every variable's and clue's value), or
        None when they contradict; ``counted``: the problem's counts assumed too."""
        lits = self._all_rules() + [self.lit(p) for p in premises]
        guard = self.counted() if counted else None
        if guard is not None:
            lits.append(guard)
        if self._check(lits, "consistent?") == "unsat":
            return None
        return self._remember()

    def core(
        self, fact: Fact, premises: Sequence[Premise], effort: int = EFFORT
    ) -> list[Premise] | None:
        """The premises of Z3's unsat core when ``premises`` force ``fact`` (not
        minimal), else None (also when the solver cannot tell within ``effort``)."""
        # a core that needs a global rule is no shortcut: the solver's core may need
        # only the local rules, whose questions are far cheaper
        known = self.known_core(fact, premises, minimal=True, local=True)
        if known is not None:
            return known
        known = self.known_core(fact, premises, local=True)
        if known is None and self._hopeless(fact, premises, effort):
            return None
        answer = self._refuted(fact, premises, "core", effort)
        if answer != "unsat":
            if answer == "sat":
                self._remember()
            elif known is None:
                self._gave_up(fact, premises, effort)
            return known
        found = self._core_of(fact, premises)
        # the solver's core of these premises, unless an earlier one is smaller
        return known if known is not None and len(known) < len(found) else found

    def minimal(
        self,
        fact: Fact,
        premises: Sequence[Premise],
        effort: int = EFFORT,
        keep_undecided: bool = False,
        guess: Sequence[Fact] = (),
    ) -> list[Premise] | None:
        """A subset-minimal set of ``premises`` that forces ``fact``, or None when they do
        not force it or the solver cannot tell within ``effort`` conflicts a question
        (0: no bound) whether a premise can go.

        Z3's unsat core, then deletion, farthest premises first: a group of premises
        goes when the rest still force the fact (and with it every premise outside that
        question's core); the group halves when it cannot go, down to one premise, so a
        loose core shrinks in a few questions and a tight one costs one question a
        premise (a kept model often answers it). ``keep_undecided``: a premise whose
        question is undecided stays (the set is then minimal as far as the solver
        could tell) instead of giving up; after the first such premise the rest are
        asked within :data:`WINDOW_EFFORT` (the step is a case split already, and on a
        15x15 of islands of 20 cells most of its premises' questions stayed undecided
        at the full bound). ``guess`` (a solution's facts): with
        ``keep_undecided``, a premise's question first looks for a model near the
        solution (:meth:`_nearby`)."""
        known = self.known_core(fact, premises, minimal=True, local=True)
        if known is not None:
            return sorted(known, key=_order)
        unsure = self.unsure
        kept = self.core(fact, premises, effort)
        if kept is None and keep_undecided:
            # whatever else stays undecided, a reason must come out: the core of premises
            # known to force the fact, asked without a bound (within the bound it can stay
            # undecided, CaDiCaL's conflicts proving less than Z3's)
            kept = self.core(fact, premises, 0)
        if kept is None:
            return None
        far = steps_from(self.problem.neighbours, fact.cells)
        kept.sort(key=lambda p: (-_distance(far, p), _order(p)))
        done = 0  # kept[:done] cannot go
        chunk = max(1, len(kept) // 2)
        while done < len(kept):
            group = kept[done : done + chunk]
            trial = kept[:done] + kept[done + chunk :]
            # a group's question is a guess that may fail: bounded tighter, and
            # undecided it counts as "cannot go"
            bound = _deletion_bound(effort, chunk, len(trial), keep_undecided)
            if keep_undecided and self.unsure > unsure:
                # a premise kept unsure already makes the step a case split: the rest
                # are asked within a window's bound
                bound = min(bound, WINDOW_EFFORT) if bound else WINDOW_EFFORT
            tried = None
            if chunk == 1 and keep_undecided and guess:
                tried = (False, []) if self._nearby(fact, trial, group[0], guess) else None
            tried = tried or self._still_forced(fact, trial, bound)
            if tried is None and chunk == 1 and keep_undecided:
                self.unsure += 1
            answer = tried or (False, []) if chunk > 1 or keep_undecided else tried
            if answer is None:
                return None
            if answer[0]:
                core = answer[1]
                kept = kept[:done] + [p for p in kept[done:] if p in core]
            elif len(group) == 1:
                done += 1
            else:
                chunk = max(1, chunk // 2)
        kept.sort(key=_order)
        keys = frozenset(p.key for p in kept)
        if self.unsure == unsure and keys in self.cores.get(fact.key, {}):
            self.minimal_cores.setdefault(fact.key, set()).add(keys)
        return kept

    def _nearby(
        self, fact: Fact, trial: Sequence[Premise], dropped: Premise, guess: Sequence[Fact]
    ) -> bool:
        """Is there a model (kept) where ``trial`` holds and ``fact`` fails that keeps
        ``guess`` (a solution's facts) beyond a few steps (:data:`NEARBY`) of the fact and
        the ``dropped`` premise? A question of the last resort whether a premise can go
        mostly has such a model, when the premise is needed for a reason nearby, and
        asked of the whole grid it took 1,000 to 40,000 conflicts (a 15x15 of islands of
        20 cells), while with the rest of the grid fixed it is nearly propagation
        alone. A model found answers the question; none found answers nothing."""
        if self.witness(fact, trial):
            return True
        around = [*fact.cells, *premise_cells(dropped)]
        lits = [*self._all_rules(), *(self.lit(p) for p in trial), self.negation(fact)]
        for radius in NEARBY:
            near = steps_from_within(self.problem.neighbours, around, radius)
            kept = [self.lit(g) for g in guess if not any(c in near for c in g.cells)]
            answer = self._check([*lits, *kept], "nearby", WINDOW_EFFORT)
            if answer == "sat":
                self._remember()
                return True
        return False

    def _still_forced(
        self, fact: Fact, trial: list[Premise], effort: int
    ) -> tuple[bool, list[Premise]] | None:
        """``(False, [])`` when ``trial`` does not force ``fact`` (a kept model shows it,
        or the solver); ``(True, core)`` when it does, with the premises of ``trial`` in
        Z3's core; None when the solver cannot tell within ``effort``."""
        known = self.known_core(fact, trial, local=True)
        if known is not None:
            return True, known
        if self.witness(fact, trial):
            return False, []
        if self._hopeless(fact, trial, effort):
            return None
        answer = self._refuted(fact, trial, "forced?", effort)
        if answer == "unknown":
            self._gave_up(fact, trial, effort)
            return None
        if answer == "sat":
            self._remember()
            return False, []
        return True, self._core_of(fact, trial)

    def rules_used(self, facts: Sequence[Fact], premises: Sequence[Premise]) -> list[str]:
        """The rule groups that, with ``premises``, force all ``facts``: those of Z3's
        unsat core (not necessarily minimal: a check without a group can be far harder
        than the puzzle, and it seldom drops one)."""
        kept = [self._smallest_core(f, premises) for f in facts]
        if all(c is not None for c in kept):
            # each fact's core among these premises names rules that force it: together
            # they force all
            used = {r for f, c in zip(facts, kept) for r in self.cores[f.key][c]}  # type: ignore[index]
            return [r for r in self.all_rules if r in used]
        local = len(self.local_rules) < len(self.all_rules)
        if not (local and self.forced_all(facts, premises, self.local_rules)):
            if not self.forced_all(facts, premises, self.all_rules):
                return list(self.all_rules)
        return [r for r in self.all_rules if self.rule_id[r] in self.last_core]

    def forced_all(
        self, facts: Sequence[Fact], premises: Iterable[Premise], rules: Iterable[str]
    ) -> bool:
        """Do ``premises`` and ``rules`` force every one of ``facts``?"""
        lits = [self.rule_lit[r] for r in rules] + [self.lit(p) for p in premises]
        some = self._some_fails(facts)
        answer = self._check([*lits, some], "forced all?")
        self.last_core = self._core_ids() if answer == "unsat" else set()
        self.q.add([-some])  # retired: the solver may forget the clause
        return answer == "unsat"

    def _some_fails(self, facts: Sequence[Fact]) -> int:
        """A fresh literal that implies "one of ``facts`` fails" (an assumption, so the
        solver is never popped: it keeps what it learnt)."""
        self.asked += 1
        some = self.q.fresh()
        self.q.add([-some, *(self.negation(f) for f in facts)])
        return some

    def backbone(
        self,
        premises: Sequence[Premise],
        candidates: Sequence[Fact],
        effort: int = 0,
        label: str = "backbone",
        split: Callable[[Fact], bool] | None = None,
        undecided: list[Fact] | None = None,
        counted: bool = False,
        splits: int | None = None,
    ) -> list[Fact]:
        """The ``candidates`` that ``premises`` force: ask for a model where one of them
        fails, drop those it breaks, until none can fail. Kept models drop candidates
        first. With ``effort``: a question that needs more conflicts than that is split
        into two halves of its candidates (one question about many facts can be far
        harder than each alone); a single candidate left undecided is not returned.
        ``split``: only candidates it accepts are split off an undecided question (the
        rest are not returned). ``undecided`` gathers the single candidates left
        undecided. ``counted``: the problem's counts are assumed too (their models are
        models of the rules). ``splits``: at most that many undecided questions are
        split (None: every one)."""
        left = [f for f in candidates if not self.witness(f, premises)]
        found = [f for f in left if self.known_core(f, premises) is not None]
        left = [f for f in left if f not in found]
        lits = self._all_rules() + [self.lit(p) for p in premises]
        guard = self.counted() if counted else None
        if guard is not None:
            lits.append(guard)
        parts = [left] if left else []
        while parts:
            left = parts.pop()
            some = self._some_fails(left)
            answer = self._check([*lits, some], label, effort)
            model = self._remember() if answer == "sat" else None
            self.q.add([-some])
            if answer == "unknown":
                if split is not None:
                    left = [f for f in left if split(f)]
                if splits is not None:
                    left = left if splits > 0 else []
                    splits -= 1
                if len(left) == 1 and undecided is not None:
                    undecided += left
                half = len(left) // 2
                parts += [part for part in (left[:half], left[half:]) if half]
            elif model is None:
                found += left
                if guard is not None:
                    # kept for the whole-grid question (:meth:`whole`), not as cores:
                    # a reason of all the clues is no shortcut for the windows' questions
                    core = self._core_ids()
                    used = [p for p in premises if self.lit(p) in core]
                    for fact in left:
                        self.counted_cores[fact.key] = used
            else:
                left = [f for f in left if model[f.var] == f.value]
                if left:
                    parts.append(left)
        return found


def _ranges_apart(problem: Problem) -> list[tuple[list[str], list[str]]]:
    """Each rule group's asserts split into the ranges of the integers it declares
    (``(<= lo x hi)``) that no other group and no clue speaks of, and the rest. Such a
    range is no rule: it holds whether or not the group is assumed (nothing else
    constrains the integer), and asserted outside the group's guard it bounds the
    integer for good, which the CNF of the formula needs (:mod:`smtpuzzles.dimacs`)."""
    ints = [
        {d.split()[1] for d in b.declarations if d.rstrip().endswith("Int)")} for b in problem.rules
    ]
    named: dict[str, int] = {}  # a word -> how many groups and clues name it
    texts = [" ".join(b.asserts) for b in problem.rules] + [c.term for c in problem.clues]
    for text in texts:
        for word in set(_WORD.findall(text)):
            named[word] = named.get(word, 0) + 1
    out = []
    for own, block in zip(ints, problem.rules):
        bounds, rest = [], []
        for t in block.asserts:
            m = _RANGE.match(t)
            lone = m is not None and m[1] in own and named.get(m[1], 0) == 1
            (bounds if lone else rest).append(t)
        out.append((bounds, rest))
    return out


#: ``(<= lo x hi)``: an integer's range.
_RANGE = re.compile(r"^\(<= -?\d+ ([^\s()]+) -?\d+\)$")

#: A symbol of SMT-LIB text.
_WORD = re.compile(r"[^\s()]+")


def _deletion_bound(effort: int, chunk: int, left: int, keep_undecided: bool) -> int:
    """The conflicts a deletion question may take (see :meth:`Forcing.minimal`): a
    group's question is bounded like a window's. So is, where an undecided premise is
    kept (a last resort), a question that leaves at most one premise: the search asked
    those already (the rules alone before the first step, each premise alone after
    it), and with the last resort's bound they stayed undecided all the same while
    taking most of its time."""
    if chunk > 1:
        return min(effort, WINDOW_EFFORT) if effort else WINDOW_EFFORT
    if keep_undecided and left <= 1 and effort:
        return min(effort, FEW_EFFORT)
    return effort


def _holds(model: dict[str, bool], p: Premise) -> bool:
    if isinstance(p, Clue):
        return model[p.key]
    return model[p.var] == p.value


def _order(p: Premise) -> tuple[int, str]:
    return (min(premise_cells(p)), p.key)


def premise_cells(p: Premise) -> tuple[int, ...]:
    return (p.cell,) if isinstance(p, Clue) else p.cells


def _distance(steps: dict[int, int], p: Premise) -> int:
    return min(steps.get(c, 10**9) for c in premise_cells(p))


def steps_from(neighbours: Sequence[Sequence[int]], cells: Iterable[int]) -> dict[int, int]:
    """Breadth-first steps from ``cells`` to every cell reached."""
    steps = {c: 0 for c in cells}
    queue = deque(steps)
    while queue:
        i = queue.popleft()
        for j in neighbours[i]:
            if j not in steps:
                steps[j] = steps[i] + 1
                queue.append(j)
    return steps


def _literal(fact: Fact) -> str:
    return fact.var if fact.value else not_(fact.var)


def step_script(problem: Problem, step: Step, title: Sequence[str] = ()) -> Script:
    """The question a step answers, as a complete SMT-LIB script any solver runs: the
    rule groups it names (as the puzzle's formula states them), its premises, and its
    facts failing. Unsatisfiable, since the premises and rules force the facts; with any
    one premise's assert taken out it is satisfiable (the reason is minimal), unless
    the step is a case split with premises kept unsure."""
    used = set(step.rules)
    premises = [p.term if isinstance(p, Clue) else _literal(p) for p in step.premises]
    facts = [_literal(f) for f in step.facts]
    asked = [
        Block(
            "premises",
            "The clues and earlier facts the step names, one assert each.",
            premises,
        ),
        Block(
            "the facts fail",
            "The step's facts do not all hold: unsatisfiable with the premises and rules.",
            [not_(and_(facts))],
        ),
    ]
    return Script(
        title=list(title),
        declarations=list(problem.declarations),
        blocks=[b for b in problem.rules if b.rule in used],
        question=asked,
        answer="unsat",
    )


@dataclass
class Explanation:
    """The steps from the given state to the solution, and how the search ended:
    ``complete`` (every fact decided), ``stuck`` (the clues leave some cells open: more
    than one solution), ``stopped`` (time, memory or Ctrl-C; ``stopped_by`` says which)."""

    puzzle: str
    name: str
    status: str
    steps: list[Step]
    elapsed_s: float
    stopped_by: str | None = None
    #: entries of a given state that contradict the solution, each refuted by a step
    wrong: list[Step] = field(default_factory=list)
    #: the rules and clues the steps were found from (for :meth:`script`)
    problem: Problem | None = field(default=None, repr=False, compare=False)

    @property
    def grade(self) -> int:
        return grade(self.steps)

    def script(self, step: Step) -> Script:
        """The SMT-LIB script of ``step``'s question (:func:`step_script`): it prints as
        the script, and shows rule by rule in a notebook."""
        if self.problem is None:
            raise ValueError("this explanation was made without its puzzle's rules")
        if step in self.wrong:
            where = f"wrong entry {self.wrong.index(step) + 1}"
        else:
            where = f"step {self.steps.index(step) + 1}"
        title = textwrap.wrap(f"{self.puzzle} {self.name}, {where}: {step.text}", 86)
        return step_script(self.problem, step, title)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "puzzle": self.puzzle,
            "name": self.name,
            "status": self.status,
            "grade": self.grade,
            "steps": [s.to_json() for s in self.steps],
            "elapsed_s": round(self.elapsed_s, 3),
        }
        if self.stopped_by is not None:
            out["stopped"] = self.stopped_by
        if self.wrong:
            out["wrong"] = [s.to_json() for s in self.wrong]
        return out

    def report(self, pictures: bool = False) -> str:
        """The steps as numbered sentences (with their pictures), status, grade, time."""
        lines = [f"{self.puzzle} {self.name}: {len(self.steps)} steps"]
        for step in self.wrong:
            lines.append(step.text)
            if pictures and step.picture:
                lines.append(step.picture)
        for n, step in enumerate(self.steps, 1):
            lines.append(f"{n}. {step.text}")
            if pictures and step.picture:
                lines.append(step.picture)
        lines.append(
            f"status: {self.status}" + (f" ({self.stopped_by})" if self.stopped_by else "")
        )
        if self.status != NO_SOLUTION:  # no puzzle to grade
            lines.append(f"grade: {self.grade} ({grade_words(self.grade)})")
        lines.append(f"time: {self.elapsed_s:.3f} s")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """In a notebook: status and grade, then every step with its picture."""
        head = f"<p>{html.escape(self.puzzle)} {html.escape(self.name)}: {self.status}"
        if self.status != NO_SOLUTION:
            head += f", grade {self.grade} ({grade_words(self.grade)})"
        head += f", {len(self.steps)} steps</p>"
        body = "".join(f"<div>{n}. {s._repr_html_()}</div>" for n, s in enumerate(self.steps, 1))
        return head + body

    def __str__(self) -> str:
        return self.report()


def draw_steps(
    steps: Sequence[Step],
    given: Sequence[Fact],
    draw: Callable[[dict[str, Fact], Step], tuple[str, str]],
) -> None:
    """Give every step its pictures, drawn when first asked for: ``draw(known, step)``
    with the facts decided before it (by variable) returns the text and the SVG."""
    known = {f.var: f for f in given}
    for step in steps:
        step.drawer = partial(draw, dict(known), step)
        known.update((f.var, f) for f in step.facts)


#: The grade scale: ten times the mean premise count of the steps, a case split counting
#: as :data:`HARD` + 1 premises at least; the words below name its bands.
GRADE_BANDS = ((15, "easy"), (25, "medium"), (35, "hard"), (10**9, "fiendish"))


def grade(steps: Sequence[Step]) -> int:
    """Difficulty: ten times the mean premise count of the steps (a case split counts as
    more than :data:`HARD` premises). The mean, not the largest step: a puzzle is hard
    when its deductions need many clues and cells at once all the way, and a single large
    step that a human could avoid by another order weighs little; measured against a
    human-solving proxy the mean ranks puzzles better than the largest step."""
    if not steps:
        return 0
    sizes = [max(s.size, HARD + 1) if s.case_split else s.size for s in steps]
    return round(10 * sum(sizes) / len(sizes))


#: The status of an explanation whose clues have no solution: it has no grade to speak of
#: (``--json`` still gives 0, its number for no steps).
NO_SOLUTION = "no solution"


def grade_words(value: int) -> str:
    return next(words for top, words in GRADE_BANDS if value <= top)


# ---------------------------------------------------------------------- the path


def explain(
    problem: Problem,
    budget: Budget | None = None,
    given: Sequence[Fact] = (),
    limit: int | None = None,
    stats: Stats | None = None,
    engine: str | None = None,
) -> tuple[list[Step], str, str | None, list[Step]]:
    """The steps from ``given`` (facts already decided) to the solution, easiest first
    at each point, at most ``limit`` steps (None: all). Returns the steps, the status
    (``complete``, ``stuck``, ``stopped``), what stopped it (``timeout``,
    ``interrupted``, ``memory``, or None), and the steps refuting wrong ``given`` facts.
    ``engine``: who answers the questions (:data:`ENGINE` when None; see
    :mod:`smtpuzzles.engines.questions`).

    Raises :class:`Unsolvable` when the clues have no solution.
    """
    budget = budget or Budget()
    steps: list[Step] = []
    wrong: list[Step] = []
    status = "stopped"
    with stopping(budget) as stop:
        path = _Path(Forcing(problem, budget, stats, engine))
        wrong = path.refute(given)
        for step in path.steps(limit):
            steps.append(step)
        status = "complete" if not path.open else "stuck"
        if limit is not None and path.open and len(steps) >= limit:
            status = "hint"
    if status == "complete":
        _check_facts(problem, given, wrong, steps)
    return steps, status, stop.why, wrong


def _check_facts(
    problem: Problem, given: Sequence[Fact], wrong: Sequence[Step], steps: Sequence[Step]
) -> None:
    """The solution a complete explanation's facts (right entries given and steps'
    facts) make, put to the puzzle's independent checker: :class:`CheckFailure` when it
    breaks a rule, as a solver's answer would be."""
    if problem.check is None:
        return
    refuted = {s.wrong.var for s in wrong if s.wrong is not None}
    values = {f.var: f.value for f in given if f.var not in refuted}
    values.update((f.var, f.value) for step in steps for f in step.facts)
    missing = [v for v, _ in problem.variables if v not in values]
    broken = problem.check(values) if not missing else [f"{missing[0]} is not decided"]
    if broken:
        raise CheckFailure(f"a complete explanation's facts break a rule: {broken[0]}")


class _Path:
    """The search for the next easiest step (see the module docstring)."""

    def __init__(self, forcing: Forcing) -> None:
        self.f = forcing
        problem = forcing.problem
        clues = list(problem.clues)
        found = self._solutions()
        #: the targets are one solution's facts, not yet proven the only solution's
        self.unproven = found is not None and len(found[0]) == 1 and not found[1]
        if found is not None and len(found[0]) == 1:
            # one solution: every fact of it is forced by all the clues (when unproven,
            # each step proves its facts, and :meth:`_confirm` drops the others)
            self.targets = [problem.say(v, found[0][0][v]) for v, _ in problem.variables]
        else:
            if found is not None and not found[0]:
                raise Unsolvable()
            model = found[0][0] if found is not None else forcing.consistent(clues, True)
            if model is None:
                raise Unsolvable()
            valued = [problem.say(v, model[v]) for v, _ in problem.variables]
            if found is not None:
                valued = [f for f in valued if all(s[f.var] == f.value for s in found[0])]
            # only facts every solution shares can be forced: the backbone under all clues
            self.targets = forcing.backbone(clues, valued, counted=True)
        self.known: list[Premise] = []
        #: by cell, the places in :attr:`known` of the premises on it (a window is read
        #: off the cells near a fact, not found by testing every premise)
        self.on_cell: dict[int, list[int]] = {}
        for clue in clues:
            self._know(clue)
        self.decided: set[str] = set()
        self.pool: dict[str, list[Premise]] = {}  # fact var -> smallest reason found
        self.minimised: set[str] = set()  # pool entries whose reason is minimal
        self.stuck: set[str] = set()  # pool entries whose reason could not be minimised
        self.asked: dict[frozenset[str], set[str]] = {}  # window -> facts asked of it
        self.single: set[str] = set()  # premises asked alone
        self.nearby: dict[tuple[str, int], set[int]] = {}  # (fact var, radius) -> cells
        self.begun = False  # the first step's search (the rules alone) is done
        self.by_var = {f.var: f for f in self.targets}
        self.open = len(problem.variables) > len(self.targets)  # undecidable facts remain

    def _solutions(self) -> Solutions | None:
        """The puzzle's own solver's answer, within :data:`UNIQUE_S` of the run's time
        (it ends with the solution found when proving it unique takes longer)."""
        problem, run = self.f.problem, self.f.budget
        if problem.solutions is None:
            return None
        left = run.remaining()
        found = problem.solutions(Budget(UNIQUE_S if left is None else min(left, UNIQUE_S)))
        if run.expired():
            stop_again("timeout")
        return found

    def _confirm(self) -> None:
        """Unproven targets: keep only those every solution shares (the backbone under
        the known premises, which all the clues force), so that what cannot be decided
        is no target."""
        if not self.unproven:
            return
        self.unproven = False
        # with the counts, which the rules imply and which only speed the proof up
        sure = {f.var for f in self.f.backbone(self.known, self.undecided(), counted=True)}
        self.targets = [f for f in self.targets if f.var in self.decided or f.var in sure]
        self.by_var = {f.var: f for f in self.targets}
        for var in [v for v in self.pool if v not in self.by_var]:
            del self.pool[var]
        self.open = len(self.f.problem.variables) > len(self.targets)

    def refute(self, given: Sequence[Fact]) -> list[Step]:
        """Steps that refute the wrong entries of ``given``; the right ones become known."""
        wrong = []
        truth = {f.var: f for f in self.targets}
        if self.unproven and any(g.var in truth and truth[g.var].value != g.value for g in given):
            self._confirm()
            truth = {f.var: f for f in self.targets}
        for g in given:
            right = truth.get(g.var)
            if right is None:
                continue
            if right.value == g.value:
                self._know(right)
                self.decided.add(right.var)
                continue
            clues = list(self.f.problem.clues)
            premises = self.f.minimal(right, clues) or self.f.minimal(right, clues, 0) or []
            wrong.append(self._checked([right], premises, False, g))
        return wrong

    def _know(self, premise: Premise) -> None:
        for cell in premise_cells(premise):
            self.on_cell.setdefault(cell, []).append(len(self.known))
        self.known.append(premise)

    def undecided(self) -> list[Fact]:
        return [f for f in self.targets if f.var not in self.decided]

    def steps(self, limit: int | None) -> Iterable[Step]:
        count = 0
        while self.undecided() and (limit is None or count < limit):
            step = self.next_step()
            if step is None:
                break
            for fact in step.facts:
                self.decided.add(fact.var)
                self._know(fact)
                self.pool.pop(fact.var, None)
                self.minimised.discard(fact.var)
                self.stuck.discard(fact.var)
            count += 1
            yield step
        self.open = self.open or bool(self.undecided())

    def next_step(self) -> Step | None:
        """The easiest next step; None when the targets left, unproven, turn out not to
        be forced (more than one solution)."""
        if self.begun:
            step = self._small()
            if step is not None:
                return step
        self.begun = True
        self._singles()
        for radius in range(RADIUS + 1):
            self._search(radius)
            step = self._take(NEAR)
            if step is not None:
                return step
        self._global()
        step = self._take(spend=FAR_SPEND)
        if step is None and self.unproven and not self.pool:
            # a fact with a core is forced; with none, the targets left may not be
            self._confirm()
            if not self.undecided():
                return None
        step = step or self._last_resort()
        step.case_split = step.case_split or step.size > HARD
        return step

    def _small(self) -> Step | None:
        """A step of one premise (or none) already in the pool, taken before the search:
        after the first step no fact follows from the rules alone that the first search
        did not find, so a step of one premise is the fewest there can be, and the
        premises decided since are asked alone only before a step of two or more (the
        promise that such a step comes only when no single premise forces a fact). Put
        off, they are asked about fewer open facts, and the windows around them are not
        asked while steps of one premise remain. None when the pool has none."""
        if not any(len(r) <= 1 for v, r in self.pool.items() if v not in self.stuck):
            return None
        step = self._take()
        return step if step is not None and step.size <= 1 else None

    def _search(self, radius: int) -> None:
        """Ask each window of this radius (the premises within ``radius`` steps of an
        open fact) which of the open facts it is the window of it forces; a window and
        a fact are asked once (premises only grow, and new ones make new windows)."""
        groups: dict[frozenset[str], tuple[list[Premise], list[Fact]]] = {}
        for fact in self.undecided():
            if fact.var in self.pool and len(self.pool[fact.var]) <= radius:
                continue
            near = self._near(fact, radius)
            places = {k for c in near for k in self.on_cell.get(c, ())}
            window = [self.known[k] for k in sorted(places)]
            key = frozenset(p.key for p in window)
            groups.setdefault(key, (window, []))[1].append(fact)
        for key, (window, facts) in groups.items():
            asked = self.asked.setdefault(key, set())
            todo = [f for f in facts if f.var not in asked]
            asked.update(f.var for f in todo)
            label = f"window {radius}"
            for found in self.f.backbone(window, todo, WINDOW_EFFORT, label) if todo else ():
                self._offer(found, self.f.core(found, window))

    def _near(self, fact: Fact, radius: int) -> set[int]:
        """The cells within ``radius`` steps of ``fact`` (kept: every search asks again)."""
        key = (fact.var, radius)
        found = self.nearby.get(key)
        if found is None:
            found = steps_from_within(self.f.problem.neighbours, fact.cells, radius)
            self.nearby[key] = found
        return found

    def _singles(self) -> None:
        """Ask each premise alone (once: what it forces never changes) which open facts
        it forces, so that no reason of one premise is missed however far it lies.

        A question that stays undecided is split down to single facts only for facts
        within :data:`REACH` steps of the premise; a single fact within
        :attr:`Problem.close` steps whose question stays undecided is asked again with
        a window's bound (what one premise forces nearby can take more than the first
        bound). (Asking
        first without the global rules, as :meth:`Forcing.decide` does, was measured
        on Koburin: no faster on 8x8, half again slower on 10x10, the local models
        rarely ruling a fact out.)"""
        f = self.f
        for p in self.known:
            if p.key in self.single:
                continue
            self.single.add(p.key)
            near = steps_from_within(f.problem.neighbours, premise_cells(p), REACH)

            def split(fact: Fact, near: set[int] = near) -> bool:
                return any(c in near for c in fact.cells)

            undecided: list[Fact] = []
            found = f.backbone([p], self.undecided(), SINGLE_EFFORT, "single", split, undecided)
            reach = f.problem.close
            close = steps_from_within(f.problem.neighbours, premise_cells(p), reach)
            for fact in undecided if reach >= 0 else ():
                if any(c in close for c in fact.cells) and f.decide(fact, [p], WINDOW_EFFORT):
                    found.append(fact)
            for fact in found:
                self._offer(fact, f.core(fact, [p]))

    def _offer(self, fact: Fact, reason: list[Premise] | None) -> None:
        """Keep ``reason`` for ``fact`` when it is the smallest found."""
        if reason is None:
            return
        best = self.pool.get(fact.var)
        if best is None or len(reason) < len(best):
            self.pool[fact.var] = reason
            self.minimised.discard(fact.var)
            self.stuck.discard(fact.var)

    def _whole(self, effort: int) -> Step | None:
        """No open fact has a core within the bounds, near or over the whole grid: the
        facts are forced, if at all, by premises spread over the whole grid (a puzzle
        of a few huge islands). One question whether the known premises force every
        open fact under the rules and the problem's counts (:attr:`Problem.counts`),
        within ``effort`` conflicts (0: no bound), stands for one question a fact; its
        core is the step's premises. A fact joins the step
        when, for each premise of the core, a model of the rest (and the counts) shows
        the fact can fail: the reason is minimal for it. A fact the rest forces without
        some premise waits in the pool with that smaller reason. When no fact is proven
        to need every premise, the step is a case split counting as unsure the fewest
        premises left undecided for a fact, and every fact that no fewer premises were
        shown to force joins it. An undecided question without one premise is split
        only :data:`WHOLE_SPLITS` times (a model without one number of a few huge
        islands is as hard as the puzzle), and the question itself is not asked again when a
        backbone with the counts answered it (:attr:`Forcing.counted_cores`). None when
        the question is not answered "forced" (the search goes on over the whole grid,
        fact by fact). A premise whose rest forces every fact not yet spared leaves the
        core."""
        facts = self.undecided()
        core = self.f.whole(self.known, facts, effort)
        if core is None:
            return None
        spare: dict[str, list[Premise]] = {}  # fact -> a smaller set that forces it
        unsure = {f.var: 0 for f in facts}
        for p in list(core):
            rest = [q for q in core if q is not p]
            left = [f for f in facts if f.var not in spare]
            label = "whole, one premise dropped"
            forced = self.f.backbone(rest, left, EFFORT, label, counted=True, splits=WHOLE_SPLITS)
            if left and len(forced) == len(left):
                # the rest force every fact that still needs a reason: ``p`` leaves the
                # core (offered as a smaller reason, each fact's minimisation would ask
                # without the counts, which a few huge islands need)
                core = rest
                self.f.learn_whole(left, rest)
                continue
            for fact in forced:
                spare[fact.var] = rest
            for fact in left:
                # neither forced without ``p`` nor failing in a model of the rest
                if fact not in forced and not self.f.witness(fact, rest):
                    unsure[fact.var] += 1
        for var, reason in spare.items():
            self._offer(self.by_var[var], reason)
        needed = [f for f in facts if f.var not in spare]
        if not needed:
            return None
        least = min(unsure[f.var] for f in needed)
        # a case split either way: every fact that needs no fewer premises joins it
        chosen = [f for f in needed if unsure[f.var] == least or least > 0]
        step = self._checked(chosen, sorted(core, key=_order), False)
        step.unsure = least
        step.case_split = least > 0 or step.size > HARD
        return step

    def _global(self) -> None:
        """No reason near any fact: Z3's core over all known premises for each open fact
        (:meth:`_take` minimises the smallest). With the pool empty, when the first
        :data:`GLOBAL_TRIES` facts asked have no core within the bound, the rest are not
        asked: the facts are then forced, if at all, only by premises spread over the
        whole grid (a puzzle of a few huge islands), each such question stays undecided,
        and the whole-grid question (:meth:`_whole`) asks about them all at once."""
        tried = 0  # the pool only grows here: empty now means empty from the start
        for fact in self.undecided():
            if fact.var not in self.pool or fact.var in self.stuck:
                if tried >= GLOBAL_TRIES and not self.pool:
                    return
                tried += 1
                self._offer(fact, self.f.core(fact, self.known))

    def _last_resort(self) -> Step:
        """No reason could be minimised within the effort bounds: the open fact whose
        core is smallest (the pool's cores, found within the effort bounds; without any,
        Z3's cores without a bound), its core minimised with :data:`PATIENCE` times the
        effort a question (a premise whose question stays undecided is kept); a case
        split unless the reason is small and proven minimal."""
        if not self.pool:
            # no fact has a core within the bounds: one question about every open fact
            # without a bound stands for one a fact
            step = self._whole(0)
            if step is not None:
                return step
        cores = [(r, self.by_var[v]) for v, r in self.pool.items()]
        if not cores:
            cores = [(self.f.core(f, self.known, 0) or self.known, f) for f in self.undecided()]
        core, fact = min(cores, key=lambda c: (len(c[0]), min(c[1].cells)))
        before = self.f.unsure
        reason = self.f.minimal(fact, core, EFFORT * PATIENCE, True, self.targets)
        assert reason is not None, "a unique solution forces every fact"
        step = self._checked([fact], reason, False)
        step.unsure = self.f.unsure - before
        # a small reason proven minimal is no case split, however it was found
        step.case_split = step.unsure > 0 or step.size > HARD
        return step

    def _take(self, most: int | None = None, spend: int | None = None) -> Step | None:
        """The pool's smallest reason: reasons are Z3's cores until minimised, and the
        smallest is minimised until the smallest is minimal (a reason that cannot be
        minimised within the effort bounds waits). None when the pool has none (of at
        most ``most`` premises, when given), or when the questions left undecided by
        reasons that failed took more than ``spend`` conflicts."""
        spent = self.f.spent
        while True:
            open_ = [v for v in self.pool if v not in self.stuck]
            if most is not None:
                open_ = [v for v in open_ if len(self.pool[v]) <= most]
            if not open_:
                return None
            var = min(open_, key=lambda v: (len(self.pool[v]), min(self.by_var[v].cells)))
            if var in self.minimised:
                break
            reason = self.f.minimal(self.by_var[var], self.pool[var])
            if reason is None:
                self.stuck.add(var)
                if spend is not None and self.f.spent - spent >= spend:
                    return None
                continue
            self.pool[var] = reason
            self.minimised.add(var)
        reason = self.pool[var]
        keys = {p.key for p in reason}
        for other, core in list(self.pool.items()):
            # the facts the same reason forces join the step, when it is minimal for them
            if other in self.minimised or not keys <= {p.key for p in core}:
                continue
            fact = self.by_var[other]
            # joining is optional: bounded like a window's question
            if self.f.decide(fact, reason, WINDOW_EFFORT):
                smaller = self.f.minimal(fact, reason, WINDOW_EFFORT)
                if smaller is not None:
                    self.pool[other] = smaller
                    self.minimised.add(other)
                    self.stuck.discard(other)
        facts = [
            self.by_var[v]
            for v, r in self.pool.items()
            if v in self.minimised and {p.key for p in r} == keys
        ]
        facts.sort(key=lambda f: min(f.cells))
        return self._checked(facts, reason, False)

    def _checked(
        self, facts: list[Fact], reason: list[Premise], case_split: bool, wrong: Fact | None = None
    ) -> Step:
        """The step, with the rule groups it needs."""
        return Step(facts, reason, self.f.rules_used(facts, reason), case_split, wrong)


def steps_from_within(
    neighbours: Sequence[Sequence[int]], cells: Iterable[int], radius: int
) -> set[int]:
    """The cells at most ``radius`` steps from ``cells``."""
    steps = {c: 0 for c in cells}
    queue = deque(steps)
    while queue:
        i = queue.popleft()
        if steps[i] == radius:
            continue
        for j in neighbours[i]:
            if j not in steps:
                steps[j] = steps[i] + 1
                queue.append(j)
    return set(steps)
