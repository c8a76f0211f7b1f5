"""An independent Nurikabe rule checker: plain Python straight from the rules.

It shares no code with the encoder (its own neighbour lists, its own flood fill), so a
bug in the encoding or in the shared graph machinery cannot hide behind itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...graph import Graph


def _undirected(graph: Graph) -> list[set[int]]:
    adj: list[set[int]] = [set() for _ in graph.names]
    for i, targets in enumerate(graph.out):
        for j in targets:
            adj[i].add(j)
            adj[j].add(i)
    return adj


def _regions(adj: list[set[int]], cells: set[int]) -> list[set[int]]:
    """Maximal connected groups of ``cells`` (depth-first, with an explicit stack)."""
    left = set(cells)
    regions = []
    while left:
        start = left.pop()
        region = {start}
        stack = [start]
        while stack:
            i = stack.pop()
            for j in adj[i]:
                if j in left:
                    left.discard(j)
                    region.add(j)
                    stack.append(j)
        regions.append(region)
    return regions


def problems(
    graph: Graph,
    clues: dict[int, int | None],
    pools: Sequence[Sequence[int]],
    black: Sequence[bool],
) -> list[str]:
    """Every rule the picture breaks (empty when it is a solution)."""
    if len(black) != len(graph.names):
        return [f"picture has {len(black)} cells, puzzle has {len(graph.names)}"]
    names = graph.names
    adj = _undirected(graph)
    found: list[str] = []
    for c in sorted(clues):
        if black[c]:
            found.append(f"clue cell {names[c]} is black")
    white = {i for i, b in enumerate(black) if not b}
    for region in _regions(adj, white):
        inside = sorted(c for c in region if c in clues)
        where = names[min(region)]
        if not inside:
            found.append(f"white region at {where} has no clue")
        elif len(inside) > 1:
            found.append(f"white region at {where} has {len(inside)} clues")
        else:
            size = clues[inside[0]]
            if size is not None and size != len(region):
                found.append(f"island of clue {size} at {names[inside[0]]} has {len(region)} cells")
    wall = {i for i, b in enumerate(black) if b}
    parts = _regions(adj, wall)
    if len(parts) > 1:
        found.append(f"the wall is in {len(parts)} pieces")
    for pool in pools:
        if all(black[i] for i in pool):
            found.append("pool: " + " ".join(names[i] for i in pool) + " are all black")
    return found
