"""Flood-It boards and the three text formats they come in.

- ``grid``: one row per line, one character per cell, colours ``0``-``9`` then ``a``-``z``
  (up to 36), gapless from ``0``.
- ``mnk``: the 99problems files: line ``m n k``, then the ``m*n`` colours ``1..k`` row by
  row separated by blanks, then optionally the known optimum.
- ``lines``: datasets with one square board per line, cells as base-36 digits starting at
  ``1`` (colour = digit - 1); ``--index`` picks a board.

Lines starting with ``#`` are comments in every format. Every error names the source and,
where it applies, the line and column.
"""

from __future__ import annotations

import math
import re

from ...errors import InputError
from ...sources import MAX_DIGITS, check_size, parse_count, read_source
from .model import DIGITS, Board

FORMATS = ("auto", "grid", "mnk", "lines")
_MNK_HEAD = re.compile(r"^\s*[0-9]+\s+[0-9]+\s+[0-9]+\s*$")
_ASCII_INT = re.compile(r"-?[0-9]+")


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line) of every line that is neither blank nor a comment."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.rstrip(" \t")
        if stripped.strip() and not stripped.lstrip().startswith("#"):
            out.append((number, stripped))
    return out


def _check_gapless(
    grid: list[list[int]], where: dict[int, tuple[int, int]], source: str, first: int
) -> int:
    """The number of colours, insisting that every colour below the largest is used."""
    used = sorted(where)
    for expected, colour in enumerate(used):
        if colour != expected:
            line, col = where[colour]
            shown = ", ".join(str(c + first) for c in used)
            raise InputError(
                f"colours must be gapless from {first}: {expected + first} is missing "
                f"(colours used: {shown})",
                source,
                line,
                col,
            )
    return len(used)


def parse_grid(text: str, source: str) -> Board:
    """The ``grid`` format: rows of colour characters."""
    lines = _content_lines(text)
    if not lines:
        raise InputError("empty board: no rows", source)
    width = len(lines[0][1])
    check_size(len(lines), width, source, lines[0][0], 1)
    grid: list[list[int]] = []
    where: dict[int, tuple[int, int]] = {}
    for number, line in lines:
        row = []
        for col, ch in enumerate(line, 1):
            colour = DIGITS.find(ch)
            if colour < 0:
                raise InputError(f"{ch!r} is not a colour (use 0-9 then a-z)", source, number, col)
            where.setdefault(colour, (number, col))
            row.append(colour)
        if len(row) != width:
            raise InputError(
                f"ragged rows: this row has {len(row)} cells, the first row has {width}",
                source,
                number,
                min(len(row), width) + 1,
            )
        grid.append(row)
    k = _check_gapless(grid, where, source, 0)
    return Board(tuple(tuple(r) for r in grid), k, source)


def parse_mnk(text: str, source: str) -> Board:
    """The ``mnk`` format of 99problems: ``m n k``, the colours 1..k, the optimum."""
    tokens: list[tuple[str, int, int]] = []
    for number, line in _content_lines(text):
        for match in re.finditer(r"\S+", line):
            tokens.append((match.group(), number, match.start() + 1))
    if not tokens:
        raise InputError("empty board: no header 'm n k'", source)

    def number_at(i: int, what: str) -> int:
        if i >= len(tokens):
            line = tokens[-1][1]
            raise InputError(f"file ends before {what}", source, line)
        tok, line, col = tokens[i]
        return parse_count(tok, what, source, line, col)

    m = number_at(0, "the row count m")
    n = number_at(1, "the column count n")
    k = number_at(2, "the colour count k")
    if m < 1 or n < 1 or not 1 <= k <= len(DIGITS):
        raise InputError(
            f"header 'm n k' must have m, n >= 1 and 1 <= k <= {len(DIGITS)}",
            source,
            tokens[0][1],
            1,
        )
    check_size(m, n, source, tokens[0][1], 1)
    grid = [[0] * n for _ in range(m)]
    where: dict[int, tuple[int, int]] = {}
    for cell in range(m * n):
        value = number_at(3 + cell, f"cell {cell + 1} of {m * n}")
        if not 1 <= value <= k:
            _, line, col = tokens[3 + cell]
            raise InputError(f"colour {value} is outside 1..{k}", source, line, col)
        where.setdefault(value - 1, tokens[3 + cell][1:])
        grid[cell // n][cell % n] = value - 1
    optimum = None
    rest = tokens[3 + m * n :]
    if rest:
        optimum = number_at(3 + m * n, "the optimum")
        if len(rest) > 1:
            _, line, col = rest[1]
            raise InputError("unexpected text after the optimum", source, line, col)
    colours = _check_gapless(grid, where, source, 1)
    return Board(tuple(tuple(r) for r in grid), colours, source, optimum)


def parse_lines(text: str, source: str, index: int | None) -> Board:
    """The dataset format: one square board per line in base-36 digits from ``1``."""
    lines = _content_lines(text)
    if not lines:
        raise InputError("empty file: no boards", source)
    if index is None:
        if len(lines) > 1:
            raise InputError(
                f"the file holds {len(lines)} boards; pick one with --index 1..{len(lines)}",
                source,
            )
        index = 1
    if not 1 <= index <= len(lines):
        raise InputError(f"--index {index} is outside 1..{len(lines)}", source)
    number, line = lines[index - 1]
    side = math.isqrt(len(line))
    if side * side != len(line):
        raise InputError(
            f"a board line must hold a square board; {len(line)} cells is no square",
            source,
            number,
        )
    check_size(side, side, source, number, 1)
    grid = [[0] * side for _ in range(side)]
    where: dict[int, tuple[int, int]] = {}
    for pos, ch in enumerate(line):
        digit = DIGITS.find(ch.lower())
        if digit < 1:
            raise InputError(
                f"{ch!r} is not a colour (this format uses 1-9 then a-z)", source, number, pos + 1
            )
        where.setdefault(digit - 1, (number, pos + 1))
        grid[pos // side][pos % side] = digit - 1
    colours = _check_gapless(grid, where, source, 1)
    name = f"{source}#{index}" if len(lines) > 1 else source
    return Board(tuple(tuple(r) for r in grid), colours, name)


def count_boards(text: str) -> int:
    """How many boards a text holds (datasets: one per line; other formats: one)."""
    if detect_format(text) == "lines":
        return len(_content_lines(text))
    return 1


def detect_format(text: str) -> str:
    """Guess the format: ``m n k`` header, else square base-36 lines without ``0``, else grid."""
    lines = _content_lines(text)
    if not lines:
        return "grid"
    if _MNK_HEAD.match(lines[0][1]):
        return "mnk"
    squares = all(len(line) > 1 and math.isqrt(len(line)) ** 2 == len(line) for _, line in lines)
    if squares and not any("0" in line for _, line in lines):
        return "lines"
    return "grid"


def parse_board(
    text: str, source: str = "<board>", fmt: str = "auto", index: int | None = None
) -> Board:
    """A board from text in any of the formats (``fmt="auto"`` detects it)."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "lines":
        return parse_lines(text, source, index)
    if index not in (None, 1):
        raise InputError(f"--index {index}: this {fmt}-format file holds one board", source)
    if fmt == "mnk":
        return parse_mnk(text, source)
    return parse_grid(text, source)


def load_board(path: str, fmt: str = "auto", index: int | None = None) -> Board:
    """Read and parse a board file (``-`` is standard input)."""
    text, name = read_source(path)
    return parse_board(text, name, fmt, index)


def parse_start(spec: str | None, board: Board) -> tuple[int, int]:
    """``ROW,COL`` (0-based) of the start cell; the top-left cell by default."""
    if spec is None:
        return (0, 0)
    parts = spec.split(",")
    shown = spec if len(spec) <= 40 else spec[:40] + "..."
    if len(parts) != 2 or not all(_ASCII_INT.fullmatch(p.strip()) for p in parts):
        raise InputError(f"--start {shown!r}: expected ROW,COL such as 0,0")
    if any(len(p.strip().lstrip("-").lstrip("0")) > MAX_DIGITS for p in parts):
        raise InputError(f"--start {shown}: outside the {board.rows}x{board.cols} board")
    row, col = (int(p) for p in parts)
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        raise InputError(
            f"--start {shown}: outside the {board.rows}x{board.cols} board "
            f"(rows 0..{board.rows - 1}, columns 0..{board.cols - 1})"
        )
    return (row, col)
