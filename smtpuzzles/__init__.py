"""smtpuzzles: grid logic puzzles solved by Z3 over linear integer arithmetic.

The Python API (:mod:`smtpuzzles.api`): ``load``, ``solve``, ``formula``, ``check``,
``explain`` and ``rate`` (Nurikabe and Koburin steps and grades), the
``Result`` of a solve with its ``Status``, and the puzzle types ``FloodIt``, ``Nurikabe``,
``Koburin``. They are imported on first use, so the command line does not pay for them.
``bench`` solves a folder of puzzles, each case its own process, and returns the rows of
``smtpuzzles bench`` (:func:`smtpuzzles.bench.bench`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported: a run's start stays short (see entry.py)

__version__ = "0.1.0"

__all__ = [
    "FloodIt",
    "Formula",
    "Koburin",
    "Nurikabe",
    "Result",
    "Status",
    "check",
    "formula",
    "load",
    "solve",
    "bench",
    "explain",
    "rate",
]

if TYPE_CHECKING:
    from typing import Any

    from .api import (
        FloodIt,
        Formula,
        Koburin,
        Nurikabe,
        Result,
        Status,
        check,
        explain,
        formula,
        load,
        rate,
        solve,
    )


def __getattr__(name: str) -> Any:
    if name == "bench":  # the package, callable (imported here only when not yet imported)
        import importlib

        return importlib.import_module(".bench", __name__)
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'smtpuzzles' has no attribute {name!r}")
