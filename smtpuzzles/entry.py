"""The console script's entry point: Ctrl-C while the program is still starting up
(importing the command line; Z3 comes later, at its first use) gets the same answer as
later: one line, exit 130, and with ``--json`` the one JSON object every run prints.

Importing this module is the start of a run: its first statement takes Ctrl-C over from
Python, which would otherwise raise ``KeyboardInterrupt`` wherever the signal lands: in an
import (a traceback), or in the import machinery's own callbacks, where the exception is
printed as "Exception ignored" and lost, so the run would go on. Until the command line's
guard is in place a Ctrl-C is noted, raised where that is safe, and acted on by
:func:`main` in any case.
"""

from __future__ import annotations

import _signal  # built into the interpreter and loaded with it: nothing here to interrupt

_noted: list[int] = []
_raise_at_once = False


def _on_early_interrupt(signum: int, frame: object) -> None:
    """Note a Ctrl-C; once :func:`main` is in its guard, raise it, or, in the import
    machinery, try again 1 ms later (also called by that retry's SIGALRM)."""
    _noted.append(signum)
    if not _raise_at_once:
        return
    code = getattr(frame, "f_code", None)
    if getattr(code, "co_filename", "").startswith("<frozen importlib"):
        _signal.signal(_signal.SIGALRM, _on_early_interrupt)
        _signal.setitimer(_signal.ITIMER_REAL, 0.001)
        return
    raise KeyboardInterrupt


_signal.signal(_signal.SIGINT, _on_early_interrupt)

import sys  # noqa: E402 (after the Ctrl-C handler, on purpose)
import time  # noqa: E402

from .exits import end_interrupted, interrupted  # noqa: E402

_STARTED = time.monotonic()


def main() -> None:
    global _raise_at_once
    try:
        _raise_at_once = True
        if _noted:
            raise KeyboardInterrupt
        from .cli import main as command_line
        from .limits import guard_interrupts

        guard_interrupts()
        if _noted:  # one that landed in the import machinery
            raise KeyboardInterrupt
        command_line()
    except SystemExit:
        raise
    except BaseException as exc:
        # (Python 3.11 reports a Ctrl-C inside a class statement as a RuntimeError)
        if not (_noted or isinstance(exc, KeyboardInterrupt)):
            raise
        interrupted(sys.argv[1:], time.monotonic() - _STARTED)
        end_interrupted()
