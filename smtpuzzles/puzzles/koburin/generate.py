"""Random Koburin puzzles with a unique solution.

1. A random loop, drawn directly: start from a loop round a 2x2 square and "bump" its
   links outwards at random (a link a-b next to two free cells c, d that make a 2x2
   square with it becomes a-c-d-b) until no link can be bumped.
2. Black cells: a random set of the cells off the loop, no two side by side; the other
   cells off the loop are numbered, their numbers read off the black cells.
3. Every number is shown. What the numbers force by a hand-solver's rules
   (:class:`Deductions`, pure Python) is decided first; when that decides everything the
   puzzle is unique without asking the solver. Otherwise the solver, told what was
   decided, looks for a second solution, first one window of the grid at a time (the
   rest held as ours: a small, fast question), then over the whole grid. Each group of
   places where a second solution differs gets one change that rules it out: while
   many cells are numbered (:data:`MOST_NUMBERED`), a numbered cell nearby turns black;
   otherwise our loop is dented there, or a cell near it is numbered.
4. Up to ``max_unknown`` of the numbers are hidden as ``?``, each only where the others
   still allow no second solution: one incremental solver, each number guarded by a
   literal that is assumed while the number is shown.

The solver only checks uniqueness. Each puzzle is made in a Z3 context of its own, so
the same seed gives the same puzzle in one process or in many.
"""

from __future__ import annotations

import random

from ... import z3lazy as z3
from ...engines import new_context
from ...graph import Graph, rectangle
from ...limits import Budget
from ...smtlib import Block
from ...sources import check_size
from .model import KoburinInstance, Solution
from .search import Search

Edge = tuple[int, int]

#: The share of cells numbered above which a second solution is ruled out by turning a
#: numbered cell black rather than by numbering one (published puzzles: about 0.14).
MOST_NUMBERED = 0.15

#: How the uniqueness searches keep the loop one loop (see :mod:`.search`).
CONNECTIVITY = "lazy"

#: The largest share of numbers left ``?`` by default (published puzzles have none).
MAX_UNKNOWN = 0.1


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


def _near_gap(graph: Graph, following: dict[int, int], cells: tuple[int, ...]) -> bool:
    """Does a cell off the loop touch any of ``cells``? (keeps the gaps apart)"""
    return any(j not in following for i in cells for j in graph.out[i])


def random_black(graph: Graph, off_loop: list[int], rng: random.Random, share: float) -> set[int]:
    """A random set of cells off the loop, no two side by side."""
    black: set[int] = set()
    for i in rng.sample(off_loop, len(off_loop)):
        if rng.random() < share and not black.intersection(graph.out[i]):
            black.add(i)
    return black


def generate(
    rows: int,
    cols: int,
    seed: int,
    budget: Budget | None = None,
    *,
    fill: float = 0.7,
    black_share: float = 0.5,
    attempts: int = 20,
    max_unknown: float = MAX_UNKNOWN,
) -> tuple[KoburinInstance, Solution, str] | None:
    """A puzzle with a unique solution, that solution, and the solution in ``.sol`` text
    (``None`` if the budget ran out). At most ``max_unknown`` of its numbers are ``?``,
    each hidden only where the solution stays unique without it."""
    check_size(rows, cols)
    budget = budget or Budget()
    rng = random.Random(seed)
    graph = rectangle(rows, cols)
    ctx = new_context()
    for _ in range(attempts):
        edges = random_loop(graph, rng, fill)
        on_loop = {i for e in edges for i in e}
        off_loop = [i for i in range(len(graph)) if i not in on_loop]
        black = random_black(graph, off_loop, rng, black_share)
        ours = Solution(frozenset(black), frozenset(edges))
        made = _until_unique(graph, set(off_loop) - black, ours, budget, ctx, MOST_NUMBERED)
        if made is not None:
            numbered, ours = made
            most = int(max_unknown * len(numbered))
            hidden = _hidden(graph, numbered, ours, rng, budget, ctx, most=most)
            if hidden is not None:
                values = _numbers(graph, numbered, ours.black)
                clues = {i: None if i in hidden else v for i, v in values.items()}
                puzzle = KoburinInstance(graph, clues)
                return puzzle, ours, solution_text(puzzle, ours)
        remaining = budget.remaining()
        if remaining is not None and remaining <= 0:
            return None
    return None


def clue_statistics(puzzle: KoburinInstance) -> dict[str, float]:
    """The figures that tell a published puzzle's numbers from a machine's: the share of
    cells numbered, and the share of numbers that are ``?``."""
    numbers = list(puzzle.clues.values())
    return {
        "numbers": len(numbers),
        "numbered": round(len(numbers) / len(puzzle.graph), 4),
        "unknown": round(sum(1 for v in numbers if v is None) / max(len(numbers), 1), 4),
    }


def _numbers(graph: Graph, numbered: set[int], black: frozenset[int]) -> dict[int, int]:
    return {i: sum(1 for j in graph.out[i] if j in black) for i in sorted(numbered)}


def _until_unique(
    graph: Graph,
    numbered: set[int],
    ours: Solution,
    budget: Budget,
    ctx: z3.Context,
    most_numbered: float,
) -> tuple[set[int], Solution] | None:
    """Change ``ours`` until its numbers, all shown, have no other solution: window by
    window (a second solution that differs only inside one), then the whole grid, each
    second solution ruled out by :func:`_rule_out` (or :func:`_reroute`). The numbered
    cells and the answer, or ``None``."""
    for window in [*_windows(graph), None]:
        for _ in range(WINDOW_TRIES if window else len(graph)):
            values = _numbers(graph, numbered, ours.black)
            deductions = Deductions(graph, dict(values))
            if deductions.run():
                return numbered, ours
            search = Search(
                KoburinInstance(graph, {i: None for i in numbered}), CONNECTIVITY, ctx=ctx
            )
            search.block(ours)
            search.add(_says(search, values))
            search.add(_decided(search, deductions))
            if window is not None:
                search.add(_outside(search, ours, window))
            other = search.next(budget, None)
            if other == "unsat":
                break
            if other == "unknown":
                return None
            assert isinstance(other, Solution)
            changed = _rule_out(graph, numbered, ours, other, most_numbered)
            if changed is None:
                rerouted = _reroute(graph, numbered, values, ours, other, budget=budget, ctx=ctx)
                if rerouted is None:
                    return None
                changed = numbered | rerouted[1], rerouted[0]
            numbered, ours = changed
        else:
            if window is None:
                return None
    return numbered, ours


#: Windows' sides (cells) and how far apart they start: a second solution that differs
#: only inside a window is found in a fraction of the time a whole large grid takes.
WINDOW, WINDOW_STEP = 8, 6

#: Changes tried in one window before going on to the next.
WINDOW_TRIES = 6


def _windows(graph: Graph) -> list[set[int]]:
    """Overlapping square windows covering a grid (none for a grid that fits in one)."""
    rows, cols = graph.rows, graph.cols
    assert rows is not None and cols is not None
    if rows <= WINDOW + 2 and cols <= WINDOW + 2:
        return []

    def starts(n: int) -> list[int]:
        return sorted({*range(0, max(n - WINDOW, 0) + 1, WINDOW_STEP), max(n - WINDOW, 0)})

    windows = []
    for r0 in starts(rows):
        for c0 in starts(cols):
            cells = {
                graph.at(r, c)
                for r in range(r0, min(r0 + WINDOW, rows))
                for c in range(c0, min(c0 + WINDOW, cols))
            }
            windows.append({i for i in cells if i is not None})
    return windows


def _outside(search: Search, ours: Solution, window: set[int]) -> Block:
    """Every cell and link outside ``window`` as in our solution (a local question)."""
    enc = search.enc
    terms = [
        enc.b(i) if i in ours.black else f"(not {enc.b(i)})"
        for i in search.puzzle.empty
        if i not in window
    ]
    edges = {(min(e), max(e)) for e in ours.edges}
    for e in enc.link:
        if e[0] not in window and e[1] not in window:
            terms.append(enc.v(e) if (min(e), max(e)) in edges else f"(not {enc.v(e)})")
    return Block("outside the window", "Cells and links outside the window as ours.", terms)


def _rule_out(
    graph: Graph, numbered: set[int], ours: Solution, other: Solution, most_numbered: float
) -> tuple[set[int], Solution] | None:
    """One change for each group of places where ``other`` differs from ours: while
    more than ``most_numbered`` of the cells are numbered, a numbered cell nearby turns
    black; otherwise our loop is dented there. ``None`` if no group got a change."""
    changed = False
    for places in _regions(graph, _differ(graph, ours, other)):
        if len(numbered) > most_numbered * len(graph):
            blackened = _numbered_nearest(graph, numbered, ours, places)
            if blackened is not None:
                ours = Solution(ours.black | {blackened}, ours.edges)
                numbered = numbered - {blackened}
                changed = True
                continue
        dented = _dent_where(graph, ours, places)
        if dented is not None:
            ours, freed = dented
            numbered = numbered | freed
            changed = True
    return (numbered, ours) if changed else None


def _decided(search: Search, deductions: Deductions) -> Block:
    """What the deductions decided, told to the solver (implied by the numbers, so the
    solver's answer stays the same; it only has less to search)."""
    enc = search.enc
    terms = []
    for i, state in enumerate(deductions.cell):
        if state != UNKNOWN and i not in deductions.clues:
            terms.append(enc.b(i) if state == BLACK else f"(not {enc.b(i)})")
    for e in enc.link:
        state = deductions.link.get((min(e), max(e)), UNKNOWN)
        if state != UNKNOWN:
            terms.append(enc.v(e) if state == ON else f"(not {enc.v(e)})")
    return Block(
        "what the numbers force",
        "Cells and links the deductions decided from the numbers shown.",
        terms,
    )


def _regions(graph: Graph, places: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """``places`` in groups within two steps of each other: one change a group settles
    many places at once."""
    left = set(places)
    steps = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if 0 < abs(dr) + abs(dc) <= 2]
    groups = []
    for first in sorted(places):
        if first not in left:
            continue
        left.discard(first)
        group, queue = [first], [first]
        while queue:
            r, c = queue.pop()
            for dr, dc in steps:
                p = (r + dr, c + dc)
                if p in left:
                    left.discard(p)
                    group.append(p)
                    queue.append(p)
        groups.append(sorted(group))
    return groups


def _hidden(
    graph: Graph,
    numbered: set[int],
    ours: Solution,
    rng: random.Random,
    budget: Budget,
    ctx: z3.Context,
    *,
    most: int,
) -> set[int] | None:
    """Up to ``most`` numbers that can be hidden (``?``) together with the solution
    staying unique: one incremental solver, each number guarded by a literal assumed
    while it is shown; a number is hidden when the others, assumed, still allow no
    other solution. ``None`` when the budget ran out."""
    if most <= 0:
        return set()
    values = _numbers(graph, numbered, ours.black)
    search = Search(KoburinInstance(graph, {i: None for i in numbered}), CONNECTIVITY, ctx=ctx)
    search.block(ours)
    guards = {i: f"shown_{i}" for i in values}
    says = _says(search, values)
    says.declarations = [f"(declare-fun {g} () Bool)" for g in guards.values()]
    says.asserts = [f"(=> {guards[i]} {t})" for i, t in zip(sorted(values), says.asserts)]
    search.add(says)
    hidden: set[int] = set()
    for i in rng.sample(sorted(values), len(values)):
        if len(hidden) >= most:
            break
        shown = [guards[j] for j in values if j != i and j not in hidden]
        answer = search.next(budget, None, shown)
        if answer == "unknown":
            return None
        if answer == "unsat":
            hidden.add(i)
    return hidden


def _reroute(
    graph: Graph,
    numbered: set[int],
    shown: dict[int, int],
    ours: Solution,
    other: Solution,
    *,
    budget: Budget,
    ctx: z3.Context,
) -> tuple[Solution, set[int]] | None:
    """Where the two loops differ over the same cells, number one of those cells and let
    the solver redraw our answer (keeping the numbers shown); else number our black
    cell nearest to the difference (``None``: neither is possible)."""
    ours_cells = {i for e in ours.edges for i in e}
    theirs_cells = {i for e in other.edges for i in e}
    moved = sorted({i for e in ours.edges ^ other.edges for i in e} & ours_cells & theirs_cells)
    for cell in moved[:3]:
        puzzle = KoburinInstance(graph, {i: None for i in numbered | {cell}})
        search = Search(puzzle, ctx=ctx)
        search.add(_says(search, shown))
        redrawn = search.next(budget, None)
        if isinstance(redrawn, Solution):
            return redrawn, {cell}
        if redrawn == "unknown":
            return None
    black = _black_nearest(graph, ours, _differ(graph, ours, other))
    if black is None:
        return None
    return Solution(ours.black - {black}, ours.edges), {black}


def _says(search: Search, shown: dict[int, int]) -> Block:
    """The numbers shown: each cell's black neighbours number its number."""
    enc = search.enc
    terms = []
    for cell, number in sorted(shown.items()):
        ones = " ".join(f"(ite {enc.b(j)} 1 0)" for j in search.puzzle.counted[cell])
        terms.append(f"(= (+ 0 {ones}) {number})")
    return Block("the numbers shown", "Each shown number counts its black neighbours.", terms)


def _differ(graph: Graph, ours: Solution, other: Solution) -> list[tuple[int, int]]:
    """The positions where ``other`` differs from ours (black cells or links)."""
    coords = graph.coords
    assert coords is not None
    cells = set(ours.black ^ other.black) | {i for e in ours.edges ^ other.edges for i in e}
    return [coords[i] for i in sorted(cells)]


def _distance(graph: Graph, cells: tuple[int, ...], places: list[tuple[int, int]]) -> int:
    coords = graph.coords
    assert coords is not None
    return min(abs(coords[i][0] - r) + abs(coords[i][1] - c) for i in cells for r, c in places)


def _dent_where(
    graph: Graph, ours: Solution, places: list[tuple[int, int]]
) -> tuple[Solution, set[int]] | None:
    """Our loop dented at one of ``places`` (its two freed cells become numbered), if it
    runs round three sides of a 2x2 square there."""
    for a, c, d, b in _dents(graph, ours.edges):
        if _distance(graph, (c, d), places) == 0:
            gone = {(min(a, c), max(a, c)), (min(c, d), max(c, d)), (min(d, b), max(d, b))}
            edges = (ours.edges - gone) | {(min(a, b), max(a, b))}
            return Solution(ours.black, edges), {c, d}
    return None


def _numbered_nearest(
    graph: Graph, numbered: set[int], ours: Solution, places: list[tuple[int, int]]
) -> int | None:
    """Our numbered cell nearest to ``places`` that may turn black (no black cell
    beside it), or ``None``."""
    free = [i for i in numbered if not ours.black.intersection(graph.out[i])]
    return min(free, key=lambda i: (_distance(graph, (i,), places), i), default=None)


def _black_nearest(graph: Graph, ours: Solution, places: list[tuple[int, int]]) -> int | None:
    """Our black cell nearest to ``places``."""
    return min(ours.black, key=lambda i: (_distance(graph, (i,), places), i), default=None)


def _dents(graph: Graph, edges: frozenset[Edge]) -> list[tuple[int, int, int, int]]:
    """Places ``(a, c, d, b)`` where the loop runs a-c-d-b round three sides of a 2x2
    square (a, b side by side): joining a to b leaves a shorter loop."""
    if len(edges) <= 4:
        return []
    coords = graph.coords
    assert coords is not None
    linked: dict[int, set[int]] = {}
    for i, j in edges:
        linked.setdefault(i, set()).add(j)
        linked.setdefault(j, set()).add(i)
    found = []
    for c, d in sorted(edges):
        (rc, cc), (rd, cd) = coords[c], coords[d]
        for sr, sc in ((cd - cc, rd - rc), (cc - cd, rc - rd)):
            a, b = graph.at(rc + sr, cc + sc), graph.at(rd + sr, cd + sc)
            if a is not None and b is not None and a in linked[c] and b in linked[d]:
                found.append((a, c, d, b))
    return found


#: A cell's state while deducing: not yet known, black, or on the loop.
UNKNOWN, BLACK, LOOP = 0, 1, 2
#: A link's state while deducing.
OFF, ON = 1, 2


class Contradiction(Exception):
    """The deductions met a cell or link that can be nothing."""


class Deductions:
    """What the numbers force, found by rules a solver by hand uses, each sound on its
    own: a black cell's neighbours are on the loop; a number counting its black
    neighbours (all found: the rest are on the loop; as many as its open neighbours:
    all black); a loop cell has two links (two found: no other; two possible: both);
    a cell with fewer than two possible links is black; a link that would close a loop
    while loop cells lie outside it is off. When they decide every cell and link, the
    solution is the only one. Pure Python, far cheaper than a solver's check at size."""

    def __init__(self, graph: Graph, clues: dict[int, int | None]) -> None:
        self.graph = graph
        self.clues = clues
        n = len(graph)
        self.cell = [UNKNOWN] * n
        self.links: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.link: dict[tuple[int, int], int] = {}
        for i in range(n):
            if i in clues:
                continue
            for j in graph.out[i]:
                if j not in clues and i < j:
                    self.link[(i, j)] = UNKNOWN
                    self.links[i].append((i, j))
                    self.links[j].append((i, j))
        self.parent = list(range(n))
        self.size = [1] * n
        self.on_loop = 0
        self.queue: list[int] = [i for i in range(n) if i not in clues]
        self.queue += list(clues)

    def run(self) -> bool:
        """Deduce until nothing more follows; ``True`` when every cell and link is
        decided (``Contradiction`` if the numbers allow no solution)."""
        while True:
            while self.queue:
                i = self.queue.pop()
                if i in self.clues:
                    self._number(i)
                else:
                    self._cell(i)
            if not self._closing():
                break
        cells = (s for i, s in enumerate(self.cell) if i not in self.clues)
        return all(s != UNKNOWN for s in cells) and UNKNOWN not in self.link.values()

    def _find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def _set_cell(self, i: int, state: int) -> None:
        if self.cell[i] == state:
            return
        if self.cell[i] != UNKNOWN:
            raise Contradiction(i)
        self.cell[i] = state
        if state == LOOP:
            self.on_loop += 1
        self.queue.append(i)
        self.queue.extend(self.graph.out[i])

    def _set_link(self, e: tuple[int, int], state: int) -> None:
        if self.link[e] == state:
            return
        if self.link[e] != UNKNOWN:
            raise Contradiction(e)
        self.link[e] = state
        if state == ON:
            a, b = self._find(e[0]), self._find(e[1])
            if a == b:
                if self.size[a] < self.on_loop:
                    raise Contradiction(e)
            else:
                self.parent[a] = b
                self.size[b] += self.size[a]
        self.queue.extend(e)

    def _number(self, i: int) -> None:
        wanted = self.clues[i]
        if wanted is None:
            return
        around = [j for j in self.graph.out[i] if j not in self.clues]
        black = sum(1 for j in around if self.cell[j] == BLACK)
        open_ = [j for j in around if self.cell[j] == UNKNOWN]
        if black > wanted or black + len(open_) < wanted:
            raise Contradiction(i)
        if open_ and black == wanted:
            for j in open_:
                self._set_cell(j, LOOP)
        elif open_ and black + len(open_) == wanted:
            for j in open_:
                self._set_cell(j, BLACK)

    def _cell(self, i: int) -> None:
        state = self.cell[i]
        links = self.links[i]
        if state == BLACK:
            for e in links:
                self._set_link(e, OFF)
            for j in self.graph.out[i]:
                if j not in self.clues:
                    self._set_cell(j, LOOP)
            return
        on = sum(1 for e in links if self.link[e] == ON)
        possible = [e for e in links if self.link[e] != OFF]
        if on and state == UNKNOWN:
            self._set_cell(i, LOOP)
            state = LOOP
        if len(possible) < 2:
            self._set_cell(i, BLACK)
            return
        if any(self.cell[j] == BLACK for j in self.graph.out[i] if j not in self.clues):
            self._set_cell(i, LOOP)
            state = LOOP
        if state != LOOP:
            return
        if on > 2:
            raise Contradiction(i)
        if on == 2:
            for e in possible:
                if self.link[e] == UNKNOWN:
                    self._set_link(e, OFF)
        elif len(possible) == 2:
            for e in possible:
                self._set_link(e, ON)

    def _closing(self) -> bool:
        """Links that would close a loop through fewer cells than are known to be on
        the loop are off. ``True`` if any was found."""
        found = False
        for e, state in self.link.items():
            if state != UNKNOWN:
                continue
            a, b = self._find(e[0]), self._find(e[1])
            if a == b and self.size[a] < self.on_loop:
                self._set_link(e, OFF)
                found = True
        return found

    def undecided(self) -> list[int]:
        """Cells not decided, and the cells of links not decided."""
        cells = {i for i, s in enumerate(self.cell) if s == UNKNOWN and i not in self.clues}
        cells |= {i for e, s in self.link.items() if s == UNKNOWN for i in e}
        return sorted(cells)


def solution_text(puzzle: KoburinInstance, solution: Solution) -> str:
    """The ``.sol`` form: ``x`` black, ``-`` numbered, loop cells by their two sides."""
    g = puzzle.graph
    assert g.rows is not None and g.cols is not None and g.coords is not None
    sides: dict[int, str] = {}
    for a, b in solution.edges:
        (r1, c1), (r2, c2) = g.coords[a], g.coords[b]
        if r1 == r2:
            sides[a] = sides.get(a, "") + ("e" if c2 > c1 else "w")
            sides[b] = sides.get(b, "") + ("w" if c2 > c1 else "e")
        else:
            sides[a] = sides.get(a, "") + ("s" if r2 > r1 else "n")
            sides[b] = sides.get(b, "") + ("n" if r2 > r1 else "s")
    lines = [f"{g.rows} {g.cols}"]
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            i = g.at(r, c)
            assert i is not None
            if i in solution.black:
                row.append("x")
            elif i in puzzle.clues:
                row.append("-")
            else:
                row.append("".join(sorted(sides.get(i, ""), key="nesw".index)))
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"
