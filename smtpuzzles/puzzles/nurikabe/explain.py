"""Nurikabe explained: which cells are forced, and by which clues and decided cells.

The rules are :mod:`.rules`' blocks for the puzzle, its island variables over each
clue's reach (the cells within its number less one steps), with the clues' numbers
left out of them, so that a clue's number is a premise like any other: ``clue r3c4 =
3`` says the island of r3c4 has 3 cells. A clue's place is not a premise: that it is
white and starts an island is known at sight. The redundant white-region count is left
out (it would stand in for the connectivity rules it follows from). Connectivity is
stated in steps (:func:`islands_reached`, :func:`wall_reached`) rather than as the
solving formula's integer distances: the same rule, whose CNF lets a question of few
premises see a region cut off by propagation alone (up to :data:`MOST_LAYERS`). A
fact is "cell is black" or "cell is white"; the engine is :mod:`smtpuzzles.forced`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from ...connectivity import first_member
from ...forced import Clue, Fact, Problem, Solutions, Step, premise_cells, solved, steps_from
from ...formats.grid import read_state_marks
from ...limits import Budget
from ...smtlib import Block, and_, count, escape, or_
from .check import problems
from .model import NurikabeInstance
from .pictures import step_svg, step_text
from .presolve.deduce import distances_within, wall_size
from .rules import COUNT, Encoding, encode
from .search import solve

#: The rule group of island sizes: here each clue's number is a premise of its own.
SIZES = "island sizes"

#: The order in which rule groups are tried for dropping (global ones first, so that a
#: step names the local rules where those suffice).
DROP_ORDER = (
    "wall connected",
    "islands connected",
    "no pools",
    "islands are whole",
    "one clue per island",
    "clues are white",
)


#: The most Booleans connectivity in steps may take; beyond it (grids over about 15x15,
#: whose wall has hundreds of cells, each a layer of its own) the explanation keeps the
#: solving formula's integer distances: the steps' CNF grew to gigabytes on a 31x45.
MOST_LAYERS = 60_000


def problem(puzzle: NurikabeInstance) -> Problem:
    """The rules, clues and cell variables of ``puzzle`` for the forcing engine."""
    enc = encode(puzzle)
    blocks = {name: b for name, b in enc.blocks.items() if name not in (COUNT, SIZES)}
    if _layers(enc) <= MOST_LAYERS:
        blocks["islands connected"] = islands_reached(enc)
        blocks["wall connected"] = wall_reached(enc)
    rules = [blocks[name] for name in DROP_ORDER if name in blocks]
    rules += [b for name, b in blocks.items() if name not in DROP_ORDER and b.asserts]
    names = puzzle.graph.names
    clues = []
    for k, size in sorted(puzzle.clues.items()):
        if size is None:
            continue
        island = enc.island[k]
        far = steps_from(_open_neighbours(puzzle, k), [k])
        terms = [f"(= {count([island[i] for i in island])} {size})"]
        terms += [f"(not {island[i]})" for i in island if far.get(i, size) >= size]
        clues.append(
            Clue(
                f"clue {names[k]}",
                f"(and {' '.join(terms)})" if len(terms) > 1 else terms[0],
                k,
                {"cell": names[k], "clue": size},
                f"clue {names[k]} = {size}",
            )
        )
    variables = [
        (f"black_{escape(names[i])}", (i,)) for i in range(len(puzzle)) if i not in puzzle.clues
    ]
    cell_of = {v: cells[0] for v, cells in variables}

    def say(var: str, value: bool) -> Fact:
        name = names[cell_of[var]]
        colour = "black" if value else "white"
        return Fact(
            var, value, (cell_of[var],), {"cell": name, "value": colour}, f"{name} is {colour}"
        )

    def solutions(budget: Budget) -> Solutions | None:
        """Up to two pictures by the puzzle's own solver, as values of ``variables``."""
        outcome, _ = solve(puzzle, budget=budget, unique=True)
        return solved(outcome, lambda picture: {v: picture[cell_of[v]] for v, _ in variables})

    def check(values: Mapping[str, bool]) -> list[str]:
        """The rules broken by the picture ``values`` make, by the independent checker."""
        black = [False] * len(puzzle)
        for v, i in cell_of.items():
            black[i] = values[v]
        return problems(puzzle.graph, puzzle.clues, puzzle.pools, black)

    # no rule group is asked apart: without connectivity the island variables still
    # tie every question to the whole grid, and measured, it never answered alone
    return Problem(
        enc.declarations(),
        rules,
        clues,
        variables,
        puzzle.neighbours,
        say,
        solutions=solutions,
        counts=counts(puzzle, cell_of, [c.key for c in clues], enc.island)
        if _full_grid(puzzle)
        else None,
        count_names=[n for cells in enc.island.values() for n in cells.values()],
        check=check,
    )


#: Clauses over the CNF's literals, as :attr:`Problem.counts` makes them: given the
#: literal of a variable or clue by name and the largest literal in use, the clauses
#: and the largest literal they use.
Counts = Callable[[Callable[[str], int], int], tuple[list[list[int]], int]]


def _full_grid(puzzle: NurikabeInstance) -> bool:
    """A plain rectangle with every cell: where Euler's formula and the rim hold as
    :func:`counts` states them."""
    g = puzzle.graph
    return puzzle.is_grid and len(puzzle) == (g.rows or 0) * (g.cols or 0) > 1


def _least_perimeter(size: int) -> int:
    """The fewest edges around a region of ``size`` cells of a square grid:
    2 * ceil(2 * sqrt(size))."""
    return 2 * math.isqrt(4 * size - 1) + 2 if size > 0 else 0


def _most_on_rim(wall: int, rim: int, sizes: Sequence[int]) -> int:
    """The most edges of the grid's rim that black cells may have, when the wall has
    ``wall`` cells and the islands ``sizes``: each island is surrounded by at least its
    least perimeter in edges to black cells and to the rim; the wall, one connected
    piece, has at least ``wall`` - 1 links inside it, so of its 4 * ``wall`` sides at
    most 2 * ``wall`` + 2 face white cells or the rim, and each rim edge at a black cell
    is one the islands cannot have: islands' edges <= 2 * wall + 2 + rim - 2 * (rim
    edges at black cells)."""
    return (2 * wall + 2 + rim - sum(_least_perimeter(s) for s in sizes)) // 2


def _fewest_sides_at_wall(size: int, cells: int, rim: int, on_rim: int) -> int:
    """The fewest sides that an island of ``size`` cells, ``on_rim`` of whose sides lie
    on the grid's rim (of ``rim`` edges, among ``cells`` cells), has at black cells.
    Each side of an island's cell faces another cell of it, a black cell (a white
    neighbour would be of the same island) or the rim. So the island's outline, at
    least its least perimeter, is its sides at black cells and on the rim; and the
    outline of the rest of the grid (any set of cells has at least the least perimeter
    of its count, connected or not: n cells span h rows and v columns with h v >= n,
    and each row and column adds two edges) is the same sides at black cells and the
    rim's edges not at the island."""
    return max(_least_perimeter(size) - on_rim, _least_perimeter(cells - size) - (rim - on_rim), 0)


def _most_sides_at_white(wall: int) -> int:
    """The most sides of a connected wall of ``wall`` cells that face white cells or
    the rim: of its 4 * ``wall`` sides at least 2 * (``wall`` - 1) are its links."""
    return 2 * wall + 2


def _most_sides_beside(wall: int, rim: int, reach: int) -> int:
    """The most that the islands' counts of sides at black cells and rim sides in their
    reach (``reach`` in all) not their own may add up to, with a connected wall of
    ``wall`` cells in a grid of ``rim`` rim edges: every white cell is in an island, so
    the rim sides at black cells are ``rim`` less the islands' own, and those with the
    islands' sides at black are at most :func:`_most_sides_at_white`."""
    return _most_sides_at_white(wall) - rim + reach


def _fewest_lines(size: int, across: int) -> int:
    """The fewest rows an island of ``size`` cells meets when it meets ``across``
    columns (or columns, rows): its cells lie where the rows and columns it meets
    cross."""
    return -(-size // across)


def _fewest_sides_by_lines(lines: int, on_rim: int) -> int:
    """The fewest sides at black cells of an island that meets ``lines`` rows and
    columns in all and has ``on_rim`` sides on the grid's rim: in each row it meets,
    the outer sides of its first and last cell face neither of its cells, and so in
    each column, and such a side faces a black cell or the rim."""
    return 2 * lines - on_rim


def _lines_unbroken(meets: Sequence[int], fresh: Callable[[], int]) -> list[list[int]]:
    """Clauses: the rows (or columns) an island meets, literals ``meets`` in order, are
    one run. Why: a connected island steps from row to row one at a time."""
    out: list[list[int]] = []
    above: list[int] = []  # above[r]: it meets a row before r (from r = 1)
    for r in range(1, len(meets)):
        x = fresh()
        earlier = [above[-1]] if above else []
        out += [[-x, meets[r - 1], *earlier], [-meets[r - 1], x]]
        out += [[-e, x] for e in earlier]
        above.append(x)
    below: list[int] = []  # below[r]: it meets a row after r (from the last but one)
    for r in range(len(meets) - 2, -1, -1):
        x = fresh()
        later = [below[-1]] if below else []
        out += [[-x, meets[r + 1], *later], [-meets[r + 1], x]]
        out += [[-e, x] for e in later]
        below.append(x)
    below.reverse()
    for r in range(1, len(meets) - 1):
        out.append([-above[r - 1], -below[r], meets[r]])
    return out


def _one_inside(
    blocks: Sequence[tuple[int, int, int, int]],
    holds: dict[int, dict[int, int]],
    touches: dict[int, int],
) -> list[list[int]]:
    """Clauses: where the two ends of a 2x2 block's diagonal are in two islands, one of
    them has no cell on the rim. ``holds``: per clue, the literal of "its island holds
    the cell" by cell; ``touches``: per clue, a literal implied by its island holding a
    rim cell. Why: the block's other two cells touch both islands, so they are black,
    and the connected wall joins them by a path of black cells; that path with the
    block's other diagonal is a closed curve through cells' centres that the first
    diagonal crosses once, so one end lies inside it, and so does its whole island
    (which never crosses black cells); a rim cell's centre lies on the hull of all
    centres, never inside such a curve."""
    out = []
    for a, b, c, d in blocks:
        for i, j in ((a, d), (b, c)):
            for k, inside in touches.items():
                for m, outside in touches.items():
                    if k != m and i in holds[k] and j in holds[m]:
                        out.append([-holds[k][i], -holds[m][j], -inside, -outside])
    return out


def _unary(
    lits: Sequence[int], most: int, fresh: Callable[[], int], out: list[list[int]]
) -> list[int]:
    """Literals whose j-th (from 1) holds exactly when at least j of ``lits`` do (the
    last: at least that many), at most ``most`` of them: a totalizer in both directions,
    so that a lower bound asserted on the count forces its inputs, and lower bounds on
    parts add up in the count of a sum (:func:`_merge`)."""
    if len(lits) <= 1:
        return list(lits[:most])
    half = len(lits) // 2
    return _merge(
        _unary(lits[:half], most, fresh, out),
        _unary(lits[half:], most, fresh, out),
        most,
        fresh,
        out,
    )


def _merge(
    a: list[int],
    b: list[int],
    most: int,
    fresh: Callable[[], int],
    out: list[list[int]],
    exact: bool = True,
) -> list[int]:
    """The unary count (:func:`_unary`) of the sum of two unary counts; not ``exact``:
    only that the sum is at least the parts' counts added (a part counted up to a
    smaller bound than ``most`` may hold more than it says)."""
    if not a or not b:
        return a or b
    size = min(len(a) + len(b), most)
    r = [fresh() for _ in range(size)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            low = [-x for x in (a[i - 1] if i else 0, b[j - 1] if j else 0) if x]
            if i + j:
                out.append([*low, r[min(i + j, size) - 1]])
            if exact and i + j < size:
                high = [x for x in (a[i] if i < len(a) else 0, b[j] if j < len(b) else 0) if x]
                out.append([-r[i + j], *high])
    return r


def counts(
    puzzle: NurikabeInstance,
    cell_of: dict[str, int],
    clue_keys: list[str],
    island: dict[int, dict[int, str]],
) -> Counts:
    """Counts and a rule of the rim that the rules imply, as clauses
    (:attr:`Problem.counts`), on a plain rectangle: Euler's formula for the white cells
    (cells, less white links, plus all-white 2x2 blocks, is the number of islands less
    the holes in them, and with one connected wall there is at most one hole: at least
    the clues less one); of two islands at a 2x2 block's diagonal one has no rim cell
    (:func:`_one_inside`); and, when every clue holds, the wall's size (the cells less
    the clues' numbers), the most edges of the grid's rim at black cells
    (:func:`_most_on_rim`), and the sides where islands meet the wall: each island's,
    with the rim sides in its reach that are not its own, at least
    :func:`_fewest_sides_at_wall` for its sides on the rim and those, all of them at
    most :func:`_most_sides_beside`. The solver cannot add such counts up from the
    local rules; a uniqueness proof of a few huge islands needs them (see the docs on
    explanations). ``island``: the names of "the clue's island holds the cell"."""
    black_var = {i: v for v, i in cell_of.items()}
    rows, cols = puzzle.graph.rows or 0, puzzle.graph.cols or 0
    coords = puzzle.graph.coords or []
    # the edges each cell has on the grid's rim (a corner two)
    rim = {
        i: (r in (0, rows - 1)) + (r == 0 == rows - 1) + (c in (0, cols - 1)) + (c == 0 == cols - 1)
        for i, (r, c) in enumerate(coords)
    }
    rim_edges = 2 * (rows + cols)
    edges = puzzle.graph.undirected_edges()
    blocks = puzzle.graph.squares()
    numbers = list(puzzle.clues.values())

    def clauses(lit: Callable[[str], int], top: int) -> tuple[list[list[int]], int]:
        from pysat.card import CardEnc, EncType

        out: list[list[int]] = []
        black = {i: lit(v) for i, v in black_var.items()}

        def fresh() -> int:
            nonlocal top
            top += 1
            return top

        def white_all(cells: Sequence[int]) -> int | None:
            """A literal that holds only where all ``cells`` are white (None: always)."""
            open_ = [black[i] for i in cells if i in black]
            if not open_:
                return None
            if len(open_) == 1:
                return -open_[0]
            x = fresh()
            out.extend([-x, -b] for b in open_)
            return x

        def some_black(i: int, j: int) -> int | None:
            """A literal that holds only where ``i`` or ``j`` is black (None: never)."""
            open_ = [black[c] for c in (i, j) if c in black]
            if len(open_) <= 1:
                return open_[0] if open_ else None
            x = fresh()
            out.append([-x, *open_])
            return x

        # V - E + F >= C - 1, as at least C - 1 + |edges| of: white cells, edges with a
        # black end, all-white blocks
        need = len(puzzle.clues) - 1 + len(edges) - (len(puzzle) - len(black))
        terms = [-b for b in black.values()]
        for i, j in edges:
            x = some_black(i, j)
            if x is not None:
                terms.append(x)
        for block in blocks:
            x = white_all(block)
            if x is None:
                need -= 1
            else:
                terms.append(x)
        if need > 0:
            enc = CardEnc.atleast(terms, need, top_id=top, encoding=EncType.kmtotalizer)
            out += enc.clauses
            top = max(top, enc.nv)
        # per clue, the literal of "its island holds the cell" by cell of its reach
        holds = {k: {i: lit(n) for i, n in names.items()} for k, names in island.items()}
        out += one_inside(holds, fresh)
        if all(n is not None for n in numbers):
            wall = len(puzzle) - sum(n for n in numbers if n is not None)
            every = fresh()  # every clue holds: the wall has its size
            out.append([*(-lit(k) for k in clue_keys), every])
            enc = CardEnc.equals(
                list(black.values()), wall, top_id=top, encoding=EncType.kmtotalizer
            )
            out += [[-every, *c] for c in enc.clauses]
            top = max(top, enc.nv)
            touching: list[int] = []  # a literal per edge of the grid's rim at a black cell
            for i, sides in rim.items():
                for _ in range(sides if i in black else 0):
                    x = fresh()
                    out.append([-black[i], x])
                    touching.append(x)
            most = _most_on_rim(wall, rim_edges, numbers)  # type: ignore[arg-type]
            if most < 0:
                out.append([-every])
            elif most < len(touching):
                enc = CardEnc.atmost(touching, most, top_id=top, encoding=EncType.kmtotalizer)
                out += [[-every, *c] for c in enc.clauses]
                top = max(top, enc.nv)
            out += [[-every, *c] for c in wall_sides(holds, black, fresh, wall)]
        return out, top

    def one_inside(holds: dict[int, dict[int, int]], fresh: Callable[[], int]) -> list[list[int]]:
        """:func:`_one_inside` over "the island holds a rim cell", one literal per clue
        whose reach has a rim cell."""
        out: list[list[int]] = []
        touches: dict[int, int] = {}
        for k, cells in holds.items():
            on_rim = [x for i, x in cells.items() if rim[i]]
            if on_rim:
                touches[k] = fresh()
                out += [[-x, touches[k]] for x in on_rim]
        return out + _one_inside(blocks, holds, touches)

    def spans(
        holds: dict[int, int], size: int, out: list[list[int]], fresh: Callable[[], int]
    ) -> list[int]:
        """The unary count (:func:`_unary`, up to its size and one) of the rows and columns
        an island meets, with
        the clauses that each run is unbroken (:func:`_lines_unbroken`) and that the
        rows are at least :func:`_fewest_lines` for the columns, and the other way
        round. ``holds``: "the island holds the cell" by cell of its reach."""
        counted: list[list[int]] = []
        for axis in (0, 1):
            meets: list[int] = []
            for line in range((rows, cols)[axis]):
                cells = [x for i, x in holds.items() if coords[i][axis] == line]
                if not cells:
                    continue
                m = fresh()
                out.append([-m, *cells])
                out += [[-x, m] for x in cells]
                meets.append(m)
            out += _lines_unbroken(meets, fresh)
            counted.append(_unary(meets, len(meets), fresh, out))
        for one, other in (counted, counted[::-1]):
            for across in range(1, len(other) + 1):
                least = _fewest_lines(size, across)
                clause = [other[across]] if across < len(other) else []
                clause += [one[least - 1]] if least <= len(one) else []
                out.append(clause)
        # a connected island of n cells meets at most n + 1 rows and columns
        most = min(len(counted[0]) + len(counted[1]), size + 1)
        return _merge(counted[0], counted[1], most, fresh, out)

    def wall_sides(
        holds: dict[int, dict[int, int]],
        black: dict[int, int],
        fresh: Callable[[], int],
        wall: int,
    ) -> list[list[int]]:
        """The sides where islands meet the wall, counted per island and in all: each
        island's count also holds the rim's sides in its reach that are not its own
        (:func:`_most_sides_beside`), so that the total needs no count of the wall's
        rim sides, which a SAT solver cannot add up against the islands' own.
        ``black``: the literal of "the cell is black" by open cell."""
        out: list[list[int]] = []
        sides: list[tuple[list[int], list[int], list[int], list[int]]] = []
        for k, cells in holds.items():
            size = puzzle.clues[k]
            assert size is not None
            beside: list[int] = []  # a side at a black cell, or a rim side not the island's
            on_rim: list[int] = []  # a literal per side of the island on the rim
            for i, here in cells.items():
                on_rim += [here] * rim[i]
                beside += [-here] * rim[i]
                for j in puzzle.neighbours[i]:
                    if j in black:
                        x = fresh()
                        out += [[-x, here], [-x, black[j]], [x, -here, -black[j]]]
                        beside.append(x)
            need = [
                _fewest_sides_at_wall(size, len(puzzle), rim_edges, r) + len(on_rim) - r
                for r in range(len(on_rim) + 1)
            ]
            lines = spans(cells, size, out, fresh)
            sides.append((beside, on_rim, need, lines))
        reach = sum(len(on_rim) for _, on_rim, _, _ in sides)
        # the total counts each island from its least count on
        cap = _most_sides_beside(wall, rim_edges, reach) - sum(min(n) for _, _, n, _ in sides) + 1
        if cap <= 0:
            return [[]]
        total: list[int] = []
        for beside, on_rim, need, lines in sides:
            most = max(*need, _fewest_sides_by_lines(len(lines), 0) + len(on_rim))
            count = _unary(beside, most, fresh, out)
            rim_count = _unary(on_rim, len(on_rim), fresh, out)
            for r, least in enumerate(need):
                if least == 0:
                    continue
                clause = [-rim_count[r - 1]] if r else []
                clause += [rim_count[r]] if r < len(rim_count) else []
                clause += [count[least - 1]] if least <= len(count) else []
                out.append(clause)
            # at most r sides on the rim, at least n rows and columns met: the sides
            # beside it are at least its fewest at black cells, and L - r rim sides
            for r in range(len(on_rim) + 1):
                for n, line in enumerate(lines, start=1):
                    least = _fewest_sides_by_lines(n, r) + len(on_rim) - r
                    if least <= 0:
                        continue
                    clause = [rim_count[r]] if r < len(rim_count) else []
                    clause += [-line]
                    clause += [count[least - 1]] if least <= len(count) else []
                    out.append(clause)
            total = _merge(total, count[min(need) :][:cap], cap, fresh, out, exact=False)
        if len(total) == cap:
            out.append([-total[-1]])
        return out

    return clauses


def _open_neighbours(puzzle: NurikabeInstance, clue: int) -> Sequence[Sequence[int]]:
    """The neighbours an island of ``clue`` can grow through: no other clue, and no cell
    beside another clue (islands never touch)."""
    blocked = {k for k in puzzle.clues if k != clue}
    blocked |= {j for k in blocked for j in puzzle.neighbours[k]}
    return [() if i in blocked else puzzle.neighbours[i] for i in range(len(puzzle))]


#: The marks of a decided cell in ``--state``: black (True) or white.
STATE_MARKS = {"#": True, "x": True, ".": False, "o": False}


def read_state(puzzle: NurikabeInstance, prob: Problem, text: str) -> list[Fact]:
    """The facts of a partly solved grid, one line a row: ``#`` or ``x`` black, ``.`` or
    ``o`` white, ``-``, ``_`` or ``?`` open, a number a clue (cells may be separated by
    spaces; see :func:`~smtpuzzles.formats.grid.read_state_marks`). Only plain
    rectangles."""
    marks = read_state_marks(text, puzzle.graph, puzzle.clues, STATE_MARKS, comment="#!")
    var_of = {cells[0]: v for v, cells in prob.variables}
    return [prob.say(var_of[i], black) for i, black in sorted(marks.items()) if i in var_of]


def draw(puzzle: NurikabeInstance, known: dict[str, Fact], step: Step) -> tuple[str, str]:
    """The step's text picture and SVG (:mod:`.pictures`)."""
    before = {f.cells[0]: f.value for f in known.values()}
    new = {f.cells[0]: f.value for f in step.facts}
    if step.wrong is not None:
        before.pop(step.wrong.cells[0], None)
    premises = {c for p in step.premises for c in premise_cells(p)}
    return step_text(puzzle, before, new, premises), step_svg(puzzle, before, new, premises)


def _most_steps(size: int | None, cells: int) -> int:
    """The most steps a region of ``size`` cells (``None``: unknown) among ``cells``
    candidates lies from its root: its size less one."""
    return (cells if size is None else min(size, cells)) - 1


def _layers(enc: Encoding) -> int:
    """How many Booleans :func:`islands_reached` and :func:`wall_reached` would declare
    (at most: without the least steps they start from)."""
    puzzle = enc.puzzle
    islands = sum(
        len(cells) * (_most_steps(puzzle.clues[k], len(cells)) + 1)
        for k, cells in enc.island.items()
    )
    open_cells = len(puzzle) - len(puzzle.clues)
    return islands + open_cells * (_most_steps(wall_size(puzzle), open_cells) + 1)


def islands_reached(enc: Encoding) -> Block:
    """ "Islands connected" in steps: each cell of a clue's island is reached from the
    clue within the size less one steps through the island's cells (no farther than
    the solving formula's distances, and no nearer than the cell's least steps from the
    clue)."""
    out: list[str] = []
    declared: list[str] = []
    names = enc.puzzle.graph.names
    for k, cells in enc.island.items():
        high = _most_steps(enc.puzzle.clues[k], len(cells))
        member = {i: enc.has(k, i) for i in cells}
        prefix = f"island_{escape(names[k])}"
        _reached(enc, member, {k: "true"}, high, enc.base.reach[k], prefix, out, declared)
    return Block(
        "islands connected",
        "Every cell of an island is reached from its clue within the size less one steps"
        " through the island: a cell is reached within d steps when it is in the island"
        " and it or a neighbour is reached within d - 1 steps.",
        out,
        declared,
    )


def wall_reached(enc: Encoding) -> Block:
    """ "Wall connected" in steps: each black cell is reached from the root within the
    wall's size less one steps through black cells. The root is a cell no island
    reaches (black by the rules alone; the one nearest to every cell) where there is
    one, else the black cell of least index."""
    puzzle = enc.puzzle
    candidates = [i for i in range(len(puzzle)) if i not in puzzle.clues]
    high = _most_steps(wall_size(puzzle), len(candidates))
    allowed = set(candidates)
    unreached = [i for i in candidates if not enc.base.owners(i)]
    root = None
    low: dict[int, int] = {}
    if unreached:

        def steps(i: int) -> dict[int, int]:
            return distances_within(puzzle.neighbours, i, len(puzzle), allowed.__contains__)

        root = min(unreached, key=lambda i: (max(steps(i).values()), i))
        found = steps(root)
        low = {i: found.get(i, high + 1) for i in candidates}
        name = escape(puzzle.graph.names[root])
        says = (
            f"Every black cell is reached from {name} (black: no island reaches it) within"
            " the wall's size less one steps through the wall: a cell is reached within d"
            " steps when it is black and it or a neighbour is reached within d - 1 steps."
        )
    else:
        says = (
            "Every black cell is reached from the root (the black cell of least index)"
            " within the wall's size less one steps through the wall: a cell is reached"
            " within d steps when it is black and it or a neighbour is reached within"
            " d - 1 steps."
        )
    if high <= 0:
        return Block("wall connected", says + " (At most one cell: always connected.)")
    member = {i: enc.b(i) for i in candidates}
    if root is None:
        first = first_member(candidates, member, "wall")
        roots, out, declared = first.root, first.constraints, first.declarations
    else:
        roots, out, declared = {root: "true"}, [], []
    _reached(enc, member, roots, high, low, "wall", out, declared)
    return Block("wall connected", says, out, declared)


def _reached(
    enc: Encoding,
    member: dict[int, str],
    roots: dict[int, str],
    high: int,
    low: dict[int, int],
    prefix: str,
    out: list[str],
    declared: list[str],
) -> None:
    """Every member reached from a root within ``high`` steps through members, as layers
    of Booleans ``<prefix>_within_<d>_<cell>`` (reached within ``d`` steps); ``roots``
    are the terms "the cell is the root" (reached within 0 steps; ``true``: always);
    ``low`` each cell's least possible steps. Unlike distances as integers, a cell cut
    off from every root is refuted by unit propagation, layer by layer, which is what
    the questions of few premises need (their CNF stays easy for the SAT solver)."""
    names = enc.puzzle.graph.names
    nbrs = enc.puzzle.neighbours

    def within(i: int, d: int) -> str | None:
        if d < low.get(i, 0):
            return None
        if d == 0 or roots.get(i) == "true":
            return roots.get(i)
        return f"{prefix}_within_{d}_{escape(names[i])}"

    for i, here in member.items():
        if roots.get(i) == "true":
            continue
        for d in range(max(1, low.get(i, 0)), high + 1):
            name = within(i, d)
            declared.append(f"(declare-fun {name} () Bool)")
            before = [within(j, d - 1) for j in (i, *nbrs[i]) if j in member]
            steps = [t for t in before if t is not None]
            out.append(f"(=> {name} {here if 'true' in steps else and_([here, or_(steps)])})")
        out.append(f"(=> {here} {within(i, high) or 'false'})")
