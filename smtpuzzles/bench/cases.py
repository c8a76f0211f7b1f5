"""The cases of a bench: puzzles found in files, folders and datasets, each with its text
(what the solver process is fed) and the answer known for it, if any.

Per puzzle:

- Flood-It: board files in any format; a dataset (one board per line) gives one case
  per board. Known optima: the ``m n k`` files' last line, ``solutions_optimal_X.txt``
  beside ``dataset_X.txt`` (one optimal move sequence per line), ``manifest.json`` in
  the board's folder (``{"file name": optimum}``).
- Nurikabe: ``.txt`` files (a file of one-line puzzles gives one case per line); the
  answer in a ``.sol`` file beside the puzzle (``x`` or ``#`` a wall), or for puzzles
  whose answer maps cell names, the ``.sol`` as the solver draws the answer.
- Koburin: ``.txt``, ``.url``, ``.janko`` and ``.table`` files, in folders and below; the
  answer in a ``.sol`` beside a grid puzzle (``x`` black, two of ``nesw`` a loop cell),
  or an ``.answer`` beside a table (``black: a b``, ``loop: c d e ...``).

A file that cannot be read or parsed, and a known answer that cannot be read, do not
stop the bench: the case carries the error and becomes an error row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..sources import read_source

PUZZLES = ("floodit", "nurikabe", "koburin")


@dataclass(frozen=True)
class Case:
    """One puzzle to solve. ``key`` names it in the JSON Lines file (``--resume`` skips
    keys found there): the path as given, with ``#N`` for the N-th puzzle of a file."""

    puzzle: str
    key: str
    name: str
    text: str = ""
    args: tuple[str, ...] = ()  #: options for the solver that say how to read ``text``
    size: str = ""
    cells: int | None = None
    known: Any = None
    error: str | None = None  #: why the case cannot run (it becomes an error row)


@dataclass(frozen=True)
class NurikabeKnown:
    """A Nurikabe answer: rows of ``#``/``.`` (grids), or the answer's picture as the
    solver draws it (puzzles answered by cell names), with the puzzle to draw with."""

    rows: tuple[str, ...] | None = None
    picture: str | None = None
    puzzle: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class KoburinKnown:
    """A Koburin answer: black cells and loop links (each an unordered pair), cells as
    ``(row, col)`` on grids or names on tables."""

    black: frozenset[Any]
    links: frozenset[frozenset[Any]]


def find_cases(puzzle: str, paths: Sequence[str], first: int | None = None) -> list[Case]:
    """Every case in ``paths`` (files or folders), at most ``first`` from each path."""
    finder = _FINDERS[puzzle]
    cases: list[Case] = []
    for given in paths:
        found = 0
        for case in _cases_in(puzzle, Path(given), given, finder):
            if first is not None and found >= first:
                break
            cases.append(case)
            found += 1
    return cases


_Finder = tuple[Callable[[Path], list[Path]], Callable[[str, Path], Iterator[Case]]]


def _cases_in(puzzle: str, path: Path, given: str, finder: _Finder) -> Iterator[Case]:
    files_in, cases_of = finder
    if path.is_dir():
        try:
            files = files_in(path)
        except OSError as exc:
            yield _failed(puzzle, given, f"{given}: cannot read: {exc.strerror or exc}")
            return
        for f in files:
            yield from _guarded(puzzle, str(f), cases_of)
    elif path.exists():
        yield from _guarded(puzzle, given, cases_of)
    else:
        yield _failed(puzzle, given, f"{given}: no such file or folder")


def _guarded(
    puzzle: str, key: str, cases_of: Callable[[str, Path], Iterator[Case]]
) -> Iterator[Case]:
    """The cases of one file; any failure to read it ends them with one error case."""
    try:
        yield from cases_of(key, Path(key))
    except InputError as exc:
        yield _failed(puzzle, key, str(exc))
    except Exception as exc:  # a parser's slip must not end the whole bench
        yield _failed(puzzle, key, f"{key}: cannot read: {type(exc).__name__}: {exc}")


def _failed(puzzle: str, key: str, error: str) -> Case:
    return Case(puzzle, key, Path(key).name, error=error)


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and not line.startswith("#")]


# -- Flood-It ---------------------------------------------------------------------------

#: Files in a Flood-It folder that are no boards.
_NOT_BOARDS = ("solutions_", "readme", "manifest", ".")


def _floodit_files(folder: Path) -> list[Path]:
    return sorted(
        f for f in folder.iterdir() if f.is_file() and not f.name.lower().startswith(_NOT_BOARDS)
    )


def _floodit_cases(key: str, path: Path) -> Iterator[Case]:
    from ..puzzles.floodit.formats import count_boards, detect_format, parse_board

    text, source = read_source(key)
    fmt = detect_format(text)
    count = count_boards(text)
    optima = _Optima(path)
    for i in range(1, count + 1):
        index = i if count > 1 else None
        case_key = f"{key}#{i}" if index else key
        name = f"{path.name}#{i}" if index else path.name
        try:
            board = parse_board(text, source, fmt, index)
            known = board.known_optimum
            if known is None:
                known = optima.get(i)
        except InputError as exc:
            yield _failed("floodit", case_key, str(exc))
            continue
        # One board of a dataset travels alone, in the grid format.
        body, args = (board.text(), ("--format", "grid")) if index else (text, ("--format", fmt))
        yield Case(
            "floodit",
            case_key,
            name,
            body,
            args,
            f"{board.rows}x{board.cols}c{board.n_colours}",
            board.rows * board.cols,
            known,
        )


class _Optima:
    """The optima stated beside a board file, read once, when first asked for."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.known: dict[int, int] | None = None

    def get(self, index: int) -> int | None:
        if self.known is None:
            self.known = _optima_beside(self.path)
        return self.known.get(index)


def _optima_beside(path: Path) -> dict[int, int]:
    """``solutions_optimal_X.txt`` for ``dataset_X.txt``, else ``manifest.json``'s entry."""
    if path.name.startswith("dataset_"):
        sol = path.with_name("solutions_optimal_" + path.name[len("dataset_") :])
        if sol.is_file():
            text, _ = read_source(str(sol))
            return {i: len(line.strip()) for i, line in enumerate(_lines(text), 1)}
    manifest = path.with_name("manifest.json")
    if not manifest.is_file():
        return {}
    text, source = read_source(str(manifest))
    try:
        table = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", source, exc.lineno, exc.colno) from None
    if not isinstance(table, dict):
        raise InputError('expected an object {"board file": optimum}', source)
    known = table.get(path.name)
    if known is None:
        return {}
    if isinstance(known, bool) or not isinstance(known, int) or known < 0:
        raise InputError(f"the optimum of {path.name} is not a whole number: {known!r}", source)
    return {1: known}


# -- Nurikabe ---------------------------------------------------------------------------


def _nurikabe_files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.iterdir() if f.is_file() and f.suffix == ".txt")


def _nurikabe_cases(key: str, path: Path) -> Iterator[Case]:
    from ..puzzles.nurikabe.formats import detect, parse

    text, source = read_source(key)
    fmt = detect(text)
    lines = [line for line in text.split("\n") if line.strip()] if fmt == "seed004" else []
    if len(lines) > 1:  # one puzzle a line: no answers beside them
        for i, line in enumerate(lines, 1):
            case_key = f"{key}#{i}"
            try:
                p = parse(text, source, fmt, i)
            except InputError as exc:
                yield _failed("nurikabe", case_key, str(exc))
                continue
            yield _nurikabe_case(case_key, f"{path.name}#{i}", line + "\n", fmt, p, None)
        return
    p = parse(text, source, fmt)
    yield _nurikabe_case(key, path.name, text, fmt, p, _nurikabe_known(path, p))


def _nurikabe_case(key: str, name: str, text: str, fmt: str, p: Any, known: Any) -> Case:
    g = p.graph
    size = f"{g.rows}x{g.cols}" if g.rows and g.kind == "square" else f"{len(p)} cells"
    return Case("nurikabe", key, name, text, ("--format", fmt), size, len(p), known)


def _nurikabe_known(path: Path, p: Any) -> NurikabeKnown | None:
    from ..puzzles.nurikabe.formats import solution_rows
    from ..puzzles.nurikabe.pictures import json_solution

    sol = path.with_suffix(".sol")
    if not sol.is_file():
        return None
    text, source = read_source(str(sol))
    shape = json_solution(p, (False,) * len(p))
    if not isinstance(shape, list):
        return NurikabeKnown(picture=text, puzzle=p)
    rows = tuple(solution_rows(text))
    if [len(r) for r in rows] != [len(r) for r in shape]:
        raise InputError(
            f"the answer has {len(rows)} rows of {', '.join(sorted({str(len(r)) for r in rows}))}"
            f" cells; the puzzle {len(shape)} of {len(shape[0]) if shape else 0}",
            source,
        )
    return NurikabeKnown(rows=rows)


# -- Koburin ----------------------------------------------------------------------------

_KOBURIN_SUFFIXES = (".txt", ".url", ".janko", ".table")


def _koburin_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in _KOBURIN_SUFFIXES)


def _koburin_cases(key: str, path: Path) -> Iterator[Case]:
    from ..puzzles.koburin.formats import detect, parse, parse_solution_grid

    text, source = read_source(key)
    fmt = detect(text)
    p = parse(text, source, fmt)
    g = p.graph
    grid = g.rows is not None and g.cols is not None and g.kind != "table"
    known: KoburinKnown | None = None
    sol, answer = path.with_suffix(".sol"), path.with_suffix(".answer")
    if sol.is_file():
        black, links = parse_solution_grid(*read_source(str(sol)))
        known = KoburinKnown(frozenset(black), frozenset(links))
    elif answer.is_file():
        known = _koburin_answer(*read_source(str(answer)))
    size = f"{g.rows}x{g.cols}" if grid else f"{len(g)} cells"
    yield Case("koburin", key, path.name, text, ("--format", fmt), size, len(g), known)


def _koburin_answer(text: str, source: str) -> KoburinKnown:
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
    return KoburinKnown(frozenset(found.get("black", [])), links)


_FINDERS: dict[str, _Finder] = {
    "floodit": (_floodit_files, _floodit_cases),
    "nurikabe": (_nurikabe_files, _nurikabe_cases),
    "koburin": (_koburin_files, _koburin_cases),
}
