"""The Koburin generator: its puzzles have exactly the answer it wrote down."""

from __future__ import annotations

import subprocess
import sys

import pytest

from smtpuzzles.puzzles.koburin import problems, solve
from smtpuzzles.puzzles.koburin.formats import (
    parse,
    parse_solution_grid,
    solution_positions,
    to_grid_text,
)
from smtpuzzles.puzzles.koburin.generate import generate


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


def test_same_seed_same_puzzle() -> None:
    """Across processes (inside one, Z3's term numbering carries over between runs)."""
    command = [sys.executable, "-m", "smtpuzzles", "koburin", "generate", "6", "6", "--seed", "7"]
    first, second = (subprocess.run(command, capture_output=True, text=True) for _ in range(2))
    assert first.returncode == 0 and first.stdout.startswith("6 6\n")
    assert first.stdout == second.stdout
