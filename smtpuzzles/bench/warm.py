"""The warm parent of a bench's cases: one process that imports the package (and Z3,
python-sat, the puzzles) once, then forks one child per case. A case is still a process
of its own, with its own ``--timeout`` and ``--memory``, its crash or kill its own, and
its peak memory exact (``wait4``); what it no longer pays is Python's start-up and the
imports, which were most of an easy case's time.

The bench (or a Dask worker) starts the parent with :data:`BOOT`, which puts the folder
the running package was imported from first on ``sys.path``: never the current folder,
whose ``smtpuzzles/`` (a source tree, say) would otherwise be what the cases run.

They speak JSON Lines over two pipes. A request runs a case (``op: run``: its
``argv`` after ``smtpuzzles``, the puzzle's ``text`` for its standard input, a hard
limit in seconds) or stops a bench run (``op: cancel``); each case ends in one answer
line. The parent is single-threaded (a fork from a threaded process is unsafe) and waits
on the request pipe and on SIGCHLD at once.

A fresh fork pays for every page of memory it writes (Linux copies it on the first
write), which on a small case costs as much again as the solve. So once a case of a kind
has started, the parent forks the process for the next case of that kind ahead of time:
it runs the command on the kind's small sample puzzle
(:attr:`~smtpuzzles.puzzle.Puzzle.sample`), which makes the memory a solve writes its
own, then waits for its case. A case's clock,
limits and wall time start when it is handed its case; its CPU and peak memory include
the sample's. A puzzle whose case is mostly fresh memory anyway (Flood-It's compiled
A*) is not forked ahead: the parent solves its sample once itself, before its first
case, so that what a run imports late and the caches it fills are every fork's. Every
child has a session of its own, so the parent kills it with its group; the parent dies
with the bench (Linux's parent-death signal), and each child with the parent.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import select
import signal
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from ..exits import forget_said
from ..limits import started_now
from .child import die_with_parent, exit_code

#: The program the parent runs (``python -c BOOT ROOT REQUESTS ANSWERS BENCH_PID``).
BOOT = (
    "import sys; sys.path[0] = sys.argv[1]; "
    "from smtpuzzles.bench.warm import serve; serve(*map(int, sys.argv[2:]))"
)
#: Exit code in an answer for a case cancelled before it started.
CANCELLED = -1000
#: What the parent imports before its first fork (:func:`preload`), besides each puzzle's
#: command line, puzzle and search modules (:func:`preload_kind`, before the first case
#: of that puzzle): so no child imports anything of weight.
PRELOAD = (
    "smtpuzzles.entry",
    "smtpuzzles.cli",
    "smtpuzzles.cli.run",
    "smtpuzzles.api",
    "smtpuzzles.dimacs",
    "z3",
    "pysat.solvers",
    "typer._click.decorators",
    "encodings.ascii",
    "encodings.utf_8_sig",
)
#: The modules of each puzzle (``smtpuzzles.<where>``, ``{kind}`` its name) preloaded.
PUZZLE_MODULES = ("cli.{kind}", "puzzles.{kind}.puzzle", "puzzles.{kind}.search")


@dataclass
class _Case:
    """A child running a case, and the files its output goes to."""

    id: int
    run: str
    deadline: float
    began: float
    out: IO[bytes]
    err: IO[bytes]
    killed: bool = False


@dataclass
class _Ready:
    """A process forked ahead of its case: it solves its kind's sample, then reads the
    case's command line (a JSON line) from ``go`` and the puzzle from ``stdin``."""

    pid: int
    go: int  #: the write end of the pipe the case's command line goes through
    stdin: IO[bytes]
    out: IO[bytes]
    err: IO[bytes]

    def files(self) -> tuple[IO[bytes], ...]:
        return (self.stdin, self.out, self.err)


@dataclass
class _Parent:
    requests: int
    answers: int
    wake: tuple[int, int]  #: the pipe SIGCHLD wakes the loop through
    live: dict[int, _Case] = field(default_factory=dict)
    cancelled: set[str] = field(default_factory=set)
    pending: bytes = b""
    ready: dict[str, _Ready] = field(default_factory=dict)  #: by the puzzle's kind
    loaded: set[str] = field(default_factory=set)  #: the kinds :func:`preload_kind` loaded

    def answer(self, message: dict[str, Any]) -> None:
        data = (json.dumps(message) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.answers, data) :]

    def request(self, line: bytes) -> None:
        message = json.loads(line)
        if message["op"] == "cancel":
            self.cancelled.add(message["run"])
            for pid, case in self.live.items():
                if case.run == message["run"]:
                    _kill_group(pid)
                    case.killed = True
            return
        if message["run"] in self.cancelled:
            self.answer(_ended(message["id"], CANCELLED, "cancelled"))
            return
        self.start(message)

    def start(self, message: dict[str, Any]) -> None:
        argv = message["argv"]
        if argv and argv[0] not in self.loaded:
            self.loaded.add(argv[0])
            preload_kind(argv[0], argv[1] if len(argv) > 1 else "")
        began = time.monotonic()
        ready = self.ready.pop(argv[0], None) if argv else None
        if ready is not None and not self.hand_over(ready, message):
            ready = None
        if ready is not None:
            pid, out, err = ready.pid, ready.out, ready.err
        else:
            stdin = _puzzle_file(message["text"])
            out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
            try:
                pid = os.fork()
            except OSError as exc:  # no process or memory left: this case's error alone
                for file in (stdin, out, err):
                    file.close()
                why = f"cannot start the case's process: {exc.strerror or exc}"
                self.answer(_ended(message["id"], 1, why))
                return
            if pid == 0:
                os._exit(self.child(argv, stdin, out, err))
            stdin.close()
        deadline = began + float(message["hard_s"])
        self.live[pid] = _Case(message["id"], message["run"], deadline, began, out, err)
        if argv and argv[0] not in self.ready and _sample(argv[0]):
            self.prepare(argv[0], argv[1] if len(argv) > 1 else "solve")

    def hand_over(self, ready: _Ready, message: dict[str, Any]) -> bool:
        """Give a waiting process its case; False if it is gone (then it is reaped)."""
        try:
            ready.stdin.write(message["text"].encode("utf-8"))
            ready.stdin.flush()
            ready.stdin.seek(0)
            line = (json.dumps(message["argv"]) + "\n").encode("utf-8")
            while line:
                line = line[os.write(ready.go, line) :]
            return True
        except OSError:
            _kill_group(ready.pid)
            ready.out.close()
            ready.err.close()
            return False
        finally:
            os.close(ready.go)
            ready.stdin.close()

    def prepare(self, kind: str, mode: str) -> None:
        """Fork the process for the next case of ``kind`` (asked in ``mode``) ahead of it."""
        go_read, go_write = os.pipe()
        files = (tempfile.TemporaryFile(), tempfile.TemporaryFile(), tempfile.TemporaryFile())
        try:
            pid = os.fork()
        except OSError:  # the next case starts the usual way
            os.close(go_read)
            os.close(go_write)
            for file in files:
                file.close()
            return
        if pid == 0:
            os.close(go_write)
            os._exit(self.wait_for_case(kind, mode, go_read, *files))
        os.close(go_read)
        self.ready[kind] = _Ready(pid, go_write, *files)

    def wait_for_case(
        self, kind: str, mode: str, go: int, stdin: IO[bytes], out: IO[bytes], err: IO[bytes]
    ) -> int:
        """The process forked ahead of its case: solve the sample, then run the case
        handed over (none: the parent ended or is gone, and so does this)."""
        try:
            parent = os.getppid()
            os.setsid()
            die_with_parent(parent)
            self.close_inherited()
            signal.set_wakeup_fd(-1)
            _solve_sample(kind, mode)
            line = b""
            while not line.endswith(b"\n"):
                chunk = os.read(go, 1 << 16)
                if not chunk:
                    return 0
                line += chunk
            os.close(go)
            started_now()
            return self.child(json.loads(line), stdin, out, err, own_session=True)
        except BaseException:  # nothing may run on in a fork of the parent
            return 70

    def child(
        self,
        argv: list[str],
        stdin: IO[bytes],
        out: IO[bytes],
        err: IO[bytes],
        *,
        own_session: bool = False,
    ) -> int:
        """The forked case: its own session, the parent's death its own, the puzzle on
        standard input, then the command as ``smtpuzzles ARGV`` runs it."""
        try:
            if not own_session:
                parent = os.getppid()
                os.setsid()
                die_with_parent(parent)
                self.close_inherited()
            signal.set_wakeup_fd(-1)
            for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE):
                signal.signal(signum, signal.SIG_DFL)
            for fd, target in ((stdin, 0), (out, 1), (err, 2)):
                os.dup2(fd.fileno(), target)
            for fd in (self.requests, self.answers, *self.wake):
                os.close(fd)
            for file in (stdin, out, err):
                file.close()
            sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8")
            sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8")
            sys.stderr = io.TextIOWrapper(
                open(2, "wb", closefd=False), encoding="utf-8", errors="backslashreplace"
            )
            sys.argv = ["smtpuzzles", *argv]
            return _command()
        except BaseException:  # nothing may run on in a fork of the parent
            return 70

    def reap(self) -> None:
        """Answer for every child that has ended."""
        while self.live:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            case = self.live.pop(pid, None)
            if case is None:
                self.forget(pid)
                continue
            wall = time.monotonic() - case.began
            case.out.seek(0)
            case.err.seek(0)
            stdout = case.out.read().decode("utf-8", "replace")
            lines = case.err.read().decode("utf-8", "replace").strip().splitlines()
            case.out.close()
            case.err.close()
            self.answer(
                {
                    "id": case.id,
                    "returncode": os.waitstatus_to_exitcode(status),
                    "stdout": stdout,
                    "error": lines[-1] if lines else "",
                    "wall_s": wall,
                    "peak_kb": usage.ru_maxrss,  # Linux: kB
                    "killed": case.killed,
                }
            )

    def enforce(self) -> float | None:
        """Kill the children past their hard limit; seconds until the next one's."""
        now = time.monotonic()
        nearest = None
        for pid, case in self.live.items():
            if case.killed:
                continue
            if now >= case.deadline:
                _kill_group(pid)
                case.killed = True
            else:
                left = case.deadline - now
                nearest = left if nearest is None else min(nearest, left)
        return nearest

    def close_inherited(self) -> None:
        """In a fork: close the pipes of the processes waiting for their cases, so that
        each sees the end of its pipe when the parent ends."""
        for ready in self.ready.values():
            with contextlib.suppress(OSError):
                os.close(ready.go)

    def forget(self, pid: int) -> None:
        """Drop a process forked ahead of its case that ended before it had one."""
        for kind, ready in list(self.ready.items()):
            if ready.pid == pid:
                del self.ready[kind]
                os.close(ready.go)
                for file in ready.files():
                    file.close()

    def end(self) -> None:
        """Kill every child, running a case or waiting for one, and reap it."""
        children = [*self.live, *(ready.pid for ready in self.ready.values())]
        for pid in children:
            _kill_group(pid)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _ended(key: int, returncode: int, error: str) -> dict[str, Any]:
    """The answer for a case that never ran."""
    return {
        "id": key,
        "returncode": returncode,
        "stdout": "",
        "error": error,
        "wall_s": 0.0,
        "peak_kb": 0,
        "killed": False,
    }


def _puzzle_file(text: str) -> IO[bytes]:
    """A case's standard input: the puzzle's text in a file, read from its start."""
    stdin = tempfile.TemporaryFile()
    stdin.write(text.encode("utf-8"))
    stdin.seek(0)
    return stdin


def _sample(kind: str) -> str:
    """``kind``'s sample puzzle if its cases are forked ahead, else empty."""
    from ..puzzle import puzzle_class

    try:
        cls = puzzle_class(kind)
    except Exception:  # not a puzzle: the case's own run says so
        return ""
    return cls.sample if cls.fork_ahead else ""


def _solve_sample(kind: str, mode: str) -> None:
    """Run ``smtpuzzles KIND MODE - --json`` on ``kind``'s sample puzzle (in the
    puzzle's first mode when ``mode`` is not one it has), its streams in memory and its
    command line's own end skipped: any failure only leaves this process colder."""
    from ..cli import built
    from ..puzzle import puzzle_class

    streams = sys.stdin, sys.stdout, sys.stderr
    with contextlib.suppress(BaseException):
        cls = puzzle_class(kind)
        sys.stdin = io.TextIOWrapper(io.BytesIO(cls.sample.encode("utf-8")), encoding="utf-8")
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        _, command = built((kind,))
        asked = mode if mode in cls.modes else cls.modes[0]
        command.main([kind, asked, "-", "--json"], prog_name="smtpuzzles", standalone_mode=False)
    sys.stdin, sys.stdout, sys.stderr = streams
    forget_said()


def _command() -> int:
    """Run the console command in this fork, as a fresh process would: the entry
    module's start-up state as if just imported, the exit code returned."""
    from .. import entry

    entry._noted.clear()
    entry._raise_at_once = False
    entry._STARTED = time.monotonic()
    signal.signal(signal.SIGINT, entry._on_early_interrupt)
    return exit_code(entry.main)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def preload(kinds: Iterable[str] | None = None) -> None:
    """Import what every case uses (an optional package that is missing is skipped),
    and the modules of the puzzles ``kinds`` (``None``: all of them); the parent of a
    bench loads each puzzle's with its first case (:func:`preload_kind`)."""
    from ..puzzle import KINDS

    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    from ..engines import make_spare_context

    make_spare_context()
    for kind in KINDS if kinds is None else kinds:
        preload_kind(kind)
    _freeze()


def preload_kind(kind: str, mode: str = "") -> None:
    """Import a puzzle's command line, puzzle and search modules and build its command
    line, as a case's run would: once, before its first case is forked. A bench of one
    puzzle so pays nothing for the puzzles it never runs, and its forks copy the page
    tables of a smaller process. A puzzle whose cases are not forked ahead
    (:attr:`~smtpuzzles.puzzle.Puzzle.fork_ahead`) has its sample solved here, in
    ``mode``: what a run imports late and the caches it fills (the command line's
    parser, the checker, the JSON writer) are then ready in every fork."""
    from ..cli import built
    from ..puzzle import KINDS, puzzle_class

    if kind not in KINDS:  # not a puzzle: the case's own run says so
        return
    for module in PUZZLE_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(f"smtpuzzles.{module.format(kind=kind)}")
    built((kind,))
    cls = puzzle_class(kind)
    if cls.sample and not cls.fork_ahead:
        _solve_sample(kind, mode)
    _freeze()


def _freeze() -> None:
    """Keep what is here now out of the collector's sweeps: a child's collections then
    do not touch (and so copy) the memory it shares with this process."""
    gc.collect()
    gc.freeze()


def serve(requests: int, answers: int, bench: int) -> None:
    """The parent's loop: start cases, answer for ended ones, kill those past their hard
    limit; at the end of the requests (the bench closed them or died), kill what still
    runs and end."""
    die_with_parent(bench)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the bench stops its cases itself
    preload(())
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    parent = _Parent(requests, answers, (wake_read, wake_write))
    try:
        while True:
            ready, _, _ = select.select([requests, wake_read], [], [], parent.enforce())
            if wake_read in ready:
                os.read(wake_read, 4096)
            parent.reap()
            if requests in ready:
                data = os.read(requests, 1 << 16)
                if not data:
                    return
                lines = (parent.pending + data).split(b"\n")
                parent.pending = lines.pop()
                for line in lines:
                    parent.request(line)
    finally:
        parent.end()
