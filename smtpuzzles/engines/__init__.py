"""The engines a search runs on: Z3's solvers (:mod:`.solvers`), the CaDiCaL backend
(:mod:`.cadical`) and the statistics of a search (:mod:`.stats`). Proofs of unsat are
:mod:`smtpuzzles.proof`'s; the limits every engine keeps are :mod:`smtpuzzles.limits`'s.
"""

from __future__ import annotations

from .cadical import (
    CADICAL_CONFLICTS_AT_ONCE,
    CADICAL_MISSING,
    cadical_available,
    check_clauses,
    solve_in_steps,
)
from .solvers import (
    PARSE_CHUNK_CHARS,
    Z3_ENGINES,
    check_sat,
    make_spare_context,
    new_context,
    new_solver,
    parse_into,
    parse_terms,
)
from .stats import Stats, statistics_dict

__all__ = [
    "CADICAL_CONFLICTS_AT_ONCE",
    "CADICAL_MISSING",
    "Z3_ENGINES",
    "PARSE_CHUNK_CHARS",
    "Stats",
    "cadical_available",
    "check_sat",
    "check_clauses",
    "make_spare_context",
    "new_context",
    "new_solver",
    "parse_into",
    "parse_terms",
    "solve_in_steps",
    "statistics_dict",
]
