"""Growing the wall: a search over the wall's shapes, for puzzles of a few big islands.

Where the islands are few and big and the wall thin (janko 0753: islands of 8, 15, 28
and 30 cells, a wall of 19 in 10x10), the islands have a vast number of shapes and the
wall few. The guesses of :mod:`.backtrack` (one cell and its island at a time) and the
solver both lose their way among the islands' shapes; this search lists the wall's.

Every connected wall that holds a seed cell is grown once (Redelmeier's way of listing
polyominoes): a cell beside the wall is taken in, or else shut out, white, for the rest
of that branch. The seed is a known black cell or, with none known, each open cell in
turn of a path between two clues, which the wall must cut. A branch ends as soon as the
cells it has left cannot make a wall the rules allow (:meth:`_Grower.fits`):

- cells further from the grown wall than it has cells left are white, as are those shut
  out; together they may join no two clues, nor make an island too big;
- each room the wall leaves must hold its clues' islands, and the rest of it must be
  cells the wall can still take (a room of two clues needs one at least);
- on a rectangle, the wall must meet the rows and columns that keep clues apart, and
  that takes cells: at least one per row and column spanned, less one, plus one per
  cycle (:class:`_Span`).

A wall of the full size is a solution once :func:`~.puzzle.deduce` and the independent
rule checker pass it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator

from ..check import problems
from ..model import NurikabeInstance
from .backtrack import Trial
from .deduce import Contradiction, Deductions, deduce, wall_size

#: Nodes a search may visit (a node is cheap on grids of corpus size).
NODES = 200_000

#: The most wall cells left open that a search is tried on: the walls to list grow
#: exponentially with them. Searches up to this many open wall cells finish within
#: seconds on the corpus, and none with more (docs/decisions.md).
MOST_OPEN = 28

OPEN, WALL, WHITE = 0, 1, 2
#: A table for ``bytes.translate``: 1 for an open cell, 0 for any other.
_OPEN_ONLY = bytes(int(i == OPEN) for i in range(256))


class _Stop(Exception):
    """The search has visited its nodes, used its time or found enough solutions."""


def grow_wall(
    puzzle: NurikabeInstance,
    known: Deductions,
    nodes: int = NODES,
    most: int = 2,
    seconds: float | None = None,
    most_open: int | None = MOST_OPEN,
) -> Trial:
    """Search the connected walls that extend ``known`` for up to ``most`` solutions,
    visiting at most ``nodes`` nodes in at most ``seconds``. Not tried (no node, and
    nothing proved) when a clue is ``?``, as the wall's size is then unknown, or when
    more than ``most_open`` wall cells are open."""
    size = wall_size(puzzle)
    if size is None or most_open is not None and size - len(known.black) > most_open:
        return Trial([], False, 0)
    grower = _Grower(puzzle, known, size, nodes, most, seconds)
    try:
        grower.search()
    except _Stop:
        return Trial(grower.found, False, grower.visited)
    return Trial(grower.found, True, grower.visited)


class _Grower:
    """One search: each cell open, wall or white, and the wall part grown from the seed."""

    def __init__(
        self,
        puzzle: NurikabeInstance,
        known: Deductions,
        size: int,
        nodes: int,
        most: int,
        seconds: float | None,
    ) -> None:
        self.puzzle, self.known, self.size = puzzle, known, size
        self.nbrs = puzzle.neighbours
        self.nodes, self.most = nodes, most
        self.until = None if seconds is None else time.monotonic() + seconds
        self.visited = 0
        self.found: list[Deductions] = []
        self.state = bytearray(len(puzzle))
        for i in known.black:
            self.state[i] = WALL
        for i in known.owner:
            self.state[i] = WHITE
        self.walls = len(known.black)
        self.grown = bytearray(len(puzzle))  #: the wall cells joined to the seed
        self.grown_cells: list[int] = []  #: the same, in the order they joined
        self.clue = [0] * len(puzzle)  #: island size at a clue cell, 0 elsewhere
        for k, s in puzzle.clues.items():
            self.clue[k] = s or 0
        self.is_clue = bytearray(i in puzzle.clues for i in range(len(puzzle)))
        self.span = _Span(puzzle, known) if puzzle.is_grid and len(puzzle.clues) > 1 else None

    def search(self) -> None:
        """Grow from a known black cell, or from each open cell of a path the wall must cut."""
        if self.known.black:
            self.grow(self.join(min(self.known.black))[1])
        elif self.size == 0:
            self.visit()
            self.leaf()
        else:
            for seed in self.seeds():
                self.state[seed] = WALL
                self.walls += 1
                joined, beside = self.join(seed)
                self.grow(beside)
                self.unjoin(joined)
                self.walls -= 1
                self.state[seed] = WHITE

    def seeds(self) -> list[int]:
        """The open cells of a path between two clues with the fewest open cells (all of
        them, with one clue): the wall holds one of them, or the clues would join."""
        clues = sorted(self.puzzle.clues)
        if len(clues) < 2:
            return [i for i, s in enumerate(self.state) if s == OPEN]
        best: list[int] | None = None
        for a in clues:
            path = self.cheapest_path(a, set(clues) - {a})
            if path is not None and (best is None or len(path) < len(best)):
                best = path
        return best or []

    def cheapest_path(self, start: int, goals: set[int]) -> list[int] | None:
        """The open cells of a path from ``start`` to one of ``goals`` through cells not
        known black, with as few open cells as can be (a 0-1 breadth-first search)."""
        state, nbrs = self.state, self.nbrs
        cost = {start: 0}
        back: dict[int, int] = {}
        queue = deque([start])
        while queue:
            i = queue.popleft()
            if i in goals:
                path = []
                while i != start:
                    i = back[i]
                    if state[i] == OPEN:
                        path.append(i)
                return path
            for j in nbrs[i]:
                if state[j] == WALL:
                    continue
                c = cost[i] + (state[j] == OPEN)
                if c < cost.get(j, c + 1):
                    cost[j], back[j] = c, i
                    if state[j] == OPEN:
                        queue.append(j)
                    else:
                        queue.appendleft(j)
        return None

    def visit(self) -> None:
        """Count a node, or stop the search: out of nodes, or of time after this one."""
        if self.visited >= self.nodes:
            raise _Stop
        self.visited += 1
        if self.until is not None and time.monotonic() >= self.until:
            raise _Stop

    def grow(self, untried: list[int]) -> None:
        """Every wall grown from here: ``untried`` holds the open cells beside it."""
        self.visit()
        if not self.fits():
            return
        if self.walls == self.size:
            self.leaf()
            return
        shut: list[int] = []
        while untried:
            cell = untried.pop(0)
            if not self.makes_pool(cell):
                self.state[cell] = WALL
                self.walls += 1
                joined, beside = self.join(cell)
                listed = set(untried)
                self.grow(untried + [j for j in beside if j not in listed])
                self.unjoin(joined)
                self.walls -= 1
            self.state[cell] = WHITE
            shut.append(cell)
            if not self.fits(rooms=False):
                break
        for cell in shut:
            self.state[cell] = OPEN

    def makes_pool(self, cell: int) -> bool:
        """Would a black ``cell`` complete an all-black pool?"""
        state, pools = self.state, self.puzzle.pools
        return any(
            all(j == cell or state[j] == WALL for j in pools[p]) for p in self.puzzle.pools_at[cell]
        )

    def join(self, cell: int) -> tuple[list[int], list[int]]:
        """Join wall ``cell``, and the known black cells it touches, to the grown wall:
        the cells joined, and the open cells beside them."""
        state, nbrs, grown = self.state, self.nbrs, self.grown
        joined, beside = [cell], []
        grown[cell] = 1
        self.grown_cells.append(cell)
        stack = [cell]
        while stack:
            i = stack.pop()
            for j in nbrs[i]:
                if state[j] == WALL and not grown[j]:
                    grown[j] = 1
                    joined.append(j)
                    self.grown_cells.append(j)
                    stack.append(j)
                elif state[j] == OPEN and j not in beside:
                    beside.append(j)
        if self.span is not None:
            self.span.add(joined)
        return joined, beside

    def unjoin(self, joined: list[int]) -> None:
        """Undo :meth:`join` (the caller resets the cell's state)."""
        for i in joined:
            self.grown[i] = 0
        del self.grown_cells[-len(joined) :]
        if self.span is not None:
            self.span.remove(joined)

    def fits(self, rooms: bool = True) -> bool:
        """Can the cells left still make a wall the rules allow? (Each test is sound: it
        only fails where no such wall exists.) ``rooms``: test them too; a cell shut out
        changes no room, and seldom what the wall can reach in one."""
        spare = self.size - self.walls
        if spare < 0:
            return False
        shut = None
        if self.span is not None:
            slack = self.span.slack(self.size)
            if slack < 0:
                return False
            if slack == 0:
                shut = self.span.box()
        near = self.reach(spare, shut)
        if near is None:
            return False
        return self.islands_apart(near) and (not rooms or self.rooms_fit(near, spare))

    def reach(self, spare: int, shut: tuple[int, int, int, int] | None) -> bytearray | None:
        """The open cells the grown wall can still reach with ``spare`` more cells, not
        through those in the rows ``shut[0]..shut[1]`` and columns ``shut[2]..shut[3]``;
        ``None`` if some known wall cell is out of its reach."""
        state, nbrs = self.state, self.nbrs
        takes = bytearray(state.translate(_OPEN_ONLY))  #: open cells the wall may take
        if shut is not None:
            top, bottom, left, right = shut
            for r in range(top, bottom + 1):
                for i in self.span.cells_at[r][left : right + 1]:
                    takes[i] = 0
        near = bytearray(len(state))
        if len(self.grown_cells) == self.walls:  # no wall cell apart: level by level
            level = self.grown_cells
            for _ in range(spare):
                after = []
                for i in level:
                    for j in nbrs[i]:
                        if takes[j] and not near[j]:
                            near[j] = 1
                            after.append(j)
                if not after:
                    break
                level = after
            return near
        dist = [-1] * len(state)  # a 0-1 breadth-first search: wall cells cost nothing
        for i in self.grown_cells:
            dist[i] = 0
        queue = deque(self.grown_cells)
        while queue:
            i = queue.popleft()
            d = dist[i]
            for j in nbrs[i]:
                if takes[j]:
                    e = d + 1
                    if e <= spare and (dist[j] < 0 or e < dist[j]):
                        dist[j] = e
                        queue.append(j)
                elif state[j] == WALL and (dist[j] < 0 or d < dist[j]):
                    dist[j] = d
                    queue.appendleft(j)
        for i, s in enumerate(state):
            if s == WALL and dist[i] < 0:
                return None
            if takes[i] and dist[i] > 0:
                near[i] = 1
        return near

    def islands_apart(self, near: bytearray) -> bool:
        """The cells that will be white (shut out, or out of the wall's reach) join no
        two clues, and make no island too big."""
        return all(
            clues < 2 and cells <= need or not clues
            for cells, clues, need, _ in self.parts(near, through_near=False)
        )

    def rooms_fit(self, near: bytearray, spare: int) -> bool:
        """Each room the wall leaves (a region of non-wall cells) holds islands of its
        clues' sizes and wall cells the wall can reach: no more clue cells than room,
        and a room of two clues needs a wall cell more."""
        for cells, clues, need, room in self.parts(near, through_near=True):
            extra = cells - need  # the room's cells that must become wall
            if extra < (clues > 1) or extra > min(room, spare):
                return False
        return True

    def parts(self, near: bytearray, through_near: bool) -> Iterator[tuple[int, int, int, int]]:
        """The connected parts of the cells not wall (and, unless ``through_near``, not
        ``near``), each as its cells, its clues, their sizes' sum and its ``near`` cells."""
        state, nbrs, clue, is_clue = self.state, self.nbrs, self.clue, self.is_clue
        seen = bytearray(len(state))
        for start, s in enumerate(state):
            if seen[start] or s == WALL or not through_near and near[start]:
                continue
            seen[start] = 1
            stack, cells, clues, need, room = [start], 0, 0, 0, 0
            while stack:
                i = stack.pop()
                cells += 1
                room += near[i]
                if is_clue[i]:
                    clues += 1
                    need += clue[i]
                for j in nbrs[i]:
                    if not seen[j] and state[j] != WALL and (through_near or not near[j]):
                        seen[j] = 1
                        stack.append(j)
            yield cells, clues, need, room

    def leaf(self) -> None:
        """A wall of full size: every other cell is white. A solution if the
        deductions and the independent checker both pass it."""
        wall = [i for i, s in enumerate(self.state) if s == WALL]
        try:
            found = deduce(self.puzzle, self.known, wall, strict=True)
        except Contradiction:
            return
        puzzle = self.puzzle
        if len(found.black) + len(found.owner) < len(puzzle):
            return
        picture = tuple(i in found.black for i in range(len(puzzle)))
        if problems(puzzle.graph, puzzle.clues, puzzle.pools, picture):
            return
        self.found.append(found)
        if len(self.found) >= self.most:
            raise _Stop


class _Span:
    """On a rectangle, rows and columns the wall must meet, and the cells that takes.

    A wall whose top row is ``t > 0`` leaves rows ``0..t-1`` white and joined, and
    joins them to every clue of row ``t``: so the clues of rows ``0..t`` are one
    island's, at most one clue. The same holds from each side. A connected set over
    ``R`` rows and ``C`` columns has ``R + C - 1`` cells plus its cycles, counted
    where rows and columns are the nodes of a graph and cells its edges (a cell joins
    its row and column; neighbouring cells share one); a part of the wall has no more
    cycles than the whole. So the wall needs at least ``R + C - 1`` cells over the
    rows and columns it must span, plus the cycles of the part grown so far."""

    def __init__(self, puzzle: NurikabeInstance, known: Deductions) -> None:
        coords = puzzle.graph.coords
        assert coords is not None
        self.row = [r for r, _ in coords]
        self.col = [c for _, c in coords]
        rows = sorted(self.row[k] for k in puzzle.clues)
        cols = sorted(self.col[k] for k in puzzle.clues)
        self.need_rows = (max(rows[1] - 1, 0), min(rows[-2] + 1, puzzle.graph.rows - 1))
        self.need_cols = (max(cols[1] - 1, 0), min(cols[-2] + 1, puzzle.graph.cols - 1))
        black = known.black
        if black:  # the known black cells are the wall's, joined to the grown part or not
            self.need_rows = (
                min(self.need_rows[0], *(self.row[i] for i in black)),
                max(self.need_rows[1], *(self.row[i] for i in black)),
            )
            self.need_cols = (
                min(self.need_cols[0], *(self.col[i] for i in black)),
                max(self.need_cols[1], *(self.col[i] for i in black)),
            )
        #: the cells of each row, by column (a rectangle has them all)
        self.cells_at = [[] for _ in range(puzzle.graph.rows)]
        for i, r in enumerate(self.row):
            self.cells_at[r].append(i)
        self.in_row = [0] * puzzle.graph.rows  #: grown cells in each row
        self.in_col = [0] * puzzle.graph.cols
        self.cells = 0  #: grown cells

    def add(self, cells: list[int]) -> None:
        for i in cells:
            self.in_row[self.row[i]] += 1
            self.in_col[self.col[i]] += 1
        self.cells += len(cells)

    def remove(self, cells: list[int]) -> None:
        for i in cells:
            self.in_row[self.row[i]] -= 1
            self.in_col[self.col[i]] -= 1
        self.cells -= len(cells)

    def slack(self, size: int) -> int:
        """The cells ``size`` leaves beyond what the rows and columns the wall must span
        take, with the cycles of the grown part (negative: too few)."""
        top, bottom = self.need_rows
        left, right = self.need_cols
        cycles = 0
        if self.cells:
            low, high, first, last = self.box()
            top, bottom = min(top, low), max(bottom, high)
            left, right = min(left, first), max(right, last)
            cycles = self.cells - (high - low + 1) - (last - first + 1) + 1
        return size - (bottom - top + 1) - (right - left + 1) + 1 - cycles

    def box(self) -> tuple[int, int, int, int]:
        """The rows and columns met by the grown part (each a range, as it is connected):
        with no slack, no cell in both can be wall, as each would close a cycle."""
        rows = [r for r, n in enumerate(self.in_row) if n]
        cols = [c for c, n in enumerate(self.in_col) if n]
        return rows[0], rows[-1], cols[0], cols[-1]
