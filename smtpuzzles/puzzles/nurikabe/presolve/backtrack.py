"""Backtracking over the deductions: guesses nested to any depth, within a node budget.

Where one level of hypotheses (:mod:`.probe`) leaves cells open and the solver stalls
on the first conflicts, a plain depth-first search often settles the rest: a guess,
then :func:`~.puzzle.deduce` in its strict mode from there, then the next guess, until
a rule breaks (back up) or every cell is decided (a solution, which the independent
rule checker must pass too); it settles puzzles the solver stalls on in a few
hundred nodes (docs/decisions.md). Searched whole, the tree proves what the
puzzle's solutions are: none, or the one it found, and the solver then only confirms.
A search cut short by its budget proves nothing, and the solver goes on as before.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from ..check import problems
from ..model import NurikabeInstance
from .deduce import Contradiction, Deductions, deduce

#: Nodes a search may visit: enough for the puzzles the solver's first phase leaves
#: open, and the time is bounded too (see :meth:`~.search.Search.detour`).
NODES = 1000


@dataclass
class Trial:
    """What a search found: ``finished`` when every branch was searched, so that the
    solutions listed are all there are."""

    solutions: list[Deductions]
    finished: bool
    nodes: int


def backtrack(
    puzzle: NurikabeInstance,
    known: Deductions,
    nodes: int = NODES,
    most: int = 2,
    seconds: float | None = None,
) -> Trial:
    """Search the guesses from ``known`` (a fixpoint of :func:`~.puzzle.deduce`) for up
    to ``most`` solutions, visiting at most ``nodes`` nodes in at most ``seconds``."""
    until = None if seconds is None else time.monotonic() + seconds
    found: list[Deductions] = []
    visited = 0
    for node in _depth_first(puzzle, known):
        visited += 1
        if node is not None:
            found.append(node)
            if len(found) >= most:
                return Trial(found, False, visited)
        if visited >= nodes or until is not None and time.monotonic() >= until:
            return Trial(found, False, visited)
    return Trial(found, True, visited)


def _depth_first(puzzle: NurikabeInstance, known: Deductions) -> Iterator[Deductions | None]:
    """Every node of the search tree in depth-first order: a solution as itself, any
    other node as ``None`` (so that the caller can count them and stop)."""
    stack: list[Iterator[Deductions]] = [iter([known])]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        cell = _branch_cell(puzzle, node)
        if cell is None:
            picture = tuple(i in node.black for i in range(len(puzzle)))
            yield node if not problems(puzzle.graph, puzzle.clues, puzzle.pools, picture) else None
            continue
        yield None
        stack.append(_children(puzzle, node, cell))


def _children(puzzle: NurikabeInstance, known: Deductions, i: int) -> Iterator[Deductions]:
    """The guesses on cell ``i`` that do not break a rule, each with what it deduces:
    black first, then white in each island that can reach it."""
    guesses: list[tuple[set[int], dict[int, int]]] = [({i}, {})]
    guesses += [(set(), {i: k}) for k in known.owners(i)]
    for black, owner in guesses:
        try:
            yield deduce(puzzle, known, black, owner, strict=True)
        except Contradiction:
            continue


def _branch_cell(puzzle: NurikabeInstance, known: Deductions) -> int | None:
    """The open cell to guess on next (``None``: every cell is decided): one beside a
    decided cell, where a guess meets the known cells' rules at once, and of those one
    with the fewest guesses."""
    decided = known.black | known.owner.keys()
    best: tuple[bool, int] | None = None
    cell = None
    for i in range(len(puzzle)):
        if i in decided:
            continue
        key = (decided.isdisjoint(puzzle.neighbours[i]), len(known.owners(i)))
        if best is None or key < best:
            best, cell = key, i
    return cell
