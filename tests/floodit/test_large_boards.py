"""Flood-It on large boards: the time limit holds in every mode (the playouts, their
checks and the formula text run under it), the independent checker is linear and
agrees with a plain replay, and sizes over the limit are refused before allocation."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from smtpuzzles.puzzles.floodit import presolve
from smtpuzzles.puzzles.floodit.check import check_solution, problems
from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.sources import MAX_CELLS

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

#: How far past ``--timeout`` a whole process may end here. The promise is 0.5 s (measured
#: by benchmarks/fuzz.py on an idle machine); tests share the machine, so they allow more.
SLACK_S = 3.0


def smtpuzzles(*argv: str, timeout: float = 120.0) -> tuple[int, str, str, float]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "smtpuzzles", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=timeout,
    )
    return done.returncode, done.stdout, done.stderr, time.monotonic() - began


def random_grid(rows: int, cols: int, colours: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    grid = [[rng.randrange(colours) for _ in range(cols)] for _ in range(rows)]
    for c in range(colours):  # every colour used
        grid[c // cols][c % cols] = c
    return grid


def write_board(path: Path, grid: list[list[int]]) -> str:
    path.write_text("".join("".join(str(c) for c in row) + "\n" for row in grid))
    return str(path)


# -- the checker ----------------------------------------------------------------------------


def naive_replay(grid: list[list[int]], moves: list[int], start: tuple[int, int]) -> list[str]:
    """The rules played the slow, obvious way: recolour the region, flood again."""
    board = [row[:] for row in grid]
    rows, cols = len(board), len(board[0])
    colours = {c for row in board for c in row}

    def region() -> set[tuple[int, int]]:
        colour = board[start[0]][start[1]]
        seen, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= nr < rows and 0 <= nc < cols and (nr, nc) not in seen:
                    if board[nr][nc] == colour:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
        return seen

    flooded = region()
    for number, colour in enumerate(moves, 1):
        if colour not in colours:
            return [f"move {number}: colour {colour} is not on the board"]
        if colour == board[start[0]][start[1]]:
            return [f"move {number}: colour {colour} is already the region's colour"]
        for r, c in flooded:
            board[r][c] = colour
        grown = region()
        if len(grown) == len(flooded):
            return [f"move {number}: colour {colour} floods no new cell"]
        flooded = grown
    if len({c for row in board for c in row}) != 1:
        return [f"after {len(moves)} moves the board still has several colours"]
    return []


@pytest.mark.parametrize("seed", range(60))
def test_the_checker_agrees_with_a_plain_replay(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols, k = rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 4)
    k = min(k, rows * cols)
    grid = random_grid(rows, cols, k, seed)
    start = (rng.randrange(rows), rng.randrange(cols))
    for _ in range(20):
        moves = [rng.randrange(k + 1) for _ in range(rng.randint(0, 2 * rows * cols))]
        assert problems(grid, moves, start) == naive_replay(grid, moves, start)


def test_problems_names_what_is_wrong_and_check_solution_raises() -> None:
    grid = [[0, 1], [1, 2]]
    assert problems(grid, [1, 2]) == []
    assert problems(grid, [1]) == ["after 1 moves the board still has several colours"]
    assert problems(grid, [0]) == ["move 1: colour 0 is already the region's colour"]
    assert problems(grid, [7]) == ["move 1: colour 7 is not on the board"]
    assert problems(grid, ["1"]) == ["move 1: '1' is not a colour number"]  # type: ignore[list-item]
    assert problems(grid, [1, 2], start=(5, 5)) != []
    with pytest.raises(Exception, match="several colours"):
        check_solution(grid, [1])


def test_the_checker_never_copies_the_board_per_move() -> None:
    """One row of 20,000 cells flooded in 10,000 moves: copying the board per move would
    take 20,000 x 10,000 cells; the checker holds a few bytes per cell."""
    cols = 20_000
    grid = [[c % 3 for c in range(cols)]]
    colour, moves = grid[0][0], []
    for c in range(1, cols):
        if grid[0][c] != colour:
            moves.append(grid[0][c])
            colour = grid[0][c]
    assert len(moves) > 10_000
    tracemalloc.start()
    try:
        assert problems(grid, moves) == []
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * cols, peak  # bytes: linear in the cells


# -- bounds in linear memory ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_bounds_on_sets_equal_the_bitset_bounds(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large graphs get the playout and the lower bound computed on sets: the same
    answers as the bitset versions, which take memory quadratic in the clusters."""
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 12), rng.randint(1, 12)
    k = min(rng.randint(1, 6), rows * cols)
    g = cluster_graph(random_grid(rows, cols, k, seed), (rng.randrange(rows), rng.randrange(cols)))
    bitsets = (presolve.greedy_moves(g), presolve.lower_bound(g), presolve.upper_bound(g))
    monkeypatch.setattr(presolve, "BITSET_CLUSTERS", 0)
    on_sets = (presolve.greedy_moves(g), presolve.lower_bound(g), presolve.upper_bound(g))
    assert on_sets[:2] == bitsets[:2]
    assert on_sets[2] == on_sets[0]  # no beam search on large graphs: the greedy playout
    assert problems(g_grid(g), on_sets[0], g.cells[g.start][0]) == []


def g_grid(g: presolve.ClusterGraph) -> list[list[int]]:
    """The board behind a cluster graph, cell by cell."""
    rows = 1 + max(r for cells in g.cells for r, _ in cells)
    cols = 1 + max(c for cells in g.cells for _, c in cells)
    grid = [[0] * cols for _ in range(rows)]
    for colour, cells in zip(g.colours, g.cells, strict=True):
        for r, c in cells:
            grid[r][c] = colour
    return grid


# -- sizes ----------------------------------------------------------------------------------


def test_a_board_over_the_cell_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "row.txt"
    path.write_text(("01" * (MAX_CELLS // 2 + 1)) + "\n")
    code, out, err, _ = smtpuzzles("floodit", "min", str(path))
    assert code == 2, err
    assert f"limit is {MAX_CELLS}" in err and "Traceback" not in err and out == ""


# -- the time limit on large boards ---------------------------------------------------------


@pytest.mark.parametrize("mode", ["min", "solve", "opt"])
def test_timeout_holds_on_a_large_board(tmp_path: Path, mode: str) -> None:
    board = write_board(tmp_path / "b.txt", random_grid(120, 120, 4, 1))
    code, out, err, seconds = smtpuzzles("floodit", mode, board, "--timeout", "1", "--json")
    assert code == 3, err
    assert json.loads(out)["status"] == "unknown"
    assert seconds < 1 + SLACK_S, seconds


def test_timeout_holds_on_a_dry_run_and_the_reference_encoding(tmp_path: Path) -> None:
    board = write_board(tmp_path / "b.txt", random_grid(150, 150, 6, 2))
    code, _, err, seconds = smtpuzzles("floodit", "min", board, "--dry-run", "--timeout", "1")
    assert code == 3 and "time limit" in err, err
    assert seconds < 1 + SLACK_S, seconds
    code, _, err, seconds = smtpuzzles(
        "floodit", "min", board, "--encoding", "reference", "--timeout", "1"
    )
    assert code == 3, err
    assert seconds < 1 + SLACK_S, seconds


@pytest.mark.slow
def test_timeout_holds_on_one_long_row(tmp_path: Path) -> None:
    """The issue's 1 x 100,000 board ran for minutes and grew to gigabytes."""
    board = write_board(tmp_path / "row.txt", random_grid(1, 100_000, 4, 3))
    code, out, err, seconds = smtpuzzles("floodit", "min", board, "--timeout", "2", "--json")
    assert code in (0, 3), err
    assert seconds < 2 + SLACK_S, seconds


@pytest.mark.slow
def test_timeout_holds_on_large_grids_of_the_other_puzzles(tmp_path: Path) -> None:
    rng = random.Random(4)
    rows = [" ".join(str(rng.randrange(3)) if rng.random() < 0.05 else "-" for _ in range(200))]
    koburin = tmp_path / "k.txt"
    koburin.write_text("200 200\n" + "\n".join(rows * 200) + "\n")
    code, _, err, seconds = smtpuzzles("koburin", "solve", str(koburin), "--timeout", "2")
    assert code == 3, err
    assert seconds < 2 + SLACK_S, seconds
    clues = " ".join(f"{rng.randint(1, 9)},{rng.randrange(300)},{y}" for y in range(300))
    nurikabe = tmp_path / "n.txt"
    nurikabe.write_text(f"300,300 {clues}\n")
    code, _, err, seconds = smtpuzzles("nurikabe", "solve", str(nurikabe), "--timeout", "2")
    assert code == 3, err
    assert seconds < 2 + SLACK_S, seconds
