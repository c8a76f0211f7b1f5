"""The words of a run that Ctrl-C ended where the command's own handling could not speak:
while Python imported the command line, or while typer read the options (typer turns
a Ctrl-C there into a silent exit 130). Light on purpose: the entry point imports it
before anything else, and importing it has no effects."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from typing import NoReturn

_KINDS = ("floodit", "nurikabe", "koburin")

#: What this process has printed on its own account: "json" (the one object of
#: ``--json``) and "error" (an error line).
_said: set[str] = set()


def note_said(what: str) -> None:
    """Record that the JSON object or an error line has been printed."""
    _said.add(what)


def quiet() -> None:
    """From here on the run only says how it stopped: a further Ctrl-C, or the 1 ms resend
    of one that landed in the import machinery, must not break off the words."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)


def interrupted(argv: list[str], elapsed: float) -> None:
    """Say what a run stopped by Ctrl-C has not said yet: with ``--json`` an object with
    ``status: unknown``, ``stopped: interrupted``, and the error line."""
    quiet()
    stopped_json(argv, elapsed, "interrupted", "--json" in argv)
    if "error" not in _said:
        sys.stderr.write("smtpuzzles: error: interrupted\n")
        note_said("error")


def stopped_json(argv: list[str], elapsed: float, why: str, wanted: bool) -> None:
    """The one JSON object of a run stopped (``why``: ``interrupted``, ``timeout`` or
    ``memory``) before it could print its own, if ``wanted`` and none was printed."""
    if not wanted or "json" in _said:
        return
    words = [w for w in argv if not w.startswith("-")]
    obj = {
        "puzzle": words[0] if words and words[0] in _KINDS else None,
        "name": None,
        "mode": words[1] if len(words) > 1 and words[0] in _KINDS else None,
        "status": "unknown",
        "solution": None,
        "unique": None,
        "stopped": why,
        "elapsed_s": round(elapsed, 3),
    }
    sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
    sys.stdout.flush()
    note_said("json")


def end_interrupted() -> NoReturn:
    """Exit 130 at once: further Ctrl-Cs are ignored, and the process ends without the
    interpreter's shutdown, whose wait for a pending signal resend (see
    ``solving.guard_interrupts``) would end it by SIGINT instead of the exit code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)
