"""The sides where islands meet the wall, as the explanation's counts bound them
(:func:`~smtpuzzles.puzzles.nurikabe.explain._fewest_sides_at_wall`,
:func:`~smtpuzzles.puzzles.nurikabe.explain._most_sides_at_white` and
:func:`~smtpuzzles.puzzles.nurikabe.explain._most_sides_beside`), and the rule that of
two islands at a 2x2 block's diagonal one is off the rim
(:func:`~smtpuzzles.puzzles.nurikabe.explain._one_inside`), and the rows and columns an
island meets (:func:`~smtpuzzles.puzzles.nurikabe.explain._fewest_lines`,
:func:`~smtpuzzles.puzzles.nurikabe.explain._fewest_sides_by_lines`,
:func:`~smtpuzzles.puzzles.nurikabe.explain._lines_unbroken`): every solution of every
puzzle on a few small grids, found by brute force and accepted by the independent
checker, keeps them, and some solution meets each bound exactly, so that one made
tighter would rule out a solution."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

import pytest

from smtpuzzles.puzzles.nurikabe.check import problems
from smtpuzzles.puzzles.nurikabe.explain import (
    _fewest_lines,
    _fewest_sides_at_wall,
    _fewest_sides_by_lines,
    _least_perimeter,
    _lines_unbroken,
    _most_sides_at_white,
    _most_sides_beside,
    _one_inside,
)
from smtpuzzles.puzzles.nurikabe.formats import parse, read_solution


def _islands(rows: int, cols: int, black: list[bool]) -> list[list[int]]:
    """The white regions of a picture (4-connected), each a list of cell indices."""
    seen: set[int] = set()
    found = []
    for start in range(rows * cols):
        if black[start] or start in seen:
            continue
        region, stack = [], [start]
        seen.add(start)
        while stack:
            i = stack.pop()
            region.append(i)
            for j in _neighbours(rows, cols, i):
                if not black[j] and j not in seen:
                    seen.add(j)
                    stack.append(j)
        found.append(region)
    return found


def _neighbours(rows: int, cols: int, i: int) -> list[int]:
    r, c = divmod(i, cols)
    near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [a * cols + b for a, b in near if 0 <= a < rows and 0 <= b < cols]


def _rim(rows: int, cols: int, i: int) -> int:
    """The sides of cell ``i`` on the grid's rim."""
    return 4 - len(_neighbours(rows, cols, i))


def _pool(rows: int, cols: int, black: list[bool]) -> bool:
    """Is some 2x2 block all black?"""
    return any(
        black[i] and black[i + 1] and black[i + cols] and black[i + cols + 1]
        for i in range((rows - 1) * cols)
        if i % cols < cols - 1
    )


@functools.cache
def _solutions(rows: int, cols: int) -> list[tuple[list[bool], list[list[int]]]]:
    """Every picture that solves the puzzle made by numbering each of its islands at its
    first cell, as the independent checker says, with those islands."""
    return list(_search(rows, cols))


def _search(rows: int, cols: int):
    for values in itertools.product((False, True), repeat=rows * cols):
        black = list(values)
        if _pool(rows, cols, black):
            continue  # no solution (the checker would say so): skipped for speed
        islands = _islands(rows, cols, black)
        if not islands:
            continue
        clues = {min(region): len(region) for region in islands}
        lines = [f"{rows} {cols}"]
        for r in range(rows):
            lines.append(" ".join(str(clues.get(r * cols + c, "-")) for c in range(cols)))
        puzzle = parse("\n".join(lines) + "\n")
        if problems(puzzle.graph, puzzle.clues, puzzle.pools, black):
            continue
        yield black, islands


@pytest.mark.parametrize("rows,cols", [(3, 3), (3, 4), (4, 4)])
def test_every_small_solution_keeps_the_wall_sides_bounds(rows: int, cols: int) -> None:
    rim_edges = 2 * (rows + cols)
    cells = rows * cols
    met_island = met_wall = 0
    met_own = met_rest = False
    solved = 0
    for black, islands in _solutions(rows, cols):
        solved += 1
        wall = sum(black)
        at_white = 0
        for region in islands:
            members = set(region)
            on_rim = sum(_rim(rows, cols, i) for i in region)
            at_black = sum(1 for i in region for j in _neighbours(rows, cols, i) if black[j])
            assert all(
                black[j] for i in region for j in _neighbours(rows, cols, i) if j not in members
            )
            least = _fewest_sides_at_wall(len(region), cells, rim_edges, on_rim)
            assert at_black >= least, (black, region)
            met_island += at_black == least > 0
            met_own |= at_black == _least_perimeter(len(region)) - on_rim > 0
            rest = _least_perimeter(cells - len(region)) - (rim_edges - on_rim)
            met_rest |= at_black == rest > 0 and rest > _least_perimeter(len(region)) - on_rim
            at_white += at_black
        if wall:
            sides = at_white + sum(_rim(rows, cols, i) for i in range(cells) if black[i])
            assert sides <= _most_sides_at_white(wall), black
            met_wall += sides == _most_sides_at_white(wall)
    assert solved > 10
    assert met_island and met_wall and met_own
    if (rows, cols) != (3, 3):
        # the rest of the grid's outline is the larger bound of the two, and met
        assert met_rest


def test_the_least_perimeter_holds_for_every_set_of_cells() -> None:
    """Any set of cells of a 4x4 grid, connected or not, has at least the least
    perimeter of its count in edges to cells outside it or to the rim, and some set of
    each count has exactly that many."""
    rows = cols = 4
    best: dict[int, int] = {}
    for values in itertools.product((False, True), repeat=rows * cols):
        chosen = [i for i, v in enumerate(values) if v]
        edges = sum(
            _rim(rows, cols, i) + sum(1 for j in _neighbours(rows, cols, i) if not values[j])
            for i in chosen
        )
        best[len(chosen)] = min(best.get(len(chosen), edges), edges)
    for n, edges in best.items():
        assert edges == _least_perimeter(n), n


def test_the_whole_grid_question_a_counted_backbone_answered_is_not_asked_again() -> None:
    """Without the puzzle's own solver the engine proves its first model's facts forced
    by a backbone with the counts; the whole-grid question over the same premises takes
    that answer (no question asked), and its core forces every fact under the rules
    alone, as the formula is printed."""
    from smtpuzzles.forced import Forcing, _Path
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.nurikabe.explain import problem
    from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph

    graph, pools = shape_graph("square", 5, 5, 3)
    made = generate(graph, pools, 3, 4)
    assert made is not None
    puzzle, picture = made
    prob = problem(puzzle)
    prob.solutions = None
    path = _Path(Forcing(prob, Budget()))
    facts = path.undecided()
    assert facts and all(f.key in path.f.counted_cores for f in facts)
    assert all(picture[f.cells[0]] == f.value for f in facts)
    asked = path.f.asked
    core = path.f.whole(path.known, facts, 0)
    assert core is not None and path.f.asked == asked
    assert {p.key for p in core} <= {c.key for c in prob.clues}
    assert path.f.forced_all(facts, core, path.f.all_rules)


def _blocks(rows: int, cols: int) -> list[tuple[int, int, int, int]]:
    """Every 2x2 block, as the grid lists them: top left, top right, bottom left, bottom
    right."""
    return [
        (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
        for r in range(rows - 1)
        for c in range(cols - 1)
    ]


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 4)])
def test_of_two_islands_at_a_diagonal_one_is_off_the_rim(rows: int, cols: int) -> None:
    """Every clause of the rule holds in every solution (each island's literals over
    its cells and their neighbours, as a reach would hold them), and some clause holds
    by one "off the rim" literal alone, for either end's island: dropping either would
    rule out a solution."""
    cells = rows * cols
    alone: set[str] = set()
    for _, islands in _solutions(rows, cols):
        near = [set(r) | {j for i in r for j in _neighbours(rows, cols, i)} for r in islands]
        holds = {k: {i: 1 + k * cells + i for i in reach} for k, reach in enumerate(near)}
        touches = {k: 1 + len(islands) * cells + k for k in range(len(islands))}
        true = {holds[k][i] for k, r in enumerate(islands) for i in r}
        true |= {touches[k] for k, r in enumerate(islands) if any(_rim(rows, cols, i) for i in r)}
        for clause in _one_inside(_blocks(rows, cols), holds, touches):
            satisfied = [x for x in clause if (abs(x) in true) == (x > 0)]
            assert satisfied, (islands, clause)
            if len(satisfied) == 1:
                alone.add("first" if satisfied[0] == clause[2] else "second")
    assert alone == {"first", "second"}


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 4)])
def test_the_islands_sides_beside_them_keep_their_bound(rows: int, cols: int) -> None:
    """Each island's sides at black cells and rim sides not its own (its reach taken as
    the whole grid), added up, stay within the bound, and meet it in some solution."""
    rim_edges = 2 * (rows + cols)
    met = 0
    for black, islands in _solutions(rows, cols):
        wall = sum(black)
        if not wall:
            continue
        beside = 0
        for region in islands:
            beside += sum(1 for i in region for j in _neighbours(rows, cols, i) if black[j])
            beside += rim_edges - sum(_rim(rows, cols, i) for i in region)
        most = _most_sides_beside(wall, rim_edges, rim_edges * len(islands))
        assert beside <= most, black
        met += beside == most
    assert met


def _puzzle(rows: int, cols: int, islands: list[list[int]]):
    """The puzzle of a solution's islands, each numbered at its first cell."""
    clues = {min(region): len(region) for region in islands}
    lines = [f"{rows} {cols}"]
    for r in range(rows):
        lines.append(" ".join(str(clues.get(r * cols + c, "-")) for c in range(cols)))
    return parse("\n".join(lines) + "\n")


def test_every_small_solution_is_a_model_of_the_counts() -> None:
    """The counts' clauses as the explanation adds them admit the solutions of 4x4
    puzzles where an island of two cells or more lies off the rim at a diagonal of
    another that touches it (its reach has rim cells: the rule speaks of it), and where
    the islands' sides beside them meet their bound."""
    from smtpuzzles.forced import Forcing
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.nurikabe.explain import problem

    rows = cols = 4
    tried = 0
    for black, islands in _solutions(rows, cols):
        owner = {i: k for k, region in enumerate(islands) for i in region}
        on_rim = [any(_rim(rows, cols, i) for i in region) for region in islands]
        inside = [
            (i, j)
            for a, b, c, d in _blocks(rows, cols)
            for i, j in ((a, d), (b, c))
            if i in owner and j in owner and owner[i] != owner[j]
        ]
        # the island off the rim big enough that its reach holds rim cells
        if not any(
            on_rim[owner[i]] != on_rim[owner[j]] and min(len(islands[owner[c]]) for c in (i, j)) > 1
            for i, j in inside
        ):
            continue
        puzzle = _puzzle(rows, cols, islands)
        prob = problem(puzzle)
        assert prob.counts is not None
        facts = [prob.say(v, black[cells[0]]) for v, cells in prob.variables]
        forcing = Forcing(prob, Budget())
        assert forcing.consistent([*prob.clues, *facts], counted=True) is not None, black
        tried += 1
        if tried == 6:
            break
    assert tried == 6


@pytest.mark.slow
def test_the_counts_decide_janko_29(data_dir: Path) -> None:
    """Janko 0029 (10x10; islands of 37 and 36 at a diagonal, a wall of 27): with the
    counts one question proves every fact of its known answer forced by the two clues."""
    from smtpuzzles.forced import Forcing
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.nurikabe.explain import problem

    path = data_dir / "nurikabe" / "janko_0029_10x10.txt"
    puzzle = parse(path.read_text(), str(path))
    rows = read_solution(path)
    assert rows is not None
    cols = puzzle.graph.cols or 0
    prob = problem(puzzle)
    facts = [
        prob.say(v, rows[cells[0] // cols][cells[0] % cols] == "#") for v, cells in prob.variables
    ]
    core = Forcing(prob, Budget()).whole(list(prob.clues), facts, 0)
    assert core is not None and {p.key for p in core} == {c.key for c in prob.clues}


@pytest.mark.parametrize("rows,cols", [(3, 4), (4, 4)])
def test_every_small_island_keeps_the_lines_bounds(rows: int, cols: int) -> None:
    met_lines = met_sides = 0
    for black, islands in _solutions(rows, cols):
        for region in islands:
            across = {i // cols for i in region}, {i % cols for i in region}
            for one, other in (across, across[::-1]):
                assert len(one) >= _fewest_lines(len(region), len(other)), region
                assert max(one) - min(one) + 1 == len(one), region
                met_lines += len(one) == _fewest_lines(len(region), len(other)) > 1
            on_rim = sum(_rim(rows, cols, i) for i in region)
            at_black = sum(1 for i in region for j in _neighbours(rows, cols, i) if black[j])
            least = _fewest_sides_by_lines(len(across[0]) + len(across[1]), on_rim)
            assert at_black >= least, region
            met_sides += at_black == least > 0
    assert met_lines and met_sides


@pytest.mark.parametrize("lines", [1, 2, 3, 5])
def test_the_lines_met_are_one_run(lines: int) -> None:
    """The clauses, their fresh literals free, admit exactly the unbroken runs."""
    meets = list(range(1, lines + 1))
    top = lines

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    clauses = _lines_unbroken(meets, fresh)
    for values in itertools.product((False, True), repeat=lines):
        on = [r for r, v in enumerate(values) if v]
        unbroken = not on or on[-1] - on[0] + 1 == len(on)
        admitted = False
        for extra in itertools.product((False, True), repeat=top - lines):
            truth = [*values, *extra]
            if all(any(truth[abs(x) - 1] == (x > 0) for x in c) for c in clauses):
                admitted = True
                break
        assert admitted == unbroken, values
