"""One case, one process: the unit of work a bench runs here or sends to a Dask worker.

A :class:`Job` holds everything a case needs (its command line and the puzzle's text,
which goes to the child's standard input), so the machine that runs it needs the
package but no access to the bench's files. The child (:mod:`.child`) runs in a session
(and process group) of its own: Ctrl-C at the bench's terminal does not reach it, and
the bench stops it by killing its group. Its peak memory is exact (``wait4`` in the
child, see :mod:`.child`); a child still running past the hard limit is killed.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from .child import PARENT_ENV, PEAK_MARK

#: Exit code of a job that was cancelled before its process started.
CANCELLED = -1000


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
#: Live children of this process by job: (run id, process group id).
_live: dict[int, tuple[str, int]] = {}
#: Bench runs whose jobs must not start any more.
_cancelled: set[str] = set()


def run_job(job: Job) -> Done:
    """Run ``job`` as its own process and wait for it (or for its hard limit)."""
    cmd = [sys.executable, "-m", "smtpuzzles.bench.child", *job.argv]
    env = {**os.environ, PARENT_ENV: str(os.getpid())}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        with _lock:
            if job.run_id in _cancelled:
                return Done(CANCELLED, "", "cancelled", 0.0, 0.0, _host())
            began = time.monotonic()
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
                env=env,
                start_new_session=True,
            )
            _live[proc.pid] = (job.run_id, proc.pid)
        killed = threading.Event()

        def kill() -> None:
            with _lock:
                if proc.pid in _live:
                    killed.set()
                    _kill_group(proc.pid)

        timer = threading.Timer(job.hard_limit_s, kill)
        timer.daemon = True
        timer.start()
        try:
            _feed(proc, job.text)
            # Wait without reaping, so the group is never killed after its id is free.
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
            with _lock:
                del _live[proc.pid]
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - began
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    peak_kb = usage.ru_maxrss  # Linux reports kB; the launcher's is the solver's, exactly
    if lines and lines[-1].startswith(PEAK_MARK):
        peak_kb = int(lines.pop()[len(PEAK_MARK) :])
    error = lines[-1] if lines else ""
    return Done(code, stdout, error, wall, peak_kb / 1024, _host(), killed.is_set())


def _feed(proc: subprocess.Popen[bytes], text: str) -> None:
    """Write the puzzle to the child; a child that died first just gets no more."""
    assert proc.stdin is not None
    try:
        proc.stdin.write(text.encode("utf-8"))
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def cancel(run_id: str) -> int:
    """Stop a bench run in this process: start none of its jobs any more and kill the
    children it has running. Returns how many were killed."""
    with _lock:
        _cancelled.add(run_id)
        groups = [pgid for rid, pgid in _live.values() if rid == run_id]
        for pgid in groups:
            _kill_group(pgid)
    return len(groups)


def _host() -> str:
    return socket.gethostname()
