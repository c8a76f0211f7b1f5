"""A warm parent for the fuzz's cases: one process imports the package (Z3, the puzzles,
the command line) once, then forks one child per case, which runs the command as a
fresh ``python -m smtpuzzles`` process would, in the case's folder, with its own
standard streams, session, exit status and clock. A case then costs a fork instead of
Python's start-up and the imports, which were most of a fuzz case's time.

What a fresh process does and a fork would skip is done here by hand: the entry
module's start-up state (:func:`smtpuzzles.bench.warm._command`), a random seed of its
own, a traceback and exit 1 for an exception that escapes (exit by SIGINT for a
``KeyboardInterrupt``, as Python ends), and at the end Python's own shutdown (waiting
for threads that are not daemons, then the ``atexit`` functions). What stays different
(the start-up itself, the hash seed shared by a parent's children) is why the fuzz also
runs a sample of its cases as fresh processes and compares.

The fuzz (``fuzz.py``) starts this file as a script with two pipe descriptors and its
own pid, and speaks JSON Lines: a request names the case (``argv`` after
``smtpuzzles``, or ``code`` to run as ``python -c``), its folder, the files for standard
output and error, when to send a Ctrl-C and when to kill it as hung; the answer gives
the exit code, the clock and processor time, and how long the run took after its
Ctrl-C. One case runs at a time; the parent is single-threaded, as a fork needs.
"""

from __future__ import annotations

import atexit
import io
import json
import os
import queue
import random
import select
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smtpuzzles.bench.child import die_with_parent, exit_code  # noqa: E402
from smtpuzzles.bench.warm import _command, preload  # noqa: E402


def _child(request: dict[str, Any], pipes: tuple[int, int]) -> int:
    """The forked case: its own session, folder and streams, then the command."""
    parent = os.getppid()
    os.setsid()
    die_with_parent(parent)
    for fd in pipes:
        os.close(fd)
    os.chdir(request["cwd"])
    stdin = os.open(os.devnull, os.O_RDONLY)
    out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for fd, target in ((stdin, 0), (out, 1), (err, 2)):
        os.dup2(fd, target)
        os.close(fd)
    sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(
        open(2, "wb", closefd=False), encoding="utf-8", errors="backslashreplace"
    )
    random.seed()
    try:
        if request.get("code") is not None:
            sys.argv = ["-c", *request["args"]]
            source = compile(request["code"], "<string>", "exec")
            code = exit_code(lambda: exec(source, {"__name__": "__main__"}))
        else:
            sys.argv = ["smtpuzzles", *request["argv"]]
            code = _command()
    except KeyboardInterrupt:  # Python prints it, then ends by the signal itself
        traceback.print_exc()
        code = -signal.SIGINT
    except BaseException:  # noqa: BLE001 (what Python does with any exception that escapes)
        traceback.print_exc()
        code = 1
    threading._shutdown()  # type: ignore[attr-defined]  (Python waits for them at exit)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code & 0xFF


def run(request: dict[str, Any], pipes: tuple[int, int]) -> dict[str, Any]:
    """Run one case in a forked child; send its Ctrl-C, kill it (and its group) when it
    hangs, and answer for it once it has ended."""
    began = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            code = _child(request, pipes)
        except BaseException:  # noqa: BLE001 (nothing may run on in a fork of the parent)
            code = 71
        os._exit(code)
    ended_fd = os.pidfd_open(pid)
    ctrl_c = None if request["ctrl_c_at"] is None else began + request["ctrl_c_at"]
    deadline = began + request["hard_s"]
    sent = None
    killed = False
    try:
        while True:
            events = [t for t in (ctrl_c if sent is None else None, deadline) if t is not None]
            wait = None if killed else max(0.0, min(events) - time.monotonic())
            if select.select([ended_fd], [], [], wait)[0]:
                break
            now = time.monotonic()
            if ctrl_c is not None and sent is None and now >= ctrl_c:
                os.kill(pid, signal.SIGINT)
                sent = now
            if not killed and now >= deadline:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:  # not yet in its own session
                    os.kill(pid, signal.SIGKILL)
                killed = True
    finally:
        os.close(ended_fd)
    _, status, usage = os.wait4(pid, 0)
    ended = time.monotonic()
    return {
        "returncode": os.waitstatus_to_exitcode(status),
        "wall_s": ended - began,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "killed": killed,
        "ctrl_c_to_end": None if sent is None else ended - sent,
    }


def serve(requests: int, answers: int, fuzz: int) -> None:
    """Load everything, then run the cases asked for, one at a time, until the fuzz
    closes the requests (or dies: this process dies with it)."""
    die_with_parent(fuzz)
    preload()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # what a fresh Python has
    pipes = (requests, answers)
    with open(requests, "rb") as lines:
        for line in lines:
            answer = json.dumps(run(json.loads(line), pipes)) + "\n"
            data = answer.encode("utf-8")
            while data:
                data = data[os.write(answers, data) :]


class Server:
    """One warm parent, seen from the fuzz: a case in, its answer out."""

    def __init__(self) -> None:
        requests_r, requests_w = os.pipe()
        answers_r, answers_w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, __file__, str(requests_r), str(answers_w), str(os.getpid())],
            pass_fds=(requests_r, answers_w),
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        os.close(requests_r)
        os.close(answers_w)
        self.requests = os.fdopen(requests_w, "wb")
        self.answers = os.fdopen(answers_r, "rb")
        self.used = 0

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        self.requests.write((json.dumps(request) + "\n").encode("utf-8"))
        self.requests.flush()
        line = self.answers.readline()
        if not line:
            raise RuntimeError(f"the warm parent ended (exit {self.proc.wait()})")
        self.used += 1
        return json.loads(line)

    def close(self) -> None:
        self.requests.close()
        self.proc.wait()
        self.answers.close()


class Pool:
    """Warm parents for cases run a few at once, each renewed after ``renew`` cases (a
    new hash seed, and no drift a long-lived parent might gather)."""

    def __init__(self, renew: int = 500) -> None:
        self.renew = renew
        self.idle: queue.SimpleQueue[Server] = queue.SimpleQueue()
        self.all: list[Server] = []
        self.lock = threading.Lock()

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            server = self.idle.get_nowait()
        except queue.Empty:
            server = self._new()
        if server.used >= self.renew:
            self._drop(server)
            server = self._new()
        try:
            answer = server.run(request)
        except BaseException:
            self._drop(server)
            raise
        self.idle.put(server)
        return answer

    def _new(self) -> Server:
        server = Server()
        with self.lock:
            self.all.append(server)
        return server

    def _drop(self, server: Server) -> None:
        with self.lock:
            self.all.remove(server)
        server.close()

    def close(self) -> None:
        for server in list(self.all):
            self._drop(server)


if __name__ == "__main__":
    serve(*map(int, sys.argv[1:4]))
