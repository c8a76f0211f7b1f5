"""The ``smtpuzzles floodit`` commands: five modes, ``generate``, and ``bench floodit``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..output import check_outputs, write_output
from ..puzzles.floodit.check import play
from ..puzzles.floodit.formats import FORMATS, load_board, parse_start
from ..puzzles.floodit.generate import random_board
from ..puzzles.floodit.model import DIGITS, Board
from ..puzzles.floodit.pictures import solution_svg
from ..puzzles.floodit.reference.search import reference_dry_run, run_reference
from ..puzzles.floodit.search import BOUND_NODES, STRATEGIES, STRATEGY, Outcome, dry_run, run_mode
from ..solving import ENGINES, Budget, clock_started, deadline, limit_memory, parse_timeout
from .common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    AsJson,
    DryRun,
    Force,
    Memory,
    Output,
    PrintAsserts,
    ShowStats,
    Svg,
    Timeout,
    bench_app,
    cli_errors,
    dump_json,
    error_line,
    is_terminal,
)

app = typer.Typer(
    help=(
        "Flood-It: flood the board from one cell in as few moves as possible.\n\n"
        "A move picks a colour other than the flooded region's current one; the region "
        "takes that colour and absorbs the adjacent cells of it. Length = number of moves.\n\n"
        "Example: smtpuzzles floodit min instances/floodit/b10x10c4.txt"
    ),
    no_args_is_help=True,
)

BoardPath = Annotated[
    str, typer.Argument(metavar="BOARD", help="Board file, or - for standard input.")
]
Format = Annotated[
    str,
    typer.Option(
        "--format",
        help="Board format: auto (detect), grid (rows of 0-9a-z), mnk (99problems 'm n k' "
        "files), lines (one base-36 board per line, colours from 1).",
    ),
]
Index = Annotated[
    int | None,
    typer.Option("--index", min=1, help="Which board of a multi-board file (1 = first line)."),
]
Start = Annotated[
    str | None,
    typer.Option("--start", metavar="ROW,COL", help="Flood from this cell (0-based); default 0,0."),
]
Engine = Annotated[
    str,
    typer.Option("--engine", help="Z3 engine: sat (its SAT core, default) or smt (QF_LIA)."),
]
Show = Annotated[
    bool,
    typer.Option(
        "--show",
        help="Show the board after each move (colour blocks on a terminal, digits when piped).",
    ),
]
Encoding = Annotated[
    str,
    typer.Option(
        "--encoding",
        help="layered (default) or reference: color-flood-rs's formulas and search, the "
        "baseline to measure against (its answers are never called optimal unless proven).",
    ),
]
ENCODINGS = ("layered", "reference")
Strategy = Annotated[
    str,
    typer.Option(
        "--strategy",
        help="How min and search walk the horizons: downward (ask one below the best "
        "length found, default) or mixed (upward from the lower bound, or bisection).",
    ),
]
BoundNodes = Annotated[
    int,
    typer.Option(
        "--bound-nodes",
        min=0,
        help="States a bounded A* search may expand to raise the lower bound before Z3 "
        f"(min, search; 0 = off). Default {BOUND_NODES}.",
    ),
]
NoCounting = Annotated[
    bool,
    typer.Option(
        "--no-counting",
        help="Leave out the redundant colour-counting constraints (to measure them).",
    ),
]


class _Options:
    """Everything a mode command shares, gathered once."""

    def __init__(self, **kw: Any) -> None:
        self.__dict__.update(kw)


def _read(path: str, fmt: str, index: int | None) -> Board:
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return load_board(path, fmt, index)


def _moves_text(moves: list[int] | None) -> str:
    if moves is None:
        return "-"
    return "".join(DIGITS[m] for m in moves) if moves else "(none: already one colour)"


#: 256-colour palette indices for the ``--show`` blocks on a terminal.
_PALETTE = [196, 46, 21, 226, 201, 51, 208, 93, 250, 22, 130, 17, 160, 118, 33, 214, 127, 37]


def _picture(grid: list[list[int]], ansi: bool) -> str:
    if not ansi:
        return "\n".join("".join(DIGITS[c] for c in row) for row in grid)
    lines = []
    for row in grid:
        cells = []
        for c in row:
            tone = _PALETTE[c % len(_PALETTE)]
            cells.append(f"\x1b[48;5;{tone}m{DIGITS[c]:^2}")
        lines.append("".join(cells) + "\x1b[0m")
    return "\n".join(lines)


def _text_report(board: Board, start: tuple[int, int], out: Outcome, clusters: int | str) -> str:
    lines = [
        f"board: {board.name}",
        f"size: {board.rows}x{board.cols}, colours: {board.n_colours}, clusters: {clusters}, "
        f"start: {start[0]},{start[1]}",
    ]
    if out.derived is not None and out.strategy == "reference":
        lo, hi = out.derived
        lines.append(f"search range: {lo}..{hi} (color-flood-rs's binary search)")
    elif out.derived is not None:
        lo, hi = out.derived
        lines.append(
            f"bounds: {lo}..{hi} (lower bound .. heuristic playout), search {out.strategy}"
        )
    for note in out.notes:
        lines.append(f"note: {note}")
    lo = "?" if out.lower_bound is None else out.lower_bound
    hi = "?" if out.upper_bound is None else out.upper_bound
    lines.append(f"proven: {lo} <= optimum <= {hi}")
    if out.stopped:
        lines.append(f"stopped: {out.stopped}; reporting the best found so far")
    lines.append(f"status: {out.status}")
    if out.proven_by == "bounds":
        lines.append("proven by: bounds (admissible lower bound = playout length), no SMT probe")
    elif out.proven_by == "z3":
        lines.append("proven by: Z3 (no solution one move shorter)")
    lines.append(f"moves: {_moves_text(out.moves)}")
    lines.append(f"length: {'-' if out.length is None else out.length}")
    lines.append(f"time: {out.elapsed_s:.3f} s")
    return "\n".join(lines)


def _exit_code(out: Outcome) -> int:
    if out.stopped == "interrupted":
        return EXIT_INTERRUPTED
    if out.stopped is not None or out.status == "unknown":
        return EXIT_LIMIT
    if out.status == "unsat":
        return EXIT_NO_SOLUTION
    return EXIT_OK


def _emit(text: str, output: Path | None, force: bool) -> None:
    if output is not None:
        write_output(output, text + "\n", force)
    typer.echo(text)


def _run(mode: str, args: tuple[int, ...], o: _Options) -> None:
    budget = Budget(parse_timeout(o.timeout), started=clock_started())
    limit_memory(o.memory)
    check_outputs([o.output, o.svg_path], [o.board], o.force)
    with deadline(budget):
        board = _read(o.board, o.format, o.index)
    start = parse_start(o.start, board)
    if o.engine not in ENGINES:
        raise InputError(f"--engine {o.engine!r}: expected one of {', '.join(ENGINES)}")
    if o.strategy not in STRATEGIES:
        raise InputError(f"--strategy {o.strategy!r}: expected one of {', '.join(STRATEGIES)}")
    if o.encoding not in ENCODINGS:
        raise InputError(f"--encoding {o.encoding!r}: expected one of {', '.join(ENCODINGS)}")
    counting = not o.no_counting
    reference = o.encoding == "reference"
    if o.dry_run:
        sizes, script = (reference_dry_run if reference else dry_run)(
            board, mode, args, start, counting, budget
        )
        head = {"puzzle": "floodit", "mode": mode, "dry_run": True}
        if o.print_asserts:
            text = dump_json({**head, "smtlib": script}) if o.json else script.rstrip()
        else:
            info = {**head, **sizes}
            text = dump_json(info) if o.json else "\n".join(f"{k}: {v}" for k, v in info.items())
        _emit(text, o.output, o.force)
        return
    if reference:
        out = run_reference(board, mode, args, start, o.timeout, o.print_asserts, budget)
    else:
        out = run_mode(
            board,
            mode,
            args,
            start,
            o.engine,
            o.timeout,
            counting,
            o.print_asserts,
            o.bound_nodes,
            o.strategy,
            budget,
        )
    clusters = "?" if out.clusters is None else out.clusters
    if o.json:
        obj = out.as_json()
        if o.print_asserts and out.smtlib is not None:
            obj["smtlib"] = out.smtlib
        if o.stats:
            obj["stats"] = {**out.stats.as_dict(), "proven_by": out.proven_by}
        _emit(dump_json(obj), o.output, o.force)
    else:
        parts = []
        if o.print_asserts and out.smtlib is not None:
            parts.append(out.smtlib.rstrip())
        parts.append(_text_report(board, start, out, clusters))
        if o.stats:
            parts.append("stats: " + dump_json({**out.stats.as_dict(), "proven_by": out.proven_by}))
        _emit("\n".join(parts), o.output, o.force)
    if o.svg_path is not None and out.moves is not None:
        write_output(o.svg_path, solution_svg(board, out.moves, start), o.force)
    if not o.json:
        if o.show and out.moves is not None:
            ansi = is_terminal()
            for number, grid in enumerate(play(board.grid, out.moves, start)):
                typer.echo(
                    f"after {number} move{'' if number == 1 else 's'}:" if number else "start:"
                )
                typer.echo(_picture(grid, ansi))
    if out.stopped == "interrupted":
        error_line("interrupted")
    raise typer.Exit(_exit_code(out))


def _help(text: str, example: str) -> str:
    """A command's help: what it answers, then an example (paragraphs stay unbroken)."""
    return f"{text}\n\nExample: {example}"


def _options(**kw: Any) -> _Options:
    return _Options(**kw)


@app.command(
    help=_help(
        "A solution, quickly: Z3 looks within the length of a heuristic playout (always enough); "
        "the answer is not necessarily the shortest.",
        "smtpuzzles floodit solve instances/floodit/b10x10c4.txt --show",
    )
)
@cli_errors
def solve(
    board: BoardPath,
    format: Format = "auto",
    index: Index = None,
    start: Start = None,
    engine: Engine = "sat",
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    json: AsJson = False,
    show: Show = False,
    no_counting: NoCounting = False,
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """A solution, quickly."""
    _run("solve", (), _options(**locals()))


@app.command(
    help=_help(
        "Exactly N moves, each flooding at least one new cluster, or no solution (exit 1).",
        "smtpuzzles floodit exact 10 instances/floodit/b10x10c4.txt",
    )
)
@cli_errors
def exact(
    n: Annotated[int, typer.Argument(metavar="N", min=0, help="Number of moves.")],
    board: BoardPath,
    format: Format = "auto",
    index: Index = None,
    start: Start = None,
    engine: Engine = "sat",
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    json: AsJson = False,
    show: Show = False,
    no_counting: NoCounting = False,
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """Exactly N moves, each flooding at least one new cluster, or no solution (exit 1)."""
    _run("exact", (n,), _options(**locals()))


@app.command(
    help=_help(
        "The least length in [LO, HI], proven; or no solution in that range (exit 1). If a "
        'solution shorter than LO exists, it is reported with status "solved".',
        "smtpuzzles floodit search 5 12 instances/floodit/b10x10c4.txt",
    )
)
@cli_errors
def search(
    lo: Annotated[int, typer.Argument(metavar="LO", min=0, help="Least length to consider.")],
    hi: Annotated[int, typer.Argument(metavar="HI", min=0, help="Greatest length to consider.")],
    board: BoardPath,
    format: Format = "auto",
    index: Index = None,
    start: Start = None,
    engine: Engine = "sat",
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    json: AsJson = False,
    show: Show = False,
    no_counting: NoCounting = False,
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """The least length in [LO, HI], proven."""
    if lo > hi:
        raise InputError(f"search {lo} {hi}: LO must not exceed HI")
    _run("search", (lo, hi), _options(**locals()))


@app.command(
    "min",
    help=_help(
        "The least length, proven. LO is an admissible lower bound (Puchert), HI the length of a "
        "beam-search playout; the search asks one move below the best solution known until Z3 "
        "says unsat (--strategy mixed: upward from LO or bisection). --print-asserts prints two "
        "scripts: the formula at the optimum (sat) and one move fewer (unsat), separated by "
        "comments.",
        "smtpuzzles floodit min instances/floodit/b10x10c4.txt",
    ),
)
@cli_errors
def minimum(
    board: BoardPath,
    format: Format = "auto",
    index: Index = None,
    start: Start = None,
    engine: Engine = "sat",
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    json: AsJson = False,
    show: Show = False,
    no_counting: NoCounting = False,
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """The least length, proven."""
    _run("min", (), _options(**locals()))


@app.command(
    help=_help(
        "The least length, proven by Z3's Optimize (minimising the moves made before the board is"
        " done). --print-asserts prints the Optimize script, in Z3's dialect (minimize is no SMT-"
        "LIB 2).",
        "smtpuzzles floodit opt instances/floodit/b10x10c4.txt",
    )
)
@cli_errors
def opt(
    board: BoardPath,
    format: Format = "auto",
    index: Index = None,
    start: Start = None,
    engine: Engine = "sat",
    print_asserts: PrintAsserts = False,
    dry_run: DryRun = False,
    timeout: Timeout = None,
    memory: Memory = None,
    stats: ShowStats = False,
    json: AsJson = False,
    show: Show = False,
    no_counting: NoCounting = False,
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """The least length through Z3's Optimize."""
    _run("opt", (), _options(**locals()))


@app.command(
    help=_help(
        "A random board (every colour used), in the grid format.",
        "smtpuzzles floodit generate 10 10 4 --seed 1 -o board.txt",
    )
)
@cli_errors
def generate(
    rows: Annotated[int, typer.Argument(min=1, help="Rows.")],
    cols: Annotated[int, typer.Argument(min=1, help="Columns.")],
    colours: Annotated[int, typer.Argument(min=1, max=36, help="Colours (1-36).")],
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same board).")] = 0,
    output: Output = None,
    svg_path: Svg = None,
    force: Force = False,
) -> None:
    """A random board (every colour used), in the grid format."""
    check_outputs([output, svg_path], [], force)
    board = random_board(rows, cols, colours, seed)
    if output is not None:
        write_output(output, board.text(), force)
    else:
        sys.stdout.write(board.text())
    if svg_path is not None:
        write_output(svg_path, solution_svg(board, [], (0, 0)), force)


# -- bench ----------------------------------------------------------------------------------

#: Files in a corpus folder that are no boards.
_NOT_BOARDS = ("solutions_", "readme", "manifest")


def _known_optima(path: Path) -> dict[int, int]:
    """Optima stated beside a dataset: ``solutions_optimal_X.txt`` for ``dataset_X.txt``,
    or ``manifest.json`` (``{"file": optimum}``) in the folder of a shipped board."""
    if path.name.startswith("dataset_"):
        sol = path.with_name("solutions_optimal_" + path.name[len("dataset_") :])
        if sol.is_file():
            lines = [x.strip() for x in sol.read_text().splitlines() if x.strip()]
            return {i: len(line) for i, line in enumerate(lines, 1)}
    manifest = path.with_name("manifest.json")
    if manifest.is_file():
        import json as jsonlib

        known = jsonlib.loads(manifest.read_text()).get(path.name)
        if isinstance(known, int):
            return {1: known}
    return {}


def _bench_cases(paths: list[str], argv: list[str], first: int | None) -> list[Any]:
    from ..bench import Case
    from ..puzzles.floodit.formats import count_boards, parse_board
    from ..sources import read_source

    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files += sorted(
                f
                for f in path.iterdir()
                if f.is_file() and not f.name.lower().startswith(_NOT_BOARDS)
            )
        else:
            files.append(path)
    cases = []
    for f in files:
        text, name = read_source(str(f))
        known = _known_optima(f)
        count = count_boards(text)
        for i in range(1, (min(count, first) if first else count) + 1):
            index = i if count > 1 else None
            board = parse_board(text, name, "auto", index)
            expected = board.known_optimum or known.get(i)
            extra = ["--index", str(i)] if index else []
            cases.append(
                Case(
                    name=board.name,
                    argv=["floodit", *argv[:1], str(f), *extra, *argv[1:]],
                    size=f"{board.rows}x{board.cols}",
                    expected=expected,
                    info={"colours": board.n_colours},
                )
            )
    return cases


def _judge(row: Any) -> str:
    res, expected = row.result, row.case.expected
    if res is None:
        return "ERROR"
    if expected is None:
        return ""
    status, length = res.get("status"), res.get("length")
    lo, hi = res.get("lower_bound"), res.get("upper_bound")
    if status == "optimal":
        return "ok" if length == expected else "WRONG"
    if status == "solved":
        return "ok" if length is not None and length >= expected else "WRONG"
    if status == "unsat":  # the baseline can say so on a solvable board
        return "WRONG"
    if (lo is not None and lo > expected) or (hi is not None and hi < expected):
        return "WRONG"
    return "ok"


@bench_app.command(
    "floodit",
    help=_help(
        "Run a mode over boards (each as its own process) and report answers, times and peak "
        "memory; answers are checked wherever an optimum is known (99problems files, "
        "solutions_optimal_* beside datasets, instances/floodit/manifest.json).",
        "smtpuzzles bench floodit ../shared/data/floodit/99problems --mode min --jobs 2",
    ),
)
@cli_errors
def bench_floodit(
    paths: Annotated[
        list[str], typer.Argument(metavar="PATH...", help="Board files, folders or datasets.")
    ],
    mode: Annotated[
        str, typer.Option("--mode", help="solve, min or opt (exact and search need numbers).")
    ] = "min",
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds per board (--timeout of the mode).")
    ] = 60.0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Boards solved at once.")] = 1,
    first: Annotated[
        int | None, typer.Option("--first", min=1, help="Only the first N boards of a dataset.")
    ] = None,
    engine: Engine = "sat",
    encoding: Encoding = "layered",
    bound_nodes: BoundNodes = BOUND_NODES,
    strategy: Strategy = STRATEGY,
    json: AsJson = False,
) -> None:
    """Run a Flood-It mode over many boards."""
    from ..bench import run_cases, summary

    if mode not in ("solve", "min", "opt"):
        raise InputError(f"--mode {mode!r}: bench runs solve, min or opt")
    if encoding not in ENCODINGS:
        raise InputError(f"--encoding {encoding!r}: expected one of {', '.join(ENCODINGS)}")
    argv = [mode, "--json", "--timeout", str(timeout), "--engine", engine, "--encoding", encoding]
    argv += ["--bound-nodes", str(bound_nodes), "--strategy", strategy]
    cases = _bench_cases(paths, argv, first)
    if not cases:
        raise InputError("no boards found", " ".join(paths))
    rows = run_cases(cases, jobs=jobs, hard_limit_s=timeout + 30.0, judge=_judge)
    total = summary(rows)
    if json:
        table = [
            {
                "board": r.case.name,
                "size": r.case.size,
                "colours": r.case.info.get("colours"),
                "expected": r.case.expected,
                "length": (r.result or {}).get("length"),
                "lower_bound": (r.result or {}).get("lower_bound"),
                "upper_bound": (r.result or {}).get("upper_bound"),
                "status": (r.result or {}).get("status"),
                "wall_s": round(r.wall_s, 3),
                "peak_mb": round(r.peak_mb, 1),
                "verdict": r.verdict,
                "error": r.error if r.result is None else "",
            }
            for r in rows
        ]
        typer.echo(dump_json({"puzzle": "floodit", "mode": mode, "rows": table, "summary": total}))
    else:
        typer.echo(
            f"{'board':<44} {'size':>7} {'k':>3} {'answer':>7} {'known':>6} {'status':<8} "
            f"{'time':>8} {'MB':>6}  verdict"
        )
        for r in rows:
            res = r.result or {}
            answer = res.get("length")
            if res.get("status") == "unknown":
                answer = f"{res.get('lower_bound')}..{res.get('upper_bound')}"
            known = "" if r.case.expected is None else r.case.expected
            status = res.get("status", f"exit {r.returncode}")
            typer.echo(
                f"{r.case.name[-44:]:<44} {r.case.size:>7} {r.case.info.get('colours', ''):>3} "
                f"{str(answer):>7} {str(known):>6} {status:<8} {r.wall_s:>7.2f}s "
                f"{r.peak_mb:>6.0f}  {r.verdict}" + (f" {r.error}" if r.result is None else "")
            )
        typer.echo(
            f"solved {total['answered']}/{total['instances']}, wrong {total['wrong']}, "
            f"errors {total['errors']}; median {total['median_s']} s, max {total['max_s']} s, "
            f"total {total['total_s']} s; peak memory {total['max_peak_mb']} MB"
        )
    bad = total["wrong"] or total["errors"]
    raise typer.Exit(1 if bad else 0)
