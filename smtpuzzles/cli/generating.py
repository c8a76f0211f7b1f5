"""What every ``generate`` command shares: the limits it runs under and the files it
writes, with the same machinery as solving (the deadline, the memory cap, the watchdog
of :mod:`.run`), so that ``--timeout``, ``--memory`` and Ctrl-C hold alike; and
``--grade``, which rates each candidate as ``rate`` does (:class:`Judge`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from ..limits import (
    Budget,
    TimeUp,
    clock_started,
    deadline,
    limit_memory,
    parse_memory,
    parse_timeout,
)
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


#: Seconds ``generate --grade`` spends on a seed when no time limit is given: rating a
#: candidate costs more than making it, and a band the generator seldom reaches takes
#: many candidates.
UNTIMED_GRADED_S = 120.0


def make_each(
    shared: Shared,
    count: int | None,
    seed: int,
    what: str,
    make: Callable[[int, Budget], Made],
    judge: Judge | None = None,
) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """Make the puzzle of each seed from ``seed`` (one, or ``count``) under the limits
    (:func:`limited`), with the progress bar; the first ``None`` ends the batch early.
    Returns the files and manifest entries made, the watchdog quiet (:func:`speak`).
    With ``judge`` (``--grade``), a limit reached, or candidates run out, says which
    grade was missed and the nearest one rated (exit 3): one line, said once the limits
    are off, so that an alarm due as the candidates ran out cannot add a second."""
    files: dict[str, str] = {}
    entries: list[dict[str, Any]] = []
    untimed = UNTIMED_S if judge is None else UNTIMED_GRADED_S
    missed: str | None = None
    s = seed
    try:
        with limited(shared) as budget, progress(count or 1, what) as step:
            for s in range(seed, seed + (count or 1)):
                if judge is not None:
                    judge.reset()
                if budget.timeout_s is None:  # without --timeout, each seed still ends
                    seed_budget = Budget(untimed)
                    with deadline(seed_budget):
                        made = make(s, seed_budget)
                else:
                    seed_budget = budget
                    made = make(s, budget)
                if made is None and judge is not None and judge.rated:
                    if seed_budget.expired():  # the maker saw the time up before the alarm
                        raise TimeUp
                    missed = f"no puzzle of {judge.wanted} among the candidates"
                    break
                if made is None:
                    break
                more, entry = made
                files.update(more)
                entries.append(entry)
                step()
    except TimeUp:
        if judge is None:
            raise
        missed = missed or f"time limit reached before a puzzle of {judge.wanted} was made"
    speak()
    if missed is not None:
        assert judge is not None
        error_line(f"{missed} {judge.missed(s)}")
        raise typer.Exit(EXIT_LIMIT)
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


# ---------------------------------------------------------------------- --grade

#: ``--grade``: a puzzle whose ``rate`` grade is a band's (easy, medium, hard, fiendish),
#: one number, or a range of them.
GRADE: tuple[Any, str | None] = (
    Annotated[
        str | None,
        typer.Option(
            "--grade",
            metavar="GRADE",
            help="Only a puzzle of this grade as `rate` gives it: easy (0-15), medium "
            "(16-25), hard (26-35), fiendish (36 and up), a number (30), a range (25-35) "
            "or a least grade (30-). Each candidate is explained and rated, which costs "
            "more than making it (docs: generate).",
        ),
    ],
    None,
)

_NUMBERS = re.compile(r"^(\d{1,6})(?:(-)(\d{1,6})?)?$")


@dataclass(frozen=True)
class Grade:
    """The grades ``--grade`` accepts: ``low`` to ``high`` (``None``: no upper end)."""

    low: int
    high: int | None
    asked: str

    def holds(self, rating: int) -> bool:
        return self.low <= rating and (self.high is None or rating <= self.high)

    def lean(self) -> int:
        """Which way the generators' first candidate leans: 1 (easier) for a range
        wholly below rate's medium band, where their ordinary candidates mostly fall,
        -1 (harder) for one wholly above it, else 0 (as without ``--grade``)."""
        low, high = bands()["medium"]
        if self.high is not None and self.high < low:
            return 1
        return -1 if high is not None and self.low > high else 0

    def __str__(self) -> str:
        if self.high == self.low:
            return f"grade {self.low}"
        span = f"{self.low}-{'' if self.high is None else self.high}"
        return f"grade {span}" if self.asked == span else f"grade {self.asked} ({span})"


def bands() -> dict[str, tuple[int, int | None]]:
    """Rate's bands by name, as ranges of grades (the last has no upper end)."""
    from ..forced import GRADE_BANDS

    out: dict[str, tuple[int, int | None]] = {}
    low = 0
    for n, (top, words) in enumerate(GRADE_BANDS):
        out[words] = (low, None if n == len(GRADE_BANDS) - 1 else top)
        low = top + 1
    return out


def parse_grade(text: str | None) -> Grade | None:
    """``--grade``: a band's name, ``N``, ``A-B`` or ``A-`` (bad input: InputError)."""
    if text is None:
        return None
    asked = text.strip().lower()
    named = bands()
    if asked in named:
        return Grade(*named[asked], asked)
    m = _NUMBERS.match(asked)
    if m is None:
        names = ", ".join(named)
        raise InputError(
            f"--grade {text!r}: expected {names}, a number (30), a range (25-35) or a least "
            "grade (30-)"
        )
    low = int(m.group(1))
    high = low if m.group(2) is None else None if m.group(3) is None else int(m.group(3))
    if high is not None and high < low:
        raise InputError(f"--grade {text!r}: the range's low end is above its high end")
    return Grade(low, high, asked)


#: A manifest entry's grade fields when ``--grade`` is not given: the keys stay, so
#: every entry has the same shape, but nothing was rated.
UNGRADED: dict[str, Any] = {"grade": None, "rating": None}


#: What :meth:`Judge.direction` says of a puzzle whose explanation is not complete.
UNRATED = 10**6


class Judge:
    """Rates each candidate ``generate --grade`` makes as ``smtpuzzles KIND rate`` rates
    the file written (the same text read back and explained), under the run's limits,
    and remembers what it saw: the rating of the last candidate it kept and the nearest
    miss, for the message when none is kept."""

    def __init__(self, kind: str, wanted: Grade) -> None:
        self.kind = kind
        self.wanted = wanted
        self.rated = 0
        self.rating: int | None = None
        self.nearest: int | None = None

    def reset(self) -> None:
        """Forget the candidates of the seed before."""
        self.rated, self.rating, self.nearest = 0, None, None

    def rate(self, text: str, budget: Budget) -> int | None:
        """The grade ``rate`` prints for the puzzle ``text`` (``None``: its explanation
        is not complete). A limit or Ctrl-C during the explanation is raised again."""
        from .. import api
        from ..runner import stop_again

        found = api.explain(api.load(text, self.kind), budget=budget)
        stop_again(found.stopped_by)
        self.rated += 1
        return found.grade if found.status == "complete" else None

    def direction(self, text: str, budget: Budget) -> int:
        """How far the puzzle ``text`` is from the grade wanted: 0 when it has it (kept
        as :attr:`rating`), the grades above the range when harder, below (negative)
        when easier; :data:`UNRATED` when its explanation is not complete."""
        rating = self.rate(text, budget)
        if rating is None:
            return UNRATED
        if self.wanted.holds(rating):
            self.rating = rating
            return 0
        off = self._off(rating)
        if self.nearest is None or abs(off) < abs(self._off(self.nearest)):
            self.nearest = rating
        return off

    def _off(self, rating: int) -> int:
        """How far ``rating`` lies outside the range wanted (negative: below it)."""
        if rating < self.wanted.low:
            return rating - self.wanted.low
        return 0 if self.wanted.high is None else max(rating - self.wanted.high, 0)

    def fields(self) -> dict[str, Any]:
        """The manifest fields of the puzzle kept: rate's words and number."""
        from ..forced import grade_words

        assert self.rating is not None
        return {"grade": grade_words(self.rating), "rating": self.rating}

    def missed(self, seed: int) -> str:
        """What was rated for ``seed`` when no puzzle was kept, in words."""
        near = f"; nearest rated {self.nearest}" if self.nearest is not None else ""
        return f"for seed {seed} ({self.rated} rated{near})"
