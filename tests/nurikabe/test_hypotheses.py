"""Hypotheses and strict deductions are sound: what they prove holds in every solution.

Brute force (:func:`oracles.nurikabe.brute_force`) lists every solution of small
puzzles on every shape; a guess the strict deductions refute must hold in none of them,
and every fact the hypotheses add must hold in all of them. The janko puzzles that the
solver's search stalled on are decided to their known answers.
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest
from oracles.nurikabe import PUZZLES, as_params, solutions_of

from smtpuzzles.engines import Stats
from smtpuzzles.graph import rectangle
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.nurikabe import NurikabeInstance, deduce, prepare, solve
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.formats import read_solution as expected_rows
from smtpuzzles.puzzles.nurikabe.presolve.deduce import Contradiction, Deductions
from smtpuzzles.puzzles.nurikabe.presolve.probe import probe


def island_of(puzzle: NurikabeInstance, picture: tuple[bool, ...], cell: int) -> set[int]:
    """The white region of ``picture`` that holds ``cell``."""
    seen, queue = {cell}, deque([cell])
    while queue:
        for j in puzzle.neighbours[queue.popleft()]:
            if not picture[j] and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen


def holds(
    puzzle: NurikabeInstance, picture: tuple[bool, ...], black: set[int], owner: dict
) -> bool:
    """Does the solution ``picture`` have these black cells and these island cells?"""
    return all(picture[i] for i in black) and all(
        not picture[i] and k in island_of(puzzle, picture, i) for i, k in owner.items()
    )


@pytest.mark.parametrize("puzzle", as_params(PUZZLES))
def test_refuted_guesses_hold_in_no_solution(puzzle: NurikabeInstance) -> None:
    """Every cell guessed black, and white in each island that may reach it."""
    solutions = solutions_of(puzzle.name)
    known = deduce(puzzle)
    assert all(holds(puzzle, s, known.black, known.owner) for s in solutions)
    for i in range(len(puzzle)):
        guesses: list[tuple[set[int], dict[int, int]]] = [({i}, {})]
        guesses += [(set(), {i: k}) for k in known.reach if i in known.reach[k]]
        for black, owner in guesses:
            try:
                after = deduce(puzzle, known, black, owner, strict=True)
            except Contradiction:
                assert not any(holds(puzzle, s, black, owner) for s in solutions), (i, owner)
                continue
            for s in solutions:  # what a guess implies holds wherever the guess does
                if holds(puzzle, s, black, owner):
                    assert holds(puzzle, s, after.black, after.owner), (i, owner)


@pytest.mark.parametrize("puzzle", as_params(PUZZLES))
def test_hypotheses_hold_in_every_solution(puzzle: NurikabeInstance) -> None:
    solutions = solutions_of(puzzle.name)
    try:
        known = probe(puzzle, deduce(puzzle))
    except Contradiction:
        assert not solutions
        return
    assert all(holds(puzzle, s, known.black, known.owner) for s in solutions)


def test_the_cases_give_the_hypotheses_work() -> None:
    """Hypotheses decide cells on many of the cases and refute some puzzles outright,
    so the two tests above are not passed by doing nothing."""
    decided = refuted = 0
    for puzzle in PUZZLES:
        before = deduce(puzzle)
        try:
            after = probe(puzzle, before)
        except Contradiction:
            refuted += 1
            continue
        decided += len(after.black) + len(after.owner) > len(before.black) + len(before.owner)
    assert decided >= 20 and refuted >= 5, (decided, refuted)


def test_a_guess_that_parts_the_wall_is_refuted() -> None:
    """3x3 with clues of 3 in opposite corners: the plain deductions leave the centre
    open; guessed white, it joins one island and leaves the wall no way round, so it
    is black (the answers are the two diagonal-free crosses: centre black in both)."""
    graph = rectangle(3, 3)
    puzzle = NurikabeInstance(graph, {0: 3, 8: 3}, tuple(graph.squares()))
    known = deduce(puzzle)
    assert 4 not in known.black
    assert 4 in probe(puzzle, known).black


def test_incremental_deductions_equal_a_fresh_run() -> None:
    """From an earlier fixpoint plus new facts, only the islands near the facts are
    worked out again; the result equals deducing from the clues and facts at once."""
    rng = random.Random(7)
    for puzzle in PUZZLES[::3]:
        known = deduce(puzzle)
        open_cells = [i for i in range(len(puzzle)) if i not in known.black | known.owner.keys()]
        for i in rng.sample(open_cells, min(3, len(open_cells))):
            quick = deduce(puzzle, known, {i})
            fresh = deduce(puzzle, None, known.black | {i}, known.owner)
            assert (quick.black, quick.owner) == (fresh.black, fresh.owner), puzzle.name
            assert quick.reach == fresh.reach, puzzle.name


def test_a_refuted_puzzle_is_unsat_without_a_search() -> None:
    """When the hypotheses prove there is no solution, the search says unsat at once."""
    refuted = []
    for puzzle in PUZZLES:
        try:
            probe(puzzle, deduce(puzzle))
        except Contradiction:
            refuted.append(puzzle)
    assert refuted
    for puzzle in refuted[:10]:
        stats = Stats()
        outcome, _ = solve(puzzle, stats=stats)
        assert outcome.status == "unsat", puzzle.name
        assert [p["answer"] for p in stats.probes] == ["no solution"], puzzle.name


def test_hypotheses_stop_at_their_time_limit() -> None:
    """With no time left they add nothing, and the search starts from the deductions."""
    puzzle = next(p for p in PUZZLES if _decides(p))
    known = deduce(puzzle)
    stopped = probe(puzzle, known, seconds=0.0)
    assert (stopped.black, stopped.owner) == (known.black, known.owner)
    enc, refuted = prepare(puzzle, Budget(1e-9))
    assert not refuted and (enc.known.black, enc.known.owner) == (known.black, known.owner)


def _decides(puzzle: NurikabeInstance) -> bool:
    """Do hypotheses decide a cell of ``puzzle`` that the deductions leave open?"""
    known = deduce(puzzle)
    try:
        probed = probe(puzzle, known)
    except Contradiction:
        return False
    return (probed.black, probed.owner) != (known.black, known.owner)


STALLED = ["janko_0459_20x36", "janko_0667_14x24"]


@pytest.mark.parametrize("name", STALLED)
@pytest.mark.slow
def test_hypotheses_decide_stalled_janko_puzzles(data_dir: Path, name: str) -> None:
    """The solver's search stalled on these (0459: no answer in 90 s); the hypotheses
    decide every cell, as the known answer has it, in a second or two."""
    path = data_dir / "nurikabe" / f"{name}.txt"
    puzzle = parse(path.read_text(), str(path))
    known: Deductions = probe(puzzle, deduce(puzzle))
    assert len(known.black) + len(known.owner) == len(puzzle)
    answer = "".join(expected_rows(path))
    assert all(answer[i] == "#" for i in known.black)
    assert all(answer[i] == "." for i in known.owner)
    stats = Stats()
    outcome, _ = solve(puzzle, stats=stats)
    assert outcome.status == "solved"
    assert any(p["label"] == "hypotheses" for p in stats.probes)
