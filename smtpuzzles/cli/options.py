"""Every option the puzzle commands share, declared once.

A command lists only its own parameters; :func:`command` adds the shared ones it asks
for (by group) to its signature, so ``--help`` shows each command exactly the options it
uses, with the same names and help everywhere, and the command receives them gathered in
one :class:`Shared` object.
"""

from __future__ import annotations

import enum
import functools
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer


def choice(*values: str) -> type[enum.Enum]:
    """A choice option's type: ``--help`` lists the values, a wrong one is a usage error.
    The command receives the plain string (see :func:`command`)."""
    return enum.Enum("Choice", {value: value for value in values}, type=str)  # type: ignore[return-value]


# -- the shared options, by group ---------------------------------------------------------


def option(kind: Any, default: Any, *names: str, **settings: Any) -> tuple[Any, Any]:
    """One option as the groups below and the commands' own tables declare it: its type
    (with ``typer.Option(*names, **settings)``) and its default."""
    return Annotated[kind, typer.Option(*names, **settings)], default


INPUT = {
    "index": option(
        int | None, None, "--index", min=1, help="Which puzzle of a multi-puzzle file (from 1)."
    ),
}
LIMITS = {
    "timeout": option(
        float | None,
        None,
        "--timeout",
        help="Wall-clock limit in seconds for the whole run; exit 3 if reached.",
    ),
    "memory": option(
        int | None,
        None,
        "--memory",
        min=16,
        help="Memory cap in MB for the whole run; exit 3 if reached.",
    ),
}
ANSWERS = {
    "unique": option(
        bool, False, "--unique", help="Prove the solution unique, or show a second one."
    ),
    "count": option(
        int | None, None, "--count", min=1, help="Count solutions (distinct answers) up to N."
    ),
}
FORMULA = {
    "print_asserts": option(
        bool,
        False,
        "--print-asserts",
        help="Print the SMT-LIB 2 script (QF_LIA) of every question asked, on stdout alone; "
        "the report goes to stderr.",
    ),
    "dry_run": option(
        bool, False, "--dry-run", help="Build the formula and print its size; no solving."
    ),
    "presolve": option(
        choice("none", "full"),
        "full",
        "--presolve",
        help="full: what is proved before Z3 (bounds, deductions, searches) joins the formula "
        "as facts; none: the encoding of the rules alone.",
    ),
    "smtlib": option(
        Path | None,
        None,
        "--smtlib",
        metavar="DIR",
        help="Write each question's script to DIR/<name>.<question>.smt2.",
    ),
    "print_dimacs": option(
        bool,
        False,
        "--print-dimacs",
        help="Print the CNF (DIMACS) Z3 bit-blasts from the first question's script, on "
        "stdout alone, with c lines mapping each variable to its literals.",
    ),
    "cnf": option(
        Path | None, None, "--cnf", metavar="FILE", help="Write that CNF (DIMACS) to FILE."
    ),
    "proof": option(
        Path | None,
        None,
        "--proof",
        metavar="DIR",
        help="For each unsat question, write its CNF and a DRAT proof that the CNF is "
        "unsatisfiable to DIR/<name>.<question>.cnf and .drat (check them with smtpuzzles "
        "verify or drat-trim).",
    ),
}
OUTPUT = {
    "json": option(bool, False, "--json", help="Print exactly one JSON object on stdout."),
    "stats": option(
        bool, False, "--stats", help="Report Z3's statistics (time, conflicts, decisions, memory)."
    ),
    "quiet": option(
        bool, False, "--quiet", "-q", help="No report; the exit code and files say it all."
    ),
    "output": option(
        Path | None, None, "-o", "--output", help="Write what is printed to this file too."
    ),
    "svg": option(
        Path | None, None, "--svg", help="Write a picture of the answer as SVG to this file."
    ),
    "force": option(
        bool,
        False,
        "--force",
        help="Replace files that -o, --svg, --cnf, --smtlib and --proof write.",
    ),
}
#: ``--timeout`` and ``--memory`` as a type, for commands declared without
#: :func:`command` (``verify``, ``export``).
Timeout = LIMITS["timeout"][0]
Memory = LIMITS["memory"][0]

#: Everything a solving command shares.
SOLVING = {**INPUT, **LIMITS, **FORMULA, **OUTPUT}


@dataclass
class Shared:
    """The shared options of one command line (those a command does not have stay at
    their defaults)."""

    index: int | None = None
    timeout: float | None = None
    memory: int | None = None
    unique: bool = False
    count: int | None = None
    print_asserts: bool = False
    dry_run: bool = False
    presolve: str = "full"
    smtlib: Path | None = None
    print_dimacs: bool = False
    cnf: Path | None = None
    proof: Path | None = None
    json: bool = False
    stats: bool = False
    quiet: bool = False
    output: Path | None = None
    svg: Path | None = None
    force: bool = False


def command(
    app: typer.Typer,
    name: str,
    help: str,
    options: dict[str, tuple[Any, Any]],
    example: str | None = None,
    gather: type = Shared,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``func(arguments..., shared: Shared, own: dict)`` as command ``name``,
    its signature the arguments followed by ``options`` (groups declared once): those
    that are fields of ``gather`` (a dataclass, :class:`Shared` unless given) arrive
    there, the puzzle's own ones in ``own``."""
    fields = set(gather.__dataclass_fields__)

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        own = [p for p in inspect.signature(func, eval_str=True).parameters.values()]
        own = [p for p in own if p.name not in ("shared", "own")]
        added = [
            inspect.Parameter(key, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
            for key, (kind, default) in options.items()
        ]

        @functools.wraps(func)
        def wrapper(**kwargs: Any) -> Any:
            kwargs = {k: v.value if isinstance(v, enum.Enum) else v for k, v in kwargs.items()}
            gathered = gather(**{k: kwargs.pop(k) for k in options if k in fields})
            puzzle = {k: kwargs.pop(k) for k in options if k not in fields}
            return func(**kwargs, shared=gathered, own=puzzle)

        params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added
        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        text = f"{help}\n\nExample: {example}" if example else help
        app.command(name, help=text)(wrapper)
        return func

    return register


def puzzle_argument() -> Any:
    """The puzzle argument of a solving command."""
    return Annotated[
        str, typer.Argument(help="Puzzle file, '-' for standard input, or a puzz.link URL.")
    ]


#: The puzzle argument of a solving command, as a type.
Puzzle = puzzle_argument()


def convert_option(*formats: str) -> tuple[Any, None]:
    """``--to``: print the puzzle in one of ``formats`` instead of solving it."""
    return option(
        choice(*formats) | None,
        None,
        "--to",
        help="Print the puzzle in another format; no solving.",
    )


#: ``--seed`` of the generate commands.
Seed = Annotated[int, typer.Option("--seed", help="Random seed (same seed, same puzzle).")]


def format_option(formats: Sequence[str], help: str = "Input format.") -> tuple[Any, str]:
    """``--format`` with a puzzle's formats as its choices (default ``auto``)."""
    return (Annotated[choice(*formats), typer.Option("--format", help=help)], "auto")
