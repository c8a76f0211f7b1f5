"""Nurikabe: parse, deduce, probe, encode (rules as named functions), solve, check."""

from .check import problems
from .model import NurikabeInstance, Picture
from .presolve.deduce import Deductions, deduce
from .rules import PRESOLVE, RULES, Encoding, encode
from .search import CONNECTIVITY, Outcome, Search, prepare, solve, starting_formula

__all__ = [
    "CONNECTIVITY",
    "Deductions",
    "Encoding",
    "NurikabeInstance",
    "Outcome",
    "PRESOLVE",
    "Picture",
    "RULES",
    "Search",
    "deduce",
    "encode",
    "prepare",
    "problems",
    "solve",
    "starting_formula",
]
