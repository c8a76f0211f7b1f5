"""The ``smtpuzzles koburin`` commands: ``solve`` and ``generate``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..limits import Budget
from ..puzzles.koburin.formats import FORMATS
from ..puzzles.koburin.model import VARIANTS
from ..puzzles.koburin.search import CONNECTIVITY
from . import generating, options, run
from .common import cli_errors
from .options import Puzzle, Seed, Shared, choice, command, option

app = typer.Typer(
    help=(
        "Koburin: paint some empty cells black (never two side by side) and draw one loop "
        "through all the other empty cells; a number counts its black neighbours.\n\n"
        "Example: smtpuzzles koburin solve instances/koburin/gen_8x8_s1.txt --unique"
    ),
    no_args_is_help=True,
)

#: The solve command's own options.
KOBURIN = {
    "fmt": options.format_option(FORMATS),
    "variant": option(
        choice(*VARIANTS) | None,
        None,
        "--variant",
        help="four: numbers count orthogonal neighbours; eight: all eight around (default: "
        "as the input says, else four).",
    ),
    "connectivity": option(
        choice(*CONNECTIVITY),
        "lazy",
        "--connectivity",
        help="lazy: solve without connectivity and forbid each separate loop found; "
        "distance: one formula, the loop connected by distances to a root.",
    ),
    "to": options.convert_option("puzzlink", "grid"),
}


@command(
    app,
    "solve",
    "Solve a Koburin puzzle (grid, janko block, puzz.link URL, or table).",
    {**KOBURIN, **options.SOLVING, **options.ANSWERS},
    "smtpuzzles koburin solve instances/koburin/gen_8x8_s1.txt --unique",
)
@cli_errors
def solve(puzzle: Puzzle, *, shared: Shared, own: dict[str, Any]) -> None:
    fmt, to, variant = own.pop("fmt"), own.pop("to"), own.pop("variant")
    if to is not None:
        loaded = run.read("koburin", puzzle, shared, fmt, variant=variant)
        text = loaded.to_url() if to == "puzzlink" else loaded.to_grid()
        run.convert(text, shared, [puzzle])
    load = {"variant": variant}
    run.solve("koburin", "solve", puzzle, shared, fmt=fmt, load=load, solve=own)


@command(
    app,
    "generate",
    "Make a random puzzle with a unique solution (grid text, or a puzz.link URL), on "
    "stdout or to -o FILE; with --count N, N puzzles and their answers into the folder -o "
    "names: numbers are placed one at a time where the rules of a hand solver decide the "
    "most cells, until they decide every cell.",
    generating.OPTIONS,
    "smtpuzzles koburin generate 10 10 --seed 1",
)
@cli_errors
def generate(
    rows: generating.Rows,
    cols: generating.Cols,
    *,
    seed: Seed = 0,
    to: Annotated[choice("grid", "puzzlink"), typer.Option("--to", help="Output format.")] = "grid",
    solution: Annotated[
        Path | None, typer.Option("--solution", help="Also write the answer (.sol form) here.")
    ] = None,
    max_unknown: Annotated[
        float,
        typer.Option("--max-unknown", help="Largest share of numbers left '?' (0 to 1)."),
    ] = 0.1,
    density: Annotated[
        float,
        typer.Option(
            "--density",
            help="Largest share of cells numbered (published puzzles: about 0.14); numbers "
            "beyond it are taken away where the rest still decide the puzzle.",
        ),
    ] = 0.16,
    grade: generating.GRADE[0] = None,
    count: generating.COUNT[0] = None,
    shared: Shared,
    own: dict[str, Any],
) -> None:
    from ..puzzles.koburin.formats import to_grid_text, to_puzzlink
    from ..puzzles.koburin.generate import clue_statistics
    from ..puzzles.koburin.generate import generate as make_puzzle

    if not 0 <= max_unknown <= 1:
        raise InputError(f"--max-unknown {max_unknown}: expected a share from 0 to 1")
    if not 0 < density <= 1:
        raise InputError(f"--density {density}: expected a share above 0 up to 1")
    if count is not None and solution is not None:
        raise InputError("--count writes each answer beside its puzzle; leave out --solution")
    wanted = generating.parse_grade(grade)
    generating.check_request(shared, rows, cols, count, solution)
    judge = None if wanted is None else generating.Judge("koburin", wanted)

    def text_of(puzzle: Any) -> str:
        text = to_puzzlink(puzzle) if to == "puzzlink" else to_grid_text(puzzle)
        return text.rstrip("\n") + "\n"

    def make(s: int, budget: Budget) -> generating.Made:
        def accept(puzzle: Any) -> int:
            assert judge is not None
            return judge.direction(text_of(puzzle), budget)

        made = make_puzzle(
            rows,
            cols,
            s,
            budget,
            max_unknown=max_unknown,
            density=density,
            accept=None if judge is None else accept,
            lean=0 if wanted is None else wanted.lean(),
        )
        if made is None:
            return None
        puzzle, _, sol_text = made
        name = f"koburin_{rows}x{cols}_s{s}"
        file = name + (".url" if to == "puzzlink" else ".txt")
        files = {file: text_of(puzzle), name + ".sol": sol_text}
        graded = generating.UNGRADED if judge is None else judge.fields()
        return files, {"file": file, "seed": s, **graded, **clue_statistics(puzzle)}

    made = generating.make_each(shared, count, seed, "koburin", make, judge)
    generating.deliver(shared, made, "koburin", count, solution=solution)


def _explain_commands() -> None:
    from ..puzzles.koburin.formats import FORMATS
    from .explain import add_commands

    add_commands(app, "koburin", tuple(FORMATS), "instances/koburin/gen_8x8_s1.txt")


_explain_commands()
