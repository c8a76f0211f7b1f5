"""Koburin explained: which cells are black or on the loop, which links the loop uses,
and by which numbers and decided facts.

The rules are :mod:`.rules`' blocks with the numbers taken out: each number is a
premise of its own (``clue r3c4 = 2``: two of the cells it sees are black). Rule B (one
loop) is given to the engine by its cuts (:func:`separate_loops`): its block, the
solving formula's distances, is what a step's rule B means, and what the checks of the
steps ask. A fact is a cell black or on the loop, or a link used or not; the engine is
:mod:`smtpuzzles.forced`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ... import render
from ...forced import Clue, Cuts, Fact, Problem, Solutions, Step, premise_cells, solved
from ...formats.grid import read_state_marks
from ...limits import Budget
from ...smtlib import count
from .check import problems
from .model import KoburinInstance, Solution
from .rules import CONNECTED, Encoding, encode, loop_crosses_lines_evenly
from .search import solve

#: The numbers' rule group: here each number is a premise.
NUMBERS = "C numbers count black neighbours"

#: The order in which rule groups are tried for dropping (global ones first).
DROP_ORDER = (
    CONNECTED,
    "B loop exists",
    "G/H loop degree two",
    "F black cells never touch",
    "E numbered cells never black",
)


def _neighbours(puzzle: KoburinInstance) -> list[list[int]]:
    graph = puzzle.undirected
    both: list[set[int]] = [set(t) for t in graph.out]
    for i, targets in enumerate(graph.out):
        for j in targets:
            both[j].add(i)
    return [sorted(s) for s in both]


def problem(puzzle: KoburinInstance) -> Problem:
    """The rules, numbers, cell and link variables of ``puzzle`` for the engine."""
    enc = encode(puzzle)
    blocks = {name: b for name, b in enc.blocks.items() if name != NUMBERS}
    # G and H summed over the cells on one side of a line: a parity the solver cannot
    # find by itself, and a human's rule of thumb
    even = loop_crosses_lines_evenly(enc)
    if even.asserts:
        blocks[even.rule] = even
    rules = [blocks[name] for name in DROP_ORDER if name in blocks]
    rules += [b for name, b in blocks.items() if name not in DROP_ORDER]
    names = puzzle.graph.names
    clues = [
        Clue(
            f"clue {names[i]}",
            f"(= {count([enc.b(j) for j in puzzle.counted[i]])} {n})",
            i,
            {"cell": names[i], "clue": n},
            f"clue {names[i]} = {n}",
        )
        for i, n in sorted(puzzle.clues.items())
        if n is not None
    ]
    variables: list[tuple[str, tuple[int, ...]]] = [(enc.b(i), (i,)) for i in puzzle.empty]
    variables += [(enc.v(e), e) for e in enc.link]
    cells_of = dict(variables)
    is_cell = {enc.b(i) for i in puzzle.empty}

    def say(var: str, value: bool) -> Fact:
        cells = cells_of[var]
        if var in is_cell:
            name = names[cells[0]]
            what = "black" if value else "loop"
            return Fact(var, value, cells, {"cell": name, "value": what}, f"{name} is {what}")
        a, b = names[cells[0]], names[cells[1]]
        words = f"the loop {'runs' if value else 'does not run'} {a}-{b}"
        return Fact(var, value, cells, {"link": [a, b], "value": value}, words)

    def values(answer: Solution) -> dict[str, bool]:
        """A solution as the values of ``variables``."""
        found = {enc.b(i): i in answer.black for i in puzzle.empty}
        found.update((enc.v(e), tuple(sorted(e)) in answer.edges) for e in enc.link)
        return found

    def solutions(budget: Budget) -> Solutions | None:
        """Up to two solutions by the puzzle's own solver, as values of ``variables``."""
        return solved(solve(puzzle, budget=budget, unique=True), values)

    def check(values: Mapping[str, bool]) -> list[str]:
        """The rules broken by the answer ``values`` make, by the independent checker."""
        black = [i for i in puzzle.empty if values[enc.b(i)]]
        return problems(puzzle, black, [e for e in enc.link if values[enc.v(e)]])

    connected = (CONNECTED,)
    # a one-premise question is asked again only for the facts on the premise's own cells
    # (a cell's links, a link's cells): asked for those two steps away too, the same
    # steps came out, no faster, but for one more case split
    return Problem(
        enc.declarations(),
        rules,
        clues,
        variables,
        _neighbours(puzzle),
        say,
        connected,
        close=0,
        solutions=solutions,
        cuts={CONNECTED: separate_loops(enc)},
        check=check,
    )


def separate_loops(enc: Encoding) -> Cuts:
    """Rule B by cuts (see :class:`~smtpuzzles.forced.Forcing`). The loop cells (empty and
    not black) of a model fall into pieces joined by its links between loop cells; with
    more than one piece, each piece gets the cut "if its least cell and another piece's
    least cell are both on the loop, a link leaves the piece to a loop cell", which one
    loop keeps, said as a clause the model breaks: a link leaving the piece that the
    model leaves out is used, or one it uses ends at a cell that is not black."""
    puzzle = enc.puzzle
    leaving: dict[int, list[tuple[int, str]]] = {i: [] for i in puzzle.empty}
    for e in enc.link:
        for i, j in (e, e[::-1]):
            leaving[i].append((j, enc.v(e)))

    def cuts(values: Mapping[str, bool]) -> list[list[tuple[str, bool]]]:
        loop = {i for i in puzzle.empty if not values[enc.b(i)]}
        pieces = _pieces(loop, lambda i: [j for j, v in leaving[i] if j in loop and values[v]])
        if len(pieces) <= 1:
            return []
        found = []
        for n, piece in enumerate(pieces):
            other, inside = pieces[(n + 1) % len(pieces)], set(piece)
            either_black = [(enc.b(piece[0]), True), (enc.b(other[0]), True)]
            out = sorted((v, j) for i in piece for j, v in leaving[i] if j not in inside)
            found.append(
                either_black + [(enc.b(j), False) if values[v] else (v, True) for v, j in out]
            )
        return found

    return cuts


def _pieces(cells: set[int], joined: Callable[[int], list[int]]) -> list[list[int]]:
    """The pieces of ``cells`` under ``joined`` (a cell's neighbours in its piece), each
    sorted, by least cell."""
    pieces: list[list[int]] = []
    seen: set[int] = set()
    for start in sorted(cells):
        if start in seen:
            continue
        piece, todo = {start}, [start]
        while todo:
            for j in joined(todo.pop()):
                if j not in piece:
                    piece.add(j)
                    todo.append(j)
        seen |= piece
        pieces.append(sorted(piece))
    return pieces


#: The marks of a decided cell in ``--state``: black (True) or on the loop.
STATE_MARKS = {"#": True, "x": True, "o": False, "+": False}


def read_state(puzzle: KoburinInstance, prob: Problem, text: str) -> list[Fact]:
    """The cell facts of a partly solved grid, one line a row: ``#`` or ``x`` black,
    ``o`` or ``+`` on the loop, ``-``, ``_`` or ``?`` open, a number a clue (cells may be
    separated by spaces; see :func:`~smtpuzzles.formats.grid.read_state_marks`)."""
    marks = read_state_marks(text, puzzle.graph, puzzle.clues, STATE_MARKS)
    var_of = {cells[0]: v for v, cells in prob.variables if len(cells) == 1}
    return [prob.say(var_of[i], black) for i, black in marks.items()]


def draw(puzzle: KoburinInstance, known: dict[str, Fact], step: Step) -> tuple[str, str]:
    """The step as text (``#`` black, ``o`` loop, ``-`` open; ``X`` and ``O`` the cells it
    decides, ``*`` after a premise's cell) and as SVG."""
    cell = {f.cells[0]: f.value for f in known.values() if len(f.cells) == 1}
    new = {f.cells[0]: f.value for f in step.facts if len(f.cells) == 1}
    premises = {c for p in step.premises for c in premise_cells(p)}
    touched = {c for f in step.facts for c in f.cells}
    text = render.step_text(
        puzzle.graph, puzzle.clues, cell, new, premises, ("#", "o"), touched=touched
    )
    both = {**cell, **new}
    fill = {
        i: render.UNKNOWN if i not in both else render.WALL if both[i] else "#FFFFFF"
        for i in range(len(puzzle.graph))
        if i not in puzzle.clues
    }
    label = {i: "?" if n is None else str(n) for i, n in puzzle.clues.items()}
    corner = {i: "!" if i in touched else "*" for i in touched | premises}
    svg = render.graph_svg(puzzle.graph, fill=fill, label=label, marks=corner)
    return text, svg
