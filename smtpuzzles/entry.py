"""The console script's entry point: Ctrl-C while the program is still starting up
(importing the command line and Z3) gets the same answer as later: one line, exit 130,
and with ``--json`` the one JSON object every run prints."""

from __future__ import annotations

import json
import sys
import time

_STARTED = time.monotonic()
_KINDS = ("floodit", "nurikabe", "koburin")


def main() -> None:
    try:
        from .cli import main as command_line
    except KeyboardInterrupt:
        interrupted(sys.argv[1:], time.monotonic() - _STARTED)
        sys.exit(130)
    command_line()


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
