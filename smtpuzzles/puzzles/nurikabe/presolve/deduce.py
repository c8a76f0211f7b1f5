"""The cheap sound deductions made before encoding: what every solution shares.

Links of the graph count both ways here: adjacency between two cells is one relation,
whatever way an adjacency table wrote it.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass

from ..model import NurikabeInstance

try:  # built from _wall.c at install where a C compiler is at hand
    from . import _wall as COMPILED
except ImportError:  # pragma: no cover - depends on the installation
    COMPILED = None


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
        return self.reaching().get(i, [])

    def reaching(self) -> dict[int, list[int]]:
        """For each cell some island can reach, the clues whose islands can."""
        index = self.__dict__.get("_owners")
        if index is None:
            index = _reaching(self.reach)
            self.__dict__["_owners"] = index
        return index

    def claims(self, neighbours: tuple[tuple[int, ...], ...]) -> dict[int, int]:
        """For each cell that is white or beside a white cell, the island it belongs or
        borders (:data:`TWO_ISLANDS` when two): no other island may use it."""
        claims = self.__dict__.get("_claims")
        if claims is None:
            claims = {}
            for i, k in self.owner.items():
                _claim(claims, neighbours, i, k)
            self.__dict__["_claims"] = claims
        return claims


def _reaching(reach: dict[int, dict[int, int]]) -> dict[int, list[int]]:
    """For each cell in a reach of ``reach``, the clues whose reach holds it."""
    index: dict[int, list[int]] = {}
    for k, cells in reach.items():
        for j in cells:
            index.setdefault(j, []).append(k)
    return index


#: The claim on a cell that two islands border (see :meth:`Deductions.claims`).
TWO_ISLANDS = -1


def _claim(claims: dict[int, int], neighbours: tuple[tuple[int, ...], ...], i: int, k: int) -> None:
    """Island ``k`` now has cell ``i``: it claims ``i`` and its neighbours."""
    for j in (i, *neighbours[i]):
        if claims.setdefault(j, k) != k:
            claims[j] = TWO_ISLANDS


class Contradiction(Exception):
    """The facts given to :func:`deduce` break a rule: no solution extends them."""


def wall_size(puzzle: NurikabeInstance) -> int | None:
    """Cells the wall must have (unknown when a clue is ``?``)."""
    if any(size is None for size in puzzle.clues.values()):
        return None
    return len(puzzle) - sum(s for s in puzzle.clues.values() if s is not None)


def deduce(
    puzzle: NurikabeInstance,
    start: Deductions | None = None,
    black: Iterable[int] = (),
    owner: dict[int, int] | None = None,
    strict: bool = False,
) -> Deductions:
    """Reachable cells per clue, complete islands and forced cells, to a fixpoint.

    Island ``k`` can only use cells that are no other island's and touch no other
    island's cell (touching would merge two islands), within ``size - 1`` steps of its
    clue through such cells, and never a cell known black. A cell no island reaches is
    black; an island whose reach is exactly its size owns all of it, and it owns every
    cell without which too few cells stay within reach (:func:`_cut_cells`). A cell
    whose whiteness would part known black cells is black (:func:`_wall_cuts`). A pool
    with one cell left open makes that cell white, and so does a wall that has all its
    cells; a white cell only one island reaches belongs to it. Each fact can shrink
    another clue's reach, so repeat until nothing changes.

    ``start`` (an earlier fixpoint) and the facts ``black`` and ``owner`` are where to
    begin; from ``start`` only the islands near new facts are worked out again, which
    is what makes trying hypotheses (:mod:`.probe`) affordable. ``strict``: raise
    :class:`Contradiction` when the facts break a rule, instead of handing them on.
    """
    return _Deducer(puzzle, start, strict).run(set(black), owner or {})


class _Deducer:
    """One run of :func:`deduce`: the facts so far and the rules that add to them."""

    def __init__(self, puzzle: NurikabeInstance, start: Deductions | None, strict: bool) -> None:
        self.puzzle = puzzle
        self.nbrs = puzzle.neighbours
        self.strict = strict
        self.wall = wall_size(puzzle)
        self.fresh = start is None
        self.reach: dict[int, dict[int, int]] = dict(start.reach) if start else {}
        self.black: set[int] = set(start.black) if start else set()
        self.owner: dict[int, int] = dict(start.owner) if start else {k: k for k in puzzle.clues}
        self.owned = Counter(self.owner.values())
        seed = start or Deductions({}, set(), self.owner)
        self.claims = dict(seed.claims(self.nbrs))
        self.changed: set[int] = set()  #: cells that became black or white this round
        self.lost: set[int] = set()  #: cells that left some island's reach this round
        #: per island, the reach and own cells its cut cells were last searched for
        #: (from ``start``, where they were all found: reach only shrinks, so the same
        #: counts are the same cells)
        self.cut_checked: dict[int, tuple[int, int]] = (
            dict(start.__dict__.get("_cut_checked", {})) if start else {}
        )
        #: for each cell, the clues that could reach it at the start of the run (from
        #: then on reach only shrinks), to find a cell's islands without a look at every
        #: island: ``None`` until known, or once a reach grew (facts that break a rule)
        self.index: dict[int, list[int]] | None = start.reaching() if start else None

    def fail(self, why: str) -> None:
        if self.strict:
            raise Contradiction(why)

    def make_black(self, i: int) -> None:
        if i not in self.black:
            if i in self.owner:
                self.fail(f"cell {i} is black and white")
            self.black.add(i)
            self.changed.add(i)

    def make_owned(self, i: int, k: int) -> None:
        """Cell ``i`` is white and in clue ``k``'s island."""
        now = self.owner.get(i)
        if now == k:
            return
        if now is not None or i in self.black:
            self.fail(f"cell {i} is claimed twice")
            if now is not None:
                return
        if any(self.owner.get(j, k) != k for j in self.nbrs[i]):
            self.fail(f"cell {i} joins two islands")
        self.owner[i] = k
        self.owned[k] += 1
        _claim(self.claims, self.nbrs, i, k)
        self.changed.add(i)

    def run(self, black: set[int], owner: dict[int, int]) -> Deductions:
        for i in sorted(black):
            self.make_black(i)
        for i, k in sorted(owner.items()):
            self.make_owned(i, k)
        islands = list(self.puzzle.clues) if self.fresh else self.touched_islands()
        pools = set(range(len(self.puzzle.pools))) if self.fresh else self.pools_of(self.changed)
        while True:
            self.changed, self.lost = set(), set()
            for k in islands:
                self.island(k)
            if self.fresh:
                self.index = _reaching(self.reach)
            self.unreached()
            # a pool changes with its cells, and with the islands that can reach them
            for p in sorted(pools | self.pools_of(self.changed | self.lost)):
                self.pool(self.puzzle.pools[p])
            self.wall_complete()
            if not self.changed:  # the wall, a search of the whole graph, comes last
                self.wall_whole()
            if not self.changed:
                found = Deductions(self.reach, self.black, self.owner)
                found.__dict__["_claims"] = self.claims
                found.__dict__["_cut_checked"] = self.cut_checked
                return found
            islands, pools = self.touched_islands(), self.pools_of(self.changed)

    def touched_islands(self) -> list[int]:
        """Clues whose reach holds or borders a cell that changed."""
        near = set(self.changed)
        for i in self.changed:
            near.update(self.nbrs[i])
        if self.index is None:
            return [k for k, cells in self.reach.items() if not near.isdisjoint(cells.keys())]
        index, reach = self.index, self.reach
        maybe = {k for i in near for k in index.get(i, ())}
        return [k for k in reach if k in maybe and not near.isdisjoint(reach[k].keys())]

    def pools_of(self, cells: set[int]) -> set[int]:
        at = self.puzzle.pools_at
        return {p for i in cells for p in at[i]}

    def island(self, k: int) -> None:
        """Clue ``k``'s reach, and the cells its island must have."""
        size = self.puzzle.clues[k]
        old = self.reach.get(k, {})
        owner = self.owner
        if size is not None and self.owned[k] >= size:
            if self.owned[k] > size:
                self.fail(f"island {k} has over {size} cells")
            if len(old) == size == self.owned[k] and all(owner.get(j) == k for j in old):
                reach = old  # complete already
            else:
                reach = distances_within(self.nbrs, k, size, lambda j: owner.get(j) == k)
        elif old and self.still_usable(k, old):
            reach = old
        else:
            limit = len(self.puzzle) if size is None else size - 1
            reach = _reach(self.nbrs, k, limit, self.black, self.claims)
        if reach is not old:
            self.lost.update(i for i in old if i not in reach)
            if self.index is not None and not old.keys() >= reach.keys():
                self.index = None
        self.reach[k] = reach
        if size is None:
            return
        mine = {i for i in reach if owner.get(i) == k}
        if len(mine) < self.owned[k] or len(reach) < size:
            self.fail(f"island {k} cannot have its cells")
        if self.owned[k] >= size:
            return
        if len(reach) == size:
            for i in reach:
                self.make_owned(i, k)
        elif len(reach) <= CUT_REACH:
            if len(mine) < self.owned[k]:  # an own cell out of reach: search every cell
                mine |= {i for i, o in owner.items() if o == k}
            state = (len(reach), len(mine))  # reach only shrinks, ownership only grows
            if self.cut_checked.get(k) != state:
                self.cut_checked[k] = state
                for i in _cut_cells(self.nbrs, k, size, reach, mine):
                    self.make_owned(i, k)

    def still_usable(self, k: int, old: dict[int, int]) -> bool:
        """Can island ``k`` still use every cell of its reach ``old``? Then its reach
        is the same: cells only ever become unusable, and those just beyond ``old``
        were unusable or too far already."""
        claims = self.claims
        return self.black.isdisjoint(old) and all(claims.get(j, k) == k for j in old)

    def unreached(self) -> None:
        """A cell no island can reach is black."""
        if self.fresh:
            covered: set[int] = set()
            for cells in self.reach.values():
                covered |= cells.keys()
            candidates: Iterable[int] = sorted(set(range(len(self.puzzle))) - covered)
            self.fresh = False
        else:
            candidates = sorted(self.lost)
        for i in candidates:
            if i not in self.black and not self.islands_at(i):
                self.make_black(i)

    def islands_at(self, i: int) -> list[int]:
        """The clues whose reach holds cell ``i``."""
        reach = self.reach
        if self.index is None:
            return [k for k, cells in reach.items() if i in cells]
        return [k for k in self.index.get(i, ()) if i in reach[k]]

    def wall_whole(self) -> None:
        """The wall runs through cells not known white: those that would part it are
        black, and it cannot be apart already nor have too little room."""
        cuts, room = wall_cuts(self.nbrs, self.owner, self.black)
        if room is None or (self.wall is not None and self.black and room < self.wall):
            self.fail("the wall is apart or has too little room")
        for i in sorted(cuts):
            self.make_black(i)

    def pool(self, pool: tuple[int, ...]) -> None:
        """A pool with one cell left open: that cell is white."""
        black, left = self.black, None
        for i in pool:
            if i not in black:
                if left is not None:  # two open: nothing to say (the most frequent case)
                    return
                left = i
        if left is None:
            self.fail("a pool is all black")
        elif left not in self.owner:
            self.whiten(left)

    def wall_complete(self) -> None:
        """A wall with all its cells leaves every other cell white; and it may not have
        more, nor can fewer cells than it needs stay open."""
        if self.wall is None:
            return
        if len(self.black) > self.wall or len(self.puzzle) - len(self.owner) < self.wall:
            self.fail("the wall has the wrong size")
        if len(self.black) == self.wall:
            for i in range(len(self.puzzle)):
                if i not in self.black and i not in self.owner:
                    self.whiten(i)

    def whiten(self, i: int) -> None:
        """Cell ``i`` is white: it belongs to the one island that reaches it, if one."""
        ks = self.islands_at(i)
        if len(ks) == 1:
            self.make_owned(i, ks[0])
        elif not ks:
            self.fail(f"white cell {i} is in no island's reach")


#: Islands whose reach has at most this many cells are searched for cut cells (up to
#: one search per cell of the reach: the cost can grow with its square). Large enough to
#: settle the mid-sized puzzles that need cut cells, small enough that the largest
#: grids do not spend their time here (docs/decisions.md).
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


def wall_cuts(nbrs, white, black: set[int]) -> tuple[set[int], int | None]:
    """:func:`_wall_cuts`, compiled where the package was built with a C compiler (the
    same cells and room: on the largest grids the wall's search was most of the
    deductions' time)."""
    if COMPILED is not None:
        return COMPILED.cuts(nbrs, white, black)
    return _wall_cuts(nbrs, white, black)


def _wall_cuts(nbrs, white, black: set[int]) -> tuple[set[int], int | None]:
    """Cells that must be black to keep the wall whole: white, each would part known
    black cells, since the wall can only run through cells not known ``white``. One
    depth-first search finds them as the cut vertices between black cells.

    Also returns the room the wall has: the cells it can reach from a black cell, or
    ``None`` when the known black cells are apart already (no cut cells then). Lists,
    not dicts, hold the search's numbers (white cells numbered -2, unseen ones -1): it
    runs once per deduction round, and for every hypothesis (:mod:`.probe`)."""
    if not black:
        return set(), len(nbrs) - len(white)
    root = min(black)
    order = [-1] * len(nbrs)
    for i in white:
        order[i] = -2
    low = [0] * len(nbrs)
    below = [0] * len(nbrs)  # black cells in each vertex's subtree
    order[root], below[root], seen = 0, 1, 1
    cuts: set[int] = set()
    stack = [(root, iter(nbrs[root]))]
    while stack:
        v, rest = stack[-1]
        for w in rest:
            seen_w = order[w]
            if seen_w == -1:
                order[w] = low[w] = seen
                seen += 1
                if w in black:
                    below[w] = 1
                stack.append((w, iter(nbrs[w])))
                break
            if -1 < seen_w < low[v]:
                low[v] = seen_w
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
                if below[v]:
                    below[u] += below[v]
                    if u != root and low[v] >= order[u]:
                        cuts.add(u)
    if any(order[b] < 0 for b in black):
        return set(), None
    return cuts - black, seen


def _reach(nbrs, clue: int, limit: int, black: set[int], claims: dict[int, int]) -> dict[int, int]:
    """:func:`distances_within` through the cells an incomplete island may use (neither
    black nor claimed by another island), its test written out: the deductions' most
    frequent search."""
    dist = {clue: 0}
    queue = deque([clue])
    while queue:
        i = queue.popleft()
        d = dist[i] + 1
        if d > limit:
            continue
        for j in nbrs[i]:
            if j not in dist and j not in black and claims.get(j, clue) == clue:
                dist[j] = d
                queue.append(j)
    return dist


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
