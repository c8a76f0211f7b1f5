"""What every ``generate`` command shares: the limits it runs under and the files it
writes, with the same machinery as solving (the deadline, the memory cap, the watchdog
of :mod:`.run`), so that ``--timeout``, ``--memory`` and Ctrl-C hold alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..limits import Budget, clock_started, deadline, limit_memory, parse_memory, parse_timeout
from ..output import refuse_bad_outputs, write_output
from ..sources import check_size
from . import run
from .common import EXIT_LIMIT, error_line
from .options import LIMITS, OUTPUT, Shared, option

#: The options every generate command has: the limits, ``-o`` and ``--force`` (they
#: write -o and their own files).
OPTIONS = {
    **LIMITS,
    "output": OUTPUT["output"],
    "force": option(
        bool, False, "--force", help="Replace the files this command writes if they exist."
    ),
}

#: The grid's size, as the generate commands take it.
Rows = Annotated[int, typer.Argument(min=2, help="Rows.")]
Cols = Annotated[int, typer.Argument(min=2, help="Columns.")]


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


def check_request(
    shared: Shared, rows: int, cols: int, count: int | None, *others: Path | None
) -> Path | None:
    """Refuse a bad size and every bad output before any work (:func:`check_files`,
    :func:`check_folder`); returns the folder ``-o`` names with ``--count``."""
    check_size(rows, cols)
    check_files(shared, *others, batch=count is not None)
    return check_folder(shared, count)


def check_files(shared: Shared, *others: Path | None, batch: bool = False) -> None:
    """Refuse every output of the command before any work: ``-o`` and the others
    (``--solution``, ``--svg``), none naming the same file as another (``batch``: ``-o``
    names a folder, checked by :func:`check_folder`)."""
    paths = [None if batch else shared.output, shared.svg, *others]
    given = [p for p in paths if p is not None]
    if len({str(Path(p).resolve()) for p in given}) < len(given):
        raise InputError("two outputs name the same file; give each its own")
    refuse_bad_outputs(paths, [], shared.force)


def emit(shared: Shared, text: str) -> None:
    """The puzzle on stdout, or into the ``-o`` file."""
    import sys

    if shared.output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_output(shared.output, text, shared.force)


#: ``--count`` of the generate commands.
COUNT: tuple[Any, int | None] = (
    Annotated[
        int | None,
        typer.Option(
            "--count",
            min=1,
            max=100_000,
            help="Make N puzzles (seeds SEED, SEED+1, ...) into the folder -o names: each "
            "NAME.txt with its answer NAME.sol, and manifest.json of seeds, grades and "
            "statistics (the layout bench reads).",
        ),
    ],
    None,
)


def check_folder(shared: Shared, count: int | None) -> Path | None:
    """With ``--count``, the folder ``-o`` names (made if missing): refused unless it is
    a folder, and unless it holds no ``manifest.json`` or ``--force`` is given."""
    if count is None:
        return None
    if shared.output is None:
        raise InputError("--count needs -o FOLDER to write the puzzles into")
    folder = Path(shared.output)
    if folder.exists() and not folder.is_dir():
        raise InputError("with --count, -o names a folder, not a file", str(folder))
    if (folder / "manifest.json").exists() and not shared.force:
        raise InputError("holds a manifest.json already; use --force to replace", str(folder))
    if not folder.exists():
        try:
            folder.mkdir(parents=False)
        except OSError as exc:
            raise InputError(f"cannot make the folder: {exc.strerror}", str(folder)) from None
    return folder


@contextmanager
def progress(count: int, what: str) -> Iterator[Callable[[], None]]:
    """A progress bar on standard error while ``count`` puzzles are made (only on a
    terminal); yields the step to call after each."""
    import sys

    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(what, total=count)
        yield lambda: bar.advance(task)


#: What making one seed's puzzle gives: its files (name to text) and its manifest entry;
#: ``None`` when none was made within the budget.
Made = tuple[dict[str, str], dict[str, Any]] | None


#: Seconds ``generate`` spends on a seed when no time limit is given: it then stops as
#: at a time limit (exit 3) rather than search on without end.
UNTIMED_S = 50.0


def make_each(
    shared: Shared, count: int | None, seed: int, what: str, make: Callable[[int, Budget], Made]
) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """Make the puzzle of each seed from ``seed`` (one, or ``count``) under the limits
    (:func:`limited`), with the progress bar; the first ``None`` ends the batch early.
    Returns the files and manifest entries made, the watchdog quiet (:func:`speak`)."""
    files: dict[str, str] = {}
    entries: list[dict[str, Any]] = []
    with limited(shared) as budget, progress(count or 1, what) as step:
        for s in range(seed, seed + (count or 1)):
            if budget.timeout_s is None:  # without --timeout, each seed still ends
                seed_budget = Budget(UNTIMED_S)
                with deadline(seed_budget):
                    made = make(s, seed_budget)
            else:
                made = make(s, budget)
            if made is None:
                break
            more, entry = made
            files.update(more)
            entries.append(entry)
            step()
    speak()
    return files, entries


def write_batch(folder: Path, files: dict[str, str], manifest: dict[str, Any]) -> None:
    """Write the puzzles and answers made so far, then ``manifest.json``."""
    import json

    for name, text in files.items():
        write_output(folder / name, text, True)
    write_output(folder / "manifest.json", json.dumps(manifest, indent=1) + "\n", True)


def deliver(
    shared: Shared,
    made: tuple[dict[str, str], list[dict[str, Any]]],
    kind: str,
    count: int | None,
    *,
    answer: bool = False,
    solution: Path | None = None,
) -> None:
    """Write what :func:`make_each` made: with ``--count``, every puzzle and answer and
    ``manifest.json`` into the folder ``-o`` names; else the puzzle on stdout or into
    ``-o`` (its answer after it with ``answer``, or into ``solution``). Fewer puzzles
    than asked means the time ran out: one line and exit 3, nothing written."""
    files, entries = made
    if len(entries) < (count or 1):
        error_line("time limit reached before a unique puzzle was made")
        raise typer.Exit(EXIT_LIMIT)
    if count is not None:
        write_batch(Path(str(shared.output)), files, {"puzzle": kind, "puzzles": entries})
        return
    puzzle_text, sol_text = files.values()
    if solution is not None:
        write_output(solution, sol_text, shared.force)
    emit(shared, puzzle_text + ("\n" + sol_text if answer else ""))
