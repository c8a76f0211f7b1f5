"""Fuzzing the Flood-It board parsers (grid, ``m n k``, base-36 datasets with ``--index``):
every input is a well-formed board or one InputError line; valid texts read back exactly;
the command line turns bad input into exit 2 and one stderr line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.cli import assert_bad_input, cli, parsed_or_refused
from oracles.fuzzing import inputs

from smtpuzzles.puzzles.floodit.formats import parse_board
from smtpuzzles.puzzles.floodit.model import DIGITS, Board

#: A thousand inputs a parser: part of the whole suite, not of the quick loop.
pytestmark = pytest.mark.slow

Grid = list[list[int]]


@st.composite
def grids(draw: st.DrawFn, square: bool = False) -> Grid:
    rows = draw(st.integers(1, 7))
    cols = rows if square else draw(st.integers(1, 7))
    colours = draw(st.integers(1, min(8, rows * cols)))
    cells = [draw(st.integers(0, colours - 1)) for _ in range(rows * cols)]
    cells[:colours] = range(colours)  # every colour used: gapless
    cells = draw(st.permutations(cells))
    return [list(cells[r * cols : (r + 1) * cols]) for r in range(rows)]


def grid_text(grid: Grid) -> str:
    return "".join("".join(DIGITS[c] for c in row) + "\n" for row in grid)


def mnk_text(grid: Grid, optimum: int | None) -> str:
    k = max(max(row) for row in grid) + 1
    body = "\n".join(" ".join(str(c + 1) for c in row) for row in grid)
    tail = f"\n{optimum}" if optimum is not None else ""
    return f"{len(grid)} {len(grid[0])} {k}\n{body}{tail}\n"


def lines_text(boards: list[Grid]) -> str:
    return "".join("".join(DIGITS[c + 1] for row in g for c in row) + "\n" for g in boards)


def well_formed(board: Board) -> None:
    """What every parsed board promises the encoder."""
    assert board.rows >= 1 and board.cols >= 1
    assert all(len(row) == board.cols for row in board.grid)
    used = {c for row in board.grid for c in row}
    assert used == set(range(board.n_colours))


FORMAT_TEXTS = {
    "grid": grids().map(grid_text),
    "mnk": st.tuples(grids(), st.none() | st.integers(0, 40)).map(lambda t: mnk_text(*t)),
    "lines": st.lists(grids(square=True), min_size=1, max_size=3).map(lines_text),
}


def _fuzz(fmt: str, text: str, index: int | None) -> None:
    board = parsed_or_refused(lambda t: parse_board(t, "f", fmt, index), text)
    if board is not None:
        well_formed(board)


@given(inputs(FORMAT_TEXTS["grid"]), st.sampled_from(["grid", "auto"]))
def test_grid_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text, None)


@given(inputs(FORMAT_TEXTS["mnk"]), st.sampled_from(["mnk", "auto"]))
def test_mnk_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text, None)


@given(
    inputs(FORMAT_TEXTS["lines"]),
    st.sampled_from(["lines", "auto"]),
    st.none() | st.integers(-1, 6),
)
def test_dataset_parser(text: str, fmt: str, index: int | None) -> None:
    _fuzz(fmt, text, index)


@settings(max_examples=200)
@given(grids())
def test_valid_texts_read_back_exactly(grid: Grid) -> None:
    for fmt, text in (("grid", grid_text(grid)), ("mnk", mnk_text(grid, 7))):
        board = parse_board(text, "f", fmt)
        assert [list(r) for r in board.grid] == grid
    if len(grid) == len(grid[0]):
        board = parse_board(lines_text([grid, grid]), "f", "lines", 2)
        assert [list(r) for r in board.grid] == grid


@settings(max_examples=100)
@given(inputs(st.sampled_from(list(FORMAT_TEXTS.values())).flatmap(lambda s: s)))
def test_command_line_refuses_bad_boards_in_one_line(text: str) -> None:
    """Through the real command (in-process): a board is read or refused with exit 2; one
    the command accepts is a rectangle of colours the parser reads the same way."""
    result = cli("floodit", "exact", "1", "-", "--dry-run", stdin=text)
    if result.exit_code != 0:
        assert_bad_input(result)
        return
    assert "status: dry-run" in result.stdout, result.stdout
    board = parse_board(text, "<stdin>")
    assert board.grid and len({len(row) for row in board.grid}) == 1
    assert all(0 <= c < board.n_colours for row in board.grid for c in row)
