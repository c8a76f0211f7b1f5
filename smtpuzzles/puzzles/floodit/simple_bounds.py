"""Simple admissible lower bound and greedy upper bound (stand-ins until ``bounds.py``).

Lower: the flood needs one move per graph step to reach the farthest cluster, and one
move per colour that still owns an unflooded cluster. Upper: a greedy playout that takes
the move leaving the smallest lower bound (ties: the most newly flooded clusters).
"""

from __future__ import annotations

from .clusters import ClusterGraph


def _grow(g: ClusterGraph, flooded: set[int], colour: int) -> set[int]:
    """The flooded set after a move of ``colour``."""
    grown = set(flooded)
    for i in flooded:
        for j in g.neighbours[i]:
            if j not in grown and g.colours[j] == colour:
                grown.add(j)
    return grown


def lower_bound(g: ClusterGraph, flooded: frozenset[int] | None = None) -> int:
    """Moves still needed from ``flooded`` (default: the start cluster): never too many."""
    flooded = flooded if flooded is not None else frozenset({g.start})
    dist = g.distances(sorted(flooded))
    eccentricity = max(dist)
    left = {g.colours[i] for i in range(len(g)) if i not in flooded}
    return max(eccentricity, len(left))


def upper_bound(g: ClusterGraph, width: int = 1, budget_s: float | None = None) -> list[int]:
    """A valid move sequence (colours) from a greedy playout; its length is an upper bound."""
    del width, budget_s  # the greedy playout is quick; the beam search lives in bounds.py
    flooded = {g.start}
    colour = g.colours[g.start]
    moves: list[int] = []
    while len(flooded) < len(g):
        best: tuple[int, int, int] | None = None
        best_set: set[int] = flooded
        for c in range(g.n_colours):
            if c == colour:
                continue
            grown = _grow(g, flooded, c)
            if len(grown) == len(flooded):
                continue
            key = (lower_bound(g, frozenset(grown)), -len(grown), c)
            if best is None or key < best:
                best, best_set = key, grown
        assert best is not None, "a connected board always has a useful move"
        colour = best[2]
        moves.append(colour)
        flooded = best_set
    return moves
