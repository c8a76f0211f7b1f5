"""Running a puzzle's solver over many instances: each case is its own process, forked
by a warm parent that has imported everything once (:mod:`.warm`), locally
(``--jobs``) or on the workers of a Dask cluster (``--cluster``), and every finished case
becomes one row of the same shape for every puzzle.

- :mod:`.cases`: the cases in files, folders and datasets, with their known answers;
- :mod:`.run` and :mod:`.warm`: one case as one solver process (the unit a worker runs);
- :mod:`.local` and :mod:`.cluster`: the two ways to run many;
- :mod:`.rows`: the row, its verdict, the table, JSON Lines, CSV and ``--resume``.

Nothing here is imported by a solve command, and Dask only by :mod:`.cluster`.

The package is also the API's ``smtpuzzles.bench(...)``: calling it runs a bench and
returns its rows (see :func:`bench`).
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any


def options_of(puzzle: str) -> dict[str, tuple[str, ...] | None]:
    """The solver options a bench of ``puzzle`` passes through, with the values each
    takes (``None``: a whole number, or for ``unique`` and ``no_counting`` a flag)."""
    from .cases import bench_of

    return bench_of(puzzle).OPTIONS


def modes_of(puzzle: str) -> tuple[str, ...]:
    """The modes a bench of ``puzzle`` runs, the default first."""
    from .cases import bench_of

    return bench_of(puzzle).MODES


def bench(
    puzzle: str,
    *paths: str | Path,
    mode: str | None = None,
    timeout: float = 60.0,
    jobs: int = 1,
    first: int | None = None,
    cluster: str | None = None,
    jsonl: str | Path | None = None,
    csv: str | Path | None = None,
    resume: str | Path | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Solve every puzzle in ``paths`` (files, folders, datasets) as ``smtpuzzles bench
    PUZZLE`` does, each case its own process, and return the rows it prints with
    ``--json`` (the same keys and values). ``options`` are the solver's own, by the
    command line's names (``engine="cadical"``, ``memory=500``, ``unique=True``). A run
    stopped by Ctrl-C returns the rows finished so far."""
    from ..errors import InputError
    from .cases import find_cases
    from .rows import Settings
    from .session import Plan, run_bench

    modes = modes_of(puzzle)  # an unknown puzzle is refused here
    mode = modes[0] if mode is None else mode
    if mode not in modes:
        raise InputError(f"mode {mode!r}: expected one of {', '.join(modes)}")
    if not paths:
        raise InputError("no paths given")
    for name, value in (("timeout", timeout), ("jobs", jobs), ("first", first)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise InputError(f"{name} must be a number, not {value!r}")
    if timeout < 0.1 or jobs < 1 or (first is not None and first < 1):
        raise InputError("timeout must be >= 0.1 and jobs and first >= 1")
    argv = solver_argv(puzzle, options)
    settings = Settings(puzzle, mode, argv, float(timeout))
    given = [str(p) for p in paths]
    cases = find_cases(puzzle, given, first)
    if not cases:
        raise InputError("no puzzles found", " ".join(given))
    files = [None if f is None else str(f) for f in (jsonl, csv, resume)]
    plan = Plan(settings, cases, int(jobs), cluster, *files)
    return run_bench(plan, lambda row: None).rows


def solver_argv(puzzle: str, options: dict[str, Any], by_flag: bool = False) -> tuple[str, ...]:
    """``options`` as the solver's command-line arguments, each checked (a wrong one
    named as the API spells it, ``name=value``, or with ``by_flag`` as the command line
    does, ``--name value``)."""
    from ..errors import InputError

    allowed = options_of(puzzle)
    argv: list[str] = []
    for name, value in options.items():
        if name not in allowed:
            raise InputError(f"{name}: not a bench option of {puzzle} ({', '.join(allowed)})")
        flag = "--" + name.replace("_", "-")
        given = f"{flag} {value!r}" if by_flag else f"{name}={value!r}"
        choices = allowed[name]
        if value is None or value is False:
            continue
        if value is True:
            if choices is not None or name not in ("unique", "no_counting"):
                raise InputError(f"{given}: expected a value")
            argv.append(flag)
        elif choices is not None:
            if value not in choices:
                raise InputError(f"{given}: expected one of {', '.join(choices)}")
            argv += [flag, value]
        elif isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            argv += [flag, str(value)]
        else:
            raise InputError(f"{given}: expected a whole number >= 0")
    return tuple(argv)


class _CallableModule(types.ModuleType):
    """This package, callable as :func:`bench`: ``smtpuzzles.bench`` is the package once
    it is imported, so the API's ``smtpuzzles.bench(...)`` calls it."""

    def __call__(self, *args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        return bench(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
