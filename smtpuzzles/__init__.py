"""smtpuzzles: grid logic puzzles solved by Z3 over linear integer arithmetic."""

from __future__ import annotations

__version__ = "0.1.0"
