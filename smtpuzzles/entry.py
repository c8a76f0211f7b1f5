"""The console script's entry point: Ctrl-C while the program is still starting up
(importing the command line and Z3) gets the same answer as later: one line, exit 130,
and with ``--json`` the one JSON object every run prints."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import NoReturn

_STARTED = time.monotonic()
_KINDS = ("floodit", "nurikabe", "koburin")


def main() -> None:
    try:
        from .cli import main as command_line
    except KeyboardInterrupt:
        interrupted(sys.argv[1:], time.monotonic() - _STARTED)
        end_interrupted()
    command_line()


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


def interrupted(argv: list[str], elapsed: float) -> None:
    """What a run stopped by Ctrl-C before it read its puzzle prints."""
    if "--json" in argv:
        words = [w for w in argv if not w.startswith("-")]
        obj = {
            "puzzle": words[0] if words and words[0] in _KINDS else None,
            "name": None,
            "mode": words[1] if len(words) > 1 else None,
            "status": "unknown",
            "solution": None,
            "unique": None,
            "stopped": "interrupted",
            "elapsed_s": round(elapsed, 3),
        }
        sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
        sys.stdout.flush()
    sys.stderr.write("smtpuzzles: error: interrupted\n")
