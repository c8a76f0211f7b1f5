"""The ``smtpuzzles nurikabe`` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="nurikabe puzzles.", no_args_is_help=True)
