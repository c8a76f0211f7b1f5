"""Koburin in a bench: ``.txt``, ``.url``, ``.janko`` and ``.table`` files, in folders
and below; the answer in a ``.sol`` beside a grid puzzle (``x`` black, two of ``nesw`` a
loop cell), or an ``.answer`` beside a table (``black: a b``, ``loop: c d e ...``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...bench.cases import COMMON_OPTIONS, Case
from ...errors import InputError
from ...sources import read_source
from .formats import detect, parse, parse_solution_grid
from .model import VARIANTS
from .search import CONNECTIVITY

#: The modes a bench runs, the default first.
MODES = ("solve",)

#: The solver options a bench passes through, with the values each takes (``None``:
#: for ``unique`` a flag).
OPTIONS = {**COMMON_OPTIONS, "unique": None, "connectivity": CONNECTIVITY, "variant": VARIANTS}


@dataclass(frozen=True)
class Known:
    """A Koburin answer: black cells and loop links (each an unordered pair), cells as
    ``(row, col)`` on grids or names on tables."""

    black: frozenset[Any]
    links: frozenset[frozenset[Any]]


_SUFFIXES = (".txt", ".url", ".janko", ".table")


def files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in _SUFFIXES)


def cases(key: str, path: Path) -> Iterator[Case]:
    text, source = read_source(key)
    fmt = detect(text)
    p = parse(text, source, fmt)
    g = p.graph
    grid = g.rows is not None and g.cols is not None and g.kind != "table"
    known: Known | None = None
    sol, answer = path.with_suffix(".sol"), path.with_suffix(".answer")
    if sol.is_file():
        black, links = parse_solution_grid(*read_source(str(sol)))
        known = Known(frozenset(black), frozenset(links))
    elif answer.is_file():
        known = _answer(*read_source(str(answer)))
    size = f"{g.rows}x{g.cols}" if grid else f"{len(g)} cells"
    yield Case("koburin", key, path.name, text, ("--format", fmt), size, len(g), known)


def _answer(text: str, source: str) -> Known:
    """An answer by cell names: a ``black:`` line and a ``loop:`` line (the loop's order)."""
    found: dict[str, list[str]] = {}
    for lineno, line in enumerate(text.split("\n"), 1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        head, colon, rest = body.partition(":")
        if not colon or head.strip() not in ("black", "loop"):
            raise InputError("expected 'black: CELLS' or 'loop: CELLS'", source, lineno, 1)
        found[head.strip()] = rest.split()
    loop = found.get("loop", [])
    links = frozenset(frozenset((a, b)) for a, b in zip(loop, loop[1:] + loop[:1]))
    return Known(frozenset(found.get("black", [])), links)


def answer_text(result: dict[str, Any]) -> str:
    """The number of black cells."""
    solution = result.get("solution")
    if isinstance(solution, dict):
        return f"{len(solution.get('black', []))} black"
    return ""


def known_text(known: Known) -> str:
    return f"{len(known.black)} black"


def same(known: Known, solution: Any) -> bool:
    """Are the JSON ``solution``'s black cells and loop the known ones?"""
    if not isinstance(solution, dict):
        return False
    black = {_cell(c) for c in solution.get("black", [])}
    loop = [_cell(c) for c in solution.get("loop", [])]
    links = {frozenset((a, b)) for a, b in zip(loop, loop[1:] + loop[:1])}
    return black == known.black and links == known.links


def _cell(cell: Any) -> Any:
    return tuple(cell) if isinstance(cell, list) else cell
