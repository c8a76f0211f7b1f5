"""Z3's solvers: making them (an engine, a context of their own), feeding them SMT-LIB
text under the memory cap, and one check within the budget."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from .. import z3lazy as z3
from ..limits import (
    Budget,
    Interrupted,
    MemoryLimitExceeded,
    ensure_room,
    interrupts_seen,
    memory_capped,
    raise_pending,
    timed_out,
)
from .stats import Stats

#: Engines a puzzle can ask for. ``sat`` is Z3's SAT core for finite-domain problems
#: (integers bounded by their declarations are bit-blasted); ``smt`` is the general
#: QF_LIA solver with its simplex.
Z3_ENGINES = ("sat", "smt")


def new_solver(
    engine: str = "sat", ctx: z3.Context | None = None, sat_params: dict[str, Any] | None = None
) -> z3.Solver:
    """A fresh incremental solver for ``engine`` (see :data:`Z3_ENGINES`); ``ctx``: a Z3
    context of its own (terms numbered from scratch, so runs repeat exactly);
    ``sat_params``: settings of the SAT core, applied when ``engine`` is ``sat``."""
    if engine == "sat":
        solver = _solver_for("QF_FD", ctx)
        for name, value in (sat_params or {}).items():
            solver.set(name, value)
        return solver
    if engine == "smt":
        return _solver_for("QF_LIA", ctx)
    raise ValueError(f"unknown engine {engine!r}; expected one of {Z3_ENGINES}")


def _solver_for(logic: str, ctx: z3.Context | None) -> z3.Solver:
    """``z3.SolverFor(logic, ctx)``, without building Z3's main context (11 ms a process)
    when ``ctx`` is another: z3's own version names the logic in the main context."""
    ctx = ctx or z3.main_ctx()
    symbol = z3.Z3_mk_string_symbol(ctx.ref(), logic)
    return z3.Solver(z3.Z3_mk_solver_for_logic(ctx.ref(), symbol), ctx)


#: Z3's memory per character of SMT-LIB text it parses, with room to spare (its terms
#: and Python's copy of the text together; see benchmarks/limits.py for the cap held).
_PARSE_BYTES_PER_CHAR = 16


#: Room a new Z3 context needs before it is made (Z3 crashes when it cannot make one).
_CONTEXT_BYTES = 16 * 1024 * 1024


#: A context made before it is needed, by a process that forks children to solve (the
#: bench's warm parent): each child takes its copy instead of making one, which in a
#: fresh fork costs more than many easy puzzles' whole solve.
_spare_context: z3.Context | None = None


def make_spare_context() -> None:
    """Make the context the next :func:`new_context` returns (in this process or in a
    child forked after this)."""
    global _spare_context
    _spare_context = z3.Context()


def new_context() -> z3.Context:
    """A fresh Z3 context, refused with :class:`MemoryLimitExceeded` when the memory cap
    leaves no room for one (Z3 itself would crash the process)."""
    global _spare_context
    ensure_room(_CONTEXT_BYTES)
    if _spare_context is not None:
        ctx, _spare_context = _spare_context, None
        return ctx
    return z3.Context()


#: The most characters of SMT-LIB handed to Z3's parser in one call (see :func:`parse_into`).
PARSE_CHUNK_CHARS = 1 << 18


def parse_into(solver: z3.Solver, text: str) -> None:
    """``solver.from_string(text)``, refused with :class:`MemoryLimitExceeded` when the
    terms would not fit under the memory cap (see :func:`ensure_room`).

    A large text goes in pieces of whole commands: Z3 parses a text in one call, during
    which neither a time limit nor Ctrl-C can act, and a large formula takes seconds.
    The solver keeps the declarations of earlier pieces."""
    ensure_room(_PARSE_BYTES_PER_CHAR * len(text))
    if len(text) <= PARSE_CHUNK_CHARS:
        solver.from_string(text)
        return
    for piece in _pieces(text):
        raise_pending()
        solver.from_string(piece)


def _pieces(text: str) -> Iterator[str]:
    """``text`` cut after whole top-level commands into pieces of about
    :data:`PARSE_CHUNK_CHARS` characters (comment lines do not count parentheses)."""
    piece: list[str] = []
    size = depth = 0
    for line in text.splitlines(keepends=True):
        piece.append(line)
        size += len(line)
        if not line.lstrip().startswith(";"):
            depth += line.count("(") - line.count(")")
        if depth == 0 and size >= PARSE_CHUNK_CHARS:
            yield "".join(piece)
            piece, size = [], 0
    if piece:
        yield "".join(piece)


def parse_terms(text: str, ctx: z3.Context | None = None) -> list[z3.BoolRef]:
    """``z3.parse_smt2_string(text)`` as a list, under the memory cap like
    :func:`parse_into`."""
    return list(parse_vector(text, ctx))


def parse_vector(text: str, ctx: z3.Context | None = None) -> z3.AstVector:
    """``z3.parse_smt2_string(text)`` as Z3 gives it (no term wrapped in a Python object
    yet), under the memory cap like :func:`parse_into`."""
    ensure_room(_PARSE_BYTES_PER_CHAR * len(text))
    return z3.parse_smt2_string(text, ctx=ctx)


def check_sat(
    solver: z3.Solver | z3.Optimize,
    budget: Budget,
    assumptions: Sequence[z3.BoolRef] = (),
    stats: Stats | None = None,
    label: str = "",
) -> z3.CheckSatResult:
    """``solver.check`` within the budget.

    Returns ``sat``, ``unsat`` or ``unknown`` (time ran out). Raises
    :class:`Interrupted` on Ctrl-C and :class:`MemoryLimitExceeded` on the memory cap.
    """
    left = budget.remaining()
    if left is not None:
        if left <= 0.0:
            return z3.unknown
        solver.set("timeout", max(1, int(left * 1000)))
    seen = interrupts_seen()
    began = time.monotonic()
    try:
        with memory_capped():
            answer = solver.check(*assumptions)
    except MemoryError:
        raise MemoryLimitExceeded("out of memory") from None
    except z3.Z3Exception as exc:
        message = str(exc)
        if "memory" in message.lower():
            raise MemoryLimitExceeded(message) from None
        if "cancel" in message.lower() or "interrupt" in message.lower():
            if timed_out(budget, seen):
                return z3.unknown
            raise Interrupted() from None
        raise
    seconds = time.monotonic() - began
    if stats is not None:
        stats.add(solver, seconds, label, str(answer))
    if answer == z3.unknown:
        reason = solver.reason_unknown().lower()
        if "memory" in reason:
            raise MemoryLimitExceeded(f"Z3 stopped: {solver.reason_unknown()}")
        stopped = "keyboard" in reason or "interrupt" in reason or "cancel" in reason
        # Z3's Optimize takes Ctrl-C without a word: its reason is a bare "unknown".
        stopped = stopped or (isinstance(solver, z3.Optimize) and reason == "unknown")
        if stopped and not timed_out(budget, seen):
            raise Interrupted()
    return answer
