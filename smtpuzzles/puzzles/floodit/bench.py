"""Flood-It in a bench: board files in any format; a dataset (one board per line) gives
one case per board. Known optima: the ``m n k`` files' last line,
``solutions_optimal_X.txt`` beside ``dataset_X.txt`` (one optimal move sequence per
line), ``manifest.json`` in the board's folder (``{"file name": optimum}``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...bench.cases import ANSWERED, COMMON_OPTIONS, Case, content_lines, failed
from ...errors import InputError
from ...sources import read_source
from .formats import count_boards, detect_format, parse_board
from .puzzle import ENCODINGS, ENGINES
from .search import STRATEGIES

#: The modes a bench runs, the default first.
MODES = ("min", "solve", "opt")

#: The solver options a bench passes through, with the values each takes (``None``:
#: a whole number, or for ``no_counting`` a flag).
OPTIONS = {
    **COMMON_OPTIONS,
    "engine": ENGINES,
    "encoding": ENCODINGS,
    "bound_nodes": None,
    "strategy": STRATEGIES,
    "no_counting": None,
}


#: Files in a Flood-It folder that are no boards.
_NOT_BOARDS = ("solutions_", "readme", "manifest", ".")


def files(folder: Path) -> list[Path]:
    return sorted(
        f for f in folder.iterdir() if f.is_file() and not f.name.lower().startswith(_NOT_BOARDS)
    )


def cases(key: str, path: Path) -> Iterator[Case]:
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
            yield failed("floodit", case_key, str(exc))
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
            return {i: len(line.strip()) for i, line in enumerate(content_lines(text), 1)}
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


def answer_text(result: dict[str, Any]) -> str:
    """The length found, or the bounds proven."""
    if result.get("status") in ANSWERED and result.get("length") is not None:
        return str(result["length"])
    lo, hi = result.get("lower_bound"), result.get("upper_bound")
    return "" if lo is None and hi is None else f"{_or_q(lo)}..{_or_q(hi)}"


def known_text(known: int) -> str:
    return str(known)


def verdict(optimum: int, result: dict[str, Any]) -> str | None:
    """``ok`` when the length and bounds agree with the known optimum."""
    status, length = result.get("status"), result.get("length")
    lo, hi = result.get("lower_bound"), result.get("upper_bound")
    if status == "optimal":
        return "ok" if length == optimum else "WRONG"
    if status == "solved":
        return "ok" if length is not None and length >= optimum else "WRONG"
    if lo is None and hi is None:
        return None
    if (lo is not None and lo > optimum) or (hi is not None and hi < optimum):
        return "WRONG"
    return "ok"


def _or_q(value: Any) -> str:
    return "?" if value is None else str(value)
