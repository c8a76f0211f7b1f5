"""DIMACS CNF of a formula, bit-blasted by Z3 from the same SMT-LIB text that is solved.

Every bounded integer becomes a few bits of its own (``nla2bv`` turns the linear
arithmetic into bit-vector circuits, ``bit-blast`` and ``tseitin-cnf`` into clauses).
A sum of many terms (a count of cells, say) is first split into a balanced tree of
partial sums, each a fresh integer bounded by its terms: ``nla2bv`` gives every term of
a flat sum the width of the whole, so a flat count of n cells costs clauses quadratic
in n, and the tree keeps it linear;
no tactic that eliminates variables runs, so each puzzle variable keeps its literal.
``c`` lines map the puzzle's variables to literals: a Boolean to one literal
(``c black_r3c4 12``), an integer of a small range to the literals that hold at each
value (``c colour_t5 = 2 -11 12``), a wider one to its bits (``c wall_dist_r0c1 = 1 +
bits 40 41 42``: the lowest value plus the bits' binary number). A SAT solver's model
(the true and false literals) gives the variables back through :func:`from_dimacs_model`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from . import z3lazy as z3
from .engines import new_context
from .engines.solvers import parse_vector
from .limits import (
    Budget,
    Interrupted,
    MemoryLimitExceeded,
    TimeUp,
    ensure_room,
    interrupts_seen,
    memory_capped,
    raise_pending,
    timed_out,
)

#: The tactics, in order: no variable is eliminated, every integer must be bounded by
#: the formula's own unit constraints.
TACTICS = ("simplify", "nla2bv", "simplify", "bit-blast", "tseitin-cnf")

#: Integers with at most this many values get one ``c`` line per value, others their bits.
SMALL_RANGE = 16

_BIT = "{}!bit{}"

#: The name of a partial sum (see :func:`_split_sums`).
_PART = "sum!{}"

#: Sums of more terms than this are split into a tree of partial sums.
_FLAT_TERMS = 8

#: The CNF of a formula the tactics refute on their own: one empty clause.
UNSAT = "c the formula is unsatisfiable on its own\np cnf 0 1\n0\n"


def _bounds(goal: z3.Goal) -> dict[str, list[int | None]]:
    """Each integer variable's range, from the goal's top-level bounds (``x >= c``,
    ``x <= c`` and their negations, as ``simplify`` writes them)."""
    found: dict[str, list[int | None]] = {}

    def note(name: str, low: int | None, high: int | None) -> None:
        now = found.setdefault(name, [None, None])
        if low is not None:
            now[0] = low if now[0] is None else max(now[0], low)
        if high is not None:
            now[1] = high if now[1] is None else min(now[1], high)

    # read through Z3's C interface: wrapping every atom in Python objects takes most of
    # the time on large formulas
    ref = goal.ctx.ref()
    ast_kind, app_decl = _raw(z3.Z3_get_ast_kind), _raw(z3.Z3_get_app_decl)
    decl_kind, num_args = _raw(z3.Z3_get_decl_kind), _raw(z3.Z3_get_app_num_args)
    sort_kind, sort_of = _raw(z3.Z3_get_sort_kind), _raw(z3.Z3_get_sort)
    app_arg = _raw(z3.Z3_get_app_arg)

    def kind(ast: Any) -> int:
        if ast_kind(ref, ast) != z3.Z3_APP_AST:
            return -1
        return decl_kind(ref, app_decl(ref, ast))

    def is_int(ast: Any) -> bool:
        return sort_kind(ref, sort_of(ref, ast)) == z3.Z3_INT_SORT

    def variable(ast: Any) -> str | None:
        if kind(ast) != z3.Z3_OP_UNINTERPRETED or num_args(ref, ast):
            return None
        if not is_int(ast):
            return None
        decl = z3.Z3_get_app_decl(ref, ast)
        return z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, decl))

    def number(ast: Any) -> int | None:
        if ast_kind(ref, ast) != z3.Z3_NUMERAL_AST or not is_int(ast):
            return None
        return int(z3.Z3_get_numeral_string(ref, ast))

    def atom(ast: Any, positive: bool) -> None:
        op = kind(ast)
        if op == z3.Z3_OP_NOT:
            atom(app_arg(ref, ast, 0), not positive)
            return
        if op not in (z3.Z3_OP_LE, z3.Z3_OP_GE) or num_args(ref, ast) != 2:
            return
        a, b = app_arg(ref, ast, 0), app_arg(ref, ast, 1)
        var, value = variable(a), number(b)
        upper = op == z3.Z3_OP_LE
        if var is None or value is None:
            var, value = variable(b), number(a)
            upper = op == z3.Z3_OP_GE
        if var is None or value is None:
            return
        if not positive:  # not (x <= c): x >= c + 1; not (x >= c): x <= c - 1
            upper, value = not upper, value + (1 if upper else -1)
        note(var, None if upper else value, value if upper else None)

    for ast in _formulas(goal):
        if kind(ast) == z3.Z3_OP_AND:
            for k in range(num_args(ref, ast)):
                atom(app_arg(ref, ast, k), True)
        else:
            atom(ast, True)
    return found


def _formulas(goal: z3.Goal) -> list[Any]:
    """The goal's formulas as raw pointers (wrapping each costs more than reading it)."""
    ref = goal.ctx.ref()
    return [z3.Z3_goal_formula(ref, goal.goal, k) for k in range(z3.Z3_goal_size(ref, goal.goal))]


def _is_var(e: z3.ExprRef) -> bool:
    return z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED and z3.is_int(e)


def _raw(function: Any) -> Any:
    """The C function behind one of Z3's Python wrappers of its C API, called without
    the wrapper's check of the error code after each call: reading a node of a formula
    cannot fail, and on the CNF's large formulas the checks cost as much as the reads.
    The wrapper itself where Z3 keeps the C function elsewhere."""
    kept = getattr(function, "__defaults__", None) or ()
    return getattr(kept[-1], "f", function) if kept else function


def _apps(goal: z3.Goal) -> Iterator[tuple[int, int]]:
    """Each distinct application in ``goal``'s formulas, once, as ``(ast, kind)``: the raw
    pointer and its declaration's kind. Walked through Z3's C API, as wrapping every
    node in a Python object takes most of the time on large formulas."""
    ref = goal.ctx.ref()
    ast_kind = _raw(z3.Z3_get_ast_kind)
    app_decl, decl_kind = _raw(z3.Z3_get_app_decl), _raw(z3.Z3_get_decl_kind)
    num_args, app_arg = _raw(z3.Z3_get_app_num_args), _raw(z3.Z3_get_app_arg)
    app = z3.Z3_APP_AST
    stack = _formulas(goal)
    # a node is known by its address: Z3 shares equal terms, and the goal holds them
    seen: set[int] = set()
    while stack:
        ast = stack.pop()
        key = ast.value
        if key in seen or ast_kind(ref, ast) != app:
            continue
        seen.add(key)
        yield ast, decl_kind(ref, app_decl(ref, ast))
        stack.extend([app_arg(ref, ast, k) for k in range(num_args(ref, ast))])


def _used_ints(goal: z3.Goal) -> list[str]:
    """The integer variables ``goal``'s formulas use, by name."""
    ref = goal.ctx.ref()
    ints: set[str] = set()
    for ast, kind in _apps(goal):
        if kind != z3.Z3_OP_UNINTERPRETED or z3.Z3_get_app_num_args(ref, ast):
            continue
        if z3.Z3_get_sort_kind(ref, z3.Z3_get_sort(ref, ast)) != z3.Z3_BOOL_SORT:
            decl = z3.Z3_get_app_decl(ref, ast)
            ints.add(z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, decl)))
    return sorted(ints)


#: A declaration of a Boolean or integer constant in SMT-LIB text.
_DECLARED = re.compile(
    r"\(declare-(?:fun|const)\s+(\|[^|]*\||[^\s()|]+)\s+(?:\(\s*\)\s*)?(Bool|Int)\s*\)"
)


def _declared(text: str) -> tuple[list[str], list[str]]:
    """The Boolean and integer constants ``text`` declares, by name (read off the text:
    walking the parsed formula to find them took most of the time of a large CNF)."""
    bools: set[str] = set()
    ints: set[str] = set()
    for name, sort in _DECLARED.findall(text):
        (bools if sort == "Bool" else ints).add(name[1:-1] if name.startswith("|") else name)
    return sorted(bools), sorted(ints)


def to_dimacs(script_text: str, header: Sequence[str] = (), budget: Budget | None = None) -> str:
    """The CNF of ``script_text`` (a complete SMT-LIB script over bounded integers), with
    ``c`` lines mapping its variables to literals (see the module's description), after
    the ``c`` lines of ``header`` (who made it, how, and the answer expected).

    An unsatisfiable formula the tactics refute on their own comes out as one empty
    clause; a variable the clauses do not mention is listed as ``free``. Made under
    ``budget`` and the memory cap: Z3's tactics stop at the deadline (raising
    :class:`TimeUp`) and at the cap (:class:`MemoryLimitExceeded`).
    """
    head = "".join(f"c {line}\n" for line in header)
    ctx = new_context()
    goal = z3.Goal(ctx=ctx)
    _assert_all(goal, parse_vector(script_text, ctx))
    simple = _apply(z3.Tactic("simplify", ctx), goal, budget)
    if simple.inconsistent():
        return head + UNSAT
    bools, ints = _declared(script_text)
    ranges = _bounds(simple)
    if any(None in ranges.get(name, [None]) for name in ints):
        # an integer without bounds is an error only where the formula uses it
        ints = _used_ints(goal)
    goal = _split_sums(simple, ranges, ctx)
    widths: dict[str, tuple[int, int]] = {}
    for name in ints:
        low, high = ranges.get(name, [None, None])
        if low is None or high is None:
            raise ValueError(f"integer {name} has no bounds of its own: no CNF")
        width = max(1, (high - low).bit_length())
        widths[name] = (low, width)
        x = z3.Int(name, ctx)
        bits = [z3.Bool(_BIT.format(name, b), ctx) for b in range(width)]
        terms = [z3.If(bit, 2**b, 0) for b, bit in enumerate(bits)]
        goal.add(x == low + z3.Sum(terms))
    clauses = _apply(z3.Then(*(z3.Tactic(t, ctx) for t in TACTICS)), goal, budget)
    if clauses.inconsistent():
        return head + UNSAT
    ensure_room(_DIMACS_BYTES_PER_CLAUSE * len(clauses))
    dimacs = clauses.dimacs(True)
    del clauses, goal, simple
    raise_pending()
    index = {}
    names = dimacs.find("\nc ")  # Z3 names its variables after the clauses
    names = len(dimacs) if names < 0 else names + 1
    for line in dimacs[names:].splitlines():
        _, number, name = line.split(" ", 2)
        index[name] = int(number)
    out = [head.rstrip("\n")] if head else []
    for name in bools:
        out.append(f"c {name} {index.get(name, 'free')}")
    for name in ints:
        low, width = widths[name]
        high = ranges[name][1]
        lits = [index.get(_BIT.format(name, b)) for b in range(width)]
        if any(lit is None for lit in lits):
            out.append(f"c {name} free")
            continue
        assert high is not None
        if high - low < SMALL_RANGE:
            for value in range(low, high + 1):
                at = value - low
                signed = [lit if at >> b & 1 else -lit for b, lit in enumerate(lits)]
                out.append(f"c {name} = {value} {' '.join(map(str, signed))}")
        else:
            out.append(f"c {name} = {low} + bits {' '.join(map(str, lits))}")
    return "\n".join(out) + "\n" + dimacs[:names].rstrip("\n") + "\n"


def _assert_all(goal: z3.Goal, terms: z3.AstVector) -> None:
    """Add every term of ``terms`` to ``goal`` through Z3's C interface (``goal.add``
    wraps each term in a Python object first, most of the time of a large formula).
    Adding allocates, so each addition keeps the wrapper's check: a term refused under
    the memory cap must raise, never be left out of the CNF."""
    ref, vec = goal.ctx.ref(), terms.vector
    size, get, add = z3.Z3_ast_vector_size, _raw(z3.Z3_ast_vector_get), z3.Z3_goal_assert
    for k in range(size(ref, vec)):
        add(ref, goal.goal, get(ref, vec, k))


def _split_sums(goal: z3.Goal, ranges: dict[str, list[int | None]], ctx: z3.Context) -> z3.Goal:
    """``goal`` with each sum of more than :data:`_FLAT_TERMS` bounded terms replaced by
    a balanced tree of partial sums (fresh integers named ``sum!<k>``, each equal to its
    two halves and bounded by them). Equisatisfiable, and every model keeps the values of
    the goal's own variables. A sum holding another sum, or a term of unknown range, is
    left as it is."""
    ref = goal.ctx.ref()
    sums = [
        z3.ArithRef(ast, ctx)
        for ast, kind in _apps(goal)
        if kind == z3.Z3_OP_ADD and z3.Z3_get_app_num_args(ref, ast) > _FLAT_TERMS
    ]
    out = z3.Goal(ctx=ctx)
    pairs = []
    names = (z3.Int(_PART.format(k), ctx) for k in itertools.count())
    for total in sums:
        terms = total.children()
        spans = [_span(t, ranges) for t in terms]
        if any(span is None for span in spans) or any(z3.is_add(t) for t in terms):
            continue
        part, _ = _tree(list(zip(terms, spans)), out, ctx, names)
        pairs.append((total, part))
    if not pairs:
        return goal
    sources = (z3.Ast * len(pairs))(*(total.as_ast() for total, _ in pairs))
    targets = (z3.Ast * len(pairs))(*(part.as_ast() for _, part in pairs))
    for ast in _formulas(goal):
        z3.Z3_goal_assert(ref, out.goal, z3.Z3_substitute(ref, ast, len(pairs), sources, targets))
    return out


def _tree(
    terms: list[tuple[z3.ArithRef, tuple[int, int]]],
    out: z3.Goal,
    ctx: z3.Context,
    names: Iterator[z3.ArithRef],
) -> tuple[z3.ArithRef, tuple[int, int]]:
    """The sum of ``terms`` (each with its range) as one partial sum whose definition,
    with those of its halves, is added to ``out``."""
    if len(terms) == 1:
        return terms[0]
    half = len(terms) // 2
    (a, (alo, ahi)), (b, (blo, bhi)) = (
        _tree(terms[:half], out, ctx, names),
        _tree(terms[half:], out, ctx, names),
    )
    part = next(names)
    low, high = alo + blo, ahi + bhi
    out.add(part == a + b, part >= low, part <= high)
    return part, (low, high)


def _span(e: z3.ExprRef, ranges: dict[str, list[int | None]]) -> tuple[int, int] | None:
    """The range of the integer term ``e`` (a constant, a bounded variable, a constant
    times a term, or an if-then-else of such terms), or ``None`` when not known."""
    if z3.is_int_value(e):
        return e.as_long(), e.as_long()
    if _is_var(e):
        low, high = ranges.get(str(e), [None, None])
        return None if low is None or high is None else (low, high)
    if z3.is_app_of(e, z3.Z3_OP_ITE):
        a, b = _span(e.arg(1), ranges), _span(e.arg(2), ranges)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    if z3.is_mul(e) and e.num_args() == 2 and z3.is_int_value(e.arg(0)):
        k, inner = e.arg(0).as_long(), _span(e.arg(1), ranges)
        if inner is None:
            return None
        ends = (k * inner[0], k * inner[1])
        return min(ends), max(ends)
    return None


#: Room Z3's DIMACS text of one clause takes, with Python's copy of it.
_DIMACS_BYTES_PER_CLAUSE = 64


def _apply(tactic: z3.Tactic, goal: z3.Goal, budget: Budget | None) -> z3.Goal:
    """The one goal ``tactic`` makes of ``goal``, stopped at ``budget``'s deadline."""
    left = budget.remaining() if budget is not None else None
    if left is not None:
        if left <= 0:
            raise TimeUp()
        tactic = z3.TryFor(tactic, max(1, int(left * 1000)))
    seen = interrupts_seen()
    try:
        with memory_capped():
            made = tactic(goal)
    except z3.Z3Exception as exc:
        message = str(exc).lower()
        if "memory" in message:
            raise MemoryLimitExceeded(str(exc)) from None
        if "cancel" in message or "timeout" in message:
            if timed_out(budget, seen):
                raise TimeUp() from None
            raise Interrupted() from None
        raise
    raise_pending()
    if len(made) != 1:
        raise ValueError("the tactics split the formula: no single CNF")
    return made[0]


_VALUE = re.compile(r"^c (\S+) = (-?\d+) ((?:-?\d+ ?)+)$")
_BITS = re.compile(r"^c (\S+) = (-?\d+) \+ bits ((?:\d+ ?)+)$")
_BOOL = re.compile(r"^c (\S+) (\d+|free)$")


def from_dimacs_model(dimacs: str, model: Iterable[int]) -> dict[str, bool | int]:
    """The variables' values under a SAT solver's ``model`` (the literals it made true,
    as DIMACS numbers), read through the ``c`` lines of ``dimacs``. A free variable is
    false (or its range's lowest value)."""
    true = {lit for lit in model if lit > 0}
    values: dict[str, bool | int] = {}
    for line in dimacs.splitlines():
        if not line.startswith("c "):
            continue
        if m := _BITS.match(line):
            bits = [int(x) for x in m.group(3).split()]
            values[m.group(1)] = int(m.group(2)) + sum(
                1 << b for b, x in enumerate(bits) if x in true
            )
        elif m := _VALUE.match(line):
            name, value = m.group(1), int(m.group(2))
            lits = [int(x) for x in m.group(3).split()]
            if name not in values or all((x in true) == (x > 0) for x in lits):
                values[name] = value
        elif m := _BOOL.match(line):
            values[m.group(1)] = m.group(2) != "free" and int(m.group(2)) in true
    return values


def clauses(dimacs: str) -> list[list[int]]:
    """The clauses of ``dimacs`` as lists of literals (for a SAT solver's API)."""
    out: list[list[int]] = []
    for line in dimacs.splitlines():
        if line.startswith(("c", "p")) or not line.strip():
            continue
        out.append([int(x) for x in line.split()[:-1]])
    return out
