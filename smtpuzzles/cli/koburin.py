"""The ``smtpuzzles koburin`` commands (solve, generate) and ``smtpuzzles bench koburin``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from ..output import check_outputs, write_output
from ..puzzles.koburin import CONNECTIVITY, VARIANTS, Koburin, encode, solve
from ..puzzles.koburin.formats import (
    FORMATS,
    parse,
    parse_solution_grid,
    to_grid_text,
    to_puzzlink,
)
from ..puzzles.koburin.generate import generate as make_puzzle
from ..puzzles.koburin.pictures import draw, solution_json, svg
from ..puzzles.koburin.search import ENGINE, whole_script
from ..solving import (
    Budget,
    Stats,
    clock_started,
    deadline,
    formula_size,
    limit_memory,
    parse_timeout,
)
from ..sources import path_exists, read_source
from .common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    AsJson,
    Count,
    DryRun,
    Force,
    Memory,
    Output,
    PrintAsserts,
    ShowStats,
    Svg,
    Timeout,
    Unique,
    bench_app,
    cli_errors,
    dump_json,
    error_line,
)

if TYPE_CHECKING:
    from ..bench import Row

app = typer.Typer(
    help=(
        "Koburin: paint some empty cells black (never two side by side) and draw one loop "
        "through all the other empty cells; a number counts its black neighbours."
    ),
    no_args_is_help=True,
)

Puzzle = Annotated[
    str,
    typer.Argument(help="Puzzle file, '-' for standard input, or a puzz.link URL."),
]
Format = Annotated[
    str,
    typer.Option("--format", help=f"Input format, one of {', '.join(FORMATS)}."),
]
Variant = Annotated[
    str | None,
    typer.Option(
        "--variant",
        help="'four': numbers count orthogonal neighbours; 'eight': all eight around "
        "(default: as the input says, else four).",
    ),
]
Connectivity = Annotated[
    str,
    typer.Option(
        "--connectivity",
        help="'lazy' (faster): solve without connectivity and forbid each separate loop "
        "found; 'distance': one formula, loop connected by distances to a root.",
    ),
]


def load(puzzle: str, fmt: str, variant: str | None) -> Koburin:
    """Read a puzzle from a URL argument, a file or standard input."""
    if variant is not None and variant not in VARIANTS:
        raise InputError(f"unknown variant {variant!r}; expected one of {', '.join(VARIANTS)}")
    if fmt in ("auto", "puzzlink") and "?" in puzzle and "/" in puzzle and not path_exists(puzzle):
        return parse(puzzle, "<url>", "puzzlink", variant)
    text, name = read_source(puzzle)
    return parse(text, name, fmt, variant)


def _size(puzzle: Koburin) -> str:
    g = puzzle.graph
    if g.rows is not None and g.cols is not None and g.kind != "table":
        return f"{g.rows}x{g.cols}"
    return f"{len(g)} cells"


def _emit(text: str, output: Path | None, force: bool) -> None:
    if output is not None:
        write_output(output, text + "\n", force)
    typer.echo(text)


@app.command("solve")
@cli_errors
def solve_command(
    puzzle: Puzzle,
    fmt: Format = "auto",
    variant: Variant = None,
    unique: Unique = False,
    count: Count = None,
    connectivity: Connectivity = "lazy",
    to: Annotated[
        str | None,
        typer.Option("--to", help="Print the puzzle as 'puzzlink' (a URL) or 'grid'; no solving."),
    ] = None,
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    as_json: AsJson = False,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """Solve a Koburin puzzle.

    Example: smtpuzzles koburin solve instances/koburin/gen_8x8_s1.txt --unique
    """
    budget = Budget(parse_timeout(timeout), started=clock_started())
    limit_memory(memory)
    check_outputs([output, svg_path], [puzzle], force)
    if connectivity not in CONNECTIVITY:
        raise InputError(f"unknown connectivity {connectivity!r}; expected distance or lazy")
    with deadline(budget):
        p = load(puzzle, fmt, variant)
    if to is not None:
        if to == "puzzlink":
            _emit(to_puzzlink(p), output, force)
        elif to == "grid":
            _emit(to_grid_text(p).rstrip("\n"), output, force)
        else:
            raise InputError(f"unknown --to {to!r}; expected puzzlink or grid")
        return
    if dry_run:
        if print_asserts:
            comments = _comments(p, puzzle) + ["not solved (--dry-run)"]
            _emit(whole_script(p, comments=comments).rstrip(), output, force)
            return
        size = formula_size(encode(p, connectivity).assertions())
        if as_json:
            _emit(dump_json({"puzzle": "koburin", "size": _size(p), **size}), output, force)
        else:
            parts = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in size.items())
            _emit(f"koburin {_size(p)}, {len(p.clues)} numbers; {parts}", output, force)
        return
    run_stats = Stats()
    outcome = solve(p, budget, run_stats, unique=unique, count=count, connectivity=connectivity)
    elapsed = round(budget.elapsed(), 4)
    result: dict[str, Any] = {
        "puzzle": "koburin",
        "status": outcome.status,
        **solution_json(p, outcome.solution),
        "unique": outcome.unique,
        "elapsed_s": elapsed,
    }
    if count is not None:
        result["count"] = outcome.count
        result["count_complete"] = outcome.count_exact
    script = None
    if print_asserts:
        comments = _comments(p, puzzle) + _found_by(outcome, connectivity)
        script = whole_script(p, outcome.blocked, comments)
        result["smtlib"] = script
    if stats:
        result["stats"] = run_stats.as_dict()
    if svg_path is not None:
        write_output(svg_path, svg(p, outcome.solution, f"koburin {_size(p)}"), force)
    if as_json:
        _emit(dump_json(result), output, force)
    else:
        _emit(_text(p, outcome, result, script, run_stats if stats else None), output, force)
    if outcome.interrupted:
        error_line("interrupted")
        raise typer.Exit(EXIT_INTERRUPTED)
    if outcome.status == "unsat":
        raise typer.Exit(EXIT_NO_SOLUTION)
    asked_more = (
        (unique or count is not None)
        and outcome.unique is None
        and not (count is not None and outcome.count == count)
    )
    if outcome.status == "unknown" or (asked_more and outcome.status == "solved"):
        raise typer.Exit(EXIT_LIMIT)
    raise typer.Exit(EXIT_OK)


def _comments(p: Koburin, source: str) -> list[str]:
    return [
        f"koburin {_size(p)} from {source}, {len(p.clues)} numbers, variant {p.variant}",
        "black_<cell>: painted black; loop_<a>_<b>: the loop joins cells a and b;",
        "loop_dist_<cell>: a label that decreases along the loop towards its root (its cell",
        "of least index): the whole puzzle, whichever strategy solved it",
    ]


def _found_by(outcome: Any, connectivity: str) -> list[str]:
    """Comment lines: which strategy found the answer, and what the blocking means."""
    how = f"answer found with --connectivity {connectivity} (Z3 {ENGINE[connectivity]} engine"
    how += f", {outcome.cuts} separate-loop cuts)" if connectivity == "lazy" else ")"
    lines = [how]
    n = len(outcome.blocked)
    if n:
        found = "the solution found is" if n == 1 else f"the {n} solutions found are"
        lines.append(f"{found} blocked: unsat means there is no other")
    return lines


def _text(
    p: Koburin, outcome: Any, result: dict[str, Any], script: str | None, stats: Stats | None
) -> str:
    lines = []
    if script is not None:
        lines.append(script.rstrip())
    lines.append(f"koburin {_size(p)}, {len(p.clues)} numbers, variant {p.variant}")
    lines.append(draw(p, outcome.solution))
    status = outcome.status
    if outcome.unique is True:
        status += ", unique"
    elif outcome.unique is False:
        status += ", not unique"
    if outcome.interrupted:
        status += " (interrupted)"
    lines.append(f"status: {status}")
    if outcome.other is not None and outcome.count is None:
        lines.append("another solution:")
        lines.append(draw(p, outcome.other))
    if outcome.count is not None:
        more = "" if outcome.count_exact else " (stopped there; there may be more)"
        lines.append(f"solutions: {outcome.count}{more}")
    if outcome.cuts:
        lines.append(f"separate-loop cuts: {outcome.cuts}")
    if stats is not None:
        lines.append("stats: " + json.dumps(stats.as_dict()))
    lines.append(f"time: {result['elapsed_s']:.3f} s")
    return "\n".join(lines)


@app.command("generate")
@cli_errors
def generate_command(
    rows: Annotated[int, typer.Argument(min=2, max=60, help="Rows.")],
    cols: Annotated[int, typer.Argument(min=2, max=60, help="Columns.")],
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same puzzle).")] = 0,
    to: Annotated[
        str, typer.Option("--to", help="'grid' (ROWS COLS header) or 'puzzlink'.")
    ] = "grid",
    solution: Annotated[
        Path | None, typer.Option("--solution", help="Also write the answer (.sol form) here.")
    ] = None,
    timeout: Timeout = None,
    output: Output = None,
) -> None:
    """Make a random puzzle with a unique solution (grid text, or a puzz.link URL).

    A random loop and black cells, the numbers read off, and more numbers until the
    solution is unique.

    Example: smtpuzzles koburin generate 10 10 --seed 1
    """
    check_outputs([output, solution], [], False)
    made = make_puzzle(rows, cols, seed, Budget(parse_timeout(timeout), started=clock_started()))
    if made is None:
        typer.echo(
            "smtpuzzles: error: time limit reached before a unique puzzle was made", err=True
        )
        raise typer.Exit(EXIT_LIMIT)
    puzzle, answer, sol_text = made
    if to == "puzzlink":
        text = to_puzzlink(puzzle)
    elif to == "grid":
        text = to_grid_text(puzzle).rstrip("\n")
    else:
        raise InputError(f"unknown --to {to!r}; expected grid or puzzlink")
    if solution is not None:
        write_output(solution, sol_text, False)
    _emit(text, output, False)


def _puzzle_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.is_file() and p.suffix in (".txt", ".url", ".janko", ".table")
                )
            )
        elif path.exists():
            found.append(path)
        else:
            raise InputError("no such file", str(path))
    return found


def _judge(row: Row) -> str:
    """Compare an answer with the ``.sol`` file beside its puzzle (if there is one)."""
    expected = row.case.expected
    if expected is None:
        return ""
    if row.result is None or row.result.get("status") != "solved":
        return "WRONG"
    black = {tuple(c) for c in row.result["black"]}
    loop = [tuple(c) for c in row.result["loop"]]
    links = {frozenset({a, b}) for a, b in zip(loop, loop[1:] + loop[:1])}
    return "ok" if (black, links) == expected else "WRONG"


@bench_app.command("koburin")
@cli_errors
def bench_command(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Puzzle files or folders (a .sol beside a puzzle is its answer)."),
    ],
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Puzzles solved at once.")] = 1,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Per puzzle, seconds.")
    ] = 60.0,
    connectivity: Connectivity = "lazy",
    unique: Unique = False,
    as_json: AsJson = False,
) -> None:
    """Solve many Koburin puzzles, each in its own process, and check them against their
    ``.sol`` answers.

    Example: smtpuzzles bench koburin ../shared/data/koburin --jobs 1
    """
    from ..bench import Case, run_cases, summary  # only bench needs the process pool

    cases = []
    for path in _puzzle_files(paths):
        if path.suffix == ".sol":
            continue
        sol = path.with_suffix(".sol")
        expected = parse_solution_grid(sol.read_text(), str(sol)) if sol.exists() else None
        argv = ["koburin", "solve", str(path), "--json", "--timeout", str(timeout)]
        argv += ["--connectivity", connectivity] + (["--unique"] if unique else [])
        cases.append(Case(path.stem, argv, expected=expected))
    rows = run_cases(cases, jobs=jobs, hard_limit_s=timeout + 10, judge=_judge)
    totals = summary(rows)
    if as_json:
        typer.echo(
            dump_json(
                {
                    "puzzle": "koburin",
                    "rows": [
                        {
                            "name": r.case.name,
                            "status": (r.result or {}).get("status"),
                            "wall_s": round(r.wall_s, 3),
                            "inner_s": (r.result or {}).get("elapsed_s"),
                            "peak_mb": round(r.peak_mb, 1),
                            "verdict": r.verdict,
                            "error": r.error,
                        }
                        for r in rows
                    ],
                    "summary": totals,
                }
            )
        )
    else:
        typer.echo(f"{'puzzle':<24} {'status':<8} {'wall s':>7} {'inner s':>8} {'MB':>6}  verdict")
        for r in rows:
            res = r.result or {}
            inner = res.get("elapsed_s")
            typer.echo(
                f"{r.case.name:<24} {str(res.get('status', 'error')):<8} {r.wall_s:7.3f} "
                f"{inner if inner is not None else '-':>8} {r.peak_mb:6.1f}  {r.verdict or '-'}"
                + (f"  {r.error}" if r.result is None and r.error else "")
            )
        typer.echo("summary: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    if totals["wrong"] or totals["errors"]:
        raise typer.Exit(EXIT_NO_SOLUTION)
