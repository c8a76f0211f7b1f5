"""The redundant rules of the Flood-It formula (colour counting, progress) never exclude a
game that can really be played: every random game, fixed move by move, satisfies the
formula "done within its length"."""

from __future__ import annotations

import random

import pytest
import z3
from oracles.floodit import flood_region, is_flooded, random_grid, replay

from smtpuzzles.puzzles.floodit.formats import parse_board
from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.rules import FloodFormula


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


@pytest.mark.parametrize("clauses", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_every_played_game_satisfies_the_formula(seed: int, clauses: bool) -> None:
    rng = random.Random(seed)
    grid = random_grid(rng, rng.randrange(3, 8), rng.randrange(3, 8), rng.randrange(2, 6))
    moves = random_game(rng, grid)
    formula = FloodFormula(cluster_graph(grid), clauses=clauses)
    played = [z3.Int(f"colour_t{t}") == move for t, move in enumerate(moves)]
    assert formula.solver is not None
    assert formula.solver.check(*formula.goal(len(moves)), *played) == z3.sat


@pytest.mark.parametrize("clauses", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_the_flooded_flags_are_the_real_flood(seed: int, clauses: bool) -> None:
    """Given the moves, the formula leaves each ``flooded_c<i>_t<t>`` no choice: it is
    true exactly when the cells of cluster i are in the region after t moves (the
    replay of the oracle, which knows no clusters)."""
    rng = random.Random(100 + seed)
    grid = random_grid(rng, rng.randrange(3, 7), rng.randrange(3, 7), rng.randrange(2, 5))
    moves = random_game(rng, grid)
    g = cluster_graph(grid)
    formula = FloodFormula(g, clauses=clauses)
    formula.extend(len(moves))
    played = [z3.Int(f"colour_t{t}") == move for t, move in enumerate(moves)]
    wrong = []
    for t in range(1, len(moves) + 1):
        region = flood_region(replay(grid, moves[:t])[0])
        for i, cells in enumerate(g.cells):
            name = formula.flooded[t][i]
            really = set(cells) <= region
            if name is None:
                assert not really
            elif name != "true":
                flag = z3.Bool(name)
                wrong.append(z3.Not(flag) if really else flag)
    assert formula.solver is not None
    assert formula.solver.check(*played, z3.Or(wrong)) == z3.unsat


def recoloured(board: list[list[int]], region: set, colour: int) -> list[list[int]]:
    """The board with the cells of ``region`` painted ``colour`` (a move, no checks)."""
    out = [row[:] for row in board]
    for r, c in region:
        out[r][c] = colour
    return out


@pytest.mark.parametrize("seed", range(8))
def test_moves_that_flood_nothing_are_left_out(seed: int) -> None:
    """Without the progress rule a model may hold moves that flood nothing; the moves
    read from it are the game without them, still a full solution."""
    rng = random.Random(200 + seed)
    grid = random_grid(rng, rng.randrange(3, 7), rng.randrange(3, 7), rng.randrange(3, 6))
    game = random_game(rng, grid)
    padded, inserted = list(game), 0
    for at in sorted(rng.sample(range(len(game)), min(2, len(game))), reverse=True):
        board = replay(grid, game[:at])[0]
        region = flood_region(board)
        last = game[at - 1] if at > 0 else grid[0][0]
        idle = [
            c
            for c in range(len({v for row in grid for v in row}))
            if c not in (last, game[at]) and flood_region(recoloured(board, region, c)) == region
        ]
        if idle:
            padded.insert(at, rng.choice(idle))
            inserted += 1
    g = cluster_graph(grid)
    formula = FloodFormula(g, progress=False)
    played = [z3.Int(f"colour_t{t}") == move for t, move in enumerate(padded)]
    assert formula.solver is not None
    assert formula.solver.check(*formula.goal(len(padded)), *played) == z3.sat
    assert formula.moves(formula.solver.model()) == game
    if inserted:
        strict = FloodFormula(g)
        assert strict.solver is not None
        assert strict.solver.check(*strict.goal(len(padded)), *played) == z3.unsat


def test_a_move_cut_short_is_taken_back_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit that lands while a move is built leaves the formula as it was, so the
    question a run was asking when it stopped can still be written as a whole script."""
    board = parse_board("0120\n2011\n1202\n0211\n", "b")
    formula = FloodFormula(cluster_graph(board.grid), feed=False)
    formula.extend(1)
    real = FloodFormula._flood_rule

    def stop_once(self: FloodFormula, *args: object) -> str:
        monkeypatch.setattr(FloodFormula, "_flood_rule", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(FloodFormula, "_flood_rule", stop_once)
    with pytest.raises(KeyboardInterrupt):
        formula.extend(3)
    assert formula.horizon == len(formula.layers) - 1 == 1
    script = formula.script(3).text()
    assert z3.Solver().from_string(script) is None  # every name it uses is declared
    whole = FloodFormula(cluster_graph(board.grid), feed=False).script(3).text()
    assert script == whole


def test_a_limit_while_the_solver_reads_a_move_leaves_scripts_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A limit that lands as the solver is handed a move (before it has read it) must
    not leave the formula feeding later moves to a solver that lacks that one: the
    question cut short is still written as a whole script (it was exit 70)."""
    from smtpuzzles.puzzles.floodit import rules

    board = parse_board("0120\n2011\n1202\n0211\n", "b")
    formula = FloodFormula(cluster_graph(board.grid), feed=True)
    formula.extend(1)
    real = rules.parse_into

    def stop_once(solver: z3.Solver, text: str) -> None:
        monkeypatch.setattr(rules, "parse_into", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(rules, "parse_into", stop_once)
    with pytest.raises(KeyboardInterrupt):
        formula.extend(2)
    script = formula.script(4).text()
    assert z3.Solver().from_string(script) is None  # every name it uses is declared
    whole = FloodFormula(cluster_graph(board.grid), feed=False).script(4).text()
    assert script == whole
