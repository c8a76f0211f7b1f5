"""A Nurikabe puzzle over a graph, and the cheap sound deductions made before encoding.

Rules: clue cells are white; every white region holds exactly one clue and exactly that
many cells (a ``?`` clue: any size); all black cells (the wall) are connected; no pool
(on a grid, a 2x2 block) is all black. Links of the graph count both ways here:
adjacency between two cells is one relation, whatever way an adjacency table wrote it.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

from ...graph import Graph

#: A picture: ``True`` for a black (wall) cell, one entry per cell of the graph.
Picture = tuple[bool, ...]


@dataclass(frozen=True)
class Nurikabe:
    """Cells of ``graph``; ``clues`` maps a cell to its island size (``None`` = ``?``)."""

    graph: Graph
    clues: dict[int, int | None]
    pools: tuple[tuple[int, ...], ...] = ()
    name: str = "<puzzle>"
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        both: list[set[int]] = [set(t) for t in self.graph.out]
        for i, targets in enumerate(self.graph.out):
            for j in targets:
                both[j].add(i)
        object.__setattr__(self, "neighbours", tuple(tuple(sorted(s)) for s in both))

    def __len__(self) -> int:
        return len(self.graph)

    @property
    def is_grid(self) -> bool:
        """A plain rectangle: the only shape a puzz.link URL can say."""
        g = self.graph
        return g.kind == "square" and g.rows is not None and g.cols is not None

    def cell(self, i: int) -> str:
        return self.graph.names[i]


@dataclass
class Deductions:
    """What is known before the solver runs.

    ``reach[k]`` holds the cells clue ``k``'s island can contain, with their least
    distance from the clue inside that set; ``black`` the cells no island can reach;
    ``owner`` the white cells whose island is known.
    """

    reach: dict[int, dict[int, int]]
    black: set[int]
    owner: dict[int, int]

    def owners(self, i: int) -> list[int]:
        """Clues whose island might contain cell ``i``."""
        index = self.__dict__.get("_owners")
        if index is None:
            index = {}
            for k, cells in self.reach.items():
                for j in cells:
                    index.setdefault(j, []).append(k)
            self.__dict__["_owners"] = index
        return index.get(i, [])


def deduce(puzzle: Nurikabe) -> Deductions:
    """Reachable cells per clue, complete islands and forced cells, to a fixpoint.

    Island ``k`` can only use cells that are no other island's and touch no other
    island's cell (touching would merge two islands), within ``size - 1`` steps of its
    clue through such cells, and never a cell known black. A cell no island reaches is
    black; an island whose reach is exactly its size owns all of it, and it owns every
    cell without which too few cells stay within reach (:func:`_cut_cells`). A cell
    whose whiteness would part known black cells is black (:func:`_wall_cuts`). A pool with one
    cell left open makes that cell white, and a white cell only one island reaches
    belongs to it. Each fact can shrink another clue's reach, so repeat until nothing
    changes.
    """
    nbrs = puzzle.neighbours
    n = len(puzzle)
    owner: dict[int, int] = {k: k for k in puzzle.clues}
    black: set[int] = set()
    reach: dict[int, dict[int, int]] = {}
    near: list[set[int]] = []
    cut_checked: dict[int, tuple[int, int]] = {}

    def free_for(k: int):
        return lambda j: near[j] <= {k} and j not in black

    while True:
        before = (len(owner), len(black))
        near = [set() for _ in range(n)]
        for i, k in owner.items():
            near[i].add(k)
            for j in nbrs[i]:
                near[j].add(k)
        owned = Counter(owner.values())
        for k, size in puzzle.clues.items():
            if size is not None and owned[k] == size:
                reach[k] = distances_within(nbrs, k, size, lambda j, k=k: owner.get(j) == k)
                continue
            limit = n if size is None else size - 1
            reach[k] = distances_within(nbrs, k, limit, free_for(k))
            if size is not None and len(reach[k]) == size:
                for i in reach[k]:
                    owner[i] = k
            elif size is not None and len(reach[k]) <= CUT_REACH:
                mine = {i for i, o in owner.items() if o == k}
                state = (len(reach[k]), len(mine))  # reach only shrinks, ownership only grows
                if cut_checked.get(k) != state:
                    cut_checked[k] = state
                    for i in _cut_cells(nbrs, k, size, reach[k], mine):
                        owner[i] = k
        covered: set[int] = set()
        for cells in reach.values():
            covered |= cells.keys()
        black |= set(range(n)) - covered
        black |= _wall_cuts(nbrs, set(range(n)) - owner.keys(), black)
        for pool in puzzle.pools:
            open_cells = [i for i in pool if i not in black]
            if len(open_cells) == 1 and open_cells[0] not in owner:
                ks = [k for k, cells in reach.items() if open_cells[0] in cells]
                if len(ks) == 1:
                    owner[open_cells[0]] = ks[0]
        if (len(owner), len(black)) == before:
            return Deductions(reach, black, owner)


#: Islands whose reach has at most this many cells are searched for cut cells (up to
#: one search per cell of the reach: the cost can grow with its square). 300 takes janko
#: 0683 (14x24) from no answer in 90 s to 2.2 s; 500 cost 4.6 s of deductions on 1055
#: (40x57) and no limit 76 s, neither solving it (both before the dominance filter of
#: :func:`_cut_cells`, which made the deductions 2.7 times faster over the corpus).
CUT_REACH = 300


def _cut_cells(nbrs, clue: int, size: int, reach: dict[int, int], mine: set[int]) -> list[int]:
    """Cells the island of ``clue`` cannot do without: leaving one out, the cells still
    reachable within ``size - 1`` steps are too few, or cut off a cell already its own.

    Leaving out ``x`` can only lengthen the paths of the cells it dominates (those whose
    every shortest path from the clue runs through it), so a cell that dominates no cell
    of the island's own and too few others to matter is passed over without a search.
    """
    dominated, guards_mine = _dominance(nbrs, clue, reach, mine)
    forced = []
    for x in reach:
        if x == clue or x in mine:
            continue
        if len(reach) - 1 - dominated[x] >= size and not guards_mine[x]:
            continue
        left = distances_within(nbrs, clue, size - 1, lambda j, x=x: j != x and j in reach)
        if len(left) < size or any(i not in left for i in mine):
            forced.append(x)
    return forced


def _dominance(
    nbrs, clue: int, reach: dict[int, int], mine: set[int]
) -> tuple[dict[int, int], dict[int, bool]]:
    """For each cell of ``reach`` (its distances from ``clue``), how many other cells it
    dominates on shortest paths from the clue, and whether one of them is in ``mine``.

    On the shortest-path graph, which has no cycles, a cell's nearest dominator is
    where the dominator chains of its predecessors meet.
    """
    order = sorted(reach, key=reach.__getitem__)
    up: dict[int, int] = {clue: clue}
    for y in order[1:]:
        meet = None
        for p in nbrs[y]:
            if reach.get(p) == reach[y] - 1:
                meet = p if meet is None else _meet(up, reach, meet, p)
        up[y] = clue if meet is None else meet
    dominated = dict.fromkeys(reach, 0)
    guards = dict.fromkeys(reach, False)
    for y in reversed(order[1:]):
        dominated[up[y]] += dominated[y] + 1
        guards[up[y]] = guards[up[y]] or guards[y] or y in mine
    if not mine <= reach.keys():  # the island cannot hold its own cells: search them all
        guards = dict.fromkeys(reach, True)
    return dominated, guards


def _meet(up: dict[int, int], depth: dict[int, int], a: int, b: int) -> int:
    """Where the dominator chains of ``a`` and ``b`` meet (``up``: nearest dominators)."""
    while a != b:
        if depth[a] >= depth[b]:
            a = up[a]
        else:
            b = up[b]
    return a


def _wall_cuts(nbrs, open_cells: set[int], black: set[int]) -> set[int]:
    """Cells that must be black to keep the wall whole: white, each would part known
    black cells, since the wall can only run through ``open_cells`` (those not known
    white). One depth-first search finds them as the cut vertices between black cells."""
    if len(black) < 2:
        return set()
    root = min(black)
    order = {root: 0}
    low = {root: 0}
    below = {root: 1}  # black cells in each vertex's subtree
    cuts: set[int] = set()
    stack = [(root, iter(nbrs[root]))]
    while stack:
        v, rest = stack[-1]
        for w in rest:
            if w not in open_cells:
                continue
            if w not in order:
                order[w] = low[w] = len(order)
                below[w] = int(w in black)
                stack.append((w, iter(nbrs[w])))
                break
            low[v] = min(low[v], order[w])
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                low[u] = min(low[u], low[v])
                below[u] += below[v]
                if u != root and low[v] >= order[u] and below[v] > 0:
                    cuts.add(u)
    if any(b not in order for b in black):
        return set()  # the known black cells are apart already: the solver will say unsat
    return cuts - black


def distances_within(nbrs, start: int, limit: int, allowed) -> dict[int, int]:
    """Distances from ``start`` up to ``limit`` through cells ``allowed`` accepts."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        i = queue.popleft()
        if dist[i] >= limit:
            continue
        for j in nbrs[i]:
            if j not in dist and allowed(j):
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist
