"""What every command shares besides its options: exit codes, error handling, JSON
output and atomic output files."""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import typer
import z3

from ..errors import CheckFailure, InputError
from ..solving import Interrupted, MemoryLimitExceeded

# Exit codes (a contract: scripts rely on them).
EXIT_OK = 0  #: solved, or optimal
EXIT_NO_SOLUTION = 1  #: proven: no solution (in the range asked)
EXIT_BAD_INPUT = 2  #: bad input or usage (click uses 2 for usage errors as well)
EXIT_LIMIT = 3  #: time or memory limit reached without the answer asked for
EXIT_INTERNAL = 70  #: a solver answer failed the independent checker (a bug)
EXIT_INTERRUPTED = 130  #: Ctrl-C, after printing what is known

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
        except MemoryLimitExceeded as exc:
            error_line(f"memory limit reached ({exc})")
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
