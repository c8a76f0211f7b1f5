"""Flood-It board formats: the three formats, auto-detection, and one-line errors."""

from __future__ import annotations

import pytest

from smtpuzzles.errors import InputError
from smtpuzzles.puzzles.floodit.formats import detect_format, parse_board, parse_start


def test_grid_format_with_crlf_and_trailing_blank_lines() -> None:
    board = parse_board("012\r\n120\r\n\r\n\n", "b.txt")
    assert board.grid == ((0, 1, 2), (1, 2, 0))
    assert (board.rows, board.cols, board.n_colours) == (2, 3, 3)


def test_grid_format_letters_are_colours_ten_and_up() -> None:
    row = "0123456789ab"
    assert parse_board(row).grid == (tuple(range(12)),)


def test_mnk_format_reads_colours_from_one_and_the_optimum() -> None:
    board = parse_board("2 3 3\n1 2 3 3 2 1\n4\n", "p")
    assert detect_format("2 3 3\n1 2 3 3 2 1\n4\n") == "mnk"
    assert board.grid == ((0, 1, 2), (2, 1, 0))
    assert board.known_optimum == 4


def test_lines_format_needs_index_for_many_boards() -> None:
    text = "1212\n2211\n1122\n"
    assert detect_format(text) == "lines"
    assert parse_board(text, "d", index=2).grid == ((1, 1), (0, 0))
    with pytest.raises(InputError, match="--index 1..3"):
        parse_board(text, "d")
    with pytest.raises(InputError, match="outside 1..3"):
        parse_board(text, "d", index=4)


def test_format_can_be_forced() -> None:
    assert parse_board("1212\n", fmt="lines").grid == ((0, 1), (0, 1))
    with pytest.raises(InputError, match="gapless from 0: 0 is missing"):
        parse_board("1212\n", fmt="grid")


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("012\n01\n", "ragged rows", 2, 3),
        ("012\n0.1\n", "'.' is not a colour", 2, 2),
        ("013\n310\n", "2 is missing", 1, 3),
        ("", "empty board", None, None),
        ("\n\n", "empty board", None, None),
        ("2 2 2\n1 2 3 1\n", "colour 3 is outside 1..2", 2, 5),
        ("2 2 2\n1 2 1\n", "file ends before cell 4", 2, None),
        ("2 2 2\n1 2 1 2\n3 4\n", "unexpected text after the optimum", 3, 3),
    ],
)
def test_errors_name_line_and_column(
    text: str, message: str, line: int | None, column: int | None
) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_board(text, "bad.txt")
    assert (info.value.source, info.value.line, info.value.column) == ("bad.txt", line, column)
    assert "\n" not in str(info.value)


def test_start_cell() -> None:
    board = parse_board("01\n10\n")
    assert parse_start(None, board) == (0, 0)
    assert parse_start("1,0", board) == (1, 0)
    for bad in ("2,0", "a,b", "1", "-1,0"):
        with pytest.raises(InputError, match="--start"):
            parse_start(bad, board)
