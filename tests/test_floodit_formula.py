"""The redundant rules of the Flood-It formula (colour counting, progress) never exclude a
game that can really be played: every random game, fixed move by move, satisfies the
formula "done within its length"."""

from __future__ import annotations

import random

import pytest
import z3
from floodit_oracles import flood_region, is_flooded, random_grid, replay

from smtpuzzles.puzzles.floodit.clusters import cluster_graph
from smtpuzzles.puzzles.floodit.encoding import FloodFormula


def random_game(rng: random.Random, grid: list[list[int]]) -> list[int]:
    """Moves chosen at random among the colours that flood something new, until done."""
    board = [row[:] for row in grid]
    moves: list[int] = []
    while not is_flooded(board):
        region = flood_region(board)
        rows, cols = len(board), len(board[0])
        touching = sorted(
            {
                board[nr][nc]
                for r, c in region
                for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in region
            }
        )
        move = rng.choice(touching)
        moves.append(move)
        board, _ = replay(grid, moves)
    return moves


@pytest.mark.parametrize("seed", range(12))
def test_every_played_game_satisfies_the_formula(seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(rng, rng.randrange(3, 8), rng.randrange(3, 8), rng.randrange(2, 6))
    moves = random_game(rng, grid)
    formula = FloodFormula(cluster_graph(grid))
    played = [z3.Int(f"colour_t{t}") == move for t, move in enumerate(moves)]
    assert formula.solver is not None
    assert formula.solver.check(*formula.goal(len(moves)), *played) == z3.sat
