"""The cases of a bench: puzzles found in files, folders and datasets, each with its text
(what the solver process is fed) and the answer known for it, if any.

Each puzzle says in its own ``bench`` module (``puzzles/<kind>/bench.py``) which files
hold its cases, how to read them and their known answers, and how an answer compares
with a known one (:func:`bench_of`).

A file that cannot be read or parsed, and a known answer that cannot be read, do not
stop the bench: the case carries the error and becomes an error row.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..puzzle import KINDS

#: The solver options every puzzle's bench passes through (``None``: a whole number).
COMMON_OPTIONS: dict[str, tuple[str, ...] | None] = {"memory": None, "presolve": ("none", "full")}

#: The statuses that carry an answer.
ANSWERED = ("optimal", "solved")


def bench_of(puzzle: str) -> types.ModuleType:
    """The ``bench`` module of a puzzle of the registry (:data:`~smtpuzzles.puzzle.KINDS`)."""
    if puzzle not in KINDS:
        raise InputError(f"unknown puzzle {puzzle!r}; expected one of {', '.join(KINDS)}")
    return importlib.import_module(f"..puzzles.{puzzle}.bench", __package__)


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


def find_cases(puzzle: str, paths: Sequence[str], first: int | None = None) -> list[Case]:
    """Every case in ``paths`` (files or folders), at most ``first`` from each path."""
    module = bench_of(puzzle)
    finder = (module.files, module.cases)
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
            yield failed(puzzle, given, f"{given}: cannot read: {exc.strerror or exc}")
            return
        for f in files:
            yield from _guarded(puzzle, str(f), cases_of)
    elif path.exists():
        yield from _guarded(puzzle, given, cases_of)
    else:
        yield failed(puzzle, given, f"{given}: no such file or folder")


def _guarded(
    puzzle: str, key: str, cases_of: Callable[[str, Path], Iterator[Case]]
) -> Iterator[Case]:
    """The cases of one file; any failure to read it ends them with one error case."""
    try:
        yield from cases_of(key, Path(key))
    except InputError as exc:
        yield failed(puzzle, key, str(exc))
    except Exception as exc:  # a parser's slip must not end the whole bench
        yield failed(puzzle, key, f"{key}: cannot read: {type(exc).__name__}: {exc}")


def failed(puzzle: str, key: str, error: str) -> Case:
    return Case(puzzle, key, Path(key).name, error=error)


def content_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip() and not line.startswith("#")]
