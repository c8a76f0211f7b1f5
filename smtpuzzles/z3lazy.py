"""Z3's Python API, imported where it is first used rather than at start-up.

Every module reaches Z3 as ``from . import z3lazy as z3`` (its own number of dots):
``z3.Solver`` and the rest resolve through :func:`__getattr__`, which imports Z3 once
and keeps each name it hands out. A board the bounds or the A* search decide never
asks Z3 anything, and its run is spared the import (a large part of a quick run's
time); annotations name Z3's types as strings, which nothing evaluates.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def __getattr__(name: str) -> Any:
    value = getattr(importlib.import_module("z3"), name)
    globals()[name] = value
    return value


class _NeverRaised(Exception):
    """Stands for Z3's exception type while Z3 is not imported (nothing can raise it)."""


def error_type() -> type[Exception]:
    """``Z3Exception`` for an ``except`` clause, without importing Z3 to name it."""
    module = sys.modules.get("z3")
    return module.Z3Exception if module is not None else _NeverRaised
