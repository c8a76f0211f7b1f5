"""Random Koburin solutions for tests: a random loop over a rectangle and black cells
off it, no two side by side (the generator itself places numbers, not pictures)."""

from __future__ import annotations

import random

from smtpuzzles.graph import Graph

Edge = tuple[int, int]


def random_loop(graph: Graph, rng: random.Random, fill: float) -> list[Edge]:
    """The links of a random loop through about ``fill`` of a rectangular grid's cells:
    grown by random bumps from a loop round a 2x2 square until no link can be bumped,
    then dented (the reverse of a bump) at random places until it is short enough, and
    where it could be rerouted through the same cells."""
    following = _grown_loop(graph, rng)
    _dent(graph, following, rng, round(fill * len(graph)))
    while switch := _switchable(graph, following):
        if not _dent_near(graph, following, switch):
            break
    return [(min(a, b), max(a, b)) for a, b in following.items()]


def _switchable(graph: Graph, following: dict[int, int]) -> tuple[int, ...] | None:
    """A 2x2 square whose two parallel loop links can be swapped for its other two
    sides with the loop still one loop (the same cells, another loop: no puzzle could
    tell the two apart), or ``None``."""
    position: dict[int, int] = {}
    cell = min(following)
    for k in range(len(following)):
        position[cell] = k
        cell = following[cell]
    length = len(following)

    def step(u: int, v: int) -> tuple[int, int] | None:
        """The link u-v oriented along the loop, if it is a link of the loop."""
        if u not in position or v not in position:
            return None
        if (position[u] + 1) % length == position[v]:
            return u, v
        if (position[v] + 1) % length == position[u]:
            return v, u
        return None

    for tl, tr, bl, br in graph.squares():
        for (p, q), (r, s), (x1, y1), (x2, y2) in (
            ((tl, tr), (bl, br), (tl, bl), (tr, br)),
            ((tl, bl), (tr, br), (tl, tr), (bl, br)),
        ):
            first, second = step(p, q), step(r, s)
            if first is None or second is None or step(x1, y1) or step(x2, y2):
                continue
            partner = {x1: y1, y1: x1, x2: y2, y2: x2}
            if partner[first[0]] == second[0]:  # u1-u2 and v1-v2 rejoin one loop
                return tl, tr, bl, br
    return None


def _dent_near(graph: Graph, following: dict[int, int], cells: tuple[int, ...]) -> bool:
    """Dent the loop at the place nearest to ``cells`` (``False``: nowhere to dent)."""
    coords = graph.coords
    assert coords is not None
    best: tuple[int, int] | None = None
    for a in sorted(following):
        c = following[a]
        d = following[c]
        b = following[d]
        if b == a or following[b] == a or b not in graph.out[a]:
            continue
        near = min(
            abs(coords[x][0] - coords[y][0]) + abs(coords[x][1] - coords[y][1])
            for x in (c, d)
            for y in cells
        )
        if best is None or near < best[0]:
            best = (near, a)
    if best is None:
        return False
    a = best[1]
    c = following[a]
    d = following[c]
    following[a] = following[d]
    del following[c], following[d]
    return True


def _grown_loop(graph: Graph, rng: random.Random) -> dict[int, int]:
    """Each loop cell to the next one round the loop, after bumps until none is left."""
    rows, cols, coords = graph.rows, graph.cols, graph.coords
    assert rows is not None and cols is not None and coords is not None

    def at(row: int, col: int) -> int | None:
        return graph.at(row, col) if 0 <= row < rows and 0 <= col < cols else None

    r, c = rng.randrange(rows - 1), rng.randrange(cols - 1)
    square = [at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)]
    following: dict[int, int] = {}
    for k, cell in enumerate(square):
        nxt = square[(k + 1) % 4]
        assert cell is not None and nxt is not None
        following[cell] = nxt
    bumpable = list(following.items())
    while bumpable:
        k = rng.randrange(len(bumpable))
        a, b = bumpable[k]
        bumpable[k] = bumpable[-1]
        bumpable.pop()
        (ra, ca), (rb, cb) = coords[a], coords[b]
        dr, dc = rb - ra, cb - ca
        sides = [(dc, dr), (-dc, -dr)]
        rng.shuffle(sides)
        for sr, sc in sides:
            c1, d1 = at(ra + sr, ca + sc), at(rb + sr, cb + sc)
            if c1 is None or d1 is None or c1 in following or d1 in following:
                continue
            following[a], following[c1], following[d1] = c1, d1, b
            bumpable += [(a, c1), (c1, d1), (d1, b)]
            break
        # a link that cannot be bumped now never can: the loop only grows
    return following


def _dent(graph: Graph, following: dict[int, int], rng: random.Random, length: int) -> None:
    """Shorten the loop to about ``length`` cells: where it runs a-c-d-b round three
    sides of a 2x2 square, join a to b and let c, d go (scattered, single-cell gaps)."""
    for a in rng.sample(sorted(following), len(following)):
        if len(following) <= max(length, 4):
            return
        if a not in following:
            continue
        c = following[a]
        d = following[c]
        b = following[d]
        if b != a and following[b] != a and b in graph.out[a]:
            following[a] = b
            del following[c], following[d]


def random_black(graph: Graph, off_loop: list[int], rng: random.Random, share: float) -> set[int]:
    """A random set of cells off the loop, no two side by side."""
    black: set[int] = set()
    for i in rng.sample(off_loop, len(off_loop)):
        if rng.random() < share and not black.intersection(graph.out[i]):
            black.add(i)
    return black
