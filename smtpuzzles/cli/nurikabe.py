"""The ``smtpuzzles nurikabe`` commands: ``solve`` and ``generate``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..engines import Z3_ENGINES
from ..errors import InputError
from ..limits import Budget
from ..puzzles.nurikabe.formats import FORMATS
from ..puzzles.nurikabe.search import CONNECTIVITY
from . import generating, options, run
from .common import cli_errors
from .options import Puzzle, Seed, Shared, choice, command, option

app = typer.Typer(
    help=(
        "Nurikabe: shade cells so that every white region holds one clue and that many "
        "cells, the black cells are connected, and no 2x2 block is black.\n\n"
        "Example: smtpuzzles nurikabe solve instances/nurikabe/square_07x07.txt --unique"
    ),
    no_args_is_help=True,
)

#: The solve command's own options.
NURIKABE = {
    "fmt": options.format_option(FORMATS),
    "connectivity": option(
        choice(*CONNECTIVITY),
        "distance",
        "--connectivity",
        help="distance: islands and wall as distance-to-root regions; lazy: solve without "
        "them and add cuts for disconnected pieces.",
    ),
    "engine": option(
        choice(*Z3_ENGINES) | None,
        None,
        "--engine",
        help="Z3 engine: sat (the SAT core) or smt (the QF_LIA solver); default: the faster "
        "one for the connectivity (distance: smt, lazy: sat).",
    ),
    "to": options.convert_option("puzzlink"),
}


@command(
    app,
    "solve",
    "Solve a Nurikabe puzzle (grid, janko block, puzz.link URL, seed004 line, or table).",
    {**NURIKABE, **options.SOLVING, **options.ANSWERS},
    "smtpuzzles nurikabe solve 'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g' --unique",
)
@cli_errors
def solve(puzzle: Puzzle, *, shared: Shared, own: dict[str, Any]) -> None:
    fmt, to = own.pop("fmt"), own.pop("to")
    if to is not None:
        run.convert(run.read("nurikabe", puzzle, shared, fmt).to_url(), shared, [puzzle])
    run.solve("nurikabe", "solve", puzzle, shared, fmt=fmt, solve=own)


@command(
    app,
    "generate",
    "Make a random puzzle with a unique solution (a grid, or a table for other shapes), "
    "on stdout or to -o FILE; with --count N, N puzzles and their answers into the folder "
    "-o names. By default its clues look like published puzzles': 0.12 to 0.16 clues a "
    "cell, few of them 1s, islands of many sizes.",
    generating.OPTIONS,
    "smtpuzzles nurikabe generate 10 10 --seed 3 --answer",
)
@cli_errors
def generate(
    rows: generating.Rows,
    cols: generating.Cols,
    *,
    shape: Annotated[
        choice("square", "holes", "torus", "hex"),
        typer.Option("--shape", help="The grid's shape."),
    ] = "square",
    seed: Seed = 1,
    max_island: Annotated[
        int, typer.Option("--max-island", min=1, max=99, help="Largest island.")
    ] = 9,
    density: Annotated[
        float,
        typer.Option(
            "--density",
            help="Clues per cell to start from; more are added, up to 0.16, where needed "
            "(published puzzles: 0.08-0.16).",
        ),
    ] = 0.12,
    max_ones: Annotated[
        float,
        typer.Option("--max-ones", help="Largest share of clues that are 1 (published: 0.25)."),
    ] = 0.2,
    symmetry: Annotated[
        choice("none", "rot180"),
        typer.Option("--symmetry", help="rot180: clue cells in pairs turned half round the grid."),
    ] = "none",
    grade: generating.GRADE[0] = None,
    count: generating.COUNT[0] = None,
    answer: Annotated[
        bool, typer.Option("--answer", help="Print the solution after the puzzle.")
    ] = False,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    from ..puzzles.nurikabe.generate import clue_statistics, shape_graph
    from ..puzzles.nurikabe.generate import generate as make_puzzle
    from ..puzzles.nurikabe.pictures import text_picture

    if not 0 < density <= 0.5 or not 0 <= max_ones <= 1:
        raise InputError("--density takes a share above 0 up to 0.5, --max-ones 0 to 1")
    wanted = generating.parse_grade(grade)
    generating.check_request(shared, rows, cols, count)
    judge = None if wanted is None else generating.Judge("nurikabe", wanted)

    def make(s: int, budget: Budget) -> generating.Made:
        graph, pools = shape_graph(shape, rows, cols, s)

        def accept(p: Any) -> int:
            assert judge is not None
            return judge.direction(_puzzle_text(p, shape, rows, cols, s), budget)

        made = make_puzzle(
            graph,
            pools,
            s,
            max_island,
            density=density,
            symmetry=symmetry,
            accept=None if judge is None else accept,
            budget=budget,
            max_ones=max_ones,
            lean=0 if wanted is None else wanted.lean(),
        )
        if made is None:
            if judge is not None:
                return None
            raise InputError(f"no unique puzzle found for seed {s}; try another seed")
        p, picture = made
        name = f"nurikabe_{rows}x{cols}_s{s}"
        files = {
            name + ".txt": _puzzle_text(p, shape, rows, cols, s),
            name + ".sol": text_picture(p, picture),
        }
        graded = generating.UNGRADED if judge is None else judge.fields()
        return files, {"file": name + ".txt", "seed": s, **graded, **clue_statistics(p)}

    made = generating.make_each(shared, count, seed, "nurikabe", make, judge)
    generating.deliver(shared, made, "nurikabe", count, answer=answer)


def _puzzle_text(p: Any, shape: str, rows: int, cols: int, seed: int) -> str:
    """A generated puzzle as a clue grid, or a table for shapes a grid cannot say."""
    from ..formats.grid import format_clue_grid
    from ..puzzles.nurikabe.formats import format_table

    graph = p.graph
    if shape == "square":
        clues = {graph.coords[i]: "?" if v is None else v for i, v in p.clues.items()}
        return format_clue_grid(rows, cols, clues)
    return f"# Nurikabe on a {rows}x{cols} {shape} grid (seed {seed})\n" + format_table(p)


def _explain_commands() -> None:
    from .explain import add_commands

    add_commands(app, "nurikabe", FORMATS, "instances/nurikabe/square_07x07.txt")


_explain_commands()
