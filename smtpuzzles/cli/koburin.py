"""The ``smtpuzzles koburin`` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="koburin puzzles.", no_args_is_help=True)
