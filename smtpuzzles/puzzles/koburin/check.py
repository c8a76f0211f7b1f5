"""An independent checker of Koburin answers: the rules in plain Python.

It shares no code with the encoder: it works out neighbourhoods itself (from grid
positions where there are any, else from the table's links both ways), walks the loop
itself, and reads nothing but the puzzle's cells, numbers and variant.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from .model import KoburinInstance


def _neighbours(puzzle: KoburinInstance) -> list[set[int]]:
    """Cells that touch: orthogonal steps on a grid (wrapping on a torus), else links."""
    g = puzzle.graph
    n = len(g.names)
    if g.coords is not None and g.kind in ("square", "holes", "torus"):
        return _around(puzzle, ((-1, 0), (1, 0), (0, -1), (0, 1)))
    both: list[set[int]] = [set() for _ in range(n)]
    for i, targets in enumerate(g.out):
        for j in targets:
            both[i].add(j)
            both[j].add(i)
    return both


def _seen_by_number(puzzle: KoburinInstance, neighbours: list[set[int]]) -> list[set[int]]:
    """The cells a number counts: its own links, or the 3x3 block around it (``eight``)."""
    g = puzzle.graph
    if puzzle.variant == "four":
        grid = g.coords is not None and g.kind in ("square", "holes", "torus")
        return neighbours if grid else [set(t) for t in g.out]
    return _around(puzzle, [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)])


def _around(puzzle: KoburinInstance, steps: Sequence[tuple[int, int]]) -> list[set[int]]:
    """For each grid cell, the other cells at the given (row, column) offsets (wrapping
    on a torus), worked out from the coordinates rather than from the graph's links."""
    g = puzzle.graph
    assert g.coords is not None
    where = {rc: i for i, rc in enumerate(g.coords)}
    result = []
    for r, c in g.coords:
        near = set()
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if g.kind == "torus" and g.rows and g.cols:
                rr, cc = rr % g.rows, cc % g.cols
            j = where.get((rr, cc))
            if j is not None and (rr, cc) != (r, c):
                near.add(j)
        result.append(near)
    return result


def walk_loop(links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The pieces of a set of links, each as the cells met walking along it."""
    adjacent: dict[int, list[int]] = {}
    for a, b in links:
        adjacent.setdefault(a, []).append(b)
        adjacent.setdefault(b, []).append(a)
    pieces = []
    unseen = set(adjacent)
    while unseen:
        start = min(unseen)
        piece, stack = [], [start]
        unseen.discard(start)
        while stack:
            here = stack.pop()
            piece.append(here)
            for nxt in adjacent[here]:
                if nxt in unseen:
                    unseen.discard(nxt)
                    stack.append(nxt)
        pieces.append(piece)
    return pieces


def problems(
    puzzle: KoburinInstance,
    black: Collection[int],
    links: Collection[tuple[int, int]],
    order: list[int] | None = None,
) -> list[str]:
    """Every broken rule of an answer (an empty list: the answer is right).

    ``order``, when given, is the loop as reported: it must visit each loop cell once,
    each step along a chosen link, and close.
    """
    names = puzzle.graph.names
    n = len(names)
    neighbours = _neighbours(puzzle)
    numbered = set(puzzle.clues)
    black = set(black)
    found: list[str] = []
    for i in sorted(black):
        if not 0 <= i < n:
            found.append(f"black cell {i} does not exist")
        elif i in numbered:
            found.append(f"numbered cell {names[i]} is black")
    for i in sorted(black):
        for j in sorted(neighbours[i] if 0 <= i < n else ()):
            if j in black and i < j:
                found.append(f"black cells {names[i]} and {names[j]} touch")
    seen = _seen_by_number(puzzle, neighbours)
    for i, number in sorted(puzzle.clues.items()):
        if number is not None:
            count = sum(1 for j in seen[i] if j in black)
            if count != number:
                found.append(f"number {number} at {names[i]} sees {count} black cells")
    degree = [0] * n
    used = set()
    for a, b in links:
        key = (min(a, b), max(a, b))
        if key in used:
            found.append(f"link {names[a]}-{names[b]} chosen twice")
        used.add(key)
        if b not in neighbours[a]:
            found.append(f"link {names[a]}-{names[b]} joins cells that do not touch")
        degree[a] += 1
        degree[b] += 1
    loop_cells = {i for i in range(n) if i not in numbered and i not in black}
    for i in range(n):
        if i in loop_cells and degree[i] != 2:
            found.append(f"loop cell {names[i]} has {degree[i]} loop links, not 2")
        if i not in loop_cells and degree[i]:
            what = "numbered" if i in numbered else "black"
            found.append(f"{what} cell {names[i]} is on the loop")
    if not loop_cells:
        found.append("there is no loop")
    pieces = walk_loop(used)
    if len(pieces) > 1:
        found.append(f"the loop falls into {len(pieces)} separate pieces")
    if order is not None:
        found.extend(_order_problems(puzzle, order, loop_cells, used))
    return found


def _order_problems(
    puzzle: KoburinInstance, order: list[int], loop_cells: set[int], used: set[tuple[int, int]]
) -> list[str]:
    names = puzzle.graph.names
    if sorted(order) != sorted(loop_cells):
        return ["the reported loop order does not visit every loop cell exactly once"]
    steps = list(zip(order, order[1:] + order[:1]))
    for a, b in steps:
        if (min(a, b), max(a, b)) not in used:
            return [f"the reported loop steps from {names[a]} to {names[b]} without a link"]
    return []
