"""The ``smtpuzzles floodit`` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="floodit puzzles.", no_args_is_help=True)
