"""The one search runner: what every search over a puzzle's formula needs, written once.

A puzzle's search (a :class:`Search` subclass) holds an incremental solver over its
formula and supplies hooks: :meth:`~Search.decode` a model into a solution,
:meth:`~Search.cut` a lazy cut against a model that breaks a rule the solver was not
given, :meth:`~Search.block` a solution found, :meth:`~Search.problems` from the
puzzle's independent checker. The runner owns the loops:

- :func:`find`: ask, read the model, add lazy cuts until a model keeps every rule, check
  the solution;
- :func:`solve`: find, block, find another (``unique``, ``count``), and the cells fixed
  in every solution; with the deadline and Ctrl-C around each step, and the questions
  asked kept as SMT-LIB scripts;
- :func:`stopping`: the one place where a time limit, the memory cap or Ctrl-C is caught
  and named (``timeout``, ``memory``, ``interrupted``: the ``stopped`` of the JSON), for
  every step of a run, the searches of other shapes (Flood-It's horizons) and the
  command line's own steps alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .. import z3lazy as z3
from ..engines import Stats, check_sat, parse_into
from ..errors import CheckFailure, InputError
from ..limits import (
    Budget,
    Interrupted,
    MemoryLimitExceeded,
    TimeUp,
    deadline,
    hold,
    interrupts_seen,
    out_of_memory,
    release_reserve,
)
from ..outcome import Outcome
from ..smtlib import Block, Script, or_, question

S = TypeVar("S")

#: What :func:`find` returns when a limit stopped the solver before it answered.
UNKNOWN = "unknown"


@dataclass
class Stop:
    """Why a step :func:`stopping` ran was cut short (``None``: it was not), and the
    exception that said so."""

    why: str | None = None
    exc: BaseException | None = None


@contextmanager
def stopping(
    budget: Budget | None = None, also: tuple[type[BaseException], ...] = ()
) -> Iterator[Stop]:
    """Run the block (under ``budget``'s deadline, if given) and catch what ends a run
    early: :class:`TimeUp` is ``timeout``, the memory cap (Python's or Z3's, or a C
    extension's ``SystemError`` under the cap) ``memory``, Ctrl-C ``interrupted``; the
    :class:`Stop` yielded says which. So do, as ``interrupted``, the exceptions of
    ``also`` but bad input when a Ctrl-C has come since the block began (Python 3.11
    reports a Ctrl-C inside a class statement as a ``RuntimeError``).

    What a stopped block had built is held, not freed (see :func:`~.limits.hold`), and
    the memory kept in reserve is given back so the run has room to report."""
    stop = Stop()
    seen = interrupts_seen()
    try:
        with deadline(budget) if budget is not None else nullcontext():
            yield stop
    except TimeUp as exc:
        hold(exc.__traceback__)  # the half-built state is freed after the answer
        stop.why, stop.exc = "timeout", exc
    except (Interrupted, KeyboardInterrupt) as exc:
        stop.why, stop.exc = "interrupted", exc
    except (MemoryLimitExceeded, MemoryError, SystemError) as exc:
        if not out_of_memory(exc):
            raise
        release_reserve()
        stop.why, stop.exc = "memory", exc
    except also as exc:
        if interrupts_seen() == seen or isinstance(exc, InputError):
            raise
        stop.why, stop.exc = "interrupted", exc


def stop_again(why: str | None) -> None:
    """Raise what cut a finished search short (its outcome's ``stopped``), so that the
    run it was part of stops too instead of going on as if it had answered."""
    if why is not None:
        raise {"timeout": TimeUp, "interrupted": Interrupted}.get(why, MemoryLimitExceeded)()


@dataclass(frozen=True)
class Ask:
    """What a search is asked beyond one solution: ``unique`` proves the solution unique
    (or finds a second, then the cells fixed in every solution); ``count`` finds up to
    that many solutions."""

    unique: bool = False
    count: int | None = None

    @property
    def wanted(self) -> int:
        """How many solutions to find before stopping."""
        return max(self.count or 1, 2 if self.unique else 1)


class Search(Generic[S]):
    """An incremental solver over one puzzle's formula, and the puzzle's hooks.

    A subclass sets :attr:`solver` and :attr:`added` (the blocks beyond the rules, in
    order) and writes :meth:`decode`, :meth:`block`, :meth:`problems`, :meth:`cells`
    and :meth:`script`; the other hooks have defaults that do nothing."""

    solver: z3.Solver
    added: list[Block]
    #: checks asked so far
    checks: int = 0
    #: the puzzle's name, for a checker failure
    name: str = "<puzzle>"
    #: does ``unique`` look for the cells fixed in every solution (:meth:`differs`) when
    #: a second solution exists?
    backbone: bool = False

    # -- hooks every search writes ---------------------------------------------------------

    def decode(self, model: z3.ModelRef) -> S:  # pragma: no cover - every subclass has its own
        """The solution a model shows (the puzzle's own answer type)."""
        raise NotImplementedError

    def block(self, solution: S) -> None:  # pragma: no cover
        """Rule ``solution`` out from now on (a block :meth:`add` keeps)."""
        raise NotImplementedError

    def problems(self, solution: S) -> list[str]:  # pragma: no cover
        """What the puzzle's independent checker finds wrong with ``solution``."""
        raise NotImplementedError

    def cells(self, solution: S) -> dict[int, bool]:  # pragma: no cover
        """The cells of ``solution`` that may be fixed in every solution, each with its
        value (black ``True``)."""
        raise NotImplementedError

    def script(self, upto: int | None = None) -> Script:  # pragma: no cover
        """The question the solver now answers, with the first ``upto`` blocks of
        :attr:`added` (all of them by default)."""
        raise NotImplementedError

    # -- hooks with a default --------------------------------------------------------------

    def ready(self, assumptions: Sequence[str]) -> S | str | None:
        """What the search knows before asking the solver: a solution found another way,
        ``"unsat"`` when there is none, or ``None`` (ask the solver)."""
        return None

    def label(self, stats: Stats | None) -> str:
        """The name of the next check in the statistics' probes."""
        return f"check {self.checks}"

    def stalled(self) -> bool:
        """The solver answered ``unknown``: may the search go on another way (True), or
        is the answer unknown (False)?"""
        return False

    def cut(self, model: z3.ModelRef, solution: S) -> Block | None:
        """A lazy cut: a block implied by a rule the solver was not given, against a
        model that breaks it (``None``: the model keeps every rule)."""
        return None

    def differs(self, first: S, cells: Sequence[int]) -> list[str]:  # pragma: no cover
        """SMT-LIB terms "this cell differs from ``first``", one per cell (with
        :attr:`backbone`)."""
        raise NotImplementedError

    # -- what the runner uses --------------------------------------------------------------

    def add(self, block: Block) -> None:
        """Feed ``block`` to the solver and keep it for the script of later questions."""
        self.added.append(block)
        parse_into(self.solver, block.text())


def find(
    search: Search[S], budget: Budget, stats: Stats | None, assumptions: Sequence[str] = ()
) -> S | None | str:
    """The next checked solution, ``None`` when there is none, or :data:`UNKNOWN` when a
    limit stopped the solver (``assumptions``: names of Boolean guards assumed true for
    this check). Lazy cuts are added until a model keeps every rule; every solution
    passes the puzzle's checker (else :class:`CheckFailure`: a bug)."""
    while True:
        known = search.ready(assumptions)
        if known == "unsat":
            return None
        if known is None:
            search.checks += 1
            assumed = [z3.Bool(a, search.solver.ctx) for a in assumptions]
            answer = check_sat(search.solver, budget, assumed, stats, search.label(stats))
            if answer == z3.unknown:
                if search.stalled():
                    continue
                return UNKNOWN
            if answer == z3.unsat:
                return None
            model = search.solver.model()
            solution = search.decode(model)
            cut = search.cut(model, solution)
            if cut is not None:
                search.add(cut)
                continue
        else:
            solution = known  # type: ignore[assignment]
        found = search.problems(solution)
        if found:
            raise CheckFailure(f"{search.name}: the solver's answer breaks a rule: {found[0]}")
        return solution


def _answer(found: Any) -> str:
    """What :func:`find` returned, as a script's answer."""
    return "unsat" if found is None else UNKNOWN if isinstance(found, str) else "sat"


def solve(
    make: Callable[[], Search[S]], ask: Ask, budget: Budget, stats: Stats
) -> tuple[Outcome, Search[S] | None]:
    """Build a search (``make``) and find solutions as ``ask`` says, within ``budget``.

    The first and the last question asked are kept in ``questions``: ``puzzle``, then
    ``another`` (``another-N`` after N solutions) with the solutions found forbidden.
    A time limit or Ctrl-C ends the search with what it found (``stopped``)."""
    try:
        with deadline(budget):
            search = make()
    except TimeUp:
        return Outcome("unknown", count_complete=False, stopped="timeout", stats=stats), None
    hold(search)  # freed when the next run starts: freeing a large formula takes seconds
    outcome = Outcome("unknown", stats=stats)
    complete = True  #: every solution there is was found (the search ran dry)
    ran_dry = False
    last: tuple[str, str, int] | None = None  #: the last question: name, answer, blocks
    try:
        while len(outcome.solutions) < ask.wanted:
            try:
                with deadline(budget):
                    found = find(search, budget, stats)
            except TimeUp:
                found = UNKNOWN
            except (Interrupted, KeyboardInterrupt):
                found, outcome.stopped = UNKNOWN, "interrupted"
            n = len(outcome.solutions)
            if n == 0:
                outcome.questions.append(question("puzzle", search.script(), _answer(found)))
            else:  # its script is written once the search is over
                last = ("another" if n == 1 else f"another-{n}", _answer(found), len(search.added))
            if isinstance(found, str):
                complete = False
                outcome.stopped = outcome.stopped or "timeout"
                break
            if found is None:
                ran_dry = True
                break
            outcome.solutions.append(found)
            if len(outcome.solutions) < ask.wanted or (ask.unique and search.backbone):
                search.block(found)  # a search for another, or for the fixed cells, follows
        else:
            complete = ask.count is None or len(outcome.solutions) < ask.count
    except (Interrupted, KeyboardInterrupt):
        complete = False
        outcome.stopped = "interrupted"
    outcome.count_complete = complete
    if last is not None:
        name, answer, blocks = last
        outcome.questions.append(question(name, search.script(blocks), answer))
    if not outcome.solutions:
        outcome.status = "unknown" if not complete else "unsat"
        return outcome, search
    outcome.status = "solved"
    if ask.unique or ask.count:
        n = len(outcome.solutions)
        outcome.unique = True if n == 1 and complete else (False if n > 1 else None)
    if ask.unique and search.backbone:
        if outcome.unique is not None and outcome.stopped is None:
            try:
                outcome.fixed = fixed_cells(search, outcome, budget, stats)
            except (Interrupted, KeyboardInterrupt):
                outcome.stopped = "interrupted"
            if outcome.fixed is None and outcome.stopped is None:
                outcome.stopped = "timeout"
    elif ran_dry:  # every solution is known: the fixed cells are plain to see
        outcome.fixed = agreed(search, outcome.solutions)
    return outcome, search


def agreed(search: Search[S], solutions: Sequence[S]) -> dict[int, bool]:
    """The cells with one value in every one of ``solutions``."""
    first, *others = [search.cells(s) for s in solutions]
    return {i: v for i, v in first.items() if all(o[i] == v for o in others)}


def fixed_cells(
    search: Search[S], outcome: Outcome, budget: Budget, stats: Stats | None
) -> dict[int, bool] | None:
    """Cells with one value in every solution (the backbone), or None if time ran out.

    Ask for a solution that differs from the first on some still-agreeing cell; every
    answer removes cells, an ``unsat`` proves the rest fixed. Found solutions are blocked
    already, which is harmless: they agree on every candidate cell.
    """
    first = outcome.solutions[0]
    candidates = agreed(search, outcome.solutions)
    if outcome.unique:
        return dict(sorted(candidates.items()))
    mine = search.cells(first)
    while candidates:
        guard = f"differs_{search.checks}"
        differs = search.differs(first, sorted(candidates))
        search.add(
            Block(
                f"guard {guard}",
                "Assumed in one check: some cell not yet seen to change differs from the"
                " first solution.",
                [f"(=> {guard} {or_(differs)})"],
                [f"(declare-fun {guard} () Bool)"],
            )
        )
        try:
            with deadline(budget):
                found = find(search, budget, stats, [guard])
        except TimeUp:
            return None
        if isinstance(found, str):
            return None
        if found is None:
            break
        theirs = search.cells(found)
        candidates = {i: v for i, v in candidates.items() if theirs[i] == mine[i]}
        search.block(found)
    return dict(sorted(candidates.items()))
