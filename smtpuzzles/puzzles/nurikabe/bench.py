"""Nurikabe in a bench: ``.txt`` files (a file of one-line puzzles gives one case per
line); the answer in a ``.sol`` file beside the puzzle (``x`` or ``#`` a wall), or for
puzzles whose answer maps cell names, the ``.sol`` as the solver draws the answer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...bench.cases import COMMON_OPTIONS, Case, failed
from ...engines import Z3_ENGINES
from ...errors import InputError
from ...sources import read_source
from .formats import detect, parse, solution_rows
from .pictures import json_solution, text_picture
from .search import CONNECTIVITY

#: The modes a bench runs, the default first.
MODES = ("solve",)

#: The solver options a bench passes through, with the values each takes (``None``:
#: for ``unique`` a flag).
OPTIONS = {**COMMON_OPTIONS, "engine": Z3_ENGINES, "unique": None, "connectivity": CONNECTIVITY}


@dataclass(frozen=True)
class Known:
    """A Nurikabe answer: rows of ``#``/``.`` (grids), or the answer's picture as the
    solver draws it (puzzles answered by cell names), with the puzzle to draw with."""

    rows: tuple[str, ...] | None = None
    picture: str | None = None
    puzzle: Any = field(default=None, compare=False, repr=False)


def files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if f.is_file() and f.suffix == ".txt")


def cases(key: str, path: Path) -> Iterator[Case]:
    text, source = read_source(key)
    fmt = detect(text)
    lines = [line for line in text.split("\n") if line.strip()] if fmt == "seed004" else []
    if len(lines) > 1:  # one puzzle a line: no answers beside them
        for i, line in enumerate(lines, 1):
            case_key = f"{key}#{i}"
            try:
                p = parse(text, source, fmt, i)
            except InputError as exc:
                yield failed("nurikabe", case_key, str(exc))
                continue
            yield _nurikabe_case(case_key, f"{path.name}#{i}", line + "\n", fmt, p, None)
        return
    p = parse(text, source, fmt)
    yield _nurikabe_case(key, path.name, text, fmt, p, _nurikabe_known(path, p))


def _nurikabe_case(key: str, name: str, text: str, fmt: str, p: Any, known: Any) -> Case:
    g = p.graph
    size = f"{g.rows}x{g.cols}" if g.rows and g.kind == "square" else f"{len(p)} cells"
    return Case("nurikabe", key, name, text, ("--format", fmt), size, len(p), known)


def _nurikabe_known(path: Path, p: Any) -> Known | None:
    sol = path.with_suffix(".sol")
    if not sol.is_file():
        return None
    text, source = read_source(str(sol))
    shape = json_solution(p, (False,) * len(p))
    if not isinstance(shape, list):
        return Known(picture=text, puzzle=p)
    rows = tuple(solution_rows(text))
    if [len(r) for r in rows] != [len(r) for r in shape]:
        raise InputError(
            f"the answer has {len(rows)} rows of {', '.join(sorted({str(len(r)) for r in rows}))}"
            f" cells; the puzzle {len(shape)} of {len(shape[0]) if shape else 0}",
            source,
        )
    return Known(rows=rows)


def answer_text(result: dict[str, Any]) -> str:
    """The number of wall cells."""
    solution = result.get("solution")
    if solution is None:
        return ""
    cells = solution.values() if isinstance(solution, dict) else "".join(solution)
    return f"{sum(1 for c in cells if c == '#')} walls"


def known_text(known: Known) -> str:
    if known.rows is not None:
        return f"{sum(r.count('#') for r in known.rows)} walls"
    return f"{(known.picture or '').count('#')} walls"


def same(known: Known, solution: Any) -> bool:
    """Is the JSON ``solution`` the known picture?"""
    if known.rows is not None:
        return isinstance(solution, list) and tuple(solution) == known.rows
    if not isinstance(solution, dict) or known.puzzle is None:
        return False
    picture = tuple(solution.get(name) == "#" for name in known.puzzle.graph.names)
    return _lines_of(text_picture(known.puzzle, picture)) == _lines_of(known.picture or "")


def _lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").split("\n")]
