"""What every command shares besides its options: exit codes, error handling and JSON
output (files are written by :mod:`smtpuzzles.output`)."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from .. import z3lazy as z3
from ..errors import CheckFailure, InputError
from ..exits import error_json, note_said, quiet, stopped_json
from ..limits import clock_started, release_reserve
from ..runner import stopping

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
    note_said("error")
    typer.echo(f"smtpuzzles: error: {message}", err=True)


def cli_errors(func: F) -> F:
    """Turn the exceptions users can cause into one line and the documented exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with stopping() as stop:
                return func(*args, **kwargs)
        except InputError as exc:
            wanted = bool(getattr(kwargs.get("shared"), "json", kwargs.get("as_json", False)))
            error_json(sys.argv[1:], time.monotonic() - clock_started(), str(exc), wanted)
            error_line(str(exc))
            raise typer.Exit(EXIT_BAD_INPUT) from None
        except CheckFailure as exc:
            error_line(f"internal error, please report: {exc}")
            raise typer.Exit(EXIT_INTERNAL) from None
        except z3.error_type() as exc:
            text = exc.value.decode() if isinstance(exc.value, bytes) else str(exc.value)
            if "memory" in text.lower():
                release_reserve()
                _stopped_json(kwargs, "memory")
                error_line(f"memory limit reached (Z3: {text})")
                raise typer.Exit(EXIT_LIMIT) from None
            error_line(f"internal error in Z3, please report: {text}")
            raise typer.Exit(EXIT_INTERNAL) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        why = stop.why or "interrupted"  # set: the step was stopped, else it returned
        _stopped_json(kwargs, why)
        if why == "memory":
            detail = str(stop.exc) if stop.exc is not None else ""
            error_line(f"memory limit reached ({detail})" if detail else "memory limit reached")
        else:
            error_line("time limit reached" if why == "timeout" else "interrupted")
        raise typer.Exit(EXIT_INTERRUPTED if why == "interrupted" else EXIT_LIMIT)

    return wrapper  # type: ignore[return-value]


def _stopped_json(kwargs: dict[str, Any], why: str) -> None:
    """With ``--json``, the one JSON object of a run a limit or Ctrl-C stopped outside
    the steps that report it themselves (a signal can land while a step is unwinding)."""
    quiet()
    wanted = bool(getattr(kwargs.get("shared"), "json", False))
    stopped_json(sys.argv[1:], time.monotonic() - clock_started(), why, wanted)


def dump_json(obj: Any) -> str:
    """The one JSON object a ``--json`` run prints (noted as said once it is made: the
    memory cap can stop it on the way). The run is ending: from here a Ctrl-C is
    ignored, so that it cannot cut the object off or stop it from being printed."""
    quiet()
    text = json.dumps(obj, separators=(", ", ": "))
    note_said("json")
    return text
