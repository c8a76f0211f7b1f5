"""The one-line Nurikabe format ``W,H size,x,y size,x,y ...`` (``seed004``).

``W,H`` is the grid's width and height; each ``size,x,y`` is a clue at column ``x``,
row ``y`` (0-based, row 0 at the top). A file may hold several puzzles, one a line.
"""

from __future__ import annotations

import re

from ..errors import InputError
from ..sources import MAX_CELLS, check_size, parse_count

_HEAD = re.compile(r"([0-9]+),([0-9]+)")
_CLUE = re.compile(r"([0-9]+),([0-9]+),([0-9]+)")


def looks_like_seed004(text: str) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and bool(re.match(r"\s*[0-9]+,[0-9]+(\s|$)", lines[0]))


def parse_seed004(
    text: str, source: str = "<text>", index: int = 1
) -> tuple[int, int, dict[tuple[int, int], int]]:
    """``(rows, cols, {(row, col): size})`` of the ``index``-th puzzle (1-based)."""
    lines = [(n, line) for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines:
        raise InputError("empty puzzle", source)
    if not 1 <= index <= len(lines):
        raise InputError(f"--index {index} is out of range 1..{len(lines)}", source)
    lineno, line = lines[index - 1]
    tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]
    head, col = tokens[0]
    m = _HEAD.fullmatch(head)
    if not m:
        raise InputError("expected 'WIDTH,HEIGHT' first", source, lineno, col)
    cols = parse_count(m.group(1), "width", source, lineno, col)
    rows = parse_count(m.group(2), "height", source, lineno, col)
    check_size(rows, cols, source, lineno, col)
    clues: dict[tuple[int, int], int] = {}
    for token, col in tokens[1:]:
        m = _CLUE.fullmatch(token)
        if not m:
            raise InputError(f"expected 'SIZE,X,Y', found {token!r}", source, lineno, col)
        size, x, y = (
            parse_count(g, what, source, lineno, col, MAX_CELLS)
            for g, what in zip(m.groups(), ("clue", "x", "y"), strict=True)
        )
        if not (x < cols and y < rows):
            raise InputError(f"clue at x={x}, y={y} is outside the grid", source, lineno, col)
        if size < 1:
            raise InputError("an island needs at least one cell (size 0)", source, lineno, col)
        if (y, x) in clues:
            raise InputError(f"two clues at x={x}, y={y}", source, lineno, col)
        clues[(y, x)] = size
    return rows, cols, clues


def format_seed004(rows: int, cols: int, clues: dict[tuple[int, int], int]) -> str:
    parts = [f"{cols},{rows}"] + [f"{s},{c},{r}" for (r, c), s in sorted(clues.items())]
    return " ".join(parts) + "\n"
