"""A DRAT checker for tests, written from the definition and sharing nothing with the
package: each added clause must be a RUP (assuming its literals false, unit propagation
over the clauses so far reaches a conflict); deletions are ignored (keeping a clause
never makes a RUP step unsound). Naive propagation by repeated scans: for small CNFs."""

from __future__ import annotations


def parse_dimacs(text: str) -> list[list[int]]:
    """Clauses of a DIMACS text."""
    out: list[list[int]] = []
    lits: list[int] = []
    for line in text.splitlines():
        if not line.strip() or line[0] in "cp":
            continue
        for word in line.split():
            n = int(word)
            if n == 0:
                out.append(lits)
                lits = []
            else:
                lits.append(n)
    return out


def parse_proof(data: bytes) -> list[tuple[str, list[int]]]:
    """Steps ``("a"|"d", clause)`` of a binary or text DRAT proof."""
    if data[:1] == b"a" or (data[:1] == b"d" and data[1:2] != b" "):
        steps, pos = [], 0
        while pos < len(data):
            kind = chr(data[pos])
            pos += 1
            clause = []
            while True:
                number, shift = 0, 0
                while True:
                    byte = data[pos]
                    pos += 1
                    number += (byte & 127) << shift
                    shift += 7
                    if byte < 128:
                        break
                if number == 0:
                    break
                clause.append((number >> 1) * (-1 if number % 2 else 1))
            steps.append((kind, clause))
        return steps
    steps = []
    for line in data.decode().splitlines():
        words = line.split()
        if not words:
            continue
        kind = "d" if words[0] == "d" else "a"
        nums = [int(w) for w in words[1 if kind == "d" else 0 :]]
        steps.append((kind, nums[:-1]))
    return steps


def propagates_to_conflict(clauses: list[list[int]], assumed: set[int]) -> bool:
    """Does unit propagation from ``assumed`` (true literals) falsify a clause?"""
    true = set(assumed)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in true for lit in clause):
                continue
            open_ = [lit for lit in clause if -lit not in true]
            if not open_:
                return True
            if len(open_) == 1:
                true.add(open_[0])
                changed = True
    return False


def accepts(cnf: str, proof: bytes) -> bool:
    """Is ``proof`` a RUP refutation of ``cnf`` (deletions ignored): every clause added
    a RUP, up to the empty clause or to clauses that unit propagation refutes?"""
    clauses = parse_dimacs(cnf)
    if propagates_to_conflict(clauses, set()):
        return True
    for kind, clause in parse_proof(proof):
        if kind == "d":
            continue
        if not propagates_to_conflict(clauses, {-lit for lit in clause}):
            return False
        if not clause:
            return True
        clauses.append(clause)
    return propagates_to_conflict(clauses, set())
