"""Reading and writing Koburin puzzles, with the format found by looking at the text.

* ``grid``: a clue grid (``2____`` one character a cell, or tokens under an optional
  ``ROWS COLS`` header with ``-`` empty), see :mod:`smtpuzzles.formats.grid`;
* ``janko``: a ``[begin] ... [problem] ... [end]`` block;
* ``puzzlink``: ``https://puzz.link/p?koburin/[m/]COLS/ROWS/BODY`` (pzprjs's 4-cell code;
  the flag ``m`` is the eight-neighbour variant);
* ``table``: an adjacency table (``A: B C``, one cell a line) with numbered cells given
  as ``A = 2`` lines (``?`` for an unknown number): Koburin on any graph.

Answers in the corpus's ``.sol`` form (``x`` black, ``-`` numbered, two letters of
``nesw`` a loop cell and its sides) are read by :func:`parse_solution_grid`.
"""

from __future__ import annotations

import re

from ...errors import InputError
from ...formats.grid import UNKNOWN, ClueGrid, parse_clue_grid
from ...formats.janko import looks_like_janko, problem_grid
from ...formats.puzzlink import decode_4cell, encode_4cell, format_url, looks_like_url, parse_url
from ...graph import parse_adjacency, rectangle
from ...sources import MAX_CELLS, check_size, parse_count
from .model import KoburinInstance, Solution

FORMATS = ("auto", "grid", "janko", "puzzlink", "table")
URL_KIND = "koburin"
_TABLE_LINE = re.compile(r"\s*[^\s:#=]+\s*:")
_NUMBER_LINE = re.compile(r"\s*([^\s:#=]+)\s*=\s*(\S+)\s*")


def detect(text: str) -> str:
    """The format of ``text``: a URL, a janko block, an adjacency table, or a grid."""
    if looks_like_url(text):
        return "puzzlink"
    if looks_like_janko(text):
        return "janko"
    for line in text.split("\n"):
        body = line.split("#", 1)[0]
        if body.strip():
            return "table" if _TABLE_LINE.match(body) or _NUMBER_LINE.fullmatch(body) else "grid"
    return "grid"


def parse(
    text: str, source: str = "<text>", fmt: str = "auto", variant: str | None = None
) -> KoburinInstance:
    """A puzzle from text in any of :data:`FORMATS`; ``variant`` overrides the input's."""
    if fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}", source)
    if fmt == "auto":
        fmt = detect(text)
    if fmt == "puzzlink":
        return parse_puzzlink(text, source, variant)
    if fmt == "janko":
        variant = variant or "four"
        return _from_grid(problem_grid(text, source, _max_clue(variant)), variant)
    if fmt == "table":
        return parse_table(text, source, variant or "four")
    variant = variant or "four"
    return _from_grid(parse_clue_grid(text, source, max_clue=_max_clue(variant)), variant)


def _max_clue(variant: str) -> int:
    return 8 if variant == "eight" else 4


def _from_grid(grid: ClueGrid, variant: str) -> KoburinInstance:
    check_size(grid.rows, grid.cols, grid.source)
    graph = rectangle(grid.rows, grid.cols)
    clues = {graph.at(r, c): _number(v) for (r, c), v in grid.clues.items()}
    return KoburinInstance(graph, clues, variant)  # type: ignore[arg-type]


def _clue(number: int | None) -> int | str:
    return UNKNOWN if number is None else number


def _number(value: int | str) -> int | None:
    return None if value == UNKNOWN else int(value)


def parse_puzzlink(text: str, source: str = "<url>", variant: str | None = None) -> KoburinInstance:
    """``koburin/[m/]COLS/ROWS/BODY``: the flag ``m`` makes numbers count eight cells."""
    url = parse_url(text, source, kind=URL_KIND)
    if url.flags not in ("", "m"):
        raise InputError(f"unknown koburin URL flag {url.flags!r} (known: 'm')", source)
    check_size(url.rows, url.cols, source)
    values = decode_4cell(url.body, url.rows * url.cols, source, url.at)
    graph = rectangle(url.rows, url.cols)
    clues = {i: _number(v) for i, v in enumerate(values) if v is not None}
    return KoburinInstance(graph, clues, variant or ("eight" if url.flags == "m" else "four"))


def to_puzzlink(puzzle: KoburinInstance) -> str:
    """The puzz.link URL of a puzzle on a plain rectangle."""
    g = puzzle.graph
    if g.kind != "square" or g.rows is None or g.cols is None:
        raise InputError("only a puzzle on a plain rectangle has a puzz.link URL")
    cells = [None if i not in puzzle.clues else _clue(puzzle.clues[i]) for i in range(len(g))]
    try:
        body = encode_4cell(cells)
    except ValueError as exc:
        raise InputError(f"cannot write a puzz.link URL: {exc}") from None
    return format_url(URL_KIND, g.cols, g.rows, body, "m" if puzzle.variant == "eight" else "")


def to_grid_text(puzzle: KoburinInstance) -> str:
    """The token grid with a ``ROWS COLS`` header (the corpus's form)."""
    g = puzzle.graph
    if g.coords is None or g.rows is None or g.cols is None:
        raise InputError("only a puzzle on a grid has a grid text")
    lines = [f"{g.rows} {g.cols}"]
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            i = g.at(r, c)
            v = puzzle.clues.get(i) if i is not None else None
            row.append("-" if i not in puzzle.clues else ("?" if v is None else str(v)))
        lines.append(" ".join(row))
    return "\n".join(lines) + "\n"


def parse_table(text: str, source: str = "<text>", variant: str = "four") -> KoburinInstance:
    """An adjacency table whose ``NAME = N`` lines number cells."""
    numbers: list[tuple[str, str, int, int]] = []
    kept = []
    for lineno, line in enumerate(text.split("\n"), 1):
        m = _NUMBER_LINE.fullmatch(line.split("#", 1)[0])
        if m:
            numbers.append((m.group(1), m.group(2), lineno, m.start(2) + 1))
            kept.append("")
        else:
            kept.append(line)
    graph = parse_adjacency("\n".join(kept), source)
    if len(graph) > MAX_CELLS:
        raise InputError(f"the table has {len(graph)} cells; the limit is {MAX_CELLS}", source)
    clues: dict[int, int | None] = {}
    for name, value, lineno, col in numbers:
        if name not in graph.index:
            raise InputError(f"number for unknown cell {name!r}", source, lineno, 1)
        if value == UNKNOWN:
            clues[graph.index[name]] = None
        elif value.isascii() and value.isdigit():
            clues[graph.index[name]] = parse_count(value, "number", source, lineno, col, MAX_CELLS)
        else:
            raise InputError(f"expected a number or '?', found {value!r}", source, lineno, col)
    return KoburinInstance(graph, clues, variant)


_SIDES = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}


def parse_solution_grid(
    text: str, source: str = "<solution>"
) -> tuple[set[tuple[int, int]], set[frozenset[tuple[int, int]]]]:
    """A ``.sol`` answer: black cells and loop links as unordered pairs of positions."""
    lines = [line.split() for line in text.split("\n") if line.strip()]
    if lines and len(lines[0]) == 2 and all(t.isascii() and t.isdigit() for t in lines[0]):
        lines = lines[1:]
    black: set[tuple[int, int]] = set()
    links: set[frozenset[tuple[int, int]]] = set()
    for r, row in enumerate(lines):
        for c, token in enumerate(row):
            if token == "x":
                black.add((r, c))
            elif token != "-":
                if len(token) != 2 or not set(token) <= set(_SIDES):
                    raise InputError(f"unexpected {token!r} in a solution", source, r + 1, c + 1)
                for side in token:
                    dr, dc = _SIDES[side]
                    links.add(frozenset({(r, c), (r + dr, c + dc)}))
    return black, links


def solution_positions(
    puzzle: KoburinInstance, solution: Solution
) -> tuple[set[tuple[int, int]], set[frozenset[tuple[int, int]]]]:
    """A solution in grid positions, to compare with :func:`parse_solution_grid`."""
    coords = puzzle.graph.coords
    assert coords is not None
    black = {coords[i] for i in solution.black}
    links = {frozenset({coords[i], coords[j]}) for i, j in solution.edges}
    return black, links
