"""The limits of a run: the time budget and its deadline, the memory cap, Ctrl-C and
the other signals, and work contained in a child process.

Z3 answers Ctrl-C and its own ``timeout`` parameter with ``unknown`` (the engines turn
those answers into :class:`Interrupted` and :class:`MemoryLimitExceeded`); this module
holds the limits for the Python work around the solver, so a search can report what it
knows so far instead of crashing. What a stop is called, and where it is caught, is the
runner's (:func:`smtpuzzles.runner.stopping`).
"""

from __future__ import annotations

import importlib.util
import math
import os
import pickle
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from . import z3lazy as z3
from .errors import InputError

try:
    from . import _hardstop
except ImportError:  # built without a C compiler: the limits held in Python only
    _hardstop = None


class Interrupted(Exception):
    """Ctrl-C (SIGINT) stopped a search; the CLI exits 130 after printing what is known."""


class MemoryLimitExceeded(Exception):
    """The ``--memory`` cap was reached (by Z3 or by Python); reported as one line, not a
    crash. A front end catches it together with Python's own :class:`MemoryError`
    (see :data:`MEMORY_ERRORS`)."""


#: What reaching the memory cap raises: Z3's answer during a check, or Python's own
#: ``MemoryError`` when an allocation anywhere else is refused by the process limit.
MEMORY_ERRORS = (MemoryLimitExceeded, MemoryError)


class TimeUp(Exception):
    """The wall-clock budget ran out while Python was building or reading formulas."""


#: The ``--memory`` cap in MB (0: none). Z3 applies it only while a check runs: when
#: building terms hits Z3's global cap, Z3 ends the whole process (exit 101, or a crash).
#: The whole process is capped by :func:`limit_memory` through the operating system.
_memory_cap_mb = 0


#: The largest ``--memory`` accepted: Z3 reads its cap as an unsigned 32-bit count of MB.
MAX_MEMORY_MB = 2**32 - 1


#: The longest ``--timeout`` accepted (a week): Z3 takes its timeout as an unsigned 32-bit
#: count of milliseconds, and a limit must be a real number of seconds.
MAX_TIMEOUT_S = 7 * 24 * 3600.0


def parse_timeout(value: str | float | None, option: str = "--timeout") -> float | None:
    """A time limit in seconds, checked: a finite number above 0 and at most
    :data:`MAX_TIMEOUT_S` (``None`` stays ``None``: no limit). Raises :class:`InputError`
    with one line for anything else (``inf``, ``nan``, ``-1``, ``1e10``, words)."""
    if value is None:
        return None
    text = str(value).strip()
    try:
        seconds = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise InputError(f"{option} {text[:40]!r}: expected a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT_S:
        raise InputError(
            f"{option} {text[:40]}: expected a number of seconds above 0 and at most "
            f"{MAX_TIMEOUT_S:.0f}"
        )
    return seconds


def parse_memory(value: str | int | None, option: str = "--memory") -> int | None:
    """A memory cap in MB, checked: a whole number from 16 to :data:`MAX_MEMORY_MB`
    (``None``: no cap). Raises :class:`InputError` with one line otherwise, so a value
    too large for the operating system or Z3 never turns into no cap at all."""
    if value is None:
        return None
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise InputError(f"{option} {text[:40]!r}: expected a whole number of MB")
    megabytes = int(text)
    if not 16 <= megabytes <= MAX_MEMORY_MB:
        raise InputError(f"{option} {megabytes}: expected 16 to {MAX_MEMORY_MB} MB")
    return megabytes


def _data_bytes() -> int:
    """The process's data segment now (heap and private writable mappings), in bytes."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmData:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


#: The largest finite limit ``setrlimit`` takes (Python reads ``RLIM_INFINITY`` as -1).
_LARGEST_RLIMIT = 2**63 - 1


def limit_memory(megabytes: int | None) -> None:
    """Cap the whole process at ``megabytes`` MB beyond what it holds now (Python and Z3
    loaded): parsing, building, checking and Z3 alike. Call once at start, before the
    puzzle is read.

    The operating system enforces it (``RLIMIT_DATA``: heap and private mappings, which
    is where every puzzle, formula and Z3 term lives), so an allocation past it fails:
    Python raises :class:`MemoryError` and Z3 answers ``unknown`` or an out-of-memory
    error, both reported as :class:`MemoryLimitExceeded` by :func:`.check_sat`. Z3's own cap
    is set too, so a check stops with its statistics before the hard limit. ``None``
    leaves memory unlimited. A cap the operating system cannot grant is lowered to its
    hard limit, never dropped.
    """
    global _memory_cap_mb, _cap_bytes
    if megabytes is None:
        return
    megabytes = parse_memory(megabytes)
    assert megabytes is not None
    z3.main_ctx()  # Z3 crashes when it cannot allocate a context: make it while there is room
    _start_z3_timer()
    _reserve.append(bytearray(_RESERVE_BYTES))  # outside the cap: made before it is set
    _memory_cap_mb = min(megabytes, MAX_MEMORY_MB)
    wanted = min(_data_bytes() + megabytes * 1024 * 1024, _LARGEST_RLIMIT)
    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard not in (resource.RLIM_INFINITY, -1) and hard >= 0:
        wanted = min(wanted, hard)
    if running_as_command() and _hardstop is not None:  # its threads made while there is room
        _hardstop.watch_memory(wanted, STUCK_NEAR_CAP_BYTES, STUCK_NEAR_CAP_S, _HARD_STOP_MEMORY)
    try:
        resource.setrlimit(resource.RLIMIT_DATA, (wanted, hard))
    except (ValueError, OSError) as exc:
        raise InputError(f"--memory {megabytes}: the system refused the cap ({exc})") from None
    _cap_bytes = wanted


#: Room kept aside under ``--memory`` so that a run which reached the cap can still say
#: so (even a small JSON object cannot be made when every byte is taken).
_RESERVE_BYTES = 4 * 1024 * 1024
_reserve: list[bytearray] = []


def _start_z3_timer() -> None:
    """Have Z3 start the thread that times its checks, which it keeps and reuses: a
    thread's stack counts against the cap, and Z3 aborts the whole process when it
    cannot start one under it."""
    solver = z3.Solver()
    solver.set("timeout", 60_000)
    solver.check()


def release_reserve() -> None:
    """Give back the room kept aside: the cap was reached and the run must report it."""
    _reserve.clear()


def out_of_memory(exc: BaseException) -> bool:
    """Is ``exc`` the memory cap's doing? Besides :class:`MemoryError`: under a cap, a
    C extension that cannot even allocate its exception raises ``SystemError`` ("error
    return without exception set")."""
    if isinstance(exc, (MemoryError, MemoryLimitExceeded)):
        return True
    return isinstance(exc, SystemError) and _memory_cap_mb is not None


def ensure_room(nbytes: int) -> None:
    """Raise :class:`MemoryLimitExceeded` unless ``nbytes`` more fit under the process cap
    of :func:`limit_memory` (nothing to do without one).

    Z3's SMT-LIB parser ends the whole process (exit 101) when an allocation fails, so
    text is only handed to it when there is room for what it builds."""
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft < 0 or soft == resource.RLIM_INFINITY:
        return
    used = _data_bytes()
    # Z3's tables of terms double when they fill: half of what is held already, at once.
    if used + used // 2 + nbytes > soft:
        raise MemoryLimitExceeded(f"the formula would not fit in --memory {_memory_cap_mb} MB")


def room_left() -> int | None:
    """Bytes the process may still take under the cap of :func:`limit_memory` (None
    without one)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_DATA)
    if soft < 0 or soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - _data_bytes())


@contextmanager
def memory_capped() -> Iterator[None]:
    """Z3's own memory cap set to the process's for the block (a check, the CNF's
    tactics)."""
    if not _memory_cap_mb:
        yield
        return
    z3.set_param("memory_max_size", _memory_cap_mb)
    try:
        yield
    finally:
        z3.set_param("memory_max_size", 0)


#: When a process forked ahead of its command was given it (see :func:`started_now`).
_handed_over: float | None = None


def started_now() -> None:
    """Count this process as started now: a bench case's process forked ahead of its
    case, whose time before it had the case is not the command's."""
    global _handed_over
    _handed_over = time.monotonic()


#: Longer than the interpreter takes to reach the program's first line, even on a
#: loaded machine: a longer gap means the process ran something else before (a shell
#: that ``exec``s its last command), so its fork is not the run's start.
_EXEC_GAP_S = 2.0


def process_started(reached: float | None = None) -> float:
    """When this process started, as a ``time.monotonic()`` reading (for
    ``Budget(started=...)``: a ``--timeout`` then also covers Python's start-up and the
    imports). Linux only, to 10 ms; elsewhere, now. ``reached``: when the program's own
    code began to run; if that is more than :data:`_EXEC_GAP_S` after the fork, the
    process was a shell or another program before it (``bash -c "pip install ... &&
    smtpuzzles ..."`` runs its last command in its own process), and ``reached`` is the
    start."""
    if _handed_over is not None:
        return _handed_over
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of stat(5): start time in clock ticks since boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return time.monotonic() if reached is None else reached
    forked = time.monotonic() - max(0.0, age)
    if reached is not None and reached - forked > _EXEC_GAP_S:
        return reached
    return forked


#: When the command being run started (see :func:`start_clock`), or None.
_clock_started: float | None = None


def start_clock(at: float | None = None) -> None:
    """Mark the start of the command this process runs: the console entry point calls
    it once with :func:`process_started`, so a ``--timeout`` covers start-up, imports
    and reading the puzzle. In-process callers (tests, notebooks) never call it."""
    global _clock_started
    _clock_started = time.monotonic() if at is None else at


def running_as_command() -> bool:
    """Is this process one command run, started by the console entry point (which marks
    the clock), so that it may end itself at its limit? Tests and notebooks call in."""
    return _clock_started is not None


def clock_started() -> float:
    """The start marked by :func:`start_clock`, or now when none was marked (a budget
    then starts with the call that makes it)."""
    return time.monotonic() if _clock_started is None else _clock_started


def exit_now(code: int) -> None:
    """End the process at once with ``code``, after flushing standard output and error:
    skips freeing every Python object and Z3 term one by one, which takes seconds on
    large formulas and would run past the time limit."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # a closed stream, or no memory left: end all the same
            pass
    os._exit(code)


#: How long past its deadline, or past the watchdog's own grace, a command may run
#: before the last resort ends it (:func:`hard_stop_at`).
HARD_STOP_AFTER_S = 1.5

#: Under ``--memory``, a command this close to its cap whose main thread has held the
#: interpreter lock for :data:`STUCK_NEAR_CAP_S` is stuck there: the budget checks stop
#: a run :data:`HEADROOM_BYTES` short of the cap, a run that reached it reports at once,
#: and Z3 gives the lock up while it works near the cap.
STUCK_NEAR_CAP_BYTES = 2 * 1024 * 1024
STUCK_NEAR_CAP_S = 3.0

_HARD_STOP_TIME = "smtpuzzles: error: time limit reached (the run was ended)"
_HARD_STOP_MEMORY = "smtpuzzles: error: memory limit reached (the run was ended)"


def hard_stop_at(at: float) -> None:
    """The last resort of ``--timeout``: at ``at`` (a ``time.monotonic()`` reading) a
    thread of the C library, which needs no interpreter lock, prints one line and ends
    the process with exit 3, whatever the main thread holds. For commands only (never a
    notebook's kernel); without the compiled module, nothing."""
    if running_as_command() and _hardstop is not None:
        _hardstop.arm(at, _HARD_STOP_TIME)


def hard_stop_past(budget: Budget, grace: float = 0.0) -> None:
    """:func:`hard_stop_at` :data:`HARD_STOP_AFTER_S` past the end of ``budget`` and
    ``grace`` (the time a run's own stop may take); nothing without a time limit."""
    left = budget.remaining()
    if left is not None:
        hard_stop_at(time.monotonic() + left + grace + HARD_STOP_AFTER_S)


def hard_stop_off() -> None:
    """The run reports how it ended by itself from here: no last resort."""
    if _hardstop is not None:
        _hardstop.disarm()


class Budget:
    """A wall-clock limit shared by every probe of one search.

    ``started`` (a ``time.monotonic()`` reading) lets a front end count from the start
    of the process, so reading and preparing the puzzle spend the same limit.
    """

    def __init__(self, timeout_s: float | None = None, started: float | None = None) -> None:
        self.started = time.monotonic() if started is None else started
        self.timeout_s = timeout_s

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when there is no limit."""
        if self.timeout_s is None:
            return None
        return max(0.0, self.timeout_s - self.elapsed())

    def expired(self) -> bool:
        """Is the time up? Under ``--memory`` it also raises :class:`MemoryLimitExceeded`
        once the process is within :data:`HEADROOM_BYTES` of its cap (:func:`near_cap`)."""
        near_cap()
        left = self.remaining()
        return left is not None and left <= 0.0


#: How close to the ``--memory`` cap :func:`near_cap` stops a run. Python needs a little
#: memory to unwind an exception: when even a small integer cannot be had, CPython's
#: unwinding retries it without end and without giving up the interpreter lock, so
#: neither the deadline's signal nor the watchdog's thread runs again.
HEADROOM_BYTES = 4 * 1024 * 1024

#: Seconds between two readings of the process's size by :func:`near_cap`.
HEADROOM_EVERY_S = 0.02

_cap_bytes = 0
_headroom_read = [0.0]


def near_cap() -> None:
    """Raise :class:`MemoryLimitExceeded` when the process is within
    :data:`HEADROOM_BYTES` of the cap :func:`limit_memory` set (read at most every
    :data:`HEADROOM_EVERY_S`): a run that grows a little at a time, checking its budget
    as it goes, then stops while it can still say so."""
    if not _cap_bytes:
        return
    now = time.monotonic()
    if now - _headroom_read[0] < HEADROOM_EVERY_S:
        return
    _headroom_read[0] = now
    if _data_bytes() + HEADROOM_BYTES >= _cap_bytes:
        raise MemoryLimitExceeded(f"within {HEADROOM_BYTES >> 20} MB of --memory")


def _in_z3(frame: Any) -> bool:
    """Is ``frame`` inside Z3's Python code, a finaliser or the import machinery, where
    an exception is lost ("Exception ignored in ...") or leaves a module half made?"""
    if frame is None:
        return False
    code = frame.f_code
    return (
        code.co_filename.startswith(_Z3_DIR)
        or code.co_name == "__del__"
        or code.co_filename.startswith("<frozen importlib")
    )


def _z3_dir() -> str:
    """Where Z3's Python package lies, found without importing it."""
    spec = importlib.util.find_spec("z3")
    locations = spec.submodule_search_locations if spec is not None else None
    return os.path.join(list(locations)[0], "") if locations else "<no z3>"


_Z3_DIR = _z3_dir()


#: Functions of Z3's Python code where a Ctrl-C must wait: an exception in a ctypes
#: argument conversion or callback is lost, and one in a constructor leaves an object
#: whose finaliser releases a term it never took.
_Z3_FRAGILE = frozenset({"__init__", "from_param", "z3_error_handler"})


def _lost_here(frame: Any) -> bool:
    """Would a Ctrl-C raised at ``frame`` be lost or leave a Z3 object half made: in a
    finaliser, the import machinery, or a :data:`_Z3_FRAGILE` function of Z3's Python
    code called from where the frame is? Elsewhere in Z3's Python code (building a
    large term, say) it is raised at once: the run ends, and its terms are never used
    again."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or code.co_filename.startswith("<frozen importlib"):
            return True
        if not code.co_filename.startswith(_Z3_DIR):
            return False
        if code.co_name in _Z3_FRAGILE:
            return True
        frame = frame.f_back
    return False


#: How many Ctrl-Cs (SIGINT) this process has received through our handlers: lets
#: :func:`.check_sat` tell Z3's "canceled" after Ctrl-C from the same word at its own timeout.
_interrupts = 0


def _count_interrupt() -> None:
    global _interrupts
    _interrupts += 1


def interrupts_seen() -> int:
    """The number of Ctrl-Cs received so far (compare two readings)."""
    return _interrupts


#: How close to the deadline a canceled Z3 call must stop to count as Z3's own timeout
#: (Z3 takes whole milliseconds and ends a little early or late).
TIMEOUT_SLACK_S = 0.05


def timed_out(budget: Budget | None, interrupts_before: int) -> bool:
    """Was a Z3 call that reports itself canceled stopped by its timeout, not by Ctrl-C?

    Z3 says "canceled" both at the timeout it was given and after a Ctrl-C it kept from
    our handlers (Optimize says a bare "unknown"). A Ctrl-C that reaches our handlers
    moves their count; a timeout stops at the budget's end, give or take Z3's whole
    milliseconds."""
    if interrupts_seen() != interrupts_before or budget is None:
        return False
    left = budget.remaining()
    return left is not None and left <= TIMEOUT_SLACK_S


def guard_interrupts() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` only in our own code, for the whole process.

    Python raises it wherever the main thread is, and inside a Z3 object's ``__del__``
    it is printed as an "Exception ignored" traceback and then lost. Here a signal that
    lands where it would be lost (:func:`_lost_here`) is sent again 1 ms later instead.
    (During a check, Z3 itself turns Ctrl-C into ``unknown``, which :func:`.check_sat` reports
    as ``Interrupted``.)
    """
    if threading.current_thread() is not threading.main_thread():
        return

    def on_interrupt(signum: int, frame: Any) -> None:
        _count_interrupt()
        if (_resending.starting or _lost_here(frame)) and _send_again():
            return
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)


class _Resending:
    """A Ctrl-C being sent again: is its thread being started, and has another Ctrl-C
    landed meanwhile?"""

    starting = False
    again = False


_resending = _Resending()


def _send_again() -> bool:
    """Send SIGINT to this process again a moment from now, from a thread; False when no
    thread can be had (the memory cap). The Ctrl-C sent again may land while the thread
    is still being started (a loaded machine), inside the handler and so inside the
    finaliser the first one landed in: it is then only noted, and sent again once more,
    later each time."""
    if _resending.starting:
        _resending.again = True
        return True
    _resending.starting = True
    delay = 0.001
    try:
        while True:
            _resending.again = False
            threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT)).start()
            if not _resending.again:
                return True
            delay = min(2 * delay, 0.05)
    except RuntimeError:
        return False
    finally:
        _resending.starting = False


#: What a block stopped by time, Ctrl-C or the memory cap had built (the traceback, and
#: through its frames the half-built formulas): freeing many Z3 terms takes seconds,
#: which would run past the limit. Kept until the next outermost :func:`deadline` starts,
#: or until the process ends without freeing (:func:`exit_now`).
_held: list[Any] = []


def hold(thing: Any) -> None:
    """Keep ``thing`` (say, the traceback of a caught :class:`TimeUp`, whose frames hold
    half-built formulas) alive until the next run starts, instead of freeing it now."""
    _held.append(thing)


def outer_running() -> bool:
    """Is a :func:`deadline` timer armed already (so a new block is nested in it)?"""
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getitimer(signal.ITIMER_REAL)[0] > 0


#: The stops (TimeUp, KeyboardInterrupt) waiting in each :func:`deadline` block, innermost
#: last: a signal that lands in Z3's code is kept there until our code runs again.
_pending: list[list[type[BaseException]]] = []


def _forget(pending: list[type[BaseException]]) -> None:
    """Take a block's list of stops off :data:`_pending` (by identity: lists of the same
    stops compare equal)."""
    for i in range(len(_pending) - 1, -1, -1):
        if _pending[i] is pending:
            del _pending[i]
            return


def _enclosing_stop(pending: list[type[BaseException]]) -> type[BaseException] | None:
    """The stop an enclosing :func:`deadline` block is retrying (a Ctrl-C that landed in
    Z3's code there, sent again 1 ms later): a block entered meanwhile takes over that
    timer, and its alarm is then this stop, not the enclosing block's time running out."""
    for stops in reversed(_pending):
        if stops is not pending and stops:
            return stops[0]
    return None


def raise_pending() -> None:
    """Raise a stop that arrived while Z3's code ran. Code that calls Z3 in a loop of long
    C calls asks this between them: the 1 ms retry of :func:`deadline` would otherwise
    land in Z3's code again after each call."""
    if _pending and _pending[-1]:
        raise _pending[-1][0]()


@contextmanager
def deadline(budget: Budget) -> Iterator[None]:
    """Raise :class:`TimeUp` when ``budget`` runs out inside the block, and
    ``KeyboardInterrupt`` on Ctrl-C, both only where our own Python code runs.

    Z3 stops itself at its ``timeout`` and on Ctrl-C during a check; this covers the
    Python work around it (building a large encoding, adding cuts), which otherwise
    ignores the limit. An exception raised inside Z3's Python code can be lost (ctypes
    turns it into an ArgumentError, a ``__del__`` swallows it, and the search then runs
    on without a limit), so there the signal is kept and retried every 1 ms: for a time
    limit anywhere in Z3's code, for Ctrl-C only where :func:`_lost_here` says. Uses
    signals, so it only acts in the main thread. Blocks nest: an inner block keeps the
    enclosing block's timer running (re-armed on exit, less the time spent inside).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if not outer_running():
        _held.clear()  # what an earlier run left: freed now, at the start of this one
    pending: list[type[BaseException]] = []
    _pending.append(pending)
    inside = [False]  # until the block runs, a signal waits: raised here, nothing catches it
    # as the block ends, a signal waits too: raised in the ``finally`` below it would skip
    # putting the handlers back, and a later alarm would stop code long past this block
    closing = [False]

    def deliver(frame: Any) -> None:
        if closing[0]:
            return  # raised once the handlers are back (after the block)
        # A time limit waits for our own code: the caller may go on with Z3 after it.
        lost = _lost_here(frame) if pending[0] is KeyboardInterrupt else _in_z3(frame)
        if lost or not inside[0]:
            signal.setitimer(signal.ITIMER_REAL, 0.001)
            return
        raise pending[0]()

    def on_alarm(signum: int, frame: Any) -> None:
        if not pending:  # the time is up, unless the alarm is an enclosing block's retry
            pending.append(_enclosing_stop(pending) or TimeUp)
        deliver(frame)

    def on_interrupt(signum: int, frame: Any) -> None:
        _count_interrupt()
        pending.insert(0, KeyboardInterrupt)
        deliver(frame)

    previous_alarm = signal.signal(signal.SIGALRM, on_alarm)
    previous_interrupt = signal.signal(signal.SIGINT, on_interrupt)
    entered = time.monotonic()
    outer, _ = signal.getitimer(signal.ITIMER_REAL)  # an enclosing block's timer, if any
    left = budget.remaining()
    arm = [t for t in (outer, None if left is None else max(left, 0.001)) if t]
    signal.setitimer(signal.ITIMER_REAL, min(arm) if arm else 0)
    try:
        inside[0] = True
        yield
    except BaseException as exc:
        if isinstance(exc, MemoryError):  # room to unwind and report: malloc near the cap
            release_reserve()  # can spin for seconds on every failed call
        hold(exc.__traceback__)  # the half-built state is not freed now (see _held)
        raise
    finally:
        closing[0] = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous_interrupt)
        _forget(pending)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - entered), 0.001))
    if pending:  # a signal that arrived in Z3's code just before the block ended
        raise pending[0]()


T = TypeVar("T")


def contained(work: Callable[[], T], what: str) -> T:
    """``work()`` run in a forked child process, its result sent back through a pipe.

    For native code that ends the process when an allocation fails (CaDiCaL's
    ``std::bad_alloc``, Z3's exit 101, a crash): the child inherits the ``--memory``
    cap (the room this process has left), and when it dies without an answer this
    raises :class:`MemoryLimitExceeded` (under a cap; ``RuntimeError`` without one)
    while this process goes on to report what it knows. This process waits in Python,
    so the deadline's :class:`TimeUp` and Ctrl-C reach it at once; the child is then
    killed, as it is when this process ends first (Linux's parent-death signal). An
    exception ``work`` raises is raised here (as ``RuntimeError`` if it cannot be
    sent). An allocation refused in the child (``MemoryError``, Z3's "out of memory")
    is :class:`MemoryLimitExceeded` here."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(read_end)
        os.close(write_end)
        raise MemoryLimitExceeded(f"no process for {what}: {exc.strerror}") from None
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(work, write_end)
    os.close(write_end)
    data = bytearray()
    status: int | None = None
    try:
        while chunk := os.read(read_end, 1 << 20):
            data += chunk
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(read_end)
        if status is None:  # a time limit or Ctrl-C while it worked (or as it was reaped)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    try:
        kind, value = pickle.loads(bytes(data))
    except Exception:
        why = _how_it_ended(status)
        if _memory_cap_mb:
            raise MemoryLimitExceeded(f"{what} ran out of memory ({why})") from None
        raise RuntimeError(f"{what} ended without an answer ({why})") from None
    if kind == "memory":
        raise MemoryLimitExceeded(f"{what} ran out of memory")
    if kind == "error":
        raise value
    return value


def _how_it_ended(status: int) -> str:
    """A child's wait status in words."""
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"


def _child(work: Callable[[], Any], write_end: int) -> NoReturn:
    """The child of :func:`contained`: run ``work``, send what came of it, exit."""
    code = 0
    try:
        _die_with_parent()
        signal.set_wakeup_fd(-1)  # the parent's Ctrl-C watch is not the child's
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the child
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        try:
            found: tuple[str, Any] = ("ok", work())
        except BaseException as exc:
            found = ("memory", None) if _memory_failure(exc) else ("error", exc)
        try:
            data = pickle.dumps(found)
        except Exception as exc:
            data = pickle.dumps(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view) :]
    except BaseException:
        code = 1
    os._exit(code)


def _memory_failure(exc: BaseException) -> bool:
    """Is ``exc`` an allocation refused: Python's, the cap's, or Z3's "out of memory"?"""
    if isinstance(exc, (MemoryError, MemoryLimitExceeded)):
        return True
    return isinstance(exc, z3.Z3Exception) and "memory" in str(exc).lower()


#: ``prctl(PR_SET_PDEATHSIG, ...)``: Linux sends the signal when the parent ends.
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Have the kernel kill this child when its parent ends (the watchdog ends the run
    with ``os._exit``, which runs no clean-up), where the system allows it."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
