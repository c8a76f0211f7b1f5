"""A DRAT checker for tests, written from the definition and sharing nothing with the
package: each added clause must be a RUP (assuming its literals false, unit propagation
over the clauses so far reaches a conflict); deletions are ignored (keeping a clause
never makes a RUP step unsound). Propagation follows the clauses each false literal occurs in."""

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


class Clauses:
    """Clauses with, for each literal, the clauses that hold it: unit propagation then
    visits only the clauses a newly false literal can shorten."""

    def __init__(self, clauses: list[list[int]]) -> None:
        self.clauses: list[list[int]] = []
        self.holding: dict[int, list[int]] = {}
        for clause in clauses:
            self.add(clause)

    def add(self, clause: list[int]) -> None:
        for lit in clause:
            self.holding.setdefault(lit, []).append(len(self.clauses))
        self.clauses.append(clause)

    def propagates_to_conflict(self, assumed: set[int]) -> bool:
        """Does unit propagation from ``assumed`` (true literals) falsify a clause?"""
        true = set(assumed)
        queue = list(assumed)
        for clause in self.clauses:
            if not clause:
                return True
            if len(clause) == 1 and clause[0] not in true:
                if -clause[0] in true:
                    return True
                true.add(clause[0])
                queue.append(clause[0])
        while queue:
            lit = queue.pop()
            for index in self.holding.get(-lit, ()):
                clause = self.clauses[index]
                if any(other in true for other in clause):
                    continue
                open_ = [other for other in clause if -other not in true]
                if not open_:
                    return True
                if len(open_) == 1:
                    true.add(open_[0])
                    queue.append(open_[0])
        return False


def accepts(cnf: str, proof: bytes) -> bool:
    """Is ``proof`` a RUP refutation of ``cnf`` (deletions ignored): every clause added
    a RUP, up to the empty clause or to clauses that unit propagation refutes?"""
    clauses = Clauses(parse_dimacs(cnf))
    if clauses.propagates_to_conflict(set()):
        return True
    for kind, clause in parse_proof(proof):
        if kind == "d":
            continue
        if not clauses.propagates_to_conflict({-lit for lit in clause}):
            return False
        if not clause:
            return True
        clauses.add(clause)
    return clauses.propagates_to_conflict(set())
