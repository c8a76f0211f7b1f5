"""Koburin by brute force, in plain Python: every set of black cells (no two touching,
numbers right) and every closed loop through all remaining empty cells."""

from __future__ import annotations

import random

from smtpuzzles.graph import Graph
from smtpuzzles.puzzles.koburin import KoburinInstance, Solution


def _touching(graph: Graph) -> list[set[int]]:
    """Each cell's neighbours, links taken both ways."""
    both = [set(t) for t in graph.out]
    for i, targets in enumerate(graph.out):
        for j in targets:
            both[j].add(i)
    return both


def _counted(puzzle: KoburinInstance) -> list[set[int]]:
    """The cells each number counts: its neighbours, or all eight around it."""
    g = puzzle.graph
    if puzzle.variant == "four":
        return [set(t) for t in g.out]
    where = {rc: i for i, rc in enumerate(g.coords)}
    return [
        {
            where[(r + dr, c + dc)]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and (r + dr, c + dc) in where
        }
        for r, c in g.coords
    ]


def _cycles(cells: set[int], near: list[set[int]]) -> list[frozenset[tuple[int, int]]]:
    """Every simple cycle through exactly ``cells`` (as sets of links)."""
    if len(cells) < 3 or any(len(near[i] & cells) < 2 for i in cells):
        return []
    start = min(cells)
    found = set()

    def extend(path: list[int], seen: set[int]) -> None:
        here = path[-1]
        if len(path) == len(cells):
            if start in near[here]:
                steps = zip(path, path[1:] + path[:1])
                found.add(frozenset((min(a, b), max(a, b)) for a, b in steps))
            return
        for nxt in near[here] & cells:
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                extend(path, seen)
                path.pop()
                seen.discard(nxt)

    extend([start], {start})
    return sorted(found, key=sorted)


def brute_force(puzzle: KoburinInstance) -> set[Solution]:
    """Every answer: black cells apart and numbers right, then each closed loop through
    all the remaining empty cells."""
    near = _touching(puzzle.graph)
    counted = _counted(puzzle)
    empty = [i for i in range(len(puzzle.graph)) if i not in puzzle.clues]
    answers = set()
    for mask in range(1 << len(empty)):
        black = {empty[k] for k in range(len(empty)) if mask >> k & 1}
        if any(near[i] & black for i in black):
            continue
        if any(n is not None and len(counted[i] & black) != n for i, n in puzzle.clues.items()):
            continue
        for links in _cycles(set(empty) - black, near):
            answers.add(Solution(frozenset(black), links))
    return answers


def random_puzzle(rng: random.Random, graph: Graph, variant: str = "four") -> KoburinInstance:
    """About a quarter of the cells numbered (mostly 0-2, some ``?``)."""
    clues: dict[int, int | None] = {}
    for i in range(len(graph)):
        if rng.random() < 0.25:
            clues[i] = None if rng.random() < 0.15 else rng.choice([0, 0, 1, 1, 2])
    return KoburinInstance(graph, clues, variant)
