"""Certificates of "no": a DRAT proof that a question's CNF is unsatisfiable, and a
checker of such proofs.

The CNF is Z3's bit-blasting of the very script ``--print-asserts`` prints
(:mod:`smtpuzzles.dimacs`); CaDiCaL (python-sat, the ``cadical`` extra) decides it and
logs every clause it learns and deletes, in binary DRAT. :func:`check_drat` replays such
a proof forward, written from the definition of DRAT: each added clause must follow
from the clauses so far by unit propagation (RUP), or else be a resolution asymmetric
tautology on its first literal (RAT); the proof holds when the empty clause is derived.
Deleting a clause that is the reason of a unit at the top level is ignored (as
drat-trim does): keeping a clause never makes an addition unsound.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from .engines import solve_in_steps
from .errors import CheckFailure, InputError
from .limits import Budget, Interrupted, MemoryLimitExceeded, TimeUp, ensure_room, raise_pending
from .output import new_file_mode, replace_atomically

#: What to say when python-sat is missing.
PROOF_MISSING = "--proof needs the python-sat package: pip install python-sat"

#: Bytes copied from the solver's proof log to the file at once.
_COPY_CHUNK = 1 << 20

#: Room to ask for per literal before CaDiCaL reads a formula (as solving does).
_BYTES_PER_LITERAL = 64


def prove(clauses: list[list[int]], proof_path: Path, budget: Budget) -> str:
    """Decide ``clauses`` with CaDiCaL, logging a binary DRAT proof; on ``unsat`` the
    proof is copied to ``proof_path`` (through a temporary file and a rename). Returns
    ``"sat"``, ``"unsat"`` or ``"unknown"`` (the time ran out). The search goes in
    steps of :data:`CADICAL_CONFLICTS_AT_ONCE` conflicts, the deadline acting between
    them. Raises :class:`InputError` without python-sat."""
    try:
        from pysat.solvers import Cadical195, pysolvers  # type: ignore[attr-defined]
    except ImportError:
        raise InputError(PROOF_MISSING) from None
    ensure_room(_BYTES_PER_LITERAL * sum(len(c) for c in clauses))
    with Cadical195(bootstrap_with=clauses, with_proof=True) as solver:
        try:
            result = solve_in_steps(solver, budget)
        except MemoryError:
            raise MemoryLimitExceeded("out of memory") from None
        except Exception as exc:
            if "keyboard interrupt" in str(exc).lower():
                raise Interrupted() from None
            raise
        if result is None:
            return "unknown"
        if result:
            return "sat"
        pysolvers.flushpr(solver.prfp)
        solver.prfile.seek(0)
        _copy(solver.prfile, proof_path)
    return "unsat"


def _copy(source: object, path: Path) -> None:
    """Stream the open binary file ``source`` to ``path`` atomically."""

    def fill(out: IO[bytes]) -> None:
        while chunk := source.read(_COPY_CHUNK):  # type: ignore[attr-defined]
            raise_pending()
            out.write(chunk)

    replace_atomically(path, fill, new_file_mode(), binary=True)


def expect_unsat(answer: str, question: str) -> None:
    """The proof solver must agree with the run: ``sat`` where the run said unsat is a
    bug in one of them, never a silent pass."""
    if answer == "sat":
        raise CheckFailure(
            f"question {question}: the run said unsat, but CaDiCaL finds its CNF satisfiable"
        )


# ------------------------------------------------------------------------ the checker


@dataclass
class Verdict:
    """What :func:`check_drat` found: ``ok`` the proof refutes the CNF; ``lemmas`` the
    clauses added before the refutation; ``reason`` why it is rejected."""

    ok: bool
    lemmas: int
    reason: str = ""


def read_cnf(text: str, name: str = "CNF") -> tuple[int, list[list[int]]]:
    """The variable count and clauses of a DIMACS text (``c`` lines skipped)."""
    clauses: list[list[int]] = []
    declared: int | None = None
    current: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("c"):
            continue
        if line.startswith("p"):
            parts = line.split()
            if len(parts) != 4 or parts[1] != "cnf":
                raise InputError(f"line {number}: expected 'p cnf VARS CLAUSES'", name)
            try:
                declared = int(parts[2])
            except ValueError:
                raise InputError(f"line {number}: bad variable count", name) from None
            continue
        try:
            literals = [int(x) for x in line.split()]
        except ValueError:
            raise InputError(f"line {number}: a clause holds only integers", name) from None
        for lit in literals:
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    if current:
        raise InputError("the last clause does not end with 0", name)
    if declared is None:
        raise InputError("no 'p cnf' line: not a DIMACS CNF", name)
    return declared, clauses


def read_drat(data: bytes, name: str = "proof") -> Iterator[tuple[bool, list[int]]]:
    """The steps of a DRAT proof, text or binary (told apart by the first byte, as
    drat-trim does): ``(deleted, clause)``."""
    binary = bool(data) and (data[0] == 0x61 or (data[0] == 0x64 and data[1:2] != b" "))
    if not binary:
        yield from _text_steps(data, name)
        return
    i, size = 0, len(data)
    while i < size:
        kind = data[i]
        if kind not in (0x61, 0x64):
            raise InputError(f"byte {i}: expected 'a' or 'd' in a binary DRAT proof", name)
        i += 1
        clause: list[int] = []
        while True:
            value = shift = 0
            while True:
                if i >= size:
                    raise InputError("the proof ends inside a clause", name)
                byte = data[i]
                i += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            if value == 0:
                break
            clause.append(-(value >> 1) if value & 1 else value >> 1)
        yield kind == 0x64, clause


def _text_steps(data: bytes, name: str) -> Iterator[tuple[bool, list[int]]]:
    deleted, clause = False, []
    for number, line in enumerate(data.decode("ascii", "replace").splitlines(), 1):
        words = line.split()
        if not words or words[0] == "c":
            continue
        for word in words:
            if word == "d" and not clause:
                deleted = True
                continue
            try:
                lit = int(word)
            except ValueError:
                raise InputError(f"line {number}: {word!r} is not a literal", name) from None
            if lit == 0:
                yield deleted, clause
                deleted, clause = False, []
            else:
                clause.append(lit)
    if clause:
        raise InputError("the last clause does not end with 0", name)


class _Checker:
    """Clauses with two watched literals, a top-level assignment and its trail."""

    def __init__(self, variables: int) -> None:
        self.value = [0] * (variables + 1)  #: 1 true, -1 false, 0 unassigned
        self.reason: list[int] = [-1] * (variables + 1)  #: the clause that set a variable
        self.trail: list[int] = []
        self.head = 0
        self.clauses: list[list[int]] = []
        self.alive: list[bool] = []
        self.watches: dict[int, list[int]] = {}
        self.index: dict[tuple[int, ...], list[int]] = {}
        self.refuted = False

    def grow(self, lit: int) -> None:
        var = abs(lit)
        if var >= len(self.value):
            more = var + 1 - len(self.value)
            self.value += [0] * more
            self.reason += [-1] * more

    def val(self, lit: int) -> int:
        v = self.value[abs(lit)]
        return v if lit > 0 else -v

    def assign(self, lit: int, reason: int) -> None:
        self.value[abs(lit)] = 1 if lit > 0 else -1
        self.reason[abs(lit)] = reason
        self.trail.append(lit)

    def propagate(self) -> bool:
        """Unit propagation from the trail's head; ``False`` on a conflict."""
        value, watches, clauses, alive = self.value, self.watches, self.clauses, self.alive
        while self.head < len(self.trail):
            false = -self.trail[self.head]
            self.head += 1
            ws = watches.get(false)
            if not ws:
                continue
            i = j = 0
            n = len(ws)
            while i < n:
                cid = ws[i]
                i += 1
                if not alive[cid]:
                    continue
                c = clauses[cid]
                if c[0] == false:
                    c[0], c[1] = c[1], false
                first = c[0]
                fv = value[abs(first)] if first > 0 else -value[abs(first)]
                if fv == 1:
                    ws[j] = cid
                    j += 1
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if (value[lit] if lit > 0 else -value[-lit]) != -1:
                        c[1], c[k] = lit, false
                        watches.setdefault(lit, []).append(cid)
                        break
                else:
                    ws[j] = cid
                    j += 1
                    if fv == -1:
                        while i < n:
                            ws[j] = ws[i]
                            j += 1
                            i += 1
                        del ws[j:]
                        return False
                    self.assign(first, cid)
            del ws[j:]
        return True

    def add(self, clause: list[int]) -> None:
        """Add ``clause`` for good, propagating at the top level."""
        if self.refuted:
            return
        lits = list(dict.fromkeys(clause))
        if any(-lit in lits for lit in lits):
            return  # a tautology adds nothing
        for lit in lits:
            self.grow(lit)
        cid = len(self.clauses)
        self.clauses.append(lits)
        self.alive.append(True)
        self.index.setdefault(tuple(sorted(lits)), []).append(cid)
        open_ = [lit for lit in lits if self.val(lit) != -1]
        if not open_:
            self.refuted = True
            return
        lits[:] = open_ + [lit for lit in lits if self.val(lit) == -1]
        if len(lits) >= 2:
            self.watches.setdefault(lits[0], []).append(cid)
            self.watches.setdefault(lits[1], []).append(cid)
        if len(open_) == 1 and self.val(open_[0]) == 0:
            self.assign(open_[0], cid)
            if not self.propagate():
                self.refuted = True

    def delete(self, clause: list[int]) -> None:
        """Delete one copy of ``clause``, unless it is the reason of a top-level unit."""
        ids = self.index.get(tuple(sorted(dict.fromkeys(clause))))
        if not ids:
            return
        cid = ids[-1]
        c = self.clauses[cid]
        if any(self.reason[abs(lit)] == cid and self.val(lit) == 1 for lit in c):
            return
        ids.pop()
        self.alive[cid] = False

    def implied(self, clause: list[int]) -> bool:
        """Is ``clause`` a RUP: does assuming every literal false give a conflict?"""
        saved = len(self.trail)
        ok = False
        for lit in clause:
            self.grow(lit)
            v = self.val(lit)
            if v == 1:
                ok = True
                break
            if v == 0:
                self.assign(-lit, -1)
        if not ok:
            ok = not self.propagate()
        for lit in self.trail[saved:]:
            self.value[abs(lit)] = 0
        del self.trail[saved:]
        self.head = saved
        return ok

    def rat(self, clause: list[int]) -> bool:
        """Is ``clause`` a RAT on its first literal: is every resolvent with a live
        clause holding its negation a RUP?"""
        if not clause:
            return False
        pivot = clause[0]
        for cid, other in enumerate(self.clauses):
            if self.alive[cid] and -pivot in other:
                resolvent = clause + [lit for lit in other if lit != -pivot]
                if not self.implied(resolvent):
                    return False
        return True


def check_drat(
    cnf_text: str, proof: bytes, budget: Budget | None = None, names: tuple[str, str] = ("", "")
) -> Verdict:
    """Replay ``proof`` (DRAT, text or binary) against the CNF ``cnf_text``: accepted when
    every added clause is a RUP or RAT and the empty clause is reached (or unit
    propagation refutes the clauses so far). Stops with :class:`TimeUp` at the
    deadline of ``budget`` (Python's signal handler acts between steps)."""
    variables, clauses = read_cnf(cnf_text, names[0] or "CNF")
    checker = _Checker(variables)
    for clause in clauses:
        checker.add(clause)
        if checker.refuted:
            return Verdict(True, 0)
    lemmas = 0
    for step, (deleted, clause) in enumerate(read_drat(proof, names[1] or "proof"), 1):
        if step % 1024 == 0:
            raise_pending()
            if budget is not None and budget.expired():
                raise TimeUp()
        if deleted:
            checker.delete(clause)
            continue
        lemmas += 1
        if not (checker.implied(clause) or checker.rat(clause)):
            shown = " ".join(map(str, clause[:8])) + (" ..." if len(clause) > 8 else "")
            return Verdict(False, lemmas, f"step {step}: clause [{shown}] is neither RUP nor RAT")
        checker.add(clause)
        if not clause or checker.refuted:
            return Verdict(True, lemmas)
    return Verdict(False, lemmas, "the proof ends before the empty clause is derived")
