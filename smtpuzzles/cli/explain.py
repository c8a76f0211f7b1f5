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
from ..forced import NO_SOLUTION, Explanation, Step, grade_words
from ..limits import (
    Budget,
    clock_started,
    hard_stop_off,
    hard_stop_past,
    limit_memory,
    parse_memory,
    parse_timeout,
)
from ..runner import stopping
from ..smtlib import Source as SmtSource
from ..smtlib import join_questions, write_questions
from ..smtlib import question as smtlib_question
from . import run
from .common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    cli_errors,
    dump_json,
)
from .options import LIMITS, Shared, command, format_option, option, puzzle_argument

Puzzle = puzzle_argument()

JSON = {
    "json": (
        Annotated[bool, typer.Option("--json", help="Print one JSON object.")],
        False,
    ),
}

#: ``hint`` and ``explain``: each step's question as an SMT-LIB script
SCRIPTS = {
    "print_asserts": option(
        bool,
        False,
        "--print-asserts",
        help="Print each step's question as an SMT-LIB 2 script (its rules, its premises, "
        "its facts failing: unsat), on stdout alone; the steps go to stderr. With --json, "
        "each step's 'smtlib'.",
    ),
    "smtlib": option(
        Path | None,
        None,
        "--smtlib",
        metavar="DIR",
        help="Write each step's script to DIR/<name>.step-<n>.smt2 (a wrong entry's: wrong-<n>).",
    ),
    "proof": option(
        Path | None,
        None,
        "--proof",
        metavar="DIR",
        help="For each step, write the CNF of its script and a DRAT proof that it is "
        "unsatisfiable to DIR/<name>.step-<n>.cnf and .drat (check them with smtpuzzles "
        "verify or drat-trim).",
    ),
    "force": option(bool, False, "--force", help="Replace the files --smtlib and --proof write."),
}


def _explain(
    kind: str,
    source: str,
    shared: Shared,
    fmt: str,
    limit: int | None,
    state: Path | None,
    budget: Budget | None = None,
) -> Explanation:
    budget = budget or Budget(parse_timeout(shared.timeout), started=clock_started())
    limit_memory(parse_memory(shared.memory))
    inputs = [source] + ([str(state)] if state is not None else [])
    run.refuse_bad_run_outputs(shared, inputs, run.output_stem(source, shared.index))
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


def _named(found: Explanation) -> list[tuple[str, Step]]:
    """Each wrong entry and step, named as ``--smtlib`` and ``--proof`` name its files."""
    named = [(f"wrong-{n}", s) for n, s in enumerate(found.wrong, 1)]
    return named + [(f"step-{n}", s) for n, s in enumerate(found.steps, 1)]


def _explained(
    kind: str, source: str, shared: Shared, fmt: str, limit: int | None, state: Path | None
) -> None:
    """Explain (``hint``: one step), then give each step's script and proof as asked,
    one step at a time (a script is the whole formula: a large puzzle's steps' scripts
    together would not fit in memory), within the time left; print the explanation and
    exit with its code. A run a limit or Ctrl-C stopped makes no scripts or proofs."""
    budget = Budget(parse_timeout(shared.timeout), started=clock_started())
    found = _explain(kind, source, shared, fmt, limit, state, budget)
    printed = shared.print_asserts and not shared.json
    if found.stopped_by is None and (printed or shared.smtlib or shared.proof):
        stem = run.output_stem(source, shared.index)
        about = f"{found.puzzle} puzzle {found.name}, the questions of its explanation's steps"
        source_of = SmtSource(about, run._command_line(), generated_on=run._today())
        hard_stop_past(budget)
        try:
            with stopping(budget) as stop:
                for k, (name, step) in enumerate(_named(found)):
                    question = smtlib_question(name, found.script(step), "unsat")
                    if printed:  # one stream: the scripts apart, as join_questions does
                        apart = "(reset)\n" if k else ""
                        typer.echo(apart + join_questions([question]), nl=False)
                    if shared.smtlib is not None:
                        write_questions([question], shared.smtlib, stem, source_of, shared.force)
                    if shared.proof is not None:
                        run._proofs([question], shared.proof, stem, budget, shared.force)
        finally:
            hard_stop_off()
        if stop.why is not None:
            found.status, found.stopped_by = "stopped", stop.why
        found.elapsed_s = budget.elapsed()
    _report(found, shared)


def _report(found: Explanation, shared: Shared) -> None:
    """Print an explanation (JSON, with each step's script under ``--print-asserts``; or
    the report with pictures, on stderr when the scripts have stdout), then exit with
    its code."""
    if shared.json:
        out = found.to_json()
        if shared.print_asserts and found.stopped_by is None:
            steps = [*out.get("wrong", []), *out["steps"]]
            for shown, (_, step) in zip(steps, _named(found)):
                shown["smtlib"] = found.script(step).text()
        typer.echo(dump_json(out))
    else:
        typer.echo(found.report(pictures=True), err=shared.print_asserts)
    _exit(found)


def add_commands(app: typer.Typer, kind: str, formats: tuple[str, ...], example: str) -> None:
    """Register ``hint``, ``explain`` and ``rate`` on a puzzle's typer app."""
    options = {"fmt": format_option(formats), **LIMITS, **JSON}
    with_scripts = {**options, **SCRIPTS}

    @command(
        app,
        "hint",
        "The easiest next deduction: the cells it decides, and the clues, decided cells "
        "and rules that force them; wrong entries of --state are shown with their reason.",
        with_scripts,
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
        _explained(kind, puzzle, shared, own["fmt"], 1, state)

    @command(
        app,
        "explain",
        "Every step from the empty grid to the solution, easiest first.",
        with_scripts,
        f"smtpuzzles {kind} explain {example}",
    )
    @cli_errors
    def explain(puzzle: Puzzle, *, shared: Shared, own: dict[str, Any]) -> None:
        _explained(kind, puzzle, shared, own["fmt"], None, None)

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
