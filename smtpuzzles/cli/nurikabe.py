"""The ``smtpuzzles nurikabe`` commands and ``smtpuzzles bench nurikabe``."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError
from ..formats.grid import format_clue_grid
from ..formats.puzzlink import looks_like_url
from ..output import check_outputs, write_output
from ..puzzles.nurikabe import STRATEGIES, Outcome, prepare, solve, starting_formula
from ..puzzles.nurikabe.formats import FORMATS, format_table, parse, to_puzzlink
from ..puzzles.nurikabe.generate import SHAPES, generate, shape_graph
from ..puzzles.nurikabe.pictures import json_solution, svg, text_picture
from ..solving import (
    ENGINES,
    Budget,
    Stats,
    clock_started,
    deadline,
    formula_size,
    limit_memory,
    parse_timeout,
    smtlib_script,
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
    from ..puzzles.nurikabe import Nurikabe

app = typer.Typer(
    help=(
        "Nurikabe: shade cells so that every white region holds one clue and that many "
        "cells, the black cells are connected, and no 2x2 block is black.\n\n"
        "Example: smtpuzzles nurikabe solve instances/nurikabe/square_07x07.txt --unique"
    ),
    no_args_is_help=True,
)

Format = Annotated[
    str,
    typer.Option("--format", help=f"Input format: {', '.join(FORMATS)}."),
]
Index = Annotated[
    int, typer.Option("--index", min=1, help="Which puzzle of a multi-line seed004 file (from 1).")
]
Connectivity = Annotated[
    str,
    typer.Option(
        "--connectivity",
        help="distance: islands and wall as distance-to-root regions; "
        "lazy: solve without them and add cuts for disconnected pieces (seeds/004).",
    ),
]

Engine = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help="Z3 engine: sat (the SAT core) or smt (the QF_LIA solver); "
        "default: the faster one for the strategy (distance: smt, lazy: sat).",
    ),
]


def load(puzzle: str, fmt: str, index: int):
    """The puzzle named by a path, ``-`` (standard input) or a puzz.link URL."""
    if fmt not in FORMATS:
        raise InputError(f"unknown --format {fmt!r}; expected one of {', '.join(FORMATS)}")
    if looks_like_url(puzzle) and not path_exists(puzzle):
        return parse(puzzle, "<url>", fmt, index)
    text, name = read_source(puzzle)
    return parse(text, name, fmt, index)


def _rows_or_map(puzzle, marks: dict[int, str]) -> Any:
    """Like :func:`json_solution`, for a partial picture (``?`` where not fixed)."""
    picture = tuple(marks.get(i) == "#" for i in range(len(puzzle)))
    shown = json_solution(puzzle, picture)
    if isinstance(shown, dict):
        return {name: marks[i] for i, name in enumerate(puzzle.graph.names) if i in marks}
    where = puzzle.graph.coords
    rows = [list(r) for r in shown]
    for i, (r, c) in enumerate(where):
        rows[r][c] = marks.get(i, "?")
    return ["".join(r) for r in rows]


@app.command("solve")
@cli_errors
def solve_command(
    puzzle: Annotated[str, typer.Argument(help="Puzzle file, '-' for standard input, or URL.")],
    fmt: Format = "auto",
    index: Index = 1,
    connectivity: Connectivity = "distance",
    engine: Engine = None,
    unique: Unique = False,
    count: Count = None,
    to: Annotated[
        str | None, typer.Option("--to", help="Print the puzzle in another format: puzzlink.")
    ] = None,
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    show_stats: ShowStats = False,
    as_json: AsJson = False,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """Solve a Nurikabe puzzle (grid, janko block, puzz.link URL, seed004 line, or table).

    Example: smtpuzzles nurikabe solve 'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g' --unique
    """
    budget = Budget(parse_timeout(timeout), started=clock_started())
    limit_memory(memory)
    check_outputs([output, svg_path], [puzzle], force)
    if connectivity not in STRATEGIES:
        raise InputError(
            f"unknown --connectivity {connectivity!r}; expected one of {', '.join(STRATEGIES)}"
        )
    if engine is not None and engine not in ENGINES:
        raise InputError(f"unknown --engine {engine!r}; expected one of {', '.join(ENGINES)}")
    with deadline(budget):
        p = load(puzzle, fmt, index)
    if to is not None:
        if to != "puzzlink":
            raise InputError(f"unknown --to {to!r}; expected puzzlink")
        _emit(to_puzzlink(p) + "\n", output, force)
        return
    if dry_run:
        enc, _ = prepare(p, budget)
        formula = starting_formula(enc, connectivity)
        if print_asserts:
            _emit(smtlib_script(formula, comments=_comments(p, connectivity)), output, force)
            return
        size = formula_size(formula)
        if as_json:
            text = dump_json({"puzzle": "nurikabe", "status": "dry-run", **size}) + "\n"
        else:
            text = "".join(f"{k}: {v}\n" for k, v in size.items())
        _emit(text, output, force)
        return
    stats = Stats()
    search = None
    try:
        outcome, search = solve(
            p, connectivity, budget, stats, unique=unique, count=count, engine=engine
        )
    except KeyboardInterrupt:  # Ctrl-C while the formula was being built
        outcome = Outcome("unknown", complete=False, interrupted=True)
    elapsed = round(budget.elapsed(), 3)
    first = outcome.solutions[0] if outcome.solutions else None
    result: dict[str, Any] = {
        "puzzle": "nurikabe",
        "status": outcome.status,
        "solution": json_solution(p, first) if first is not None else None,
        "unique": outcome.unique,
        "elapsed_s": elapsed,
    }
    if count is not None:
        result["count"] = len(outcome.solutions)
        result["count_is_exact"] = outcome.complete
    if unique:
        marks = {i: "#" if b else "." for i, b in (outcome.fixed or {}).items()}
        result["fixed"] = _rows_or_map(p, marks) if outcome.fixed is not None else None
    script = None
    if print_asserts and search is not None:
        formula = list(search.formula)
        notes = _comments(p, connectivity)
        if unique and outcome.unique:
            formula += search.blocked
            notes.append("the solution found is excluded: unsat proves it unique")
        script = smtlib_script(formula, comments=notes)
        if as_json:
            result["smtlib"] = script
    if show_stats and as_json:
        result["stats"] = stats.as_dict()
    if as_json:
        text = dump_json(result) + "\n"
    else:
        text = (script or "") + _text_report(p, outcome, result, connectivity)
        if show_stats:
            text += "".join(f"{k}: {v}\n" for k, v in stats.as_dict().items() if k != "probes")
    if svg_path is not None:
        fixed = outcome.fixed if outcome.unique is False else None
        write_output(svg_path, svg(p, first, fixed), force)
    _emit(text, output, force)
    if outcome.interrupted:
        error_line("interrupted")
        raise typer.Exit(EXIT_INTERRUPTED)
    if outcome.status == "unsat":
        raise typer.Exit(EXIT_NO_SOLUTION)
    if outcome.status == "unknown" or outcome.stopped:
        raise typer.Exit(EXIT_LIMIT)
    raise typer.Exit(EXIT_OK)


def _comments(p, connectivity: str) -> list[str]:
    notes = [f"nurikabe {p.name}: {len(p)} cells, {len(p.clues)} clues"]
    if connectivity == "lazy":
        notes.append("lazy connectivity: the cuts added so far stand in for connectivity")
    return notes


def _emit(text: str, output: Path | None, force: bool) -> None:
    if output is not None:
        write_output(output, text, force)
    typer.echo(text, nl=False)


def _text_report(p, outcome, result: dict[str, Any], connectivity: str) -> str:
    g = p.graph
    shape = f"{g.rows}x{g.cols} {g.kind}" if g.rows else f"{len(g)} cells"
    lines = [f"puzzle: {p.name} ({shape}, {len(p.clues)} clues)", f"connectivity: {connectivity}"]
    status = outcome.status
    if outcome.interrupted:
        status += " (interrupted)" if outcome.solutions else " (interrupted: no answer yet)"
    lines.append(f"status: {status}")
    shown = outcome.solutions[:SHOWN] if "count" in result else outcome.solutions[:1]
    for n, picture in enumerate(shown, 1):
        if "count" in result:
            lines.append(f"solution {n}:")
        lines.append(text_picture(p, picture).rstrip("\n"))
    if result["unique"] is not None:
        lines.append(f"unique: {'yes' if result['unique'] else 'no'}")
    if len(outcome.solutions) > 1 and "count" not in result:
        lines.append("another solution:")
        lines.append(text_picture(p, outcome.solutions[1]).rstrip("\n"))
    if "count" in result:
        more = "" if result["count_is_exact"] else " (or more)"
        hidden = len(outcome.solutions) - len(shown)
        lines.append(f"solutions: {result['count']}{more}")
        if hidden:
            lines.append(f"(the first {len(shown)} drawn above; {hidden} more not drawn)")
    if outcome.fixed is not None and not outcome.unique:
        lines.append(f"fixed in every solution ({len(outcome.fixed)} cells; ? = not fixed):")
        lines.append(text_picture(p, outcome.solutions[0], outcome.fixed).rstrip("\n"))
    lines.append(f"time: {result['elapsed_s']} s")
    return "\n".join(lines) + "\n"


#: How many of the solutions a ``--count`` run draws in text.
SHOWN = 5


# ---------------------------------------------------------------- bench


def puzzle_files(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(f for f in path.iterdir() if f.suffix == ".txt"))
        elif path.exists():
            files.append(path)
        else:
            raise InputError("no such file or folder", str(path))
    return files


def expected_rows(puzzle: Path) -> list[str] | None:
    """The answer in a ``.sol`` file beside the puzzle (``x`` or ``#`` wall), if any."""
    sol = puzzle.with_suffix(".sol")
    if not sol.exists():
        return None
    lines = [line.split() for line in sol.read_text().splitlines() if line.strip()]
    headed = lines and len(lines[0]) == 2 and all(t.isascii() and t.isdigit() for t in lines[0])
    if headed and len(lines) > 1:
        lines = lines[1:]
    if all(len(tokens) == 1 for tokens in lines):
        lines = [list(tokens[0]) for tokens in lines]
    return ["".join("#" if t in ("x", "#") else "." for t in tokens) for tokens in lines]


def expected_picture(puzzle: Path, loaded: Nurikabe) -> tuple[Nurikabe, str] | None:
    """For a puzzle whose ``--json`` answer maps cell names (tori, hex grids, holes,
    tables): the puzzle and its ``.sol`` text, which is the answer as the solver draws it."""
    sol = puzzle.with_suffix(".sol")
    return (loaded, sol.read_text()) if sol.exists() else None


def judge(row: Row) -> str:
    expected = row.case.expected
    if expected is None or row.result is None or row.result.get("status") != "solved":
        return ""
    answer = row.result.get("solution")
    if isinstance(expected, tuple) and isinstance(answer, dict):
        puzzle, sol_text = expected
        picture = tuple(answer.get(name) == "#" for name in puzzle.graph.names)
        return "ok" if text_picture(puzzle, picture) == sol_text else "WRONG"
    return "ok" if answer == expected else "WRONG"


def size_class(cells: int) -> str:
    for limit, name in ((100, "<=100"), (225, "<=225"), (400, "<=400")):
        if cells <= limit:
            return name
    return ">400"


def _cells(size: str) -> int:
    try:
        r, c = size.split("x")
        return int(r) * int(c)
    except ValueError:
        return 0


@bench_app.command("nurikabe")
@cli_errors
def bench_nurikabe(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders of them.")],
    connectivity: Connectivity = "distance",
    engine: Engine = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Puzzles run at once.")] = 1,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Per-puzzle limit in seconds.")
    ] = 30.0,
    as_json: AsJson = False,
) -> None:
    """Solve many puzzles as whole processes; check each against its .sol file.

    Example: smtpuzzles bench nurikabe ../shared/data/nurikabe --jobs 2 --timeout 30
    """
    from ..bench import Case, run_cases, summary  # only bench needs the process pool

    if connectivity not in STRATEGIES:
        raise InputError(f"unknown --connectivity {connectivity!r}")
    cases = []
    for f in puzzle_files(paths):
        argv = ["nurikabe", "solve", str(f), "--json", "--connectivity", connectivity]
        argv += ["--timeout", str(timeout)] + (["--engine", engine] if engine else [])
        expected: Any = expected_rows(f)
        size = ""
        try:
            p = load(str(f), "auto", 1)
            size = f"{p.graph.rows}x{p.graph.cols}" if p.graph.rows else f"{len(p)}c"
            if not isinstance(json_solution(p, (False,) * len(p)), list):
                expected = expected_picture(f, p)
        except InputError:
            pass
        cases.append(Case(f.name, argv, size, expected))
    began = time.monotonic()
    rows = run_cases(cases, jobs, timeout + 15, judge)
    total = summary(rows)
    total["wall_s"] = round(time.monotonic() - began, 2)
    classes: dict[str, list[float]] = {}
    for r in rows:
        classes.setdefault(size_class(_cells(r.case.size)), []).append(r.wall_s)
    by_class = {
        name: {
            "instances": len(ts),
            "median_s": round(statistics.median(ts), 3),
            "max_s": round(max(ts), 3),
        }
        for name, ts in sorted(classes.items())
    }
    if as_json:
        typer.echo(
            dump_json(
                {
                    "puzzle": "nurikabe",
                    "connectivity": connectivity,
                    "summary": total,
                    "by_size": by_class,
                    "rows": [_row_dict(r) for r in rows],
                }
            )
        )
    else:
        typer.echo(f"{'puzzle':32} {'size':>7} {'status':>8} {'time_s':>8} {'MB':>6}  check")
        for r in rows:
            status = r.result.get("status") if r.result else f"exit {r.returncode}"
            typer.echo(
                f"{r.case.name:32} {r.case.size:>7} {status:>8} {r.wall_s:8.2f} "
                f"{r.peak_mb:6.0f}  {r.verdict}"
            )
        for name, figures in by_class.items():
            typer.echo(f"cells {name}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
        typer.echo("summary: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    if total["wrong"] or total["errors"]:
        raise typer.Exit(EXIT_NO_SOLUTION)


def _row_dict(r: Row) -> dict[str, Any]:
    return {
        "name": r.case.name,
        "size": r.case.size,
        "status": r.result.get("status") if r.result else None,
        "exit": r.returncode,
        "wall_s": round(r.wall_s, 3),
        "peak_mb": round(r.peak_mb, 1),
        "verdict": r.verdict,
        "error": r.error,
    }


@app.command("generate")
@cli_errors
def generate_command(
    rows: Annotated[int, typer.Argument(min=2, max=30, help="Rows of the grid.")],
    cols: Annotated[int, typer.Argument(min=2, max=30, help="Columns of the grid.")],
    shape: Annotated[str, typer.Option("--shape", help=f"One of {', '.join(SHAPES)}.")] = "square",
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same puzzle).")] = 1,
    max_island: Annotated[int, typer.Option("--max-island", min=1, help="Largest island.")] = 6,
    answer: Annotated[
        bool, typer.Option("--answer", help="Print the solution after the puzzle.")
    ] = False,
    output: Output = None,
) -> None:
    """Make a random puzzle with a unique solution (grid text, or a table for other shapes).

    Example: smtpuzzles nurikabe generate 7 7 --seed 3 --answer
    """
    if shape not in SHAPES:
        raise InputError(f"unknown --shape {shape!r}; expected one of {', '.join(SHAPES)}")
    check_outputs([output], [], False)
    graph, pools = shape_graph(shape, rows, cols, seed)
    made = generate(graph, pools, seed, max_island)
    if made is None:
        raise InputError(f"no unique puzzle found for seed {seed}; try another seed")
    p, picture = made
    if shape == "square":
        assert graph.coords is not None
        text = format_clue_grid(
            rows, cols, {graph.coords[i]: "?" if v is None else v for i, v in p.clues.items()}
        )
    else:
        text = f"# Nurikabe on a {rows}x{cols} {shape} grid (seed {seed})\n" + format_table(p)
    if answer:
        text += "\n" + text_picture(p, picture)
    _emit(text, output, False)
