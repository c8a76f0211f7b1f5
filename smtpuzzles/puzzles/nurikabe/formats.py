"""Reading Nurikabe puzzles in every format, with auto-detection.

* ``grid``: a clue grid (:mod:`smtpuzzles.formats.grid`), pools are the 2x2 blocks;
* ``janko``: a ``[begin] ... [problem] ... [end]`` block around such a grid;
* ``puzzlink``: ``https://puzz.link/p?nurikabe/COLS/ROWS/BODY`` (decodeNumber16);
* ``seed004``: one puzzle per line, ``W,H size,x,y ...``;
* ``table``: an adjacency table with clue and pool lines (any shape: holes, tori,
  hex grids, hand-made graphs)::

      # cell: neighbours (links count both ways in Nurikabe)
      A: B D
      B: A C
      ...
      clue A 3        # clue CELL SIZE, or ? for an unknown size
      pool A B D E    # these cells may not all be black
"""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import InputError
from ...formats.grid import UNKNOWN, ClueGrid, parse_clue_grid
from ...formats.janko import looks_like_janko, problem_grid
from ...formats.puzzlink import (
    decode_number16,
    encode_number16,
    format_url,
    looks_like_url,
    parse_url,
)
from ...formats.seed004 import looks_like_seed004, parse_seed004
from ...graph import Graph, parse_adjacency, rectangle
from ...sources import MAX_CELLS, check_size, parse_count, read_source
from .model import NurikabeInstance

FORMATS = ("auto", "grid", "janko", "puzzlink", "seed004", "table")


def detect(text: str) -> str:
    """The format a text is written in (``grid`` unless something else is clear)."""
    if looks_like_url(text):
        return "puzzlink"
    if looks_like_janko(text):
        return "janko"
    if looks_like_seed004(text):
        return "seed004"
    for line in text.split("\n"):
        line = line.split("#", 1)[0].strip()
        if line:
            if ":" in line or re.match(r"(clue|pool)\s", line):
                return "table"
    return "grid"


def parse(text: str, source: str = "<text>", fmt: str = "auto", index: int = 1) -> NurikabeInstance:
    """A puzzle from text in format ``fmt`` (``auto``: detect)."""
    if fmt == "auto":
        fmt = detect(text)
    if fmt == "grid":
        return from_clue_grid(parse_clue_grid(text, source), source)
    if fmt == "janko":
        return from_clue_grid(problem_grid(text, source), source)
    if fmt == "puzzlink":
        return from_url(text, source)
    if fmt == "seed004":
        rows, cols, clues = parse_seed004(text, source, index)
        return on_rectangle(rows, cols, clues, source)
    if fmt == "table":
        return from_table(text, source)
    raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}", source)


def on_rectangle(
    rows: int, cols: int, clues: dict[tuple[int, int], int | None], name: str
) -> NurikabeInstance:
    check_size(rows, cols, name)
    graph = rectangle(rows, cols)
    by_cell = {graph.at(r, c): size for (r, c), size in clues.items()}
    return NurikabeInstance(graph, by_cell, tuple(graph.squares()), name)  # type: ignore[arg-type]


def from_clue_grid(grid: ClueGrid, name: str) -> NurikabeInstance:
    clues: dict[tuple[int, int], int | None] = {}
    for cell, value in grid.clues.items():
        if value == 0:
            raise grid.error(cell, "clue 0: an island holds at least its clue cell")
        clues[cell] = None if value == UNKNOWN else int(value)
    return on_rectangle(grid.rows, grid.cols, clues, name)


def from_url(text: str, source: str) -> NurikabeInstance:
    link = parse_url(text, source, kind="nurikabe")
    values = decode_number16(link.body, link.rows * link.cols, source, link.at)
    clues: dict[tuple[int, int], int | None] = {}
    for k, value in enumerate(values):
        if value is None:
            continue
        if value == 0:
            raise InputError("clue 0 in the URL: an island holds at least its clue cell", source)
        clues[divmod(k, link.cols)] = None if value == UNKNOWN else int(value)
    return on_rectangle(link.rows, link.cols, clues, source)


def to_puzzlink(puzzle: NurikabeInstance) -> str:
    """The puzz.link URL of a rectangular grid puzzle."""
    g = puzzle.graph
    if not puzzle.is_grid or g.rows is None or g.cols is None:
        raise InputError("only a plain rectangular grid has a puzz.link URL", puzzle.name)
    values: list[int | str | None] = [None] * len(puzzle)
    for i, size in puzzle.clues.items():
        values[i] = UNKNOWN if size is None else size
    try:
        body = encode_number16(values)
    except ValueError as exc:
        raise InputError(f"cannot write a puzz.link URL: {exc}", puzzle.name) from None
    return format_url("nurikabe", g.cols, g.rows, body)


_DIRECTIVE = re.compile(r"\s*(clue|pool)(\s|$)")


def from_table(text: str, source: str) -> NurikabeInstance:
    """An adjacency table plus ``clue CELL SIZE`` and ``pool CELL...`` lines."""
    table_lines: list[str] = []
    directives: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw.split("#", 1)[0]
        if _DIRECTIVE.match(line):
            directives.append((lineno, line))
            table_lines.append("")  # keep line numbers for the table parser
        else:
            table_lines.append(raw)
    graph: Graph = parse_adjacency("\n".join(table_lines), source)
    if len(graph) > MAX_CELLS:
        raise InputError(f"the table has {len(graph)} cells; the limit is {MAX_CELLS}", source)
    clues: dict[int, int | None] = {}
    pools: list[tuple[int, ...]] = []
    for lineno, line in directives:
        tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]
        word = tokens[0][0]
        cells = []
        for token, col in tokens[1 : 2 if word == "clue" else None]:
            if token not in graph.index:
                raise InputError(f"unknown cell {token!r}", source, lineno, col)
            cells.append(graph.index[token])
        if word == "clue":
            if len(tokens) != 3:
                raise InputError("expected 'clue CELL SIZE'", source, lineno, tokens[0][1])
            size, col = tokens[2]
            value = None
            if size != UNKNOWN:
                if not (size.isascii() and size.isdigit()):
                    raise InputError(
                        f"bad clue {size[:20]!r}: expected a positive number or '?'",
                        source,
                        lineno,
                        col,
                    )
                value = parse_count(size, "clue", source, lineno, col, MAX_CELLS)
                if value < 1:
                    raise InputError(
                        "bad clue 0: expected a positive number or '?'", source, lineno, col
                    )
            if cells[0] in clues:
                raise InputError(f"second clue for {tokens[1][0]!r}", source, lineno, tokens[1][1])
            clues[cells[0]] = value
        else:
            if len(set(cells)) < 2:
                raise InputError("a pool needs at least two cells", source, lineno, tokens[0][1])
            pools.append(tuple(cells))
    return NurikabeInstance(graph, clues, tuple(pools), source)


def format_table(puzzle: NurikabeInstance) -> str:
    """The table text of any puzzle (inverse of :func:`from_table`)."""
    g = puzzle.graph
    lines = [f"{g.names[i]}: {' '.join(g.names[j] for j in g.out[i])}" for i in range(len(g))]
    for k, size in sorted(puzzle.clues.items()):
        lines.append(f"clue {g.names[k]} {'?' if size is None else size}")
    for pool in puzzle.pools:
        lines.append("pool " + " ".join(g.names[i] for i in pool))
    return "\n".join(lines) + "\n"


def solution_rows(text: str) -> list[str]:
    """A solution file's picture as rows of ``#`` (wall: ``x`` or ``#``) and ``.``; an
    optional ``ROWS COLS`` header line and blanks between cells are allowed."""
    lines = [line.split() for line in text.splitlines() if line.strip()]
    headed = lines and len(lines[0]) == 2 and all(t.isascii() and t.isdigit() for t in lines[0])
    if headed and len(lines) > 1:
        lines = lines[1:]
    if all(len(tokens) == 1 for tokens in lines):
        lines = [list(tokens[0]) for tokens in lines]
    return ["".join("#" if t in ("x", "#") else "." for t in tokens) for tokens in lines]


def read_solution(puzzle: Path) -> list[str] | None:
    """The answer in the ``.sol`` file beside a puzzle file, if there is one."""
    sol = puzzle.with_suffix(".sol")
    if not sol.is_file():
        return None
    text, _ = read_source(str(sol))
    return solution_rows(text)
