"""The Koburin generator: its puzzles have exactly the answer it wrote down."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from oracles.koburin_loops import random_black, random_loop

from smtpuzzles.graph import Graph, rectangle
from smtpuzzles.puzzles.koburin import problems, solve
from smtpuzzles.puzzles.koburin.check import walk_loop
from smtpuzzles.puzzles.koburin.formats import (
    parse,
    parse_solution_grid,
    solution_positions,
    to_grid_text,
)
from smtpuzzles.puzzles.koburin.generate import generate
from smtpuzzles.puzzles.koburin.model import KoburinInstance


@pytest.mark.parametrize("rows, cols, seed", [(6, 6, 1), (5, 8, 2), (8, 8, 3)])
def test_generated_puzzle_is_unique_with_its_answer(rows: int, cols: int, seed: int) -> None:
    made = generate(rows, cols, seed)
    assert made is not None
    puzzle, answer, sol_text = made
    assert problems(puzzle, answer.black, answer.edges, answer.loop()) == []
    reread = parse(to_grid_text(puzzle))  # the text it prints reads back the same
    assert reread.clues == puzzle.clues
    outcome = solve(reread, unique=True)
    assert outcome.unique is True
    assert solution_positions(reread, outcome.solution) == parse_solution_grid(sol_text)


def test_random_loop_is_one_loop_through_about_the_share_asked() -> None:
    graph = rectangle(12, 12)
    for seed in range(5):
        edges = random_loop(graph, random.Random(seed), fill=0.7)
        pieces = walk_loop(frozenset(edges))
        assert len(pieces) == 1
        assert 0.55 * len(graph) <= len(pieces[0]) <= 0.75 * len(graph)
        assert all(sum(1 for e in edges if i in e) == 2 for i in pieces[0])


def test_same_seed_same_puzzle_in_one_process() -> None:
    """Each puzzle is made in a Z3 context of its own, so a second run repeats the first."""
    first, second = generate(8, 8, 5), generate(8, 8, 5)
    assert first is not None and second is not None
    assert to_grid_text(first[0]) == to_grid_text(second[0]) and first[2] == second[2]
    assert to_grid_text(generate(8, 8, 6)[0]) != to_grid_text(first[0])


def test_same_seed_same_puzzle() -> None:
    """Across processes."""
    command = [sys.executable, "-m", "smtpuzzles", "koburin", "generate", "6", "6", "--seed", "7"]
    first, second = (subprocess.run(command, capture_output=True, text=True) for _ in range(2))
    assert first.returncode == 0 and first.stdout.startswith("6 6\n")
    assert first.stdout == second.stdout


@pytest.mark.parametrize("seed", [1, 2])
def test_few_numbers_are_left_unknown_and_the_puzzle_stays_unique(seed: int) -> None:
    from smtpuzzles.puzzles.koburin.generate import clue_statistics

    made = generate(10, 10, seed)
    assert made is not None
    puzzle, answer, _ = made
    assert clue_statistics(puzzle)["unknown"] <= 0.1
    outcome = solve(puzzle, unique=True)
    assert outcome.unique is True
    assert outcome.solution is not None and outcome.solution.black == answer.black


def test_batch_folder_reads_back_into_bench(tmp_path: Path) -> None:
    from oracles.cli import benched, generated

    folder = tmp_path / "made"
    puzzles = generated(["koburin", "generate", "6", "6", "--count", "2"], folder)
    assert [e["seed"] for e in puzzles] == [0, 1]
    rows = benched("koburin", folder, tmp_path / "rows.jsonl")
    assert len(rows) == 2 and all(r["verdict"] == "ok" for r in rows), rows


def test_deductions_agree_with_the_answer_they_come_from() -> None:
    """Each deduction is sound: from all the numbers of a random answer, every cell and
    link decided (probing too) is as in that answer (a wrong rule would decide against
    it)."""
    from smtpuzzles.puzzles.koburin.deduce import BLACK, LOOP, OFF, ON
    from smtpuzzles.puzzles.koburin.deduce import solve as deduce

    decided = 0
    for seed in range(20):
        rng = random.Random(seed)
        graph = rectangle(9, 9)
        edges = set(random_loop(graph, rng, 0.7))
        on_loop = {i for e in edges for i in e}
        off_loop = [i for i in range(len(graph)) if i not in on_loop]
        black = random_black(graph, off_loop, rng, 0.5)
        numbers = {
            i: sum(1 for j in graph.out[i] if j in black) for i in off_loop if i not in black
        }
        deductions = deduce(graph, numbers, probing=seed % 2 == 0)
        assert deductions is not None
        for i, state in enumerate(deductions.cell):
            assert state != BLACK or i in black
            assert state != LOOP or i in on_loop
        for k, state in enumerate(deductions.link):
            e = deductions.edges[k]
            assert state != ON or e in edges
            assert state != OFF or e not in edges
        decided += sum(1 for i, s in enumerate(deductions.cell) if s in (BLACK, LOOP))
    assert decided > 0


def test_deductions_with_unknown_numbers_agree_with_the_answer() -> None:
    """With most numbers hidden as ``?`` the answer is one solution of many; every cell
    and link the rules decide (probing, the whole-grid rules and their local form
    :meth:`Deduce.near` too) is as in it, and a contradiction is never found."""
    from smtpuzzles.puzzles.koburin.deduce import BLACK, LOOP, OFF, ON, Deduce

    decided = 0
    for seed in range(40):
        # 12x12: parts both under and over the local rule's limit
        graph, edges, black, numbers = _random_answer(seed, 12, 0.4)
        d = Deduce(graph, numbers)
        d.start()
        d.whole()
        d.probe(d.open_cells(), rounds=3, whole=True)
        for i, state in enumerate(d.cell):
            assert state != BLACK or i in black, seed
            assert state != LOOP or any(i in e for e in edges), seed
        for k, state in enumerate(d.link):
            assert state != ON or d.edges[k] in edges, seed
            assert state != OFF or d.edges[k] not in edges, seed
        decided += sum(1 for s in d.cell if s in (BLACK, LOOP))
    assert decided > 0


def test_local_connection_rule_finds_a_cut_off_loop_cell_and_blackens_a_closed_pocket() -> None:
    """:meth:`Deduce.near` looks only at the small parts next to a change: a loop cell
    walled off from the rest of the loop is a contradiction, and open cells walled off
    from every loop cell are black; a large part is left alone."""
    from smtpuzzles.puzzles.koburin.deduce import BLACK, LOOP, UNKNOWN, Contradiction, Deduce

    graph = rectangle(6, 6)
    # numbers at (0,2), (1,2), (2,0), (2,1): the corner cells (0,0), (0,1), (1,0), (1,1)
    # are walled off from the rest of the grid
    d = Deduce(graph, {2: None, 8: None, 12: None, 13: None})
    d.start()
    mark = d.mark()
    d.set_cell(graph.at(5, 5), LOOP)
    d.propagate()
    d.near(mark)  # no change next to the pocket: nothing said about it
    assert d.cell[0] == UNKNOWN
    d.undo(mark)
    mark = d.mark()
    d.set_cell(graph.at(4, 4), LOOP)
    d.set_cell(graph.at(1, 3), LOOP)
    d.propagate()
    d._connected_near([0, 1, 6, 7])
    assert all(d.cell[i] == BLACK for i in (0, 1, 6, 7))
    d.undo(mark)
    d.set_cell(0, LOOP)
    d.set_cell(graph.at(4, 4), LOOP)
    with pytest.raises(Contradiction):
        d.propagate()
        d._connected_near([0])


def test_probing_names_the_cell_where_neither_value_fits() -> None:
    """Numbers with no solution that the plain rules let pass: probing finds a cell that
    can be neither black nor on the loop, names it, and leaves the state as it was before
    that cell was tried."""
    from smtpuzzles.puzzles.koburin.deduce import Contradiction, Deduce
    from smtpuzzles.puzzles.koburin.model import KoburinInstance

    graph = rectangle(4, 4)
    clues: dict[int, int | None] = {3: 1, 9: 2, 10: 2}
    assert solve(KoburinInstance(graph, clues)).solution is None
    d = Deduce(graph, clues)
    d.start()
    d.whole()
    with pytest.raises(Contradiction) as fault:
        d.probe(d.open_cells(), rounds=3)
    assert fault.value.args == (1,)
    # what the last value tried had set is undone: the rest passes the rules again (a
    # half-propagated state counted cells as decided that nothing decides)
    d.start()


def test_a_try_undone_leaves_the_deductions_as_from_scratch() -> None:
    """Each cell waits in the queue once however many changes touch it; a try undone
    in the middle of propagating (a contradiction) leaves none waiting, so what is
    deduced afterwards is what a fresh state deduces."""
    from smtpuzzles.puzzles.koburin.deduce import BLACK, LOOP, UNKNOWN, Contradiction, Deduce

    failed = 0
    for seed in range(20):
        graph, edges, black, numbers = _random_answer(seed, 10, 0.6)
        d = Deduce(graph, numbers)
        d.start()
        opened = [i for i, s in enumerate(d.cell) if s == UNKNOWN]
        for i in opened:
            mark = d.mark()
            try:
                d.set_cell(i, LOOP if i in black else BLACK)  # the wrong value
                d.propagate()
            except Contradiction:
                failed += 1
            d.undo(mark)
            assert not any(d.waiting) and not d.queue
        for i in opened[:3]:
            d.set_cell(i, BLACK if i in black else LOOP)
        d.propagate()
        fresh = Deduce(graph, numbers)
        fresh.start()
        for i in opened[:3]:
            fresh.set_cell(i, BLACK if i in black else LOOP)
        fresh.propagate()
        assert (d.cell, d.link) == (fresh.cell, fresh.link), seed
    assert failed > 0


def _random_answer(seed: int, side: int, shown: float) -> tuple[Graph, set, set, dict]:
    """A random Koburin answer on a ``side`` square (its loop's links and black cells),
    each number shown with probability ``shown`` (else ``None``, a ``?``)."""
    rng = random.Random(seed)
    graph = rectangle(side, side)
    edges = set(random_loop(graph, rng, 0.7))
    on_loop = {i for e in edges for i in e}
    off_loop = [i for i in range(len(graph)) if i not in on_loop]
    black = random_black(graph, off_loop, rng, 0.5)
    numbers = {
        i: sum(1 for j in graph.out[i] if j in black) if rng.random() < shown else None
        for i in off_loop
        if i not in black
    }
    return graph, edges, black, numbers


def test_a_part_with_an_odd_number_of_loop_ends_is_a_contradiction() -> None:
    """The loop crosses a part joined by open links in paths that each join two loop
    ends: one end alone in its part has no way to close."""
    from smtpuzzles.puzzles.koburin.deduce import LOOP, OFF, ON, Contradiction, Deduce

    graph = rectangle(3, 3)
    at = graph.at
    piece = (at(0, 0), at(0, 1))
    for joined, parted in [(True, False), (False, True)]:
        d = Deduce(graph, {})
        mark = d.mark()
        open_links = {(at(0, 0), at(1, 0)), (at(0, 1), at(0, 2))}
        if joined:  # (1,0) to (0,2) through the middle row: one part holding both ends
            open_links |= {(at(1, 0), at(1, 1)), (at(1, 1), at(1, 2)), (at(0, 2), at(1, 2))}
        for k, e in enumerate(d.edges):
            if e == piece:
                d.set_link(k, ON)
            elif e not in open_links:
                d.set_link(k, OFF)
        for i in piece:
            d.set_cell(i, LOOP)
        if parted:
            with pytest.raises(Contradiction):
                d.even_ends(mark)
        else:
            d.even_ends(mark)


def test_loop_ends_are_even_in_every_part_where_the_numbers_have_a_solution() -> None:
    """The rule is sound: from the numbers of a random answer (some hidden as ``?``),
    after the deductions and probing, no part holds an odd number of loop ends."""
    from smtpuzzles.puzzles.koburin.deduce import Deduce

    for seed in range(20):
        graph, _, _, numbers = _random_answer(seed, 12, 0.5 if seed % 2 else 1.0)
        d = Deduce(graph, numbers)
        d.start()
        d.whole()
        d.even_ends(0)
        d.probe(d.open_cells(), rounds=2)
        d.even_ends(0)


@pytest.mark.parametrize("seed", [1, 2])
def test_numbers_are_mostly_small_like_published_ones(seed: int) -> None:
    """Published puzzles number about a seventh of the cells, mostly with 0s and 1s;
    the rules would decide most from 4s, so the generator weighs small numbers up."""
    from smtpuzzles.puzzles.koburin.generate import clue_statistics

    made = generate(15, 15, seed)
    assert made is not None
    puzzle = made[0]
    shown = [v for v in puzzle.clues.values() if v is not None]
    assert clue_statistics(puzzle)["numbered"] <= 0.18
    assert sum(1 for v in shown if v <= 1) >= 0.7 * len(shown)
    assert sum(1 for v in shown if v >= 3) <= 0.1 * len(shown)


def test_grade_easy_makes_the_candidates_after_a_hard_one_easier(tmp_path: Path) -> None:
    """The first candidate of 8x8 seed 4 rates 16; after it the generator makes easier
    ones (more numbers, none ``?``), and the second is easy, as ``rate`` says of it."""
    from oracles.cli import cli

    from smtpuzzles.cli.generating import Judge, parse_grade
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.koburin.generate import DENSITY, EASY_DENSITY, clue_statistics

    wanted = parse_grade("easy")
    assert wanted is not None
    judge = Judge("koburin", wanted)
    verdicts: list[int] = []

    def accept(puzzle: KoburinInstance) -> int:
        verdicts.append(judge.direction(to_grid_text(puzzle), Budget(120)))
        return verdicts[-1]

    made = generate(8, 8, 4, accept=accept)
    assert made is not None
    puzzle, answer, _ = made
    assert verdicts[0] > 0 and verdicts[-1] == 0 and len(verdicts) == 2
    shares = clue_statistics(puzzle)
    assert DENSITY < shares["numbered"] <= EASY_DENSITY and shares["unknown"] == 0
    assert problems(puzzle, answer.black, answer.edges, answer.loop()) == []
    assert solve(puzzle, unique=True).unique is True
    path = tmp_path / "easy.txt"
    path.write_text(to_grid_text(puzzle))
    result = cli("koburin", "rate", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["grade"] <= 15


@pytest.mark.parametrize("miss", [5, -5])
def test_a_miss_leans_the_next_candidate_its_way(miss: int) -> None:
    """After a candidate too hard, the next has more numbers and no ``?``; after one too
    easy, fewer 0s (a 0 decides its neighbours alone); each still unique, its answer
    checked. A verdict of a candidate not rated leans nothing."""
    from smtpuzzles.puzzles.koburin.generate import UNSURE

    def second(verdict: int) -> tuple[KoburinInstance, KoburinInstance]:
        seen: list[KoburinInstance] = []

        def accept(puzzle: KoburinInstance) -> int:
            seen.append(puzzle)
            return verdict if len(seen) == 1 else 0

        assert generate(10, 10, 3, accept=accept) is not None
        assert len(seen) == 2
        return seen[0], seen[1]

    first, plain = second(UNSURE)
    again, after = second(miss)
    assert to_grid_text(first) == to_grid_text(again)
    shown = [v for v in after.clues.values() if v is not None]
    usual = [v for v in plain.clues.values() if v is not None]
    if miss > 0:
        assert len(after.clues) > len(plain.clues)
        assert None not in after.clues.values()
    else:
        assert shown.count(0) / len(shown) < usual.count(0) / len(usual)
    found = solve(after, unique=True)
    assert found.unique is True and found.solution is not None
    assert problems(after, found.solution.black, found.solution.edges) == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_lean_asked_shapes_the_first_candidate(seed: int) -> None:
    """``lean`` (``--grade`` easy or hard) shapes the first build: harder, fewer numbers
    than the ordinary first candidate and no more ``?`` than ``max_unknown`` allows;
    easier, more numbers and none ``?``. Each is unique (the solver says so) with the
    answer the generator wrote, which the checker reads."""
    from smtpuzzles.puzzles.koburin.generate import EASY_DENSITY, MAX_UNKNOWN

    harder, plain, easier = (generate(10, 10, seed, lean=lean) for lean in (-1, 0, 1))
    assert harder is not None and plain is not None and easier is not None
    assert len(harder[0].clues) < len(plain[0].clues) < len(easier[0].clues)
    hidden = [v for v in harder[0].clues.values() if v is None]
    assert len(hidden) <= MAX_UNKNOWN * len(harder[0].clues)
    assert None not in easier[0].clues.values() and len(easier[0].clues) <= EASY_DENSITY * 100
    for puzzle, answer, _ in (harder, easier):
        assert problems(puzzle, answer.black, answer.edges, answer.loop()) == []
        found = solve(puzzle, unique=True)
        assert found.unique is True and found.solution.black == answer.black


def test_stalls_count_what_the_local_rules_leave() -> None:
    """A 3x3 grid with a 0 in its middle: the loop runs round the rim, which the 0 and
    each cell's links decide alone, no stall. An empty 2x2 grid: its loop is the four
    cells, but a black corner is ruled out only by the count of each colour, a stall.
    A harder build stalls exactly when the local rules alone leave something open."""
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.koburin.generate import _harder_build, _LocalRules, _stalls

    assert _stalls(rectangle(3, 3), {4: 0}) == 0
    assert _stalls(rectangle(2, 2), {}) == 1
    graph = rectangle(8, 8)
    rng = random.Random(4)
    for _ in range(4):
        made = _harder_build(graph, rng, Budget(), 8, 0.1)
        assert made is not None
        local = _LocalRules(graph, made[0])
        local.start()
        assert (_stalls(graph, made[0]) > 0) == (not local.decided())


def test_a_hard_pool_keeps_the_build_that_stalls_most() -> None:
    """With a pool, the harder candidate is the build (of the same draws) whose stalls
    are nearest the aim, the first of them on a tie, the builds ending at the first
    near enough; it is unique with its answer."""
    from smtpuzzles.limits import Budget
    from smtpuzzles.puzzles.koburin.generate import (
        HARD_STALLS,
        HARD_STALLS_NEAR,
        _harder_build,
        _harder_candidate,
        _stalls,
    )

    graph = rectangle(8, 8)
    for seed in range(1, 5):
        offs, builds = [], []
        rng = random.Random(seed)
        while len(builds) < 5 and (not offs or offs[-1] > round(HARD_STALLS_NEAR * 64)):
            made = _harder_build(graph, rng, Budget(), 8, 0.1)
            assert made is not None
            builds.append(made[0])
            offs.append(abs(_stalls(graph, made[0]) - round(HARD_STALLS * 64)))
        kept = _harder_candidate(graph, random.Random(seed), Budget(), 8, 0.1, pool=5)
        assert kept is not None
        assert kept[0] == builds[offs.index(min(offs))]
    puzzle = KoburinInstance(graph, kept[0])
    found = solve(puzzle, unique=True)
    assert found.unique is True and found.solution.black == kept[1].black
    assert problems(puzzle, kept[1].black, kept[1].edges, kept[1].loop()) == []
