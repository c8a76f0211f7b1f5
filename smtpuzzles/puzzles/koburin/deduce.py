"""What a Koburin puzzle's numbers force, by the rules a solver by hand uses: pure
Python, no solver, so that a generator can ask it thousands of times.

Each rule is sound on its own (it only decides what every solution has), so when the
rules decide every cell and link the solution is the only one:

- a black cell's links are off and its neighbours are on the loop (black cells never
  touch);
- a number whose black neighbours are all found has the rest on the loop; one with as
  many open neighbours as black cells still to find has them all black;
- a loop cell has two links: two found, no other; two possible, both;
- a cell with a link is on the loop; a cell with fewer than two possible links is black;
- a link that would close a loop while loop cells lie outside it is off;
- loop cells all reach each other through links not off, and open cells that reach no
  loop cell are black; the loop visits as many cells of each chessboard colour
  (:meth:`Deduce.whole`, passes over the grid);
- a part of the grid that open links join holds an even number of loop ends
  (:meth:`Deduce.even_ends`, asked by the generator near each number it places);
- probing: a cell or link whose one value leads the rules above to a contradiction
  takes the other (:meth:`Deduce.probe`).

Every change is written to a trail, so that a probe is undone in the time it took.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...graph import Graph

#: A cell's state: not yet known, black, on the loop, or numbered (given).
UNKNOWN, BLACK, LOOP, NUMBER = 0, 1, 2, 3
#: A link's state: not yet known, off, or on the loop.
OFF, ON = 1, 2
#: What a trail entry changed: a cell's state, a link's state, a piece's end, a piece's
#: size, or the numbers (a number added).
CELL, LINK, END, SIZE, CLUE = 0, 1, 2, 3, 4


Links = tuple[list[tuple[int, int]], list[list[int]], dict[tuple[int, int], int]]

_LINKS: dict[int, tuple[Graph, Links]] = {}


def _links(graph: Graph) -> Links:
    """The links between neighbouring cells, each cell's links, and each link's
    index (kept for the last graph asked about: a generator asks of one grid often)."""
    kept = _LINKS.get(id(graph))
    if kept is not None and kept[0] is graph:
        return kept[1]
    edges: list[tuple[int, int]] = []
    incident: list[list[int]] = [[] for _ in range(len(graph))]
    index: dict[tuple[int, int], int] = {}
    for i in range(len(graph)):
        for j in graph.out[i]:
            if i < j and (i, j) not in index:
                index[(i, j)] = len(edges)
                incident[i].append(len(edges))
                incident[j].append(len(edges))
                edges.append((i, j))
    _LINKS.clear()
    _LINKS[id(graph)] = (graph, (edges, incident, index))
    return edges, incident, index


class Contradiction(Exception):
    """A cell or link that can be nothing: no solution has what was assumed. Probing
    names the cell where neither value fits (``args[0]``) when it finds one."""


def _colours(graph: Graph) -> list[int] | None:
    """Each cell's chessboard colour, on grids where every link joins two colours."""
    if graph.kind not in ("square", "holes") or graph.coords is None:
        return None
    return [(r + c) % 2 for r, c in graph.coords]


class Deduce:
    """The state of one puzzle while deducing: cells, links, the loop's pieces so far
    (each piece's two ends and its size), and the trail of changes."""

    def __init__(self, graph: Graph, clues: Mapping[int, int | None]) -> None:
        self.graph = graph
        self.clues = dict(clues)
        self.out = graph.out
        self.edges, self.incident, self.index = _links(graph)
        n = len(graph)
        self.cell = [UNKNOWN] * n
        self.link = [UNKNOWN] * len(self.edges)
        for i in clues:
            self.cell[i] = NUMBER
            for e in self.incident[i]:
                self.link[e] = OFF
        #: each cell's chessboard colour (``None``: no chessboard, as on a torus or a
        #: table), and the loop and open cells of each colour (:meth:`_balanced`)
        self.colour = _colours(graph)
        self.loop_of = [0, 0]
        self.open_of = [0, 0]
        if self.colour is not None:
            for i, s in enumerate(self.cell):
                if s == UNKNOWN:
                    self.open_of[self.colour[i]] += 1
        self.end = list(range(n))  #: a piece's end: the other end of its piece
        self.size = [1] * n  #: at a piece's end: the cells of its piece
        self.on_loop = 0
        #: links that joined the two ends of a piece at some time (kept through undo:
        #: :meth:`_closing` looks whether they still do)
        self.closable: set[int] = set()
        self.trail: list[tuple[int, int, int]] = []  #: (what, index, old value)
        self.queue: list[int] = []
        #: is the cell in :attr:`queue` (each cell waits there once, not once a change)
        self.waiting = bytearray(n)

    # -- the trail ---------------------------------------------------------------------

    def mark(self) -> int:
        return len(self.trail)

    def undo(self, mark: int) -> None:
        """Back to the state at ``mark``."""
        trail = self.trail
        while len(trail) > mark:
            what, i, old = trail.pop()
            if what == CELL:
                if self.cell[i] == LOOP:
                    self.on_loop -= 1
                self._count(i, self.cell[i], -1)
                self.cell[i] = old
            elif what == LINK:
                self.link[i] = old
            elif what == END:
                self.end[i] = old
            elif what == CLUE:
                del self.clues[i]
            else:
                self.size[i] = old
        for i in self.queue:
            self.waiting[i] = 0
        self.queue.clear()

    # -- setting values ----------------------------------------------------------------

    def _change(self, what: int, values: list[int], i: int, state: int) -> bool:
        """``values[i]`` (``what``: :data:`CELL` or :data:`LINK`) set to ``state`` and
        written to the trail; ``False`` if it already was."""
        now = values[i]
        if now == state:
            return False
        if now != UNKNOWN:
            raise Contradiction
        self.trail.append((what, i, now))
        values[i] = state
        return True

    def set_cell(self, i: int, state: int) -> None:
        if not self._change(CELL, self.cell, i, state):
            return
        if state == LOOP:
            self.on_loop += 1
        self._count(i, state, 1)
        self._wait(i)
        for j in self.out[i]:
            self._wait(j)

    def _count(self, i: int, state: int, step: int) -> None:
        """The counts of each colour as cell ``i`` leaves (``step`` 1) or comes back
        to (``step`` -1) the open cells, decided ``state``."""
        if self.colour is not None:
            colour = self.colour[i]
            self.open_of[colour] -= step
            if state == LOOP:
                self.loop_of[colour] += step

    def set_link(self, e: int, state: int) -> None:
        if not self._change(LINK, self.link, e, state):
            return
        a, b = self.edges[e]
        if state == ON:
            self._join(a, b)
        self._wait(a)
        self._wait(b)

    def _wait(self, i: int) -> None:
        """Cell ``i`` to be looked at again (once, however many changes touch it)."""
        if not self.waiting[i]:
            self.waiting[i] = 1
            self.queue.append(i)

    def _join(self, a: int, b: int) -> None:
        """Pieces ending at a and at b joined by the link a-b (a closed loop must hold
        every loop cell found)."""
        ea, eb = self.end[a], self.end[b]
        if ea < 0 or eb < 0:  # a third link at a cell
            raise Contradiction
        total = self.size[ea] + self.size[eb] if ea != b else self.size[a]
        if ea == b:  # the link closes the piece into a loop
            if total < self.on_loop:
                raise Contradiction
            return
        trail, end, size = self.trail, self.end, self.size
        trail += [
            (END, ea, end[ea]),
            (END, eb, end[eb]),
            (SIZE, ea, size[ea]),
            (SIZE, eb, size[eb]),
        ]
        end[ea], end[eb] = eb, ea
        size[ea] = size[eb] = total
        closing = self.index.get((ea, eb) if ea < eb else (eb, ea))
        if closing is not None:
            self.closable.add(closing)
        if a != ea:
            trail.append((END, a, end[a]))
            end[a] = -1  # no longer an end
        if b != eb:
            trail.append((END, b, end[b]))
            end[b] = -1

    def add_clue(self, i: int, number: int | None) -> None:
        """Number the open cell ``i`` (a generator's step; undone like the rest)."""
        if self.cell[i] != UNKNOWN:
            raise Contradiction
        self.trail.append((CELL, i, UNKNOWN))
        self.cell[i] = NUMBER
        self._count(i, NUMBER, 1)
        self.trail.append((CLUE, i, 0))
        self.clues[i] = number
        for e in self.incident[i]:
            self.set_link(e, OFF)
        self._wait(i)
        for j in self.out[i]:
            self._wait(j)

    # -- the rules ---------------------------------------------------------------------

    def propagate(self) -> None:
        """Apply the rules until nothing more follows (``Contradiction`` if the state
        allows no solution)."""
        while True:
            queue = self.queue
            cell = self.cell
            waiting = self.waiting
            while queue:
                i = queue.pop()
                waiting[i] = 0
                if cell[i] == NUMBER:
                    self._number(i)
                else:
                    self._cell(i)
            if not self._closing():
                return

    def start(self) -> None:
        """Every cell and number looked at once."""
        for i in range(len(self.cell)):
            self._wait(i)
        self.propagate()

    def _number(self, i: int) -> None:
        wanted = self.clues[i]
        if wanted is None:
            return
        black = 0
        open_ = []
        for j in self.out[i]:
            s = self.cell[j]
            if s == BLACK:
                black += 1
            elif s == UNKNOWN:
                open_.append(j)
        if black > wanted or black + len(open_) < wanted:
            raise Contradiction
        if open_:
            if black == wanted:
                for j in open_:
                    self.set_cell(j, LOOP)
            elif black + len(open_) == wanted:
                for j in open_:
                    self.set_cell(j, BLACK)

    def _cell(self, i: int) -> None:
        state = self.cell[i]
        incident = self.incident[i]
        link = self.link
        if state == BLACK:
            for e in incident:
                self.set_link(e, OFF)
            for j in self.out[i]:
                if self.cell[j] != NUMBER:
                    self.set_cell(j, LOOP)
            return
        on = 0
        possible = []
        for e in incident:
            s = link[e]
            if s == ON:
                on += 1
            if s != OFF:
                possible.append(e)
        if state == UNKNOWN:
            cell = self.cell
            if on or BLACK in [cell[j] for j in self.out[i]]:
                self.set_cell(i, LOOP)
                return
            if len(possible) < 2:
                self.set_cell(i, BLACK)
            return
        if on > 2 or len(possible) < 2:
            raise Contradiction
        if on == 2:
            for e in possible:
                if link[e] == UNKNOWN:
                    self.set_link(e, OFF)
        elif len(possible) == 2:
            for e in possible:
                self.set_link(e, ON)

    def _closing(self) -> bool:
        """Links that would close a piece into a loop while loop cells lie outside it
        are off. ``True`` if any was found."""
        found = False
        end, size, link = self.end, self.size, self.link
        for e in self.closable:
            if link[e] != UNKNOWN:
                continue
            a, b = self.edges[e]
            if end[a] == b and size[a] < self.on_loop:
                self.set_link(e, OFF)
                found = True
        return found

    def whole(self) -> None:
        """The rules that look at the whole grid at once (:meth:`_connected`,
        :meth:`_balanced`), so asked for at chosen steps, not by :meth:`propagate`."""
        self._connected()
        self._balanced()
        self.propagate()

    def _connected(self) -> None:
        """The loop is one: loop cells that cannot reach each other through links not
        off are a contradiction, and open cells that reach no loop cell are black."""
        if not self.on_loop:
            return
        cell, link, incident, edges = self.cell, self.link, self.incident, self.edges
        seen = bytearray(len(cell))
        pieces = 0
        for start in range(len(cell)):
            if seen[start] or cell[start] == BLACK or cell[start] == NUMBER:
                continue
            seen[start] = 1
            todo, members, loop = [start], [], False
            while todo:
                i = todo.pop()
                members.append(i)
                loop = loop or cell[i] == LOOP
                for e in incident[i]:
                    if link[e] != OFF:
                        a, b = edges[e]
                        j = a + b - i
                        if not seen[j]:
                            seen[j] = 1
                            todo.append(j)
            if loop:
                pieces += 1
                if pieces > 1:
                    raise Contradiction
            else:
                for i in members:
                    self.set_cell(i, BLACK)

    def _balanced(self) -> None:
        """A loop on a chessboard steps from one colour to the other, so it visits as
        many cells of each: when the open cells of one colour are just enough to even
        the count, they are all on the loop (too few: a contradiction)."""
        if self.colour is None:
            return
        loop, open_ = self.loop_of, self.open_of
        for colour in (0, 1):
            short = loop[1 - colour] - loop[colour]
            if short > open_[colour]:
                raise Contradiction
            if short == open_[colour] > 0:
                for i, c in enumerate(self.colour):
                    if c == colour and self.cell[i] == UNKNOWN:
                        self.set_cell(i, LOOP)

    def near(self, mark: int) -> None:
        """The whole-grid rules, asked only where the changes since ``mark`` could
        have parted the loop's room (:meth:`_connected_near`), and the count of each
        colour (kept as cells are decided, so asked at once): cheap enough for every
        step and every probe."""
        cell, link, out, edges = self.cell, self.link, self.out, self.edges
        seeds: list[int] = []
        for what, i in self._changed(mark):
            if what == CELL and cell[i] in (BLACK, NUMBER):
                seeds.extend(out[i])
            elif what == LINK and link[i] == OFF:
                seeds.extend(edges[i])
        self._connected_near(seeds)
        self._balanced()
        self.propagate()

    def _changed(self, mark: int) -> list[tuple[int, int]]:
        """The cells (:data:`CELL`, cell) and links (:data:`LINK`, link) set since
        ``mark``, in order: where the rules that look at parts of the grid start."""
        return [(what, i) for what, i, _ in self.trail[mark:] if what == CELL or what == LINK]

    def _connected_near(self, seeds: list[int], limit: int = 60) -> None:
        """:meth:`_connected` for the parts of the loop's room (cells neither black nor
        numbered, joined by links not off) that hold a cell of ``seeds`` and have at
        most ``limit`` cells: a larger part is left alone, so the cost does not grow
        with the grid, and whatever is concluded still holds."""
        if not self.on_loop:
            return
        cell, link, incident, edges = self.cell, self.link, self.incident, self.edges
        owner: dict[int, int] = {}  #: each cell met: the seed whose search met it
        for start in seeds:
            if start in owner or cell[start] in (BLACK, NUMBER):
                continue
            owner[start] = start
            todo, members, loop, large = [start], [start], 0, False
            while todo and not large:
                i = todo.pop()
                if cell[i] == LOOP:
                    loop += 1
                for e in incident[i]:
                    if link[e] == OFF:
                        continue
                    a, b = edges[e]
                    j = b if a == i else a
                    if cell[j] in (BLACK, NUMBER):
                        continue
                    met = owner.get(j)
                    if met is None:
                        owner[j] = start
                        todo.append(j)
                        members.append(j)
                    elif met != start:  # a part an earlier search found large
                        large = True
                large = large or len(members) > limit
            if large:
                continue
            if loop:
                if loop < self.on_loop:
                    raise Contradiction
            else:
                for i in members:
                    self.set_cell(i, BLACK)

    def even_ends(self, mark: int, limit: int = 400) -> None:
        """Each part of the grid that open links join holds an even number of loop ends:
        the loop crosses such a part in paths that each join two of them, so a part with
        an odd number has no solution (``Contradiction``). Only the parts next to the
        changes since ``mark`` are looked at, each up to ``limit`` cells (a larger part is
        left alone), so the cost does not grow with the grid."""
        link, edges, incident, cell = self.link, self.edges, self.incident, self.cell
        seeds: list[int] = []
        for what, i in self._changed(mark):
            if what == CELL:
                seeds.append(i)
            else:
                seeds.extend(edges[i])
        owner: dict[int, int] = {}  #: each cell met: the seed whose search met it
        for start in seeds:
            if start in owner:
                continue
            owner[start] = start
            todo, size, ends, large = [start], 1, 0, False
            while todo and not large:
                i = todo.pop()
                on = 0
                for e in incident[i]:
                    if link[e] == ON:
                        on += 1
                    elif link[e] == UNKNOWN:
                        a, b = edges[e]
                        j = b if a == i else a
                        met = owner.get(j)
                        if met is None:
                            owner[j] = start
                            todo.append(j)
                            size += 1
                        elif met != start:  # a part an earlier search found large
                            large = True
                if on == 1 and cell[i] == LOOP:
                    ends += 1
                large = large or size > limit
            if not large and ends % 2:
                raise Contradiction

    # -- probing -----------------------------------------------------------------------

    def probe(
        self,
        cells: list[int] | None = None,
        rounds: int = 3,
        whole: bool = True,
        links: bool = True,
    ) -> None:
        """Try each open cell (of ``cells``, else all) black and on the loop, and (with
        ``links``) each open link of it on and off: a value that leads to a
        contradiction is wrong, so the other is set and propagated. Repeated while
        something is found, up to ``rounds`` times. ``whole``: each try asks the
        whole-grid rules near what it changed (:meth:`near`), and each round ends with
        :meth:`whole`."""
        for _ in range(rounds):
            found = False
            todo = range(len(self.cell)) if cells is None else cells
            for i in todo:
                if self.cell[i] == NUMBER:
                    continue
                if self.cell[i] == UNKNOWN:
                    found |= self._either(i, self.cell, i, self.set_cell, (BLACK, LOOP), whole)
                for e in self.incident[i] if links else ():
                    if self.link[e] == UNKNOWN:
                        found |= self._either(i, self.link, e, self.set_link, (ON, OFF), whole)
            if not found:
                return
            if whole:
                self.whole()

    def _either(
        self,
        i: int,
        values: list[int],
        k: int,
        setter: Callable[[int, int], None],
        pair: tuple[int, int],
        whole: bool,
    ) -> bool:
        """Each of the two values ``pair`` of ``values[k]`` (a cell, or a link of cell
        ``i``) tried with ``setter``; ``True`` if one led to a contradiction, so the
        other was set."""
        found = False
        for state, other in (pair, pair[::-1]):
            if values[k] != UNKNOWN:
                break
            if self._fails(lambda s=state: setter(k, s), whole):
                self._take(i, lambda s=other: setter(k, s))
                found = True
        return found

    def _take(self, i: int, assume) -> None:  # type: ignore[no-untyped-def]
        """The value left at cell ``i`` (or a link of it) set; a contradiction here
        means neither value fits, so it names ``i``, where to look for the fault, and
        what the value set is undone: the state is left as before the try, not half
        propagated from a value that fits nothing."""
        mark = self.mark()
        try:
            assume()
            self.propagate()
        except Contradiction:
            self.undo(mark)
            raise Contradiction(i) from None

    def _fails(self, assume, whole: bool) -> bool:  # type: ignore[no-untyped-def]
        mark = self.mark()
        try:
            assume()
            self.propagate()
            if whole:
                self.near(mark)
        except Contradiction:
            self.undo(mark)
            return True
        self.undo(mark)
        return False

    # -- what is decided ---------------------------------------------------------------

    def open_cells(self) -> list[int]:
        """Cells not decided, and a cell of each link not decided (enough for
        :meth:`probe` to try every open link)."""
        cells = {i for i, s in enumerate(self.cell) if s == UNKNOWN}
        cells.update(self.edges[e][0] for e, s in enumerate(self.link) if s == UNKNOWN)
        return sorted(cells)

    def decided(self) -> bool:
        """Is every cell and link decided (the solution the only one)?"""
        return UNKNOWN not in self.cell and UNKNOWN not in self.link


def solve(graph: Graph, clues: Mapping[int, int | None], probing: bool = True) -> Deduce | None:
    """The deductions from ``clues`` (``None``: they contradict each other)."""
    d = Deduce(graph, clues)
    try:
        d.start()
        d.whole()
        if probing and not d.decided():
            d.probe(d.open_cells())
    except Contradiction:
        return None
    return d
