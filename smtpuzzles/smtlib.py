"""Small builders of SMT-LIB 2 text, shared by every encoding that is written as text
and parsed by Z3 once (much cheaper than building terms through the Python API).

Only standard syntax: counting is an ``ite`` sum, never a pseudo-Boolean term, so the
printed scripts stay readable by other solvers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_OTHER = re.compile(r"[^A-Za-z0-9.\-+=<>!@$%^&*?/]")


def escape(name: str) -> str:
    """A cell's name as a piece of an SMT-LIB symbol (``black_<piece>``).

    Letters, digits and most punctuation stay; every other character, and ``_`` and ``~``
    themselves, become ``~<hex>~``. The mapping is one-to-one and ``_`` never survives, so
    names joined with ``_`` (``loop_<a>_<b>``) cannot collide, whatever an adjacency
    table calls its cells (``a_b`` and ``c`` against ``a`` and ``b_c``).
    """
    return _OTHER.sub(lambda m: f"~{ord(m.group()):x}~", name)


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
