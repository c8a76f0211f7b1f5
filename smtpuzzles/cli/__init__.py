"""The ``smtpuzzles`` command: one sub-command per puzzle, plus ``bench``."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__
from . import floodit, koburin, nurikabe
from .common import bench_app

app = typer.Typer(
    help=(
        "Solve grid logic puzzles with the Z3 SMT solver over linear integer arithmetic.\n\n"
        "Example: smtpuzzles floodit min instances/floodit/b08x08c4.txt"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(floodit.app, name="floodit")
app.add_typer(nurikabe.app, name="nurikabe")
app.add_typer(koburin.app, name="koburin")
app.add_typer(bench_app, name="bench")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"smtpuzzles {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Solve grid logic puzzles with Z3 over linear integer arithmetic."""


def main() -> None:
    """Entry point of the console script and of ``python -m smtpuzzles``."""
    app(prog_name="smtpuzzles")
