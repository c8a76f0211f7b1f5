"""The one path of every solving command: read, solve through the API, print.

The command modules only declare options; this module turns a command line into
:func:`smtpuzzles.api.load` and :func:`smtpuzzles.api.solve` calls and prints the
:class:`~smtpuzzles.result.Result` as text or JSON. It builds no answer of its own.
"""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer

from .. import api
from ..errors import InputError
from ..exits import contest, run_json, take_voice, wait_for_voice
from ..limits import (
    Budget,
    TimeUp,
    clock_started,
    contained,
    deadline,
    exit_now,
    hard_stop_at,
    hard_stop_off,
    hard_stop_past,
    limit_memory,
    parse_memory,
    parse_timeout,
    running_as_command,
)
from ..outcome import Outcome, Status, follow, followed
from ..output import write_output
from ..puzzle import Formula, Puzzle, puzzle_class
from ..result import Result
from ..runner import stopping
from ..smtlib import Question, is_standard, join_questions, write_questions
from ..smtlib import Source as SmtSource
from ..sources import path_exists
from .common import (
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    dump_json,
    error_line,
)
from .options import Shared


def read(kind: str, source: str, shared: Shared, fmt: str, **options: Any) -> Puzzle:
    """The puzzle a command line names: a path, ``-`` (standard input) or a URL."""
    return api.load(_source(source), kind, format=fmt, index=shared.index, **options)


def _source(source: str) -> str | Path:
    """A path stays a path even when it holds no slash (so ``board.txt`` is a file)."""
    from ..formats.puzzlink import looks_like_url

    if (looks_like_url(source) and not path_exists(source)) or not source:
        return source  # Path("") would be the current folder
    return Path(source)


def solve(
    kind: str,
    mode: str,
    source: str,
    shared: Shared,
    *,
    fmt: str = "auto",
    load: dict[str, Any] | None = None,
    solve: dict[str, Any] | None = None,
    args: dict[str, int] | None = None,
    extra: Any = None,
) -> None:
    """Run one solving command end to end and exit with the documented code.

    ``load`` and ``solve`` are the puzzle's own options for :func:`api.load` and
    :func:`api.solve`; ``extra(puzzle, result)`` prints what only this puzzle shows.
    """
    budget = Budget(parse_timeout(shared.timeout), started=clock_started())
    limit_memory(parse_memory(shared.memory))
    inputs = [source]
    refuse_bad_run_outputs(shared, inputs, output_stem(source, shared.index))
    stopped = functools.partial(_say_stopped, kind, mode, source, budget, shared)
    with _Watchdog(budget, stopped):
        _solve(
            kind,
            mode,
            source,
            shared,
            budget,
            inputs,
            fmt=fmt,
            load=load,
            solve=solve,
            args=args,
            extra=extra,
        )


def _solve(
    kind: str,
    mode: str,
    source: str,
    shared: Shared,
    budget: Budget,
    inputs: list[str],
    *,
    fmt: str,
    load: dict[str, Any] | None,
    solve: dict[str, Any] | None,
    args: dict[str, int] | None,
    extra: Any,
) -> None:
    """The body of :func:`solve`, inside its watchdog."""
    stops = functools.partial(_before_answer, kind, mode, source, budget, shared)
    with stops(timed=False):  # imported before any deadline: never left half made
        puzzle_class(kind)
    with stops():
        puzzle = read(kind, source, shared, fmt, **(load or {}))
    options = {**(solve or {}), "presolve": shared.presolve}
    follow(None)  # until the search names its outcome
    if shared.dry_run:
        with stops():
            formula = puzzle.formula(**puzzle.formula_options(mode, args or {}, options))
        with stops():
            _dry_run(puzzle, formula, mode, shared, inputs, budget)
        return
    if mode == "opt" and (shared.print_dimacs or shared.cnf):  # refused before any work
        raise InputError("Z3's Optimize script has no CNF; use min for --print-dimacs or --cnf")
    scripts = shared.print_asserts or shared.print_dimacs or shared.smtlib or shared.cnf
    if scripts or shared.proof:
        options["print_asserts"] = True
    result = api.solve(
        puzzle,
        mode,
        budget=budget,
        unique=shared.unique,
        count=shared.count,
        **(args or {}),
        **options,
    )
    questions = result.outcome.questions
    smtlib = join_questions(questions) if shared.print_asserts and questions else None
    stem = output_stem(source, shared.index)
    if shared.smtlib is not None and questions:
        about = SmtSource(_application(puzzle, mode), _command_line(), generated_on=_today())
        write_questions(questions, shared.smtlib, stem, about, shared.force)
    # What comes from the questions already asked is on its way before the CNF and the
    # proofs, which take time of their own: a limit reached there still leaves it said.
    early = smtlib is not None and not (shared.json or shared.print_dimacs)
    if early:
        _Watchdog.speak()
        _emit(smtlib or "", shared, inputs)
    dimacs = None
    # A search a limit or Ctrl-C ended starts no more work, and enters no new block:
    # one would free what the stopped search had built, which takes seconds on a large
    # puzzle, past the limit.
    if result.stopped is None and (shared.print_dimacs or shared.cnf or shared.proof):
        with stopping(budget) as stop:
            if shared.print_dimacs or shared.cnf:
                dimacs = _dimacs(questions, budget)
                if shared.cnf is not None and dimacs is not None:
                    write_output(shared.cnf, dimacs, shared.force)
            if shared.proof is not None:
                _proofs(questions, shared.proof, stem, budget, shared.force)
        if stop.why is not None:
            result.outcome.stopped = stop.why
            dimacs = None
    result.elapsed_s = budget.elapsed()
    _Watchdog.speak()
    # The text report is built only when shown: drawing a large answer near the memory
    # cap could fail where the JSON object still fits.
    report = "" if shared.json else result.report(shared.stats)
    if shared.json:
        _emit(dump_json(result.to_json(shared.stats, smtlib)) + "\n", shared, inputs)
    elif shared.print_dimacs:  # stdout is the CNF's alone, even when a limit stopped it
        if dimacs is not None:
            _emit(dimacs, shared, inputs)
        if not shared.quiet:
            typer.echo(report, err=True)
    elif smtlib is not None:
        if not early:
            _emit(smtlib, shared, inputs)
        if not shared.quiet:
            typer.echo(report, err=True)
    elif not shared.quiet:
        _emit(report + "\n", shared, inputs)
        if extra is not None:
            extra(puzzle, result)
    if shared.svg is not None and result.answer is not None:
        write_output(shared.svg, result.svg(), shared.force)
    if result.stopped == "interrupted":
        error_line("interrupted")
    elif result.stopped is not None and (shared.cnf or shared.print_dimacs or shared.proof):
        limit = "time" if result.stopped == "timeout" else "memory"
        error_line(f"{limit} limit reached; the CNF or proofs not written")
    elif result.stopped == "memory":
        error_line("memory limit reached")
    raise typer.Exit(exit_code(result, shared))


def _dimacs(questions: list[Question], budget: Budget) -> str | None:
    """The CNF of the first question (the one whose answer is reported first)."""
    if not questions:
        return None
    if not is_standard(questions[0].script):
        raise InputError("Z3's Optimize script has no CNF; use min for --print-dimacs or --cnf")
    return _cnf(questions[0].script, _cnf_header(questions[0]), budget)


def _cnf(script: str, header: list[str], budget: Budget) -> str:
    """The CNF of ``script``, made in a process of its own: Z3's tactics end the process
    they run in when the memory cap refuses them room."""
    from ..dimacs import to_dimacs

    return contained(lambda: to_dimacs(script, header, budget), "the CNF translation")


def _cnf_header(q: Question) -> list[str]:
    """The ``c`` lines that head a CNF: who made it, how, and the answer expected."""
    from .. import __version__

    return [
        f"generator: smtpuzzles {__version__} (Z3's bit-blasting of question {q.name})",
        f"command: {_command_line()}",
        f"expected answer: {q.answer}",
    ]


def _proofs(
    questions: list[Question], folder: Path, stem: str, budget: Budget, force: bool
) -> None:
    """For each unsat question, its CNF and CaDiCaL's DRAT proof that the CNF is
    unsatisfiable, as ``<folder>/<stem>.<question>.cnf`` and ``.drat``."""
    from ..dimacs import clauses
    from ..output import make_folder
    from ..proof import expect_unsat, prove

    wanted = [q for q in questions if q.answer == "unsat" and is_standard(q.script)]
    if not wanted:
        return
    make_folder(folder)
    for q in wanted:
        cnf = _cnf(q.script, _cnf_header(q), budget)
        base = folder / f"{stem}.{q.name}"
        write_output(base.with_name(base.name + ".cnf"), cnf, force)
        drat = base.with_name(base.name + ".drat")
        if drat.exists() and not force:
            raise InputError("file exists; use --force to replace it", str(drat))
        answer = contained(functools.partial(prove, clauses(cnf), drat, budget), "the proof")
        expect_unsat(answer, q.name)
        if answer == "unknown":
            raise TimeUp()


def _application(puzzle: Puzzle, mode: str) -> str:
    """What a benchmark file's ``:source`` says the question is about."""
    return f"{puzzle.title} puzzle {puzzle.display_name} ({puzzle.describe()}), mode {mode}"


def _today() -> str:
    """The date a benchmark file's ``:source`` says it was generated on."""
    import datetime

    return datetime.date.today().isoformat()


def _command_line() -> str:
    """The command line of this run, as a benchmark file or a CNF records it."""
    import shlex

    return " ".join(["smtpuzzles", *(shlex.quote(a) for a in sys.argv[1:])])


def exit_code(result: Result, shared: Shared) -> int:
    """The documented exit code (a contract: scripts rely on it)."""
    if result.stopped == "interrupted":
        return EXIT_INTERRUPTED
    if result.stopped is not None:  # also with the answer, when its CNF or proof was cut
        return EXIT_LIMIT
    if result.status == Status.UNSAT:
        return EXIT_NO_SOLUTION
    if result.status == Status.UNKNOWN:
        return EXIT_LIMIT
    if (shared.unique or shared.count is not None) and result.unique is None:
        counted_all = result.count_complete or result.count == shared.count
        if not (shared.count is not None and counted_all):
            return EXIT_LIMIT
    return EXIT_OK


@contextmanager
def _before_answer(
    kind: str, mode: str, source: str, budget: Budget, shared: Shared, timed: bool = True
) -> Iterator[None]:
    """Run a step that has nothing to report yet (importing the puzzle's code, reading
    the puzzle, building the formula of ``--dry-run``), under the deadline if ``timed``;
    a limit or Ctrl-C there ends the run."""
    # Python 3.11 reports a Ctrl-C inside a class statement as a RuntimeError: any error
    # but bad input, once a Ctrl-C has come, is that Ctrl-C.
    with stopping(budget if timed else None, also=(Exception,)) as stop:
        yield
    if stop.why is not None:
        _stopped_before_answer(kind, mode, source, budget, shared, stop.why)


def _stopped_before_answer(
    kind: str, mode: str, source: str, budget: Budget, shared: Shared, why: str
) -> NoReturn:
    """A limit or Ctrl-C before there was anything to report (the puzzle being read, or
    its formula built for ``--dry-run``): say so, one JSON object with ``--json``."""
    _Watchdog.speak()
    _say_stopped(kind, mode, source, budget, shared, why)
    raise typer.Exit(EXIT_INTERRUPTED if why == "interrupted" else EXIT_LIMIT)


def _say_stopped(
    kind: str, mode: str, source: str, budget: Budget, shared: Shared, why: str
) -> None:
    """The words of a run stopped with no answer: the JSON object and the error line."""
    if shared.json:
        name = Path(source).name if source != "-" else "<stdin>"
        obj = run_json(kind, name, mode, "unknown", why, budget.elapsed())
        obj.update(_so_far_json(kind))
        typer.echo(dump_json(obj))
    limit = {"timeout": "time", "memory": "memory"}.get(why)
    error_line(f"{limit} limit reached before an answer" if limit else why)


#: How long past its time limit a run may take to stop by itself before its watchdog
#: ends it (Z3 stops a large check only after tidying its state, which can take a second);
#: the rest of the half second promised goes to ending a process of gigabytes.
OVERRUN_GRACE_S = 0.2

#: How long after a Ctrl-C the run may take to stop by itself before its watchdog ends
#: it: long enough for the run to say what it found, short of the half second promised.
CTRL_C_GRACE_S = 0.25


#: How long the watchdog may take to say how the run ended (what it found so far, on a
#: loaded machine) before the last resort ends the process all the same.
SAYING_GRACE_S = 5.0


class _Watchdog:
    """Hold ``--timeout`` and Ctrl-C for the whole process, also where Z3's code keeps
    control: at the limit plus :data:`OVERRUN_GRACE_S`, or :data:`CTRL_C_GRACE_S` after a
    Ctrl-C, unless the run has begun to say how it ended (:meth:`speak`), it says so
    (``say``) and ends the process with exit 3 or 130. Z3 gives up the interpreter lock
    while it works, so the watchdog's threads run while the main thread waits on Z3; a
    Ctrl-C reaches them through the signal module's wake-up file descriptor, which is
    written at once, while Python's own handler waits for the main thread. Should the
    main thread hold the interpreter lock without end, :func:`.hard_stop_at` ends the
    process :data:`.HARD_STOP_AFTER_S` later."""

    _current: _Watchdog | None = None

    def __init__(self, budget: Budget, say: Callable[[str], None]) -> None:
        self.budget, self.say = budget, say
        self.timer: threading.Timer | None = None
        self.wakeup: tuple[int, int] | None = None  #: the pipe Ctrl-C writes to

    def __enter__(self) -> _Watchdog:
        _Watchdog._current = self
        if not running_as_command():
            return self
        contest()
        left = self.budget.remaining()
        try:
            if left is not None:
                self.timer = threading.Timer(left + OVERRUN_GRACE_S, self._overrun)
                self.timer.daemon = True
                self.timer.start()
                hard_stop_past(self.budget, OVERRUN_GRACE_S)
            self._watch_ctrl_c()
        except (RuntimeError, OSError):  # no thread or pipe to be had under the memory cap
            pass
        return self

    def __exit__(self, *exc: object) -> None:
        _Watchdog._current = None
        hard_stop_off()
        if self.timer is not None:
            self.timer.cancel()
        if self.wakeup is not None:
            signal.set_wakeup_fd(-1)
            os.close(self.wakeup[1])  # the watch reads the end of the pipe and stops

    def _watch_ctrl_c(self) -> None:
        read, write = os.pipe()
        os.set_blocking(write, False)
        watch = threading.Thread(target=self._on_ctrl_c, args=(read,), daemon=True)
        watch.start()
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        self.wakeup = (read, write)

    def _on_ctrl_c(self, read: int) -> None:
        # The pipe stays open after a Ctrl-C: later signals still write to it.
        while signal.SIGINT not in (got := os.read(read, 64)):
            if not got:  # the run ended the watch
                os.close(read)
                return
        time.sleep(CTRL_C_GRACE_S)
        if take_voice(EXIT_INTERRUPTED):
            hard_stop_at(time.monotonic() + SAYING_GRACE_S)
            try:
                self.say("interrupted")
            finally:
                exit_now(EXIT_INTERRUPTED)

    def _overrun(self) -> None:
        if take_voice(EXIT_LIMIT):
            hard_stop_at(time.monotonic() + SAYING_GRACE_S)
            try:
                self.say("timeout")
            finally:
                exit_now(EXIT_LIMIT)

    @classmethod
    def speak(cls) -> None:
        """The run is about to print its answer: from here the watchdog keeps quiet (if
        it spoke first, it is ending the process, and this waits for that)."""
        if cls._current is not None:
            wait_for_voice()
            hard_stop_off()


def _so_far_json(kind: str) -> dict[str, Any]:
    """The puzzle's own keys of a stopped run's JSON object, with what its search has
    found so far (the outcome it follows, as the watchdog speaks while the search is
    held up); none when the puzzle's module could not be loaded (Ctrl-C or the memory
    cap while importing it)."""
    outcome = followed() or Outcome()
    with stopping():
        try:
            cls = puzzle_class(kind)
        except ImportError:
            return {}
        return {"solution": cls.best_so_far_json(outcome), **cls.extra_json(outcome)}
    return {}


def _dry_run(
    puzzle: Puzzle,
    formula: Formula,
    mode: str,
    shared: Shared,
    inputs: list[str],
    budget: Budget,
) -> None:
    """Print the size or the script of the formula a solve would start from."""
    if shared.print_dimacs and not shared.json:
        with deadline(budget):
            dimacs = _cnf(formula.script, [f"command: {_command_line()}"], budget)
        _Watchdog.speak()
        _emit(dimacs, shared, inputs)
        raise typer.Exit(EXIT_OK)
    _Watchdog.speak()
    if shared.print_asserts and not shared.json:
        _emit(formula.script, shared, inputs)
        return
    if shared.quiet and not shared.json:
        raise typer.Exit(EXIT_OK)
    obj: dict[str, Any] = {
        "puzzle": puzzle.kind,
        "name": puzzle.display_name,
        "mode": mode,
        "status": Status.DRY_RUN.value,
        **formula.size(),
    }
    if shared.print_asserts:
        obj["smtlib"] = formula.script
    if shared.json:
        text = dump_json(obj) + "\n"
    else:
        text = "".join(f"{key}: {value}\n" for key, value in obj.items())
    _emit(text, shared, inputs)
    raise typer.Exit(EXIT_OK)


def convert(puzzle_text: str, shared: Shared, inputs: list[str]) -> None:
    """Print a puzzle in another format (``--to``) and exit."""
    _emit(puzzle_text.rstrip("\n") + "\n", shared, inputs)
    raise typer.Exit(EXIT_OK)


def output_stem(source: str, index: int | None) -> str:
    """How the files ``--smtlib`` and ``--proof`` write for one puzzle begin: the input's
    name without its suffix (``stdin`` for ``-``, ``puzzle`` for a URL), and ``-N`` for
    ``--index N``, so that the puzzles of one file do not share names."""
    from ..formats.puzzlink import looks_like_url

    if source == "-":
        stem = "stdin"
    elif looks_like_url(source) and not path_exists(source):
        stem = "puzzle"
    else:
        stem = Path(source).stem or "puzzle"
    return f"{stem}-{index}" if index is not None else stem


def refuse_bad_run_outputs(shared: Shared, inputs: list[str], stem: str = "") -> None:
    """Refuse unusable output paths and folders before any work is done (``stem``
    starts the names of the files written into ``--smtlib`` and ``--proof``)."""
    from ..output import refuse_bad_outputs

    refuse_bad_outputs(
        [shared.output, shared.svg, shared.cnf],
        inputs,
        shared.force,
        folders=[
            (shared.smtlib, stem, (".smt2",)),
            (shared.proof, stem, (".cnf", ".drat")),
        ],
        names=["-o", "--svg", "--cnf", "--smtlib", "--proof"],
    )


def _emit(text: str, shared: Shared, inputs: list[str]) -> None:
    """Print ``text`` on stdout and, with ``-o``, write the same to the file."""
    sys.stdout.write(text)
    sys.stdout.flush()
    if shared.output is not None:
        write_output(shared.output, text, shared.force)
