"""What every puzzle command shares: option declarations, exit codes, error handling,
JSON output and atomic output files. Puzzle command modules import from here so the
flags mean the same thing everywhere."""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
import z3

from ..errors import CheckFailure, InputError
from ..solving import Interrupted, MemoryLimitExceeded, TimeUp

# Exit codes (a contract: scripts rely on them).
EXIT_OK = 0  #: solved, or optimal
EXIT_NO_SOLUTION = 1  #: proven: no solution (in the range asked)
EXIT_BAD_INPUT = 2  #: bad input or usage (click uses 2 for usage errors as well)
EXIT_LIMIT = 3  #: time or memory limit reached without the answer asked for
EXIT_INTERNAL = 70  #: a solver answer failed the independent checker (a bug)
EXIT_INTERRUPTED = 130  #: Ctrl-C, after printing what is known

bench_app = typer.Typer(
    help="Run a puzzle's solver over many instances and report times, memory and answers.",
    no_args_is_help=True,
)

PrintAsserts = Annotated[
    bool,
    typer.Option(
        "--print-asserts",
        help="Print the SMT-LIB 2 script (QF_LIA) of the formula behind the answer.",
    ),
]
DryRun = Annotated[
    bool, typer.Option("--dry-run", help="Build the formula and print its size; do not solve.")
]
Timeout = Annotated[
    float | None,
    typer.Option("--timeout", min=0.0, help="Wall-clock limit in seconds; exit 3 if reached."),
]
Memory = Annotated[
    int | None,
    typer.Option("--memory", min=16, help="Cap Z3's memory in MB; exit 3 if reached."),
]
ShowStats = Annotated[
    bool,
    typer.Option("--stats", help="Print Z3's statistics (time, conflicts, decisions, memory)."),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print exactly one JSON object on stdout.")]
Output = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="Write the result (text or JSON) to this file too."),
]
Svg = Annotated[
    Path | None, typer.Option("--svg", help="Write a picture of the answer as SVG to this file.")
]
Force = Annotated[
    bool, typer.Option("--force", help="Replace an existing file named by -o or --svg.")
]

Unique = Annotated[
    bool,
    typer.Option("--unique", help="Prove the solution unique, or show a second one."),
]
Count = Annotated[
    int | None,
    typer.Option("--count", min=1, help="Count solutions (distinct pictures) up to N."),
]

F = TypeVar("F", bound=Callable[..., Any])


def error_line(message: str) -> None:
    """One line on stderr, prefixed with the program name."""
    typer.echo(f"smtpuzzles: error: {message}", err=True)


def cli_errors(func: F) -> F:
    """Turn the exceptions users can cause into one line and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            error_line(str(exc))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except (Interrupted, KeyboardInterrupt):
            error_line("interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except (MemoryLimitExceeded, MemoryError) as exc:
            error_line(f"memory limit reached ({exc or 'out of memory'})")
            raise typer.Exit(EXIT_LIMIT) from None
        except TimeUp:
            error_line("time limit reached")
            raise typer.Exit(EXIT_LIMIT) from None
        except CheckFailure as exc:
            error_line(f"internal error, please report: {exc}")
            raise typer.Exit(EXIT_INTERNAL) from None
        except z3.Z3Exception as exc:
            text = exc.value.decode() if isinstance(exc.value, bytes) else str(exc.value)
            if "memory" in text.lower():
                error_line(f"memory limit reached (Z3: {text})")
                raise typer.Exit(EXIT_LIMIT) from None
            error_line(f"internal error in Z3, please report: {text}")
            raise typer.Exit(EXIT_INTERNAL) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None

    return wrapper  # type: ignore[return-value]


def dump_json(obj: Any) -> str:
    """The one JSON object a ``--json`` run prints."""
    return json.dumps(obj, separators=(", ", ": "))


def same_file(a: Path, b: str) -> bool:
    try:
        return b != "-" and Path(b).exists() and a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def write_atomic(path: Path, text: str, inputs: Iterable[str] = ()) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, never over an input."""
    for source in inputs:
        if same_file(path, source):
            raise InputError("refusing to overwrite an input file", str(path))
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise InputError("directory does not exist", str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp's 0600 is not what a user expects
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError(f"cannot write: {exc.strerror or exc}", str(path)) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def is_terminal() -> bool:
    return sys.stdout.isatty()
