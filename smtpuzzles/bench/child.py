"""The process one bench case runs in: ``python -m smtpuzzles.bench.child <kind> ...``
takes the arguments of ``python -m smtpuzzles`` and runs the same command, in a process
forked from this small one.

Why the fork: Linux counts in a process's peak memory the memory of the process it was
forked from (the bench, or a Dask worker, both far larger than a solver's start), even
across ``exec``. The solver forked here starts from this process's few megabytes, and
this process reports its exact peak as the last line of standard error
(:data:`PEAK_MARK`), then exits as the solver did.

Both processes ask Linux to kill them when their parent dies, so a bench or a Dask
worker killed outright (SIGKILL, a lost machine) leaves no solver running on.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable

#: The environment variable with the bench's (or worker's) pid.
PARENT_ENV = "SMTPUZZLES_BENCH_PARENT"
#: Starts the last line of standard error: the solver's peak memory in kB.
PEAK_MARK = "smtpuzzles-bench-peak-kb:"
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None) -> None:
    """Ask for SIGKILL when the parent dies (Linux only); a parent that is gone already
    (not ``parent`` any more) ends this process at once."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(128 + signal.SIGKILL)


def _solve(launcher: int) -> int:
    """Run the command (in the forked process); its exit code."""
    die_with_parent(launcher)

    def command_line() -> None:
        from ..entry import main

        main()

    return exit_code(command_line)


def exit_code(command: Callable[[], object]) -> int:
    """Run ``command`` (the console entry point) and return the exit code a process
    running it would end with: 0, or its ``SystemExit`` code, a text code printed to
    standard error and taken as 1, as Python does. Standard streams are flushed."""
    try:
        command()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr, flush=True)
    return 1


def main() -> None:
    expected = os.environ.get(PARENT_ENV)
    die_with_parent(int(expected) if expected and expected.isdigit() else None)
    launcher = os.getpid()
    pid = os.fork()
    if pid == 0:
        os._exit(_solve(launcher))
    _, status, usage = os.wait4(pid, 0)
    print(f"{PEAK_MARK} {usage.ru_maxrss}", file=sys.stderr, flush=True)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # end the way the solver ended: by the same signal
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


if __name__ == "__main__":
    main()
