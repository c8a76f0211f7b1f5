"""One bench run: cases in, rows out, locally or on a cluster, streamed to files as
they finish, skipping what a resumed file holds, and stopping cleanly on Ctrl-C or
SIGTERM with every finished row kept."""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from .cases import Case
from .rows import RowSink, Settings, finished, load_rows, make_row
from .run import Done, Job, Lost

#: Seconds a solver process may run past its own ``--timeout`` before it is killed.
GRACE_S = 30.0


class Signalled(BaseException):
    """Ctrl-C or SIGTERM (``signum``) during a run: stop the children, keep the finished
    rows (a BaseException, as Ctrl-C's own is, so no handler of errors takes it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass
class Plan:
    """What to run and where the rows go. ``cluster``: a Dask address or ``local:N``
    (else ``jobs`` processes at once here); ``jsonl``/``csv``: files rows stream to
    (``-``: standard output); ``resume``: a JSON Lines file whose cases are skipped and
    to which the new rows are added (unless ``jsonl`` names another file)."""

    settings: Settings
    cases: Sequence[Case]
    jobs: int = 1
    cluster: str | None = None
    jsonl: str | None = None
    csv: str | None = None
    resume: str | None = None


@dataclass
class BenchOutcome:
    """Every row of the plan's cases that has one, in the cases' order; the run's wall
    time; and the signal that stopped it, if one did."""

    rows: list[dict[str, Any]]
    wall_s: float
    stopped_by: int | None = None
    not_run: list[str] = field(default_factory=list)  #: keys of the cases without a row


def child_argv(case: Case, settings: Settings) -> tuple[str, ...]:
    """The solver's command line for ``case`` (after ``python -m smtpuzzles``)."""
    timeout = ("--timeout", f"{settings.timeout_s:g}")
    return (case.puzzle, settings.mode, "-", "--json", *timeout, *case.args, *settings.options)


def run_bench(plan: Plan, on_row: Callable[[dict[str, Any]], None]) -> BenchOutcome:
    """Run the plan; ``on_row`` sees each row as it is written (resumed rows first)."""
    began = time.monotonic()
    settings = plan.settings
    _refuse_inputs(plan)
    kept: dict[str, dict[str, Any]] = {}
    keep_bytes = None
    if plan.resume is not None:
        previous = load_rows(plan.resume)
        kept = finished(previous.rows, settings, plan.resume)
        keep_bytes = previous.whole_bytes
    wanted = {c.key for c in plan.cases}
    kept = {k: r for k, r in kept.items() if k in wanted}
    appending = plan.resume is not None and plan.jsonl in (None, plan.resume)
    todo = [c for c in plan.cases if c.key not in kept]
    runnable = {c.key: c for c in todo if c.error is None}
    sinks = []
    with contextlib.ExitStack() as stack:
        connection = None
        if plan.cluster is not None and runnable:  # before any row: a bad address is no row
            from .cluster import connect

            connection = connect(plan.cluster)
            stack.callback(connection.close)
        if appending:
            sinks.append(RowSink.open(plan.resume or "", "jsonl", keep_bytes))
        elif plan.jsonl is not None:
            sinks.append(RowSink.open(plan.jsonl, "jsonl"))
        if plan.csv is not None:
            sinks.append(RowSink.open(plan.csv, "csv"))
        for sink in sinks:
            stack.callback(sink.close)
        rows: dict[str, dict[str, Any]] = {}

        def emit(row: dict[str, Any], new: bool = True) -> None:
            rows[row["case"]] = row
            for sink in sinks:
                if new or not (appending and sink.kind == "jsonl"):
                    sink.write(row)
            on_row(row)

        for case in plan.cases:
            if case.key in kept:
                emit(kept[case.key], new=False)
        for case in todo:
            if case.error is not None:
                emit(make_row(case, settings, None))
        results = _runner(plan, runnable, connection)
        stopped_by = _run_all(results, runnable, lambda c, d: emit(make_row(c, settings, d)))
    ordered = [rows[c.key] for c in plan.cases if c.key in rows]
    missing = [c.key for c in plan.cases if c.key not in rows]
    return BenchOutcome(ordered, time.monotonic() - began, stopped_by, missing)


def _run_all(
    results: Generator[tuple[Job, Done | Lost], None, None],
    cases: dict[str, Case],
    emit: Callable[[Case, Done | Lost], None],
) -> int | None:
    """Emit each case as it finishes; the signal that stopped the run, if one did."""
    with _Stops() as stops:
        try:
            for job, done in results:
                with stops.held():
                    emit(cases[job.key], done)
        except Signalled as stop:
            return stop.signum
        finally:
            results.close()
    return None


def _runner(
    plan: Plan, cases: dict[str, Case], connection: Any
) -> Generator[tuple[Job, Done | Lost], None, None]:
    """The jobs of ``cases``, run here or on the cluster ``connection`` reaches."""
    run_id = uuid.uuid4().hex[:12]
    hard = plan.settings.timeout_s + GRACE_S
    jobs = [Job(run_id, c.key, child_argv(c, plan.settings), c.text, hard) for c in cases.values()]
    if connection is not None:
        from .cluster import run_cluster

        return run_cluster(jobs, connection)
    from .local import run_local

    return run_local(jobs, plan.jobs)


class _Stops:
    """Ctrl-C and SIGTERM during a run raise :class:`Signalled`, but never while a row is
    being written: one that comes then waits until the row is out, so the files never
    hold half a row."""

    def __init__(self) -> None:
        self.holding = False
        self.pending: int | None = None
        self.before: dict[int, Any] = {}

    def __enter__(self) -> _Stops:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self.before[signum] = signal.signal(signum, self._arrived)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.before.items():
            signal.signal(signum, handler)

    def _arrived(self, signum: int, frame: Any) -> None:
        if self.holding:
            self.pending = signum
        else:
            _raise(signum)

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            if self.pending is not None:
                signum, self.pending = self.pending, None
                _raise(signum)


def _raise(signum: int) -> None:
    raise Signalled(signum)


def _refuse_inputs(plan: Plan) -> None:
    """Check the files rows go to before any case runs: each a regular file or a new
    one, never a file this run reads (a puzzle, a known answer beside one, the file
    being resumed other than to add to it), and never one file for two options."""
    outputs = {"--jsonl": plan.jsonl, "--csv": plan.csv}
    named = {option: path for option, path in outputs.items() if path not in (None, "-")}
    for option, path in named.items():
        _regular_or_new(path, option)
    if plan.jsonl in named.values() and plan.csv in named.values():
        if _same(plan.jsonl, plan.csv):
            raise InputError("--jsonl and --csv name the same file", plan.csv)
    if plan.resume is not None:
        _regular_or_new(plan.resume, "--resume")
        if plan.csv is not None and _same(plan.csv, plan.resume):
            raise InputError("refusing to overwrite the file being resumed", plan.csv)
    sources = {c.key.split("#", 1)[0] for c in plan.cases}
    folders = {os.path.realpath(Path(source).parent) for source in sources}
    for path in named.values():
        if not Path(path).exists():
            continue
        beside = os.path.realpath(Path(path).parent) in folders and _read_beside(Path(path))
        if beside or any(_same(path, source) for source in sources):
            raise InputError("refusing to overwrite an input file of this run", path)


def _regular_or_new(path: str, option: str) -> None:
    """A path that exists must be a regular file (not a folder, device or FIFO, which
    would be read forever, block, or take no rows)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(f"{option}: cannot use: {exc.strerror or exc}", path) from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise InputError(f"{option}: {kind}", path)


def _read_beside(path: Path) -> bool:
    """Is ``path`` named like a known answer the cases read beside their puzzles?"""
    name = path.name
    known = name == "manifest.json" or name.startswith("solutions_optimal_")
    return known or path.suffix in (".sol", ".answer")


def _same(a: str | None, b: str) -> bool:
    """Do ``a`` and ``b`` name one file (existing or not)?"""
    if a is None:
        return False
    try:
        if Path(a).exists() and Path(b).exists():
            return os.path.samefile(a, b)
    except OSError:
        return False
    return os.path.realpath(a) == os.path.realpath(b)
