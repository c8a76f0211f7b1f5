"""The ``hint``, ``explain`` and ``rate`` commands of Nurikabe and Koburin.

They print what :func:`smtpuzzles.api.explain` returns; ``--timeout``, ``--memory`` and
Ctrl-C end them with the steps found so far (status ``stopped``, exit 3, or 130 on
Ctrl-C), through the same budget and deadline as the solving commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .. import api
from ..forced import NO_SOLUTION, Explanation, grade_words
from ..limits import (
    Budget,
    clock_started,
    hard_stop_off,
    hard_stop_past,
    limit_memory,
    parse_memory,
    parse_timeout,
)
from . import run
from .common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    cli_errors,
    dump_json,
)
from .options import LIMITS, Shared, command, format_option, puzzle_argument

Puzzle = puzzle_argument()

JSON = {
    "json": (
        Annotated[bool, typer.Option("--json", help="Print one JSON object.")],
        False,
    ),
}


def _explain(
    kind: str, source: str, shared: Shared, fmt: str, limit: int | None, state: Path | None
) -> Explanation:
    budget = Budget(parse_timeout(shared.timeout), started=clock_started())
    limit_memory(parse_memory(shared.memory))
    puzzle = run.read(kind, source, shared, fmt)
    text = None
    if state is not None:
        try:
            text = state.read_text()
        except OSError as exc:
            from ..errors import InputError

            raise InputError(f"cannot read --state {state}: {exc.strerror}") from None
    hard_stop_past(budget)
    try:
        return api.explain(puzzle, state=text, limit=limit, budget=budget)
    finally:
        hard_stop_off()


def _exit(found: Explanation) -> None:
    if found.status == NO_SOLUTION:
        raise typer.Exit(EXIT_NO_SOLUTION)
    if found.stopped_by == "interrupted":
        raise typer.Exit(EXIT_INTERRUPTED)
    if found.status == "stopped":
        raise typer.Exit(EXIT_LIMIT)
    raise typer.Exit(EXIT_OK)


def _report(found: Explanation, shared: Shared) -> None:
    """Print an explanation (``hint`` and ``explain``: JSON or the report with
    pictures), then exit with its code."""
    if shared.json:
        typer.echo(dump_json(found.to_json()))
    else:
        typer.echo(found.report(pictures=True))
    _exit(found)


def add_commands(app: typer.Typer, kind: str, formats: tuple[str, ...], example: str) -> None:
    """Register ``hint``, ``explain`` and ``rate`` on a puzzle's typer app."""
    options = {"fmt": format_option(formats), **LIMITS, **JSON}

    @command(
        app,
        "hint",
        "The easiest next deduction: the cells it decides, and the clues, decided cells "
        "and rules that force them; wrong entries of --state are shown with their reason.",
        options,
        f"smtpuzzles {kind} hint {example}",
    )
    @cli_errors
    def hint(
        puzzle: Puzzle,
        state: Annotated[
            Path | None,
            typer.Option(
                "--state",
                help="A partly solved grid: '#' black, '.' white (Koburin: 'o' loop), "
                "'-' open, one line a row.",
            ),
        ] = None,
        *,
        shared: Shared,
        own: dict[str, Any],
    ) -> None:
        _report(_explain(kind, puzzle, shared, own["fmt"], 1, state), shared)

    @command(
        app,
        "explain",
        "Every step from the empty grid to the solution, easiest first.",
        options,
        f"smtpuzzles {kind} explain {example}",
    )
    @cli_errors
    def explain(puzzle: Puzzle, *, shared: Shared, own: dict[str, Any]) -> None:
        _report(_explain(kind, puzzle, shared, own["fmt"], None, None), shared)

    @command(
        app,
        "rate",
        "A difficulty grade from the explanation (docs: rate).",
        options,
        f"smtpuzzles {kind} rate {example}",
    )
    @cli_errors
    def rate(puzzle: Puzzle, *, shared: Shared, own: dict[str, Any]) -> None:
        found = _explain(kind, puzzle, shared, own["fmt"], None, None)
        sizes = [s.size for s in found.steps]
        facts = {
            "puzzle": found.puzzle,
            "name": found.name,
            "status": found.status,
            "grade": found.grade,
            "words": grade_words(found.grade),
            "steps": len(found.steps),
            "largest_step": max(sizes, default=0),
            "case_splits": sum(s.case_split for s in found.steps),
            "unsure_premises": sum(s.unsure for s in found.steps),
            "elapsed_s": round(found.elapsed_s, 3),
        }
        if shared.json:
            typer.echo(dump_json(facts))
        else:
            # a puzzle with no solution has no grade to speak of (JSON keeps its 0)
            hidden = {"elapsed_s"} | ({"grade", "words"} if found.status == NO_SOLUTION else set())
            shown = {k: v for k, v in facts.items() if k not in hidden}
            lines = [f"{k}: {v}" for k, v in shown.items()]
            typer.echo("\n".join([*lines, f"time: {found.elapsed_s:.3f} s"]))
        _exit(found)
