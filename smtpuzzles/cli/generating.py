"""What every ``generate`` command shares: the limits it runs under and the files it
writes, with the same machinery as solving (the deadline, the memory cap, the watchdog
of :mod:`.run`), so that ``--timeout``, ``--memory`` and Ctrl-C hold alike."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..output import check_outputs, write_output
from ..solving import (
    Budget,
    clock_started,
    deadline,
    limit_memory,
    parse_memory,
    parse_timeout,
)
from . import run
from .common import error_line
from .options import Shared

#: ``--force`` as the generate commands have it (they write -o and their own files).
FORCE: tuple[Any, bool] = (
    Annotated[
        bool, typer.Option("--force", help="Replace the files this command writes if they exist.")
    ],
    False,
)


@contextmanager
def limited(shared: Shared) -> Iterator[Budget]:
    """Run the block under ``--timeout``, ``--memory`` and Ctrl-C: a limit reached in
    our own code raises ``TimeUp``, Ctrl-C ``KeyboardInterrupt`` (both reported by
    :func:`.common.cli_errors`: exit 3 and 130, nothing partial printed), and the
    watchdog ends the process if Z3 keeps control past the limit. The block makes the
    puzzle only; what it prints comes after (:func:`speak` first)."""
    budget = Budget(parse_timeout(shared.timeout), started=clock_started())
    limit_memory(parse_memory(shared.memory))
    with run._Watchdog(budget, _say_stopped), deadline(budget):
        yield budget


def speak() -> None:
    """The puzzle is made: from here the watchdog keeps quiet while it is written."""
    run._Watchdog.speak()


def _say_stopped(why: str) -> None:
    limit = {"timeout": "time", "memory": "memory"}.get(why)
    error_line(f"{limit} limit reached before a puzzle was made" if limit else why)


def check_files(shared: Shared, *others: Path | None) -> None:
    """Refuse every output of the command before any work: ``-o`` and the others
    (``--solution``, ``--svg``), none naming the same file as another."""
    paths = [shared.output, shared.svg, *others]
    given = [p for p in paths if p is not None]
    if len({str(Path(p).resolve()) for p in given}) < len(given):
        raise InputError("two outputs name the same file; give each its own")
    check_outputs(paths, [], shared.force)


def emit(shared: Shared, text: str) -> None:
    """The puzzle on stdout, or into the ``-o`` file."""
    import sys

    if shared.output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_output(shared.output, text, shared.force)
