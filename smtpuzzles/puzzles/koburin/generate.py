"""Random Koburin puzzles with a unique solution, made by deductions, not by a solver.

1. **Numbers where they decide most.** From an empty grid, numbers are placed one at a
   time on cells still open: of a few open cells picked at random, each with the least
   number it could hold, one more, and the most, the one after which the rules a
   solver by hand uses (:mod:`.deduce`, each sound on its own) decide the most, weighed
   by the number's value (:data:`LOOK`), is kept, unless it leaves a part of the grid
   with an odd number of loop ends (:meth:`.Deduce.even_ends`). Each number is propagated from
   the state before it, so a step costs what it decides, not the grid.
2. **Dead ends.** Where no open cell can take a number, the rules that look at the whole
   grid (one loop; as many loop cells of each chessboard colour) and probing decide
   more; where they cannot, one patch of open cells is repaired: the numbers near it
   are taken back and placing goes on there. A repair that leaves more cells open than
   the best state so far starts again from that state, so patches are mended one at a
   time, not all at once (on a large grid some patch is nearly always left).
3. **Unique by deductions.** When the rules decide every cell and link and the loop is
   one loop, that solution is the only one (every rule only decides what every solution
   has). The independent checker reads it before it is returned.
4. **Fewer numbers, some ``?``.** Numbers beyond ``density`` of the cells are taken
   away, and up to ``max_unknown`` of them hidden as ``?``, in batches of cells far
   apart, each only where the deductions still decide everything without them.
5. **A grade asked.** With ``accept`` (``--grade``), the builds after a candidate rated
   too hard are made easier (more numbers, where their places alone decide most; no
   ``?``), and after one too easy harder (numbers weighed toward 2s and 3s, then as
   many taken away as the rules allow); an easy or a hard grade asked leans the first
   build too, and a hard one keeps each harder build of several at which the local
   rules stall about as often as hard puzzles' do (:func:`_stalls`).

No solver is asked: a run costs runs of the deductions, local in effect and cheap.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ...errors import CheckFailure
from ...graph import Graph, rectangle
from ...limits import Budget
from ...sources import check_size
from .check import problems, walk_loop
from .deduce import BLACK, LINK, ON, UNKNOWN, Contradiction, Deduce, solve
from .model import KoburinInstance, Solution

#: The share of cells numbered by default (published puzzles: about 0.14).
DENSITY = 0.16

#: The largest share of numbers left ``?`` by default (published puzzles have none).
MAX_UNKNOWN = 0.1

#: How far (in rows and columns) a change's effect on the deductions is looked for.
REACH = 3

#: Dead ends in a row without fewer cells left open, after which a build starts again
#: from an empty grid.
RESTART = 1000


def _build(
    graph: Graph, rng: random.Random, budget: Budget, tries: int, look: tuple[float, ...] = ()
) -> Deduce | None:
    """Numbers placed one at a time on open cells until the rules decide every cell and
    link: of ``tries`` open cells picked at random, each with the numbers it could hold,
    the one whose deductions decide most is kept (each propagated from the state before
    it, in time that grows with what it decides, not with the grid). Where no open cell
    can take a number, probing decides more; where it cannot, one patch of cells left
    open is repaired on its own: the numbers near it are taken back and placing goes on
    there. A repair that leaves more cells open than the best state so far is undone, so
    patches are mended one by one instead of all at once. ``look``: the weights of
    :func:`_best_number` (:data:`LOOK` when empty). ``None`` if the budget ran out."""
    best: dict[int, int | None] = {}
    fewest = len(graph) + 1  #: the fewest cells left open at a dead end so far
    d = _started(graph, best)
    focus: list[int] = []
    stuck = 0
    probed = -1
    dead: set[int] = set()  #: open cells no number fits (more numbers will not change it)
    while True:
        if budget.expired():
            return None
        opened = [i for i, s in enumerate(d.cell) if s == UNKNOWN and i not in dead]
        among = [i for i in focus if d.cell[i] == UNKNOWN and i not in dead] or opened
        if among:
            chosen = _best_number(d, rng, among, tries, dead, look or LOOK)
            if chosen is not None:
                mark = d.mark()
                d.add_clue(chosen[1], chosen[2])
                d.propagate()
                try:
                    d.whole()
                    # a number that leaves a part with an odd number of loop ends is not
                    # placed: the rules would find that only by probing, after more numbers
                    # around it, and repairs near the part cannot mend what the loop's
                    # far-off pieces cause
                    d.even_ends(mark)
                    focus = []
                except Contradiction:
                    d.undo(mark)
                    dead.add(chosen[1])
            continue
        if d.decided():
            loops = _loops(d)
            if len(loops) == 1:
                return d
            left = sorted(set().union(*sorted(loops, key=len)[:-1]))
        else:
            if probed != len(d.trail):
                mark = d.mark()
                try:
                    d.whole()
                    d.probe(d.open_cells(), rounds=1)
                    probed = len(d.trail)
                    continue
                except Contradiction as fault:
                    if not fault.args:  # not from a probe: half propagated
                        d.undo(mark)
            left = d.open_cells()
        stuck += 1
        if len(left) <= fewest:
            if len(left) < fewest:
                stuck = 0
            best, fewest = dict(d.clues), len(left)
        elif stuck >= RESTART:
            best, fewest, stuck = {}, len(graph) + 1, 0
        patch = _patch(graph, left, rng.choice(left)) if left else []
        reach = rng.randint(1, 3)
        kept = {i: v for i, v in best.items() if not _close(graph, i, patch, reach)}
        d = _started(graph, kept)
        probed = -1
        dead = set()
        focus = [i for i in patch if d.cell[i] == UNKNOWN]


def _started(graph: Graph, clues: dict[int, int | None]) -> Deduce:
    """The deductions from ``clues`` (from none if these contradict each other)."""
    d = Deduce(graph, clues)
    try:
        d.start()
    except Contradiction:
        d = Deduce(graph, {})
        d.start()
    return d


def _patch(graph: Graph, cells: list[int], seed: int) -> list[int]:
    """The cells of ``cells`` joined to ``seed`` through steps of at most two rows and
    columns: one patch the rules left open, to be repaired on its own."""
    assert graph.cols is not None
    cols = graph.cols
    where = {divmod(i, cols): i for i in cells}
    todo, seen = [seed], {seed}
    while todo:
        r, c = divmod(todo.pop(), cols)
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                j = where.get((r + dr, c + dc))
                if j is not None and j not in seen:
                    seen.add(j)
                    todo.append(j)
    return sorted(seen)


def _close(graph: Graph, i: int, cells: list[int], reach: int) -> bool:
    """Is ``i`` within ``reach`` rows and columns of one of ``cells``?"""
    assert graph.cols is not None
    r, c = divmod(i, graph.cols)
    return any(
        abs(r - x // graph.cols) <= reach and abs(c - x % graph.cols) <= reach for x in cells
    )


def _best_number(
    d: Deduce,
    rng: random.Random,
    opened: list[int],
    tries: int,
    dead: set[int],
    look: tuple[float, ...] = (),
) -> tuple[float, int, int] | None:
    """Of ``tries`` open cells, each with the least number it could hold, one more, and
    the most (the extremes decide most: every open neighbour on the loop, or every one
    black), the one after which the rules decide most, each number's gain weighed by
    ``look`` (:data:`LOOK` when empty; ``None``: each leads to a contradiction; such
    cells join ``dead``)."""
    look = look or LOOK
    out = d.graph.out
    best: tuple[float, int, int] | None = None
    for x in rng.sample(opened, min(tries, len(opened))):
        black = sum(1 for j in out[x] if d.cell[j] == BLACK)
        maybe = sum(1 for j in out[x] if d.cell[j] == UNKNOWN)
        fits = False
        for number in {black, min(black + 1, black + maybe), black + maybe}:
            mark = d.mark()
            try:
                d.add_clue(x, number)
                d.propagate()
                gain = _gain(d, mark) * rng.uniform(0.6, 1.0) * look[min(number, 4)]
            except Contradiction:
                gain = -1.0
            d.undo(mark)
            fits = fits or gain > 0
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, x, number)
        if not fits:
            dead.add(x)
    return best


def _gain(d: Deduce, mark: int) -> float:
    """What a step decided since ``mark``: links count thrice, cells once (open links
    among cells all known to be on the loop are what no number can settle later)."""
    return sum(LINK_WEIGHT if what == LINK else 1 for what, _, _ in d.trail[mark:])


#: What a decided link counts for against a decided cell, in choosing a number.
LINK_WEIGHT = 3

#: What a number's gain counts for, by its value, in choosing a number: published
#: puzzles have mostly 0s and 1s, some 2s and hardly any 3s or 4s, while the rules
#: decide most from 4s (every neighbour black). Weighed so, the numbers come out near
#: the published mix, and more of them (a 4 decides more than the 0 placed instead).
LOOK = (1.0, 1.0, 0.6, 0.25, 0.1)

#: Harder builds weighed at most for each candidate when a grade above the ordinary
#: candidates' is asked: a build costs a small part of a rating, and the one kept (see
#: :data:`HARD_STALLS`) rates hard far more often than a build taken as it comes.
HARD_POOL = 10

#: The stalls of the local rules (:func:`_stalls`) a cell at which a harder build rates
#: hard most often, and how near it (a cell) a build must come to end the search:
#: measured on 10x10 grids, where of 53 builds rated, those that stalled 12 to 18
#: times rated hard in 8 of 19, the others in 2 of 34.
HARD_STALLS = 0.15
HARD_STALLS_NEAR = 0.03

#: :data:`LOOK` for a puzzle made harder: 2s and 3s first, hardly a 0. A 0 decides its
#: neighbours alone, a step of one premise; a 2 or a 3 decides with the cells and
#: numbers around it, and fewer numbers are placed, so the steps take more premises.
HARD_LOOK = (0.05, 0.5, 1.0, 0.8, 0.2)


def _loops(d: Deduce) -> list[set[int]]:
    """The loops the links on make, all decided, each as its cells (the rules close no
    loop early while loop cells are known outside it, but cells found later could lie
    outside)."""
    links = frozenset(e for k, e in enumerate(d.edges) if d.link[k] == ON)
    return [set(piece) for piece in walk_loop(links)]


def _decides(graph: Graph, clues: dict[int, int | None], probing: bool) -> list[bool]:
    """For each cell: is it, or a link of it, left open by the deductions from
    ``clues``? (All ``True`` if the clues contradict each other.)"""
    d = Deduce(graph, clues)
    try:
        d.start()
        d.whole()
        if probing and not d.decided():
            d.probe(d.open_cells(), rounds=2, whole=False)
    except Contradiction:
        return [True] * len(graph)
    return _open_flags(d)


def _open_flags(d: Deduce) -> list[bool]:
    flags = [s == UNKNOWN for s in d.cell]
    for e, s in enumerate(d.link):
        if s == UNKNOWN:
            a, b = d.edges[e]
            flags[a] = flags[b] = True
    return flags


def _near(graph: Graph, x: int, reach: int = REACH) -> list[int]:
    """The cells within ``reach`` rows and columns of ``x``."""
    assert graph.rows is not None and graph.cols is not None
    rows, cols = graph.rows, graph.cols
    r0, c0 = divmod(x, cols)
    return [
        r * cols + c
        for r in range(max(r0 - reach, 0), min(r0 + reach + 1, rows))
        for c in range(max(c0 - reach, 0), min(c0 + reach + 1, cols))
    ]


def _fewer(
    graph: Graph,
    clues: dict[int, int | None],
    rng: random.Random,
    budget: Budget,
    *,
    drop: bool,
    most: int,
    probing: bool,
) -> dict[int, int | None]:
    """Numbers taken away (``drop``) or hidden as ``?``, up to ``most``, with the
    deductions still deciding every cell: many far apart at a time, each kept unless
    cells near it are left open, the batch kept only when the whole grid is decided."""
    assert graph.cols is not None
    order = [i for i in clues if clues[i] is not None]
    rng.shuffle(order)
    done = 0
    apart = 2 * REACH + 2
    while order and done < most and not budget.expired():
        batch = _spread(order, graph.cols, apart)[: most - done]
        order = [i for i in order if i not in batch]
        trial = _without(clues, batch, drop)
        flags = _decides(graph, trial, probing)
        good = [i for i in batch if not any(flags[j] for j in _near(graph, i))]
        if not good:
            continue
        trial = _without(clues, good, drop)
        if not any(_decides(graph, trial, probing)):
            clues = trial
            done += len(good)
    return clues


def _spread(cells: list[int], cols: int, apart: int) -> list[int]:
    """Cells of ``cells`` (in their order) at least ``apart`` rows or columns from each
    other: changes there hardly touch each other's deductions."""
    taken: set[tuple[int, int]] = set()
    chosen = []
    for x in cells:
        r, c = divmod(x, cols)
        block = (r // apart, c // apart)
        around = {(block[0] + dr, block[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        if taken.isdisjoint(around):
            taken.add(block)
            chosen.append(x)
    return chosen


def _without(clues: dict[int, int | None], cells: list[int], drop: bool) -> dict[int, int | None]:
    if drop:
        return {i: v for i, v in clues.items() if i not in cells}
    return {i: None if i in cells else v for i, v in clues.items()}


def _decided(puzzle: KoburinInstance) -> bool:
    """Do the rules of :mod:`.deduce`, probing too, decide every cell and link?"""
    found = solve(puzzle.graph, puzzle.clues, probing=True)
    return found is not None and found.decided()


#: How many grades off the range asked a puzzle may be for :func:`generate` to move it
#: toward the range (:func:`steer`); farther off, a new build is the quicker way: a move
#: changes the grade by a few points at most.
STEER_REACH = 3

#: A verdict of ``accept`` this far off or farther says the puzzle was not rated (its
#: explanation not complete), not which way it misses.
UNSURE = 1000

#: The share of cells numbered at most in a puzzle made easier (:func:`_easier_candidate`):
#: the most of any of the janko puzzles (above the default :data:`DENSITY`: an easy
#: puzzle needs more numbers, each deciding a little on its own).
EASY_DENSITY = 0.2

#: Builds weighed for each puzzle made easier (:func:`_easier_candidate`): the one whose
#: numbers' places alone decide most is kept.
EASY_BUILDS = 4

#: Builds :func:`generate` tries for a seed before it gives up (with ``accept``, a
#: hundred times as many: most are refused).
BUILDS = 20


def generate(
    rows: int,
    cols: int,
    seed: int,
    budget: Budget | None = None,
    *,
    density: float = DENSITY,
    max_unknown: float = MAX_UNKNOWN,
    accept: Callable[[KoburinInstance], int] | None = None,
    tries: int = 8,
    lean: int = 0,
) -> tuple[KoburinInstance, Solution, str] | None:
    """A puzzle whose solution the deductions of :mod:`.deduce` prove the only one, that
    solution, and the solution in ``.sol`` text (``None`` if the budget ran out, or
    after :data:`BUILDS` builds). Numbers beyond ``density`` of the cells are taken away
    where the rest still decide everything, and up to ``max_unknown`` of them are hidden
    as ``?``. ``accept`` (the command line's ``--grade`` rates the puzzle as ``rate``
    does) says 0 to keep the puzzle, else how many grades too hard (negative: too easy)
    it is: within :data:`STEER_REACH` the puzzle is moved once toward the grade
    (:func:`steer`), and it is dropped for a new build if that is refused too. After a
    candidate too hard, the next ones are made easier (:func:`_easier_candidate`: more
    numbers, up to :data:`EASY_DENSITY` of the cells, none ``?``), and after one too
    easy, harder (:func:`_harder_candidate`), until one misses the other way. ``lean``
    is the way the first candidate leans (1 easier, -1 harder, 0 neither: the command
    line's ``--grade`` passes the way its range lies from the grades most candidates
    get), so that an easy or a hard puzzle asked does not wait for a verdict first."""
    check_size(rows, cols)
    budget = budget or Budget()
    rng = random.Random(seed)
    graph = rectangle(rows, cols)
    #: which way the next candidate leans: 1 easier, -1 harder (after the last one rated
    #: missed that way, or as asked for the first)
    lean = max(-1, min(lean, 1))
    #: harder builds weighed for each harder candidate: many when a grade wholly above
    #: the ordinary candidates' was asked, one when a miss merely leans the next
    pool = HARD_POOL if lean < 0 else 1
    for _ in range(BUILDS if accept is None else 100 * BUILDS):
        if lean != 0:
            if lean > 0:
                made = _easier_candidate(graph, rng, budget, tries, density)
            else:
                made = _harder_candidate(graph, rng, budget, tries, max_unknown, pool)
            if made is None:
                return None
            clues, answer = made
        else:
            built = _build(graph, rng, budget, tries, LOOK)
            if built is None:
                return None
            clues = dict(built.clues)
            answer = _answer(built)
            extra = len(clues) - round(density * len(graph))
            if extra > 0:
                clues = _fewer(graph, clues, rng, budget, drop=True, most=extra, probing=True)
            most = int(max_unknown * len(clues))
            clues = _fewer(graph, clues, rng, budget, drop=False, most=most, probing=True)
        puzzle = KoburinInstance(graph, clues)
        if budget.expired():
            return None
        if not _decided(puzzle):
            continue
        if accept is not None:
            verdict = accept(puzzle)
            if 0 < abs(verdict) < UNSURE:
                lean = 1 if verdict > 0 else -1
            if verdict != 0:
                steered = None
                if abs(verdict) <= STEER_REACH:
                    steered = steer(puzzle, answer, verdict, seed, budget, max_unknown)
                if steered is None or accept(steered[0]) != 0:
                    continue
                puzzle, answer = steered
        broken = problems(puzzle, answer.black, answer.edges)
        if broken:
            raise CheckFailure(f"koburin generate, seed {seed}: the answer breaks {broken[0]}")
        return puzzle, answer, solution_text(puzzle, answer)
    return None


def _easier_candidate(
    graph: Graph, rng: random.Random, budget: Budget, tries: int, density: float
) -> tuple[dict[int, int | None], Solution] | None:
    """A puzzle made to explain in small steps, and its solution (``None`` if the budget
    ran out): of :data:`EASY_BUILDS` builds, the one whose numbers' places alone (their
    values unknown) decide most, since what the places decide the rules find with no
    number as a premise; then black cells of its solution turned into numbers, each
    where the places then decide most (:func:`_more_places`), up to
    :data:`EASY_DENSITY` of the cells (or ``density``, when higher); no ``?``."""
    best: tuple[int, Deduce] | None = None
    for _ in range(EASY_BUILDS):
        built = _build(graph, rng, budget, tries)
        if built is None:
            return None
        placed = _decided_by_places(graph, built.clues)
        if best is None or placed > best[0]:
            best = (placed, built)
    assert best is not None
    built = best[1]
    answer = _answer(built)
    most = int(max(density, EASY_DENSITY) * len(graph)) - len(built.clues)
    black = set(answer.black)
    numbered = list(built.clues) + _more_places(graph, list(built.clues), black, most)
    black -= set(numbered)
    clues: dict[int, int | None] = {i: _number(graph, i, black) for i in numbered}
    found = solve(graph, clues, probing=True)
    if found is None or not found.decided() or len(_loops(found)) != 1:
        return dict(built.clues), answer
    return clues, _answer(found)


def _harder_candidate(
    graph: Graph,
    rng: random.Random,
    budget: Budget,
    tries: int,
    max_unknown: float,
    pool: int = 1,
) -> tuple[dict[int, int | None], Solution] | None:
    """A puzzle made to explain in large steps, and its solution (``None`` if the budget
    ran out): of up to ``pool`` harder builds (:func:`_harder_build`), the one at which
    the local rules stall nearest :data:`HARD_STALLS` times a cell (:func:`_stalls`),
    the first within :data:`HARD_STALLS_NEAR` a cell ending the search. A build costs
    a small part of a rating; builds that seldom stall rate medium, and so do most that
    stall far more often (stall after stall is settled by a short try each)."""
    target, near = round(HARD_STALLS * len(graph)), round(HARD_STALLS_NEAR * len(graph))
    best: tuple[int, tuple[dict[int, int | None], Solution]] | None = None
    for _ in range(pool):
        made = _harder_build(graph, rng, budget, tries, max_unknown)
        if made is None:
            return None
        off = abs(_stalls(graph, made[0]) - target) if pool > 1 else 0
        if best is None or off < best[0]:
            best = (off, made)
        if off <= near:
            break
    assert best is not None
    return best[1]


def _harder_build(
    graph: Graph, rng: random.Random, budget: Budget, tries: int, max_unknown: float
) -> tuple[dict[int, int | None], Solution] | None:
    """A puzzle made to explain in large steps, and its solution (``None`` if the budget
    ran out): numbers weighed by :data:`HARD_LOOK`, then as many taken away as the rules
    (probing too) still decide everything without, whatever the density asked, and up
    to ``max_unknown`` of the rest hidden as ``?``. With each number gone the rules lean
    more on probing, which an explanation meets as a case split."""
    built = _build(graph, rng, budget, tries, HARD_LOOK)
    if built is None:
        return None
    clues = dict(built.clues)
    clues = _fewer(graph, clues, rng, budget, drop=True, most=len(clues), probing=True)
    most = int(max_unknown * len(clues))
    clues = _fewer(graph, clues, rng, budget, drop=False, most=most, probing=True)
    found = solve(graph, clues, probing=True)
    if found is None or not found.decided() or len(_loops(found)) != 1:
        return dict(built.clues), _answer(built)
    return clues, _answer(found)


class _LocalRules(Deduce):
    """The deductions without the rule against closing a loop early: what a number's
    count and a cell's links decide near them, which an explanation finds in steps of a
    premise or two."""

    def _closing(self) -> bool:
        return False


def _stalls(graph: Graph, clues: dict[int, int | None]) -> int:
    """How often the local rules (:class:`_LocalRules`) stop short of the solution and
    need the whole-grid rules, or a cell or link tried each way, to go on: where an
    explanation has no small reason near the facts and takes a step of many premises,
    or a case split."""
    d = _LocalRules(graph, clues)
    stalls = 0
    try:
        d.start()
        while not d.decided():
            mark = d.mark()
            d.whole()
            for i in d.open_cells() if d.mark() == mark else ():
                d.probe([i], rounds=1, whole=False)
                if d.mark() > mark:
                    break
            if d.mark() == mark:
                break
            stalls += 1
    except Contradiction:
        pass
    return stalls


def _places(graph: Graph, cells: list[int]) -> Deduce | None:
    """What numbers on ``cells``, their values unknown, decide with probing (``None``:
    the places contradict the rules)."""
    d = Deduce(graph, dict.fromkeys(cells))
    try:
        d.start()
        d.whole()
        d.probe(d.open_cells(), rounds=2)
    except Contradiction:
        return None
    return d


def _decided_by_places(graph: Graph, clues: dict[int, int | None]) -> int:
    """How many cells and links the places of ``clues`` alone decide."""
    d = _places(graph, list(clues))
    if d is None:
        return 0
    return sum(1 for s in d.cell if s != UNKNOWN) + sum(1 for s in d.link if s != UNKNOWN)


def _more_places(graph: Graph, cells: list[int], black: set[int], most: int) -> list[int]:
    """Up to ``most`` cells of ``black`` to number, one at a time the one after which the
    places of the numbers decide most (a black cell numbered leaves the loop as it is;
    each try probes only near the cell, so a try costs the same on any grid)."""
    d = _places(graph, cells)
    chosen: list[int] = []
    while d is not None and len(chosen) < most:
        best: tuple[float, int] | None = None
        for b in sorted(black - set(chosen)):
            if d.cell[b] != UNKNOWN:
                continue
            mark = d.mark()
            try:
                d.add_clue(b, None)
                d.propagate()
                d.probe(_near(graph, b, 2), rounds=1)
                gain = _gain(d, mark)
            except Contradiction:
                gain = -1
            d.undo(mark)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, b)
        if best is None:
            break
        chosen.append(best[1])
        d.add_clue(best[1], None)
        d.propagate()
    return chosen


def _number(graph: Graph, i: int, black: set[int] | frozenset[int]) -> int:
    """The number cell ``i`` holds in a solution whose black cells are ``black``."""
    return sum(1 for j in graph.out[i] if j in black)


def _answer(d: Deduce) -> Solution:
    """The solution the deductions ``d`` decided."""
    return Solution(
        frozenset(i for i, s in enumerate(d.cell) if s == BLACK),
        frozenset(e for k, e in enumerate(d.edges) if d.link[k] == ON),
    )


def steer(
    puzzle: KoburinInstance,
    answer: Solution,
    verdict: int,
    seed: int,
    budget: Budget,
    max_unknown: float = MAX_UNKNOWN,
) -> tuple[KoburinInstance, Solution] | None:
    """The puzzle moved toward the grade wanted, still decided by the rules (so unique),
    and its solution: easier (``verdict`` above 0) with every ``?`` shown as its number;
    harder (below 0) with numbers taken away, as many as the rules allow, far apart at a
    time, in an order drawn from ``seed`` and the numbers (the same puzzle is moved the
    same way whatever came before), while the ``?`` stay within ``max_unknown`` of the
    numbers. ``None`` when there is nothing to move."""
    graph, clues = puzzle.graph, dict(puzzle.clues)
    if verdict > 0:
        unknown = [i for i, v in clues.items() if v is None]
        if not unknown:
            return None
        for i in unknown:
            clues[i] = _number(graph, i, answer.black)
        return KoburinInstance(graph, clues), answer
    hidden = sum(1 for v in clues.values() if v is None)
    most = len(clues) - (math.ceil(hidden / max_unknown - 1e-9) if hidden else 0)
    if most <= 0:
        return None
    rng = random.Random(f"{seed} {sorted(clues.items(), key=str)}")
    fewer = _fewer(graph, clues, rng, budget, drop=True, most=most, probing=True)
    found = solve(graph, fewer, probing=True) if len(fewer) < len(clues) else None
    if found is None or not found.decided() or len(_loops(found)) != 1:
        return None
    return KoburinInstance(graph, fewer), _answer(found)


def clue_statistics(puzzle: KoburinInstance) -> dict[str, float]:
    """The figures that tell a published puzzle's numbers from a machine's: the share of
    cells numbered, and the share of numbers that are ``?``."""
    numbers = list(puzzle.clues.values())
    return {
        "numbers": len(numbers),
        "numbered": round(len(numbers) / len(puzzle.graph), 4),
        "unknown": round(sum(1 for v in numbers if v is None) / max(len(numbers), 1), 4),
    }


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
