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
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from .common import EXIT_INTERRUPTED, cli_errors, dump_json, error_line

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
Timeout = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.1, help="Seconds per case (the solver's --timeout; killed 30 s later)."
    ),
]
Jobs = Annotated[
    int, typer.Option("--jobs", min=1, help="Cases solved at once here (without --cluster).")
]
First = Annotated[
    int | None,
    typer.Option("--first", min=1, help="Only the first N cases of each PATH (file or folder)."),
]
Cluster = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        metavar="ADDRESS",
        help="Run the cases on a Dask cluster: a scheduler's address (tcp://HOST:8786) or "
        "local:N for N worker processes here. Needs pip install 'smtpuzzles\\[cluster]'.",
    ),
]
Jsonl = Annotated[
    str | None,
    typer.Option(
        "--jsonl", metavar="FILE", help="Write each row to FILE as JSON Lines as it finishes."
    ),
]
Csv = Annotated[
    str | None,
    typer.Option("--csv", metavar="FILE", help="Write each row to FILE as CSV as it finishes."),
]
Resume = Annotated[
    str | None,
    typer.Option(
        "--resume",
        metavar="FILE",
        help="Skip the cases FILE (a --jsonl file of an earlier run with the same options) "
        "holds rows of, error rows aside, and add the new rows to it.",
    ),
]
AsJson = Annotated[
    bool, typer.Option("--json", help="Print one JSON object (rows and summary) at the end.")
]
Memory = Annotated[
    int | None, typer.Option("--memory", min=16, help="The solver's --memory cap in MB.")
]
Unique = Annotated[bool, typer.Option("--unique", help="Have the solver prove each answer unique.")]
Engine = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help="The solver's --engine: sat or smt (Flood-It also auto, its default, and cadical).",
    ),
]

Encoding = Annotated[
    str | None, typer.Option("--encoding", help="The solver's --encoding: layered or reference.")
]
BoundNodes = Annotated[
    int | None, typer.Option("--bound-nodes", min=0, help="The solver's --bound-nodes.")
]
Strategy = Annotated[
    str | None, typer.Option("--strategy", help="The solver's --strategy: downward or mixed.")
]
NoCounting = Annotated[bool, typer.Option("--no-counting", help="The solver's --no-counting.")]
Connectivity = Annotated[
    str | None,
    typer.Option("--connectivity", help="The solver's --connectivity: distance or lazy."),
]
Presolve = Annotated[
    str | None,
    typer.Option("--presolve", help="The solver's --presolve: none (the encoding alone) or full."),
]
Variant = Annotated[
    str | None, typer.Option("--variant", help="The solver's --variant: four or eight.")
]


@bench_app.command(
    "floodit",
    help="Solve Flood-It boards; an answer is checked wherever the optimum is known (m n k "
    "files, solutions_optimal_* beside datasets, manifest.json beside boards).\n\n"
    "Example: smtpuzzles bench floodit instances/floodit --jobs 2 --jsonl rows.jsonl",
)
@cli_errors
def floodit(
    paths: Paths,
    *,
    mode: Mode = "min",
    timeout: Timeout = 60.0,
    jobs: Jobs = 1,
    first: First = None,
    cluster: Cluster = None,
    jsonl: Jsonl = None,
    csv: Csv = None,
    resume: Resume = None,
    as_json: AsJson = False,
    memory: Memory = None,
    presolve: Presolve = None,
    engine: Engine = None,
    encoding: Encoding = None,
    bound_nodes: BoundNodes = None,
    strategy: Strategy = None,
    no_counting: NoCounting = False,
) -> None:
    from ..puzzles.floodit.puzzle import ENGINES
    from ..puzzles.floodit.search import STRATEGIES

    _one_of("--mode", mode, ("solve", "min", "opt"))
    _one_of("--presolve", presolve, ("none", "full"))
    _one_of("--engine", engine, ENGINES)
    _one_of("--encoding", encoding, ("layered", "reference"))
    _one_of("--strategy", strategy, STRATEGIES)
    own = _solver_argv(
        "floodit",
        memory=memory,
        presolve=presolve,
        engine=engine,
        encoding=encoding,
        bound_nodes=bound_nodes,
        strategy=strategy,
        no_counting=no_counting,
    )
    _bench("floodit", mode, own, locals())


@bench_app.command(
    "nurikabe",
    help="Solve Nurikabe puzzles; an answer is checked against the .sol file beside its "
    "puzzle.\n\n"
    "Example: smtpuzzles bench nurikabe instances/nurikabe --timeout 30 --jsonl rows.jsonl",
)
@cli_errors
def nurikabe(
    paths: Paths,
    *,
    mode: Mode = "solve",
    timeout: Timeout = 60.0,
    jobs: Jobs = 1,
    first: First = None,
    cluster: Cluster = None,
    jsonl: Jsonl = None,
    csv: Csv = None,
    resume: Resume = None,
    as_json: AsJson = False,
    memory: Memory = None,
    presolve: Presolve = None,
    engine: Engine = None,
    unique: Unique = False,
    connectivity: Connectivity = None,
) -> None:
    from ..engines import Z3_ENGINES
    from ..puzzles.nurikabe import CONNECTIVITY

    _one_of("--mode", mode, ("solve",))
    _one_of("--engine", engine, Z3_ENGINES)
    _one_of("--connectivity", connectivity, CONNECTIVITY)
    _one_of("--presolve", presolve, ("none", "full"))
    own = _solver_argv(
        "nurikabe",
        memory=memory,
        presolve=presolve,
        engine=engine,
        unique=unique,
        connectivity=connectivity,
    )
    _bench("nurikabe", mode, own, locals())


@bench_app.command(
    "koburin",
    help="Solve Koburin puzzles; an answer is checked against the .sol file beside its "
    "puzzle (or .answer beside a table).\n\n"
    "Example: smtpuzzles bench koburin instances/koburin --cluster local:2",
)
@cli_errors
def koburin(
    paths: Paths,
    *,
    mode: Mode = "solve",
    timeout: Timeout = 60.0,
    jobs: Jobs = 1,
    first: First = None,
    cluster: Cluster = None,
    jsonl: Jsonl = None,
    csv: Csv = None,
    resume: Resume = None,
    as_json: AsJson = False,
    memory: Memory = None,
    presolve: Presolve = None,
    unique: Unique = False,
    connectivity: Connectivity = None,
    variant: Variant = None,
) -> None:
    from ..puzzles.koburin import CONNECTIVITY, VARIANTS

    _one_of("--mode", mode, ("solve",))
    _one_of("--connectivity", connectivity, CONNECTIVITY)
    _one_of("--variant", variant, VARIANTS)
    _one_of("--presolve", presolve, ("none", "full"))
    own = _solver_argv(
        "koburin",
        memory=memory,
        presolve=presolve,
        unique=unique,
        connectivity=connectivity,
        variant=variant,
    )
    _bench("koburin", mode, own, locals())


def _one_of(option: str, value: str | None, allowed: Any) -> None:
    if value is not None and value not in allowed:
        raise InputError(f"{option} {value!r}: expected one of {', '.join(allowed)}")


def _solver_argv(puzzle: str, **options: Any) -> tuple[str, ...]:
    """The solver options given on the command line, as the solver's own arguments."""
    from ..bench import solver_argv

    return solver_argv(puzzle, options)


def _bench(puzzle: str, mode: str, own: tuple[str, ...], given: dict[str, Any]) -> None:
    """What the three commands share: find the cases, run them, report."""
    from ..bench.cases import find_cases
    from ..bench.rows import Settings, summary, summary_lines, table_header, table_line
    from ..bench.session import Plan, run_bench

    o = _Shared(given)
    if o.as_json and o.jsonl == "-":
        raise InputError("--json and --jsonl - both want standard output; pick one")
    settings = Settings(puzzle, mode, own, o.timeout)
    cases = find_cases(puzzle, o.paths, o.first)
    if not cases:
        raise InputError("no puzzles found", " ".join(o.paths))
    table = not o.as_json and o.jsonl != "-"
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
    if o.as_json:
        head = {"puzzle": puzzle, "mode": mode, "options": settings.options_text}
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


class _Shared:
    """The shared options of a bench command, by name."""

    def __init__(self, given: dict[str, Any]) -> None:
        self.paths: list[str] = given["paths"]
        self.timeout: float = given["timeout"]
        self.jobs: int = given["jobs"]
        self.first: int | None = given["first"]
        self.cluster: str | None = given["cluster"]
        self.jsonl: str | None = given["jsonl"]
        self.csv: str | None = given["csv"]
        self.resume: str | None = given["resume"]
        self.as_json: bool = given["as_json"]
