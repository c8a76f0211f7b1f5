"""Koburin: paint some cells black and draw one loop through all the others."""

from __future__ import annotations

from .check import problems
from .model import VARIANTS, KoburinInstance, Solution
from .rules import PRESOLVE, RULES, Encoding, encode, script
from .search import CONNECTIVITY, Outcome, Search, solve

__all__ = [
    "CONNECTIVITY",
    "VARIANTS",
    "Encoding",
    "KoburinInstance",
    "Outcome",
    "PRESOLVE",
    "RULES",
    "Search",
    "Solution",
    "encode",
    "problems",
    "script",
    "solve",
]
