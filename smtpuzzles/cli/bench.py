"""``smtpuzzles bench``: replaced by the bench package's command module."""

from __future__ import annotations

import typer

bench_app = typer.Typer(
    help="Run a puzzle's solver over many instances and report times, memory and answers.",
    no_args_is_help=True,
)
