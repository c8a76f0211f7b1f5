"""The ``smtpuzzles nurikabe`` commands: ``solve`` and ``generate``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..errors import InputError
from ..puzzles.nurikabe.formats import FORMATS
from ..puzzles.nurikabe.search import STRATEGIES
from ..solving import ENGINES
from ..sources import check_size
from . import generating, run
from .common import cli_errors
from .options import (
    ANSWERS,
    LIMITS,
    OUTPUT,
    SOLVING,
    Shared,
    choice,
    command,
    format_option,
    puzzle_argument,
)

app = typer.Typer(
    help=(
        "Nurikabe: shade cells so that every white region holds one clue and that many "
        "cells, the black cells are connected, and no 2x2 block is black.\n\n"
        "Example: smtpuzzles nurikabe solve instances/nurikabe/square_07x07.txt --unique"
    ),
    no_args_is_help=True,
)

Puzzle = puzzle_argument()

#: The solve command's own options.
NURIKABE = {
    "fmt": format_option(FORMATS),
    "connectivity": (
        Annotated[
            choice(*STRATEGIES),
            typer.Option(
                "--connectivity",
                help="distance: islands and wall as distance-to-root regions; lazy: solve "
                "without them and add cuts for disconnected pieces.",
            ),
        ],
        "distance",
    ),
    "engine": (
        Annotated[
            choice(*ENGINES) | None,
            typer.Option(
                "--engine",
                help="Z3 engine: sat (the SAT core) or smt (the QF_LIA solver); default: the "
                "faster one for the connectivity (distance: smt, lazy: sat).",
            ),
        ],
        None,
    ),
    "to": (
        Annotated[
            choice("puzzlink") | None,
            typer.Option("--to", help="Print the puzzle in another format; no solving."),
        ],
        None,
    ),
}


@command(
    app,
    "solve",
    "Solve a Nurikabe puzzle (grid, janko block, puzz.link URL, seed004 line, or table).",
    {**NURIKABE, **SOLVING, **ANSWERS},
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
    "on stdout or to -o FILE.",
    {**LIMITS, "output": OUTPUT["output"], "force": generating.FORCE},
    "smtpuzzles nurikabe generate 7 7 --seed 3 --answer",
)
@cli_errors
def generate(
    rows: Annotated[int, typer.Argument(min=2, help="Rows of the grid.")],
    cols: Annotated[int, typer.Argument(min=2, help="Columns of the grid.")],
    shape: Annotated[
        choice("square", "holes", "torus", "hex"),
        typer.Option("--shape", help="The grid's shape."),
    ] = "square",
    seed: Annotated[int, typer.Option("--seed", help="Random seed (same seed, same puzzle).")] = 1,
    max_island: Annotated[int, typer.Option("--max-island", min=1, help="Largest island.")] = 6,
    answer: Annotated[
        bool, typer.Option("--answer", help="Print the solution after the puzzle.")
    ] = False,
    *,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    from ..formats.grid import format_clue_grid
    from ..puzzles.nurikabe.formats import format_table
    from ..puzzles.nurikabe.generate import generate as make_puzzle
    from ..puzzles.nurikabe.generate import shape_graph
    from ..puzzles.nurikabe.pictures import text_picture

    check_size(rows, cols)
    generating.check_files(shared)
    with generating.limited(shared) as budget:
        graph, pools = shape_graph(shape, rows, cols, seed)
        made = make_puzzle(graph, pools, seed, max_island, budget=budget)
    generating.speak()
    if made is None:
        raise InputError(f"no unique puzzle found for seed {seed}; try another seed")
    p, picture = made
    if shape == "square":
        assert graph.coords is not None
        clues = {graph.coords[i]: "?" if v is None else v for i, v in p.clues.items()}
        text = format_clue_grid(rows, cols, clues)
    else:
        text = f"# Nurikabe on a {rows}x{cols} {shape} grid (seed {seed})\n" + format_table(p)
    if answer:
        text += "\n" + text_picture(p, picture)
    generating.emit(shared, text)
