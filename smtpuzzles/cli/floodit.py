"""The ``smtpuzzles floodit`` commands: five modes and ``generate``."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..output import write_output
from ..puzzles.floodit.formats import FORMATS
from ..puzzles.floodit.pictures import board_ansi
from ..puzzles.floodit.puzzle import ENCODINGS, ENGINES, FloodIt
from ..puzzles.floodit.search import (
    AUTO_CLUSTERS_PER_COLOUR,
    AUTO_NODES,
    BOUND_NODES,
    COMPILED_NODES,
    COMPILED_NODES_FEW,
    FEW_CLUSTERS_PER_COLOUR,
    STRATEGIES,
    STRATEGY,
)
from . import generating, run
from .common import cli_errors
from .options import OUTPUT, SOLVING, Seed, Shared, choice, command, format_option

app = typer.Typer(
    help=(
        "Flood-It: flood the board from one cell in as few moves as possible.\n\n"
        "A move picks a colour other than the flooded region's current one; the region "
        "takes that colour and absorbs the adjacent cells of it. Length = number of moves.\n\n"
        "Example: smtpuzzles floodit min instances/floodit/b10x10c4.txt"
    ),
    no_args_is_help=True,
)

Board = Annotated[str, typer.Argument(metavar="BOARD", help="Board file, or - for standard input.")]

#: Every mode's own options.
FLOODIT = {
    "fmt": format_option(
        FORMATS,
        "Board format: auto (detect), grid (rows of 0-9a-z), mnk (99problems 'm n k' files), "
        "lines (one base-36 board per line, colours from 1).",
    ),
    "start": (
        Annotated[
            str | None,
            typer.Option(
                "--start", metavar="ROW,COL", help="Flood from this cell (0-based); default 0,0."
            ),
        ],
        None,
    ),
    "engine": (
        Annotated[
            choice(*ENGINES),
            typer.Option(
                "--engine",
                help="Solver: auto (Z3's SAT core, handing a search's probes to CaDiCaL once"
                " one is hard), Z3's SAT core, Z3 over QF_LIA, or CaDiCaL on the CNF Z3 makes"
                " of the same script (min, search, exact, solve).",
            ),
        ],
        "auto",
    ),
    "encoding": (
        Annotated[
            choice(*ENCODINGS),
            typer.Option(
                "--encoding",
                help="layered: the cluster encoding; reference: color-flood-rs's formulas and "
                "search, the baseline to measure against (its answers are never called optimal "
                "unless proven).",
            ),
        ],
        "layered",
    ),
    "no_counting": (
        Annotated[
            bool,
            typer.Option(
                "--no-counting", help="Leave out the redundant colour-counting constraints."
            ),
        ],
        False,
    ),
    "show": (
        Annotated[
            bool,
            typer.Option(
                "--show",
                help="Show the board after each move (colour blocks on a terminal, digits "
                "when piped or with NO_COLOR).",
            ),
        ],
        False,
    ),
}
#: The options of the modes that walk horizons (min, search).
HORIZONS = {
    "strategy": (
        Annotated[
            choice(*STRATEGIES),
            typer.Option(
                "--strategy",
                help="How the horizons are walked: downward (one below the best length "
                "found) or mixed (upward from the lower bound, or bisection).",
            ),
        ],
        STRATEGY,
    ),
    "bound_nodes": (
        Annotated[
            int | None,
            typer.Option(
                "--bound-nodes",
                min=0,
                show_default="auto",
                help="States an A* search may expand before Z3: it raises the lower bound "
                "and, when it finishes, proves the optimum itself (0 = off; auto: "
                f"with the compiled A* {COMPILED_NODES_FEW:,} on boards of at most "
                f"{FEW_CLUSTERS_PER_COLOUR:g} clusters per colour, else {COMPILED_NODES:,}, "
                "then in min weighted searches for shorter solutions and a second A* "
                "below the best length if the first predicts that it ends in time and "
                f"memory; without it {AUTO_NODES:,} "
                "on boards of at most "
                f"{AUTO_CLUSTERS_PER_COLOUR:g} clusters per colour, else off).",
            ),
        ],
        BOUND_NODES,
    ),
}


def _show(puzzle: FloodIt, result: Any) -> None:
    """``--show``: the board before the first move and after each move."""

    if result.answer is None:
        return
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    for number, grid in enumerate(puzzle.boards(result.answer)):
        typer.echo(f"after {number} move{'' if number == 1 else 's'}:" if number else "start:")
        typer.echo(board_ansi(grid, colour))


def _run(mode: str, board: str, args: dict[str, int], shared: Shared, own: dict[str, Any]) -> None:
    """Every mode's one path: the board's options to load, the rest to solve."""
    fmt, start, show = own.pop("fmt"), own.pop("start"), own.pop("show")
    own["counting"] = not own.pop("no_counting")
    run.solve(
        "floodit",
        mode,
        board,
        shared,
        fmt=fmt,
        load={"start": start},
        solve=own,
        args=args,
        extra=_show if show else None,
    )


@command(
    app,
    "solve",
    "A solution, quickly: Z3 looks within the length of a heuristic playout (always "
    "enough); the answer is not necessarily the shortest.",
    {**FLOODIT, **SOLVING},
    "smtpuzzles floodit solve instances/floodit/b10x10c4.txt --show",
)
@cli_errors
def solve(board: Board, *, shared: Shared, own: dict[str, Any]) -> None:
    _run("solve", board, {}, shared, own)


@command(
    app,
    "exact",
    "Exactly N moves, each flooding at least one new cluster, or no solution (exit 1).",
    {**FLOODIT, **SOLVING},
    "smtpuzzles floodit exact 10 instances/floodit/b10x10c4.txt",
)
@cli_errors
def exact(
    n: Annotated[int, typer.Argument(metavar="N", min=0, help="Number of moves.")],
    board: Board,
    *,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    _run("exact", board, {"n": n}, shared, own)


@command(
    app,
    "search",
    "The least length in [LO, HI], proven; or no solution in that range (exit 1). If a "
    'solution shorter than LO exists, it is reported with status "solved".',
    {**FLOODIT, **HORIZONS, **SOLVING},
    "smtpuzzles floodit search 5 12 instances/floodit/b10x10c4.txt",
)
@cli_errors
def search(
    lo: Annotated[int, typer.Argument(metavar="LO", min=0, help="Least length to consider.")],
    hi: Annotated[int, typer.Argument(metavar="HI", min=0, help="Greatest length to consider.")],
    board: Board,
    *,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    _run("search", board, {"lo": lo, "hi": hi}, shared, own)


@command(
    app,
    "min",
    "The least length, proven. The search starts between an admissible lower bound and "
    "the length of a beam-search playout and asks one move below the best solution known "
    "until Z3 says unsat. --print-asserts prints both questions: the formula at the "
    "optimum (sat) and one move fewer (unsat).",
    {**FLOODIT, **HORIZONS, **SOLVING},
    "smtpuzzles floodit min instances/floodit/b10x10c4.txt",
)
@cli_errors
def minimum(board: Board, *, shared: Shared, own: dict[str, Any]) -> None:
    _run("min", board, {}, shared, own)


@command(
    app,
    "opt",
    "The least length, proven by Z3's Optimize (minimising the moves made before the "
    "board is done). --print-asserts prints the Optimize script, in Z3's dialect "
    "(minimize is no SMT-LIB 2).",
    {**FLOODIT, **SOLVING},
    "smtpuzzles floodit opt instances/floodit/b10x10c4.txt",
)
@cli_errors
def opt(board: Board, *, shared: Shared, own: dict[str, Any]) -> None:
    _run("opt", board, {}, shared, own)


@command(
    app,
    "generate",
    "A random board (every colour used), in the grid format, on stdout or to -o FILE; "
    "with --optimum K, one whose least number of moves, proven, is K; with --count N, N "
    "boards into the folder -o names, with manifest.json of seeds and optima (which "
    "bench reads).",
    {**generating.OPTIONS, "svg": OUTPUT["svg"]},
    "smtpuzzles floodit generate 10 10 4 --seed 1 --optimum 14 -o board.txt",
)
@cli_errors
def generate(
    rows: Annotated[int, typer.Argument(min=1, help="Rows.")],
    cols: Annotated[int, typer.Argument(min=1, help="Columns.")],
    colours: Annotated[int, typer.Argument(min=1, max=36, help="Colours (1-36).")],
    seed: Seed = 0,
    optimum: Annotated[
        int | None,
        typer.Option(
            "--optimum",
            min=0,
            max=100_000,
            help="A board whose proven optimum is K: boards of seeds SEED, SEED+1, ... are "
            "solved until one is (up to 500).",
        ),
    ] = None,
    count: generating.COUNT[0] = None,
    *,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    from ..puzzles.floodit.generate import board_with_optimum, random_board

    if count is not None and shared.svg is not None:
        raise InputError("--count writes boards only; leave out --svg")
    folder = generating.check_request(shared, rows, cols, count)
    boards: list[tuple[str, FloodIt, int, int | None]] = []
    with generating.limited(shared) as budget:
        with generating.progress(count or 1, "floodit") as step:
            s = seed
            for _ in range(count or 1):
                if optimum is None:
                    board, used, best = random_board(rows, cols, colours, s), s, None
                else:
                    found = board_with_optimum(rows, cols, colours, optimum, s, budget=budget)
                    if found is None:
                        raise InputError(
                            f"no {rows}x{cols} board of {colours} colours with optimum "
                            f"{optimum} among 500 seeds from {s}; try another optimum or size"
                        )
                    board, used = found
                    best = optimum
                name = f"floodit_{rows}x{cols}c{colours}_s{used}.txt"
                boards.append((name, FloodIt(board), used, best))
                s = used + 1
                step()
        picture = boards[0][1].svg() if shared.svg is not None else None
    generating.speak()
    if folder is not None:
        files = {name: b.board.text() for name, b, _, _ in boards}
        manifest: dict[str, Any] = {name: best for name, _, _, best in boards if best is not None}
        manifest["puzzles"] = [
            {"file": name, "seed": used, "optimum": best} for name, _, used, best in boards
        ]
        generating.write_batch(folder, files, manifest)
        return
    generating.emit(shared, boards[0][1].board.text())
    if shared.svg is not None and picture is not None:
        write_output(shared.svg, picture, shared.force)
