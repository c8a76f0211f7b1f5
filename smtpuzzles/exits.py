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
import time
from typing import NoReturn

from .puzzle import KINDS

#: What this process has printed on its own account: "json" (the one object of
#: ``--json``) and "error" (an error line).
_said: set[str] = set()


def note_said(what: str) -> None:
    """Record that the JSON object or an error line has been printed."""
    _said.add(what)


def forget_said() -> None:
    """Forget what a run in this process has said and who held the voice: a warm
    process that ran a sample command runs its case as a fresh process would (else a
    case's error would find its ``--json`` object already printed, and print none)."""
    global _contested
    _said.clear()
    _speaker.clear()
    _contested = False


#: Once a command has a second thread that may say how it ended (the watchdog of its time
#: limit, the watch of its Ctrl-C), the first thread to begin holds the voice and ends
#: the process; the others keep quiet.
_voice = threading.Lock()
_speaker: list[tuple[int, int]] = []  #: (thread holding the voice, its exit code)
_contested = False

#: How long a thread that lost the voice waits for the one that holds it to end the run.
SPEAK_WAIT_S = 2.0


def contest() -> None:
    """Another thread may speak from now on: take the voice before saying anything."""
    global _contested
    _contested = True


def take_voice(code: int, wait: float = 0.0) -> bool:
    """Become the thread that says how the run ended (and then exits with ``code``);
    waits up to ``wait`` seconds for the voice. False: another thread holds it."""
    if not _contested:
        return True
    me = threading.get_ident()
    if _speaker:
        return _speaker[0][0] == me
    if not (_voice.acquire(True, wait) if wait > 0 else _voice.acquire(False)):
        return False
    _speaker.append((me, code))
    return True


def wait_for_voice() -> None:
    """Take the voice, or leave the words to the thread holding it: it ends the process
    once it has spoken, and if it fails to within :data:`SPEAK_WAIT_S`, this ends it
    with that thread's exit code. Never ends the process while the other thread may be
    halfway through its words."""
    waited_until = time.monotonic() + SPEAK_WAIT_S
    if take_voice(0, SPEAK_WAIT_S):
        return
    time.sleep(max(waited_until - time.monotonic(), 0.0))
    os._exit(_speaker[0][1] if _speaker else 3)


def quiet() -> None:
    """From here on the run only says how it stopped: a further Ctrl-C, or the 1 ms resend
    of one that landed in the import machinery, must not break off the words; and no
    other thread says anything (:func:`wait_for_voice`)."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    wait_for_voice()


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
    _say_json(argv, elapsed, wanted, {"status": "unknown", "stopped": why})


def error_json(argv: list[str], elapsed: float, message: str, wanted: bool) -> None:
    """The one JSON object of a run refused (bad input or usage, exit 2), if ``wanted``
    and none was printed: status ``error`` and ``error`` the message of the error line
    (which stays on stderr)."""
    _say_json(argv, elapsed, wanted, {"status": "error", "stopped": None, "error": message})


def _say_json(argv: list[str], elapsed: float, wanted: bool, how: dict[str, object]) -> None:
    """Print the JSON object of a run that ends before it has an answer, with the keys
    every ``--json`` object has (the puzzle and mode as the command line names them)."""
    if not wanted or "json" in _said:
        return
    words = [w for w in argv if not w.startswith("-")]
    kind = words[0] if words and words[0] in KINDS else None
    mode = words[1] if len(words) > 1 and kind is not None else None
    obj = run_json(kind, None, mode, how["status"], how["stopped"], elapsed)  # type: ignore[arg-type]
    obj.update({k: v for k, v in how.items() if k not in ("status", "stopped")})
    sys.stdout.write(json.dumps(obj, separators=(", ", ": ")) + "\n")
    sys.stdout.flush()
    note_said("json")


def run_json(
    puzzle: str | None,
    name: str | None,
    mode: str | None,
    status: str,
    stopped: str | None,
    elapsed: float,
    **answer: object,
) -> dict[str, object]:
    """The keys every ``--json`` object has, in their order: of a result
    (:meth:`~smtpuzzles.result.Result.to_json`, with its ``solution`` and ``unique``),
    or of a run stopped or refused before it had one (both ``None``)."""
    return {
        "puzzle": puzzle,
        "name": name,
        "mode": mode,
        "status": status,
        "solution": answer.get("solution"),
        "unique": answer.get("unique"),
        "stopped": stopped,
        "elapsed_s": round(elapsed, 3),
    }


def end_interrupted() -> NoReturn:
    """Exit 130 at once: further Ctrl-Cs are ignored, and the process ends without the
    interpreter's shutdown, whose wait for a pending signal resend (see
    ``limits.guard_interrupts``) would end it by SIGINT instead of the exit code."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(130)
