"""Small builders of SMT-LIB 2 text, shared by every encoding that is written as text
and parsed by Z3 once (much cheaper than building terms through the Python API).

Only standard syntax: counting is an ``ite`` sum, never a pseudo-Boolean term, so the
printed scripts stay readable by other solvers.
"""

from __future__ import annotations

from collections.abc import Sequence


def or_(terms: Sequence[str]) -> str:
    """``(or ...)``; one term stands alone, none is ``false``."""
    if not terms:
        return "false"
    return terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"


def and_(terms: Sequence[str]) -> str:
    """``(and ...)``; one term stands alone, none is ``true``."""
    if not terms:
        return "true"
    return terms[0] if len(terms) == 1 else f"(and {' '.join(terms)})"


def not_(term: str) -> str:
    """``(not t)``, or ``x`` for ``(not x)`` so scripts stay readable."""
    inner = term[5:-1] if term.startswith("(not ") and term.endswith(")") else None
    if inner is not None and not any(ch in inner for ch in " ()"):
        return inner
    return f"(not {term})"


def plus(terms: Sequence[str]) -> str:
    """``(+ ...)`` of integer terms; one stands alone (cvc5 rejects a one-argument ``+``)."""
    if not terms:
        return "0"
    return terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"


def count(terms: Sequence[str]) -> str:
    """How many of the Boolean ``terms`` hold, as an ``ite`` sum."""
    return plus([f"(ite {t} 1 0)" for t in terms])
