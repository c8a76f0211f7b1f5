"""``smtpuzzles bench floodit|nurikabe|koburin``: one bench for every puzzle.

The three commands share one set of options (declared once, below) and differ only in
the solver options they pass through to every case. Rows are printed as a table while
the run goes, or as one JSON object at its end (``--json``), and streamed to
``--jsonl``/``--csv`` files; the machinery is in :mod:`smtpuzzles.bench`. This module
imports nothing heavy, since every ``smtpuzzles`` command line builds it.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from .common import EXIT_INTERRUPTED, cli_errors, dump_json, error_line
from .options import command

if TYPE_CHECKING:
    from ..bench.session import BenchOutcome, Plan

bench_app = typer.Typer(
    help=(
        "Run a puzzle's solver over many instances, each as its own process, here or on a "
        "Dask cluster; report answers, verdicts against known answers, times and memory."
    ),
    no_args_is_help=True,
)

#: Exit code of a bench stopped by SIGTERM (128 + the signal's number, as shells do).
EXIT_TERMINATED = 128 + signal.SIGTERM
#: Exit code of a bench with a wrong answer or an error row.
EXIT_BAD_ROWS = 1

Paths = Annotated[
    list[str],
    typer.Argument(metavar="PATH...", help="Puzzle files, folders of them, or datasets."),
]
Mode = Annotated[
    str,
    typer.Option("--mode", help="The solve command: Flood-It solve, min or opt; the others solve."),
]


def _option(kind: Any, *names: str, help: str, **limits: Any) -> tuple[Any, Any]:
    """An option of the bench commands, with ``None`` (or off) as its default."""
    default = False if kind is bool else None
    return (Annotated[kind, typer.Option(*names, help=help, **limits)], default)


@dataclass
class Run:
    """The options every bench command has: which cases, how they run, where rows go."""

    mode: str
    timeout: float = 60.0
    jobs: int = 1
    first: int | None = None
    cluster: str | None = None
    jsonl: str | None = None
    csv: str | None = None
    resume: str | None = None
    json: bool = False


#: The options every bench command has (its ``--mode`` aside), declared once.
RUN = {
    "timeout": (
        Annotated[
            float,
            typer.Option(
                "--timeout",
                min=0.1,
                help="Seconds per case (the solver's --timeout; killed 30 s later).",
            ),
        ],
        60.0,
    ),
    "jobs": (
        Annotated[
            int,
            typer.Option("--jobs", min=1, help="Cases solved at once here (without --cluster)."),
        ],
        1,
    ),
    "first": _option(
        int | None, "--first", min=1, help="Only the first N cases of each PATH (file or folder)."
    ),
    "cluster": _option(
        str | None,
        "--cluster",
        metavar="ADDRESS",
        help="Run the cases on a Dask cluster: a scheduler's address (tcp://HOST:8786) or "
        "local:N for N worker processes here. Needs pip install 'smtpuzzles\\[cluster]'.",
    ),
    "jsonl": _option(
        str | None,
        "--jsonl",
        metavar="FILE",
        help="Write each row to FILE as JSON Lines as it finishes.",
    ),
    "csv": _option(
        str | None, "--csv", metavar="FILE", help="Write each row to FILE as CSV as it finishes."
    ),
    "resume": _option(
        str | None,
        "--resume",
        metavar="FILE",
        help="Skip the cases FILE (a --jsonl file of an earlier run with the same options) "
        "holds rows of, error rows aside, and add the new rows to it.",
    ),
    "json": _option(bool, "--json", help="Print one JSON object (rows and summary) at the end."),
}

#: The solver options a bench passes through to every case, declared once; each
#: puzzle's bench module says which it takes and checks their values.
SOLVER = {
    "memory": _option(int | None, "--memory", min=16, help="The solver's --memory cap in MB."),
    "presolve": _option(
        str | None,
        "--presolve",
        help="The solver's --presolve: none (the encoding alone) or full.",
    ),
    "engine": _option(
        str | None,
        "--engine",
        help="The solver's --engine: sat or smt (Flood-It also auto, its default, and cadical).",
    ),
    "encoding": _option(
        str | None, "--encoding", help="The solver's --encoding: layered or reference."
    ),
    "bound_nodes": _option(int | None, "--bound-nodes", min=0, help="The solver's --bound-nodes."),
    "strategy": _option(
        str | None, "--strategy", help="The solver's --strategy: downward or mixed."
    ),
    "no_counting": _option(bool, "--no-counting", help="The solver's --no-counting."),
    "unique": _option(bool, "--unique", help="Have the solver prove each answer unique."),
    "connectivity": _option(
        str | None, "--connectivity", help="The solver's --connectivity: distance or lazy."
    ),
    "variant": _option(str | None, "--variant", help="The solver's --variant: four or eight."),
}


def _add_command(kind: str, mode: str, solver: tuple[str, ...], help: str, example: str) -> None:
    """Register ``bench KIND``: the shared options, then the solver options it passes."""
    options = {"mode": (Mode, mode), **RUN, **{name: SOLVER[name] for name in solver}}

    @command(bench_app, kind, help, options, example, gather=Run)
    @cli_errors
    def run(paths: Paths, *, shared: Run, own: dict[str, Any]) -> None:
        _bench(kind, paths, shared, own)


_add_command(
    "floodit",
    "min",
    ("memory", "presolve", "engine", "encoding", "bound_nodes", "strategy", "no_counting"),
    "Solve Flood-It boards; an answer is checked wherever the optimum is known (m n k "
    "files, solutions_optimal_* beside datasets, manifest.json beside boards).",
    "smtpuzzles bench floodit instances/floodit --jobs 2 --jsonl rows.jsonl",
)
_add_command(
    "nurikabe",
    "solve",
    ("memory", "presolve", "engine", "unique", "connectivity"),
    "Solve Nurikabe puzzles; an answer is checked against the .sol file beside its puzzle.",
    "smtpuzzles bench nurikabe instances/nurikabe --timeout 30 --jsonl rows.jsonl",
)
_add_command(
    "koburin",
    "solve",
    ("memory", "presolve", "unique", "connectivity", "variant"),
    "Solve Koburin puzzles; an answer is checked against the .sol file beside its puzzle "
    "(or .answer beside a table).",
    "smtpuzzles bench koburin instances/koburin --cluster local:2",
)


def _bench(puzzle: str, paths: list[str], o: Run, own: dict[str, Any]) -> None:
    """What the bench commands share: find the cases, run them, report."""
    from ..bench import modes_of, solver_argv
    from ..bench.cases import find_cases
    from ..bench.rows import Settings, summary, summary_lines, table_header, table_line
    from ..bench.session import Plan, run_bench

    if o.mode not in modes_of(puzzle):
        raise InputError(f"--mode {o.mode!r}: expected one of {', '.join(modes_of(puzzle))}")
    if o.json and o.jsonl == "-":
        raise InputError("--json and --jsonl - both want standard output; pick one")
    settings = Settings(puzzle, o.mode, solver_argv(puzzle, own, by_flag=True), o.timeout)
    cases = find_cases(puzzle, paths, o.first)
    if not cases:
        raise InputError("no puzzles found", " ".join(paths))
    table = not o.json and o.jsonl != "-"
    headed = False

    def show(row: dict[str, Any]) -> None:
        nonlocal headed
        if table:
            if not headed:
                typer.echo(table_header())
                headed = True
            typer.echo(table_line(row))
            sys.stdout.flush()

    plan = Plan(settings, cases, o.jobs, o.cluster, o.jsonl, o.csv, o.resume)
    outcome = run_bench(plan, show)
    total = summary(outcome.rows, outcome.wall_s)
    if o.json:
        head = {"puzzle": puzzle, "mode": o.mode, "options": settings.options_text}
        report = {**head, "timeout_s": o.timeout, "rows": outcome.rows, "summary": total}
        typer.echo(dump_json(report))
    else:
        for line in summary_lines(total):
            typer.echo(line, err=not table)
    if outcome.stopped_by is not None:
        _stopped(outcome, plan)
    raise typer.Exit(EXIT_BAD_ROWS if total["wrong"] or total["errors"] else 0)


def _stopped(outcome: BenchOutcome, plan: Plan) -> None:
    kept = plan.jsonl or plan.resume
    where = (
        f"; rows kept in {kept}, --resume {kept} runs the rest" if kept not in (None, "-") else ""
    )
    name = "interrupted" if outcome.stopped_by == signal.SIGINT else "terminated"
    error_line(f"{name}: {len(outcome.not_run)} of {len(plan.cases)} cases not finished{where}")
    code = EXIT_INTERRUPTED if outcome.stopped_by == signal.SIGINT else EXIT_TERMINATED
    raise typer.Exit(code)
