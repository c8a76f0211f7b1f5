"""One case, one process: the unit of work a bench runs here or sends to a Dask worker.

A :class:`Job` holds everything a case needs (its command line and the puzzle's text,
which goes to the child's standard input), so the machine that runs it needs the
package but no access to the bench's files. Each process that runs jobs (the bench, or
a Dask worker) keeps one warm parent (:mod:`.warm`) that forks a child per case; the
parent kills a child still running past the hard limit, and stops a run's children
when it is cancelled.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import warm
from .child import PARENT_ENV

#: Exit code of a job that was cancelled before its process started.
CANCELLED = warm.CANCELLED


@dataclass(frozen=True)
class Job:
    """A case as it travels: ``argv`` follows ``python -m smtpuzzles``; ``text`` is fed
    to the child's standard input; ``run_id`` names the bench run it belongs to."""

    run_id: str
    key: str
    argv: tuple[str, ...]
    text: str
    hard_limit_s: float


@dataclass(frozen=True)
class Done:
    """What running a job gave: the child's exit code, its standard output, the last
    line it wrote on standard error, and where and how long it ran."""

    returncode: int
    stdout: str
    error: str
    wall_s: float
    peak_mb: float
    worker: str
    killed: bool = False  #: stopped by the hard limit


@dataclass(frozen=True)
class Lost:
    """A job that never finished: its worker or cluster was lost, and why."""

    error: str


_lock = threading.Lock()
#: Bench runs whose jobs must not start any more.
_cancelled: set[str] = set()
#: This process's warm parent, started by the first job.
_parent: WarmParent | None = None


class WarmParent:
    """This process's end of a warm parent (:mod:`.warm`): jobs go out as requests, and
    a reader thread hands each answer to the thread waiting for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sending = threading.Lock()
        self.waiting: dict[int, tuple[threading.Event, list[dict[str, Any]]]] = {}
        self.ids = itertools.count()
        self.alive = True
        started = threading.Event()
        failure: list[BaseException] = []
        # Linux sends the parent-death signal when the *thread* that started the
        # process ends: a thread of its own keeps it for as long as this process lives.
        keeper = threading.Thread(
            target=self._keep, args=(started, failure), name="bench-warm-parent", daemon=True
        )
        keeper.start()
        self.keeper = keeper
        started.wait()
        if failure:
            raise failure[0]

    def _keep(self, started: threading.Event, failure: list[BaseException]) -> None:
        try:
            self.proc = self._start()
        except BaseException as exc:
            failure.append(exc)
            started.set()
            return
        started.set()
        self._read()
        self.proc.wait()

    def _start(self) -> subprocess.Popen[bytes]:
        ask_read, ask_write = os.pipe()
        answer_read, answer_write = os.pipe()
        root = str(Path(__file__).resolve().parents[2])  # the folder holding smtpuzzles/
        argv = [root, str(ask_read), str(answer_write), str(os.getpid())]
        try:
            proc = subprocess.Popen(
                [sys.executable, "-c", warm.BOOT, *argv],
                stdin=subprocess.DEVNULL,
                pass_fds=(ask_read, answer_write),
                start_new_session=True,
                env={**os.environ, PARENT_ENV: str(os.getpid())},  # how tests find them
            )
        finally:
            os.close(ask_read)
            os.close(answer_write)
        self.requests: IO[bytes] = os.fdopen(ask_write, "wb")
        self.answers: IO[bytes] = os.fdopen(answer_read, "rb")
        return proc

    def _read(self) -> None:
        for line in self.answers:
            message = json.loads(line)
            with self.lock:
                event, box = self.waiting.pop(message["id"])
            box.append(message)
            event.set()
        with self.lock:
            self.alive = False
            for event, _ in self.waiting.values():
                event.set()
            self.waiting.clear()

    def _send(self, message: dict[str, Any]) -> bool:
        """Send a request (under a lock of its own: the reader must be free to take
        answers while a large request waits for room in the pipe); False when the warm
        parent is gone."""
        with self.sending:
            try:
                self.requests.write((json.dumps(message) + "\n").encode("utf-8"))
                self.requests.flush()
            except (OSError, ValueError):
                return False
        return True

    def run(self, job: Job) -> dict[str, Any] | None:
        """The answer for ``job``; ``None`` when the warm parent ended first."""
        event, box = threading.Event(), []
        with self.lock:
            if not self.alive:
                return None
            key = next(self.ids)
            self.waiting[key] = (event, box)
        request = {
            "op": "run",
            "id": key,
            "run": job.run_id,
            "argv": list(job.argv),
            "text": job.text,
            "hard_s": job.hard_limit_s,
        }
        if not self._send(request):
            with self.lock:
                self.waiting.pop(key, None)
            return None
        event.wait()
        return box[0] if box else None

    def close(self) -> None:
        """End the warm parent (it kills any child still running) and wait for it, so
        its time and its children's count in this process's own."""
        with self.lock:
            self.alive = False
        with self.sending:
            try:
                self.requests.close()
            except OSError:
                pass
        self.keeper.join()

    def cancel(self, run_id: str) -> None:
        self._send({"op": "cancel", "run": run_id})


def _warm_parent() -> WarmParent:
    global _parent
    with _lock:
        if _parent is None or not _parent.alive:
            _parent = WarmParent()
        return _parent


def run_job(job: Job) -> Done:
    """Run ``job`` as its own process (forked by the warm parent) and wait for it."""
    with _lock:
        if job.run_id in _cancelled:
            return Done(CANCELLED, "", "cancelled", 0.0, 0.0, _host())
    answer = _warm_parent().run(job)
    if answer is None:
        return Done(1, "", "the warm parent of the cases ended", 0.0, 0.0, _host())
    if answer["returncode"] == CANCELLED:
        return Done(CANCELLED, "", "cancelled", 0.0, 0.0, _host())
    return Done(
        answer["returncode"],
        answer["stdout"],
        answer["error"],
        answer["wall_s"],
        answer["peak_kb"] / 1024,
        _host(),
        answer["killed"],
    )


def close_warm_parent() -> None:
    """End this process's warm parent, if it has one (the next job starts another)."""
    global _parent
    with _lock:
        parent, _parent = _parent, None
    if parent is not None:
        parent.close()


def cancel(run_id: str) -> None:
    """Stop a bench run in this process: start none of its jobs any more, and have the
    warm parent kill the children it runs for it."""
    with _lock:
        _cancelled.add(run_id)
        parent = _parent
    if parent is not None:
        parent.cancel(run_id)


def _host() -> str:
    return socket.gethostname()
