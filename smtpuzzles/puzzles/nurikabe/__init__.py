"""Nurikabe: parse, deduce, probe, encode (rules as named functions), solve, check."""

from .check import problems
from .encode import Encoding, encode
from .puzzle import Deductions, Nurikabe, Picture, deduce
from .solve import STRATEGIES, Outcome, Search, prepare, solve, starting_formula

__all__ = [
    "STRATEGIES",
    "Deductions",
    "Encoding",
    "Nurikabe",
    "Outcome",
    "Picture",
    "Search",
    "deduce",
    "encode",
    "prepare",
    "problems",
    "solve",
    "starting_formula",
]
