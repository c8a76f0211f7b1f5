"""Clue grids as text: the common shape of Nurikabe and Koburin puzzle files.

Two spellings are read:

* tokens separated by spaces (clues of any size), optionally under a ``ROWS COLS``
  header line, as in the janko-derived corpora: ``- - 2 -``;
* one character per cell when no line has a space: ``2____``.

``-``, ``.`` and ``_`` are empty cells, ``?`` is a clue of unknown value. Every error
names the line and column of the offending token.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import InputError
from ..sources import MAX_CELLS, check_size, parse_count

if TYPE_CHECKING:
    from ..graph import Graph

EMPTY = frozenset("-._")
UNKNOWN = "?"  #: a clue whose value is not given

Clue = int | str  #: a number, or UNKNOWN


@dataclass
class ClueGrid:
    """A rectangle of cells, some with clues; ``where`` keeps each cell's source position."""

    rows: int
    cols: int
    clues: dict[tuple[int, int], Clue] = field(default_factory=dict)
    where: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    source: str = "<text>"

    def error(self, cell: tuple[int, int], message: str) -> InputError:
        """An error pointing at ``cell``'s token in the source text."""
        line, col = self.where.get(cell, (None, None))
        return InputError(message, self.source, line, col)


_HEADER = re.compile(r"\s*([0-9]+)\s+([0-9]+)\s*")
_NUMBER = re.compile(r"[0-9]+")


def _tokens(line: str) -> list[tuple[str, int]]:
    """Tokens of a line with their 1-based columns."""
    return [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]


def parse_clue_grid(
    text: str,
    source: str = "<text>",
    first_line: int = 1,
    max_clue: int | None = None,
    header: bool = True,
) -> ClueGrid:
    """Parse a clue grid; ``first_line`` is the line number of ``text``'s first line.

    ``max_clue`` rejects larger clues with a located error (Koburin numbers are 0..4).
    ``header=False`` never reads the first line as ``ROWS COLS`` (a janko block states
    its size elsewhere, and a first row "1 2" of a two-column grid would look like one).
    """
    lines = [(first_line + k, line.rstrip()) for k, line in enumerate(text.split("\n"))]
    # Blank lines may end the grid (trailing newlines) but not interrupt it.
    while lines and not lines[-1][1].strip():
        lines.pop()
    while lines and not lines[0][1].strip():
        lines.pop(0)
    if not lines:
        raise InputError("empty puzzle: no grid rows", source)
    size: tuple[int, int] | None = None
    m = _HEADER.fullmatch(lines[0][1]) if header else None
    if m and len(lines) > 1:
        rows = parse_count(m.group(1), "rows", source, lines[0][0], m.start(1) + 1)
        cols = parse_count(m.group(2), "columns", source, lines[0][0], m.start(2) + 1)
        second = lines[1][1].strip()
        if rows == len(lines) - 1 or cols in (len(second.split()), len(second)):
            size = (rows, cols)
            if rows < 1 or cols < 1:
                raise InputError(
                    "the header needs at least one row and column", source, lines[0][0], 1
                )
            check_size(rows, cols, source, lines[0][0], 1)
            lines = lines[1:]
    for lineno, line in lines:
        if not line.strip():
            raise InputError("blank line inside the grid", source, lineno, 1)
    spaced = any(re.search(r"\S\s+\S", line) for _, line in lines)
    char_mode = not spaced and not (size is not None and size[1] == 1)
    grid = ClueGrid(rows=len(lines), cols=0, source=source)
    widths: list[int] = []
    for r, (lineno, line) in enumerate(lines):
        if char_mode:
            indent = len(line) - len(line.lstrip())
            cells = [(ch, indent + k + 1) for k, ch in enumerate(line.strip())]
        else:
            cells = _tokens(line)
        widths.append(len(cells))
        if r == 0:
            check_size(len(lines), len(cells) or 1, source, lineno, 1)
        expected = size[1] if size else widths[0]
        if len(cells) != expected:
            col = cells[expected][1] if len(cells) > expected else len(line) + 1
            what = "header says" if size else "first row has"
            raise InputError(
                f"row {r + 1} has {len(cells)} cells but the {what} {expected}",
                source,
                lineno,
                col,
            )
        for c, (token, col) in enumerate(cells):
            grid.where[(r, c)] = (lineno, col)
            if token in EMPTY:
                continue
            if token == UNKNOWN:
                grid.clues[(r, c)] = UNKNOWN
            elif _NUMBER.fullmatch(token):
                value = parse_count(token, "clue", source, lineno, col, MAX_CELLS)
                if max_clue is not None and value > max_clue:
                    raise InputError(
                        f"clue {value} is out of range 0..{max_clue}", source, lineno, col
                    )
                grid.clues[(r, c)] = value
            else:
                raise InputError(
                    f"unexpected {token!r}: expected a number, '?', or '-', '.', '_' for empty",
                    source,
                    lineno,
                    col,
                )
    grid.cols = widths[0]
    if size is not None and size[0] != grid.rows:
        raise InputError(f"header says {size[0]} rows, found {grid.rows}", source)
    return grid


def format_clue_grid(rows: int, cols: int, clues: dict[tuple[int, int], Clue]) -> str:
    """The token form with a ``ROWS COLS`` header (inverse of :func:`parse_clue_grid`)."""
    out = [f"{rows} {cols}"]
    for r in range(rows):
        out.append(" ".join(str(clues.get((r, c), "-")) for c in range(cols)))
    return "\n".join(out) + "\n"


#: The marks of an open cell in a partly solved grid.
OPEN_MARKS = ("-", "_", "?")


def read_state_marks(
    text: str,
    graph: Graph,
    clues: Collection[int],
    marks: Mapping[str, bool],
    comment: str | None = None,
) -> dict[int, bool]:
    """The decided cells of a partly solved grid (``--state``), one line a row, cells
    separated by spaces or one character each: ``marks`` gives each mark's value (read
    in lower case), :data:`OPEN_MARKS` leave a cell open, a number stands on a clue's
    cell. By cell, in reading order. Lines starting with ``comment`` are skipped. Every
    error names the line, and the column where it lies in one cell."""
    if graph.coords is None or graph.rows is None or graph.cols is None:
        raise InputError("--state needs a puzzle on a plain grid")
    rows = [
        line
        for line in text.splitlines()
        if line.strip() and not (comment and line.startswith(comment))
    ]
    if len(rows) != graph.rows:
        raise InputError(f"--state has {len(rows)} rows, the puzzle {graph.rows}")
    found: dict[int, bool] = {}
    for r, line in enumerate(rows):
        cells = line.split() if " " in line.strip() else list(line.strip())
        if len(cells) != graph.cols:
            raise InputError(
                f"--state line {r + 1}: {len(cells)} cells, the puzzle has {graph.cols}"
            )
        for c, mark in enumerate(cells):
            where = f"--state line {r + 1}, column {c + 1}"
            if mark.lower() not in marks and mark not in OPEN_MARKS and not mark.isdigit():
                raise InputError(f"{where}: unknown mark {mark!r}")
            i = graph.at(r, c)
            if i is None or i in clues:
                continue
            if mark.isdigit():
                raise InputError(f"{where}: a number where the puzzle has no clue")
            if mark.lower() in marks:
                found[i] = marks[mark.lower()]
    return found
