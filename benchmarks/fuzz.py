"""Fuzz the command line as a hostile user would, and count what must never happen.

Each case runs the command once on a mutated puzzle (every format of every puzzle, small
and large) with random options, sometimes with a time limit, a memory cap or a Ctrl-C at
a random moment. The case is a process forked from a warm parent that has imported the
package once (``fuzz_warm.py``: its own session, folder, streams, exit status and clock,
without the 0.2 s a fresh Python takes to start); one case in ``--fresh-every`` (20)
runs again as a fresh ``python -m smtpuzzles`` process, judged alike, and the two must
agree (``disagreements``: another exit code, error line or status where neither met a
limit). ``--fresh`` runs every case as a fresh process only. Counted per puzzle:

- ``tracebacks``: a Python traceback on stderr;
- ``hangs``: still running ``HANG_AFTER_S`` after its time limit (then killed);
- ``bad_json``: with ``--json``, a run that ended with an answer, a limit or Ctrl-C but
  did not print exactly one JSON object, or one without the keys every object has or
  whose ``stopped`` does not match the exit code;
- ``wrong_answers``: an answer the independent checker rejects (``check.problems``), an
  answer, optimum, ``unique``, count or "no solution" (exit 1) on a small puzzle the
  harness made that brute force contradicts (``fuzz_oracle.py``, on the puzzle as made,
  not as read), a Flood-It optimum other than A*'s on small boards, or exit 70 (the
  checker refused);
- ``timeout_overshoots``: a run with ``--timeout S`` still alive at S + 0.5 s;
- ``slow_ctrl_c``: a run alive 0.5 s after its Ctrl-C (sent from ``CTRL_C_FROM_S`` on);
- ``bad_exit``: an exit code outside the documented 0, 1, 2, 3, 70, 130;
- ``bad_outputs``: a ``--cnf`` file that is not a whole DIMACS CNF, an ``--smtlib``
  file that is not a whole script, or an output file left behind by a refused run.

Besides solving, a share of the cases run the newer surfaces: the formula outputs
(``--print-asserts``, ``--print-dimacs``, ``--cnf``, ``--smtlib``), ``--engine cadical``,
``generate`` with random sizes and options, ``bench`` over a folder of one or two
puzzles with random ``--csv`` / ``--jsonl`` / ``--resume`` files (an input among
them at times), and the Python API called with random arguments, each with a time
limit (each call returns, or raises ``InputError``, or ``formula`` ``TimeoutError`` at
its limit; never another exception, and an answer it returns passes the checker).
With ``--json``, a run refused with exit 2 must print one object too (status
``error``).

Also counted, and kept as examples: ``unchecked_answers``, answers the harness could not
read back to check (a blind spot of the harness, not a failure of the tool), and
``ctrl_c_before_start``, a fresh process's Ctrl-C that landed while Python itself was
starting, before the program's first statement (documented in ``docs/limits.md``).

Usage: ``python benchmarks/fuzz.py --cases 10000 --jobs 2`` (cases per puzzle); writes
``benchmarks/results/fuzz.json``. Timings are honest only with ``--jobs`` at most the
number of idle cores: an overloaded machine makes every limit look late. ``--puzzles
nurikabe,koburin --merge`` tests some puzzles and keeps the others' results in the file,
each puzzle with the record of the run (commit, date, machine) that tested it.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


import _harness  # noqa: E402
import fuzz_oracle  # noqa: E402
import fuzz_warm  # noqa: E402

from smtpuzzles.formats.puzzlink import (  # noqa: E402
    encode_4cell,
    encode_number16,
    format_url,
    looks_like_url,
)
from smtpuzzles.puzzles.floodit import check as floodit_check  # noqa: E402
from smtpuzzles.puzzles.floodit.formats import parse_board, parse_start  # noqa: E402
from smtpuzzles.puzzles.floodit.model import cluster_graph  # noqa: E402
from smtpuzzles.puzzles.floodit.presolve import optimum_by_search  # noqa: E402
from smtpuzzles.puzzles.koburin import check as koburin_check  # noqa: E402
from smtpuzzles.puzzles.koburin import formats as koburin_formats  # noqa: E402
from smtpuzzles.puzzles.nurikabe import check as nurikabe_check  # noqa: E402
from smtpuzzles.puzzles.nurikabe import formats as nurikabe_formats  # noqa: E402
from smtpuzzles.sources import decode_text  # noqa: E402

PUZZLES = ("floodit", "nurikabe", "koburin")
EXIT_CODES = {0, 1, 2, 3, 70, 130}
PROMPT_S = 0.5  #: how soon after its limit or Ctrl-C a run must have ended
HANG_AFTER_S = 20.0  #: a run still alive this long after its limit is a hang
NO_LIMIT_S = 60.0  #: runs without --timeout get this long before they count as hangs
KEEP_EXAMPLES = 30  #: failures kept per kind and puzzle in the results file
#: The earliest Ctrl-C: before then Python itself is starting (before the program's first
#: statement, which takes Ctrl-C over), and ends the process as it does for any program.
CTRL_C_FROM_S = 0.05


# -- inputs ---------------------------------------------------------------------------------


def _grid_text(rows: list[list[str]], header: bool) -> str:
    head = f"{len(rows)} {len(rows[0])}\n" if header else ""
    return head + "".join(" ".join(row) + "\n" for row in rows)


#: A generated puzzle as the harness made it, before any text: what the oracles check
#: answers against (``None`` for a shipped instance).
Truth = dict[str, Any] | None


def floodit_input(rng: random.Random) -> tuple[str, list[str], Truth]:
    """A board as text in one of the three formats, format options to read it, and the
    board itself (rows of colours from 0)."""
    if rng.random() < 0.15:
        name = rng.choice(sorted((ROOT / "instances" / "floodit").glob("*.txt")))
        return name.read_text(), [], None
    big = rng.random() < 0.05
    rows = rng.randint(30, 120) if big else rng.randint(1, 9)
    cols = rng.randint(30, 120) if big else rng.randint(1, 9)
    k = rng.randint(1, min(8, rows * cols))
    cells = [[rng.randrange(k) for _ in range(cols)] for _ in range(rows)]
    for c in range(k):
        cells[c // cols][c % cols] = c
    fmt = rng.choice(("grid", "mnk", "lines") if rows == cols else ("grid", "mnk"))
    truth = {"grid": cells}
    if fmt == "grid":
        return "".join("".join(str(c) for c in row) + "\n" for row in cells), [], truth
    if fmt == "mnk":
        body = " ".join(str(c + 1) for row in cells for c in row)
        return f"{rows} {cols} {k}\n{body}\n", [], truth
    text = "".join(str(c + 1) for row in cells for c in row) + "\n"
    return text, ["--format", "lines"], truth


def nurikabe_input(rng: random.Random) -> tuple[str, list[str], Truth]:
    """A puzzle as text in one of four formats, and the puzzle itself: its size, its
    clues by (row, column) (``None`` for ``?``), and whether 2x2 pools count (a table
    has no geometry, so none)."""
    if rng.random() < 0.15:
        name = rng.choice(sorted((ROOT / "instances" / "nurikabe").glob("*.txt")))
        return name.read_text(), [], None
    big = rng.random() < 0.03
    rows = rng.randint(20, 200) if big else rng.randint(1, 8)
    cols = rng.randint(20, 200) if big else rng.randint(1, 8)
    clues = {}
    for _ in range(rng.randint(1, max(1, rows * cols // 5))):
        clues[(rng.randrange(rows), rng.randrange(cols))] = rng.choice(
            [rng.randint(1, 6), rng.randint(1, 6), "?"]
        )
    fmt = rng.choice(("grid", "seed004", "puzzlink", "table"))

    def truth(given: dict[tuple[int, int], Any]) -> Truth:
        known = {rc: (None if v == "?" else v) for rc, v in given.items()}
        return {"rows": rows, "cols": cols, "clues": known, "pools": fmt != "table"}

    if fmt == "seed004":
        known = {k: v for k, v in clues.items() if v != "?"} or {(0, 0): 1}
        parts = [f"{cols},{rows}"] + [f"{s},{c},{r}" for (r, c), s in sorted(known.items())]
        return " ".join(parts) + "\n", [], truth(known)
    if fmt == "puzzlink":
        values = [clues.get((r, c)) for r in range(rows) for c in range(cols)]
        return format_url("nurikabe", cols, rows, encode_number16(values)), [], truth(clues)
    if fmt == "table":
        name = lambda r, c: f"r{r}c{c}"  # noqa: E731
        lines = []
        for r in range(rows):
            for c in range(cols):
                near = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
                ok = [name(a, b) for a, b in near if 0 <= a < rows and 0 <= b < cols]
                lines.append(f"{name(r, c)}: {' '.join(ok)}")
        lines += [f"clue {name(r, c)} {v}" for (r, c), v in sorted(clues.items())]
        return "\n".join(lines) + "\n", [], truth(clues)
    cells = [[str(clues.get((r, c), "-")) for c in range(cols)] for r in range(rows)]
    return _grid_text(cells, rng.random() < 0.5), [], truth(clues)


def koburin_input(rng: random.Random) -> tuple[str, list[str], Truth]:
    """A puzzle as text in one of three formats, and the puzzle itself: its size and its
    numbers by (row, column) (``None`` for ``?``)."""
    if rng.random() < 0.15:
        name = rng.choice(sorted((ROOT / "instances" / "koburin").glob("*.txt")))
        return name.read_text(), [], None
    big = rng.random() < 0.03
    rows = rng.randint(20, 150) if big else rng.randint(2, 8)
    cols = rng.randint(20, 150) if big else rng.randint(2, 8)
    numbers = {}
    for _ in range(rng.randint(0, max(1, rows * cols // 6))):
        numbers[(rng.randrange(rows), rng.randrange(cols))] = rng.choice([0, 0, 1, 1, 2, 3, "?"])
    fmt = rng.choice(("grid", "puzzlink", "table"))
    truth = {
        "rows": rows,
        "cols": cols,
        "clues": {rc: (None if v == "?" else v) for rc, v in numbers.items()},
    }
    if fmt == "puzzlink":
        values = [numbers.get((r, c)) for r in range(rows) for c in range(cols)]
        return format_url("koburin", cols, rows, encode_4cell(values)), [], truth
    if fmt == "table":
        name = lambda r, c: f"c{r}_{c}"  # noqa: E731
        lines = []
        for r in range(rows):
            for c in range(cols):
                near = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
                ok = [name(a, b) for a, b in near if 0 <= a < rows and 0 <= b < cols]
                lines.append(f"{name(r, c)}: {' '.join(ok)}")
        lines += [f"{name(r, c)} = {v}" for (r, c), v in sorted(numbers.items())]
        return "\n".join(lines) + "\n", [], truth
    cells = [[str(numbers.get((r, c), "-")) for c in range(cols)] for r in range(rows)]
    return _grid_text(cells, True), [], truth


INPUTS: dict[str, Callable[[random.Random], tuple[str, list[str], Truth]]] = {
    "floodit": floodit_input,
    "nurikabe": nurikabe_input,
    "koburin": koburin_input,
}

_JUNK = ["9" * 5000, "-1", "0", "?", "#", "\x00", "\x1b", "é", "\ufeff", "//", "=", ",", " ", "\n"]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: characters, numbers, lines, truncation, junk."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        at = rng.randrange(len(text) + 1)
        if kind == 0 and text:
            text = text[:at] + text[at + 1 :]
        elif kind == 1:
            ch = chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x3000)]))
            text = text[:at] + ch + text[at:]
        elif kind == 2:
            text = text[:at] + rng.choice(_JUNK) + text[at:]
        elif kind == 3:
            text = text[:at]
        elif kind == 4:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            lines.insert(i, lines[rng.randrange(len(lines))])
            text = "\n".join(lines)
        elif kind == 5:
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                number = rng.choice([0, 1, 7, 99, 4096, 12288, 10**9])
                text = text[:i] + str(number) + text[i + 1 :]
        elif kind == 6:
            text = text.replace("\n", "\r\n") if rng.random() < 0.5 else text.replace(" ", "\t")
        else:
            text = text + rng.choice(_JUNK)
    return text


# -- options --------------------------------------------------------------------------------


def options(puzzle: str, rng: random.Random) -> tuple[list[str], float | None]:
    """A command line after the puzzle word (mode and options, without the input) and
    its ``--timeout``, if any."""
    argv: list[str] = []
    if puzzle == "floodit":
        mode = rng.choice(["solve", "min", "min", "opt", "exact", "search"])
        argv.append(mode)
        if mode == "exact":
            argv.append(str(rng.randint(0, 12)))
        elif mode == "search":
            lo = rng.randint(0, 10)
            argv += [str(lo), str(lo + rng.randint(0, 8))]
        if rng.random() < 0.1:
            argv += ["--encoding", "reference"]
        if rng.random() < 0.1:
            argv += ["--start", f"{rng.randint(0, 3)},{rng.randint(0, 3)}"]
        if rng.random() < 0.12:
            argv += ["--engine", rng.choice(["sat", "smt", "cadical", "cadical"])]
    else:
        argv.append("solve")
        if rng.random() < 0.2:
            argv.append(rng.choice(["--unique", "--count=3"]))
        if rng.random() < 0.15:
            argv += ["--connectivity", rng.choice(["distance", "lazy"])]
    if rng.random() < 0.08:
        argv.append("--dry-run")
    if rng.random() < 0.08:
        argv.append("--print-asserts")
    if rng.random() < 0.06:
        argv.append("--print-dimacs")
    if rng.random() < 0.06:
        argv += ["--cnf", OUT_CNF]
    if rng.random() < 0.06:
        argv += ["--smtlib", OUT_DIR]
    if rng.random() < 0.1:
        argv.append("-q")
    if rng.random() < 0.3 and (OUT_CNF in argv or OUT_DIR in argv):
        argv.append("--force")
    if rng.random() < 0.75:
        argv.append("--json")
    timeout = None
    if rng.random() < 0.7:
        timeout = round(rng.choice([0.05, 0.2, 0.5, 1.0, 2.0, rng.uniform(0.05, 4.0)]), 3)
        argv += ["--timeout", str(timeout)]
    elif rng.random() < 0.1:
        argv += ["--timeout", rng.choice(["inf", "nan", "-1", "1e10", "0", "x", "9" * 400])]
    if rng.random() < 0.08:
        argv += ["--memory", str(rng.choice([16, 40, 100, 400, 99999999999]))]
    return argv, timeout


#: Output names a case may give (in its own folder): the CNF file and the scripts' folder.
OUT_CNF = "out.cnf"
OUT_DIR = "scripts"

#: Sizes ``generate`` is asked for: small ones mostly, some refused, a few large.
_GENERATE_SIZES = [1, 2, 3, 4, 5, 6, 8, 10, 0, -1, 61, 100000, "x", "9" * 30]


def generate_options(puzzle: str, rng: random.Random) -> tuple[list[str], float | None]:
    """``generate`` with random sizes and options, and its ``--timeout`` where it has one."""
    small = [rng.choice(_GENERATE_SIZES[:8]) for _ in range(2)]
    sizes = [str(rng.choice(_GENERATE_SIZES)) if rng.random() < 0.1 else str(n) for n in small]
    argv = ["generate", *sizes]
    if puzzle == "floodit":
        argv.append(str(rng.choice([1, 2, 3, 4, 6, 10, 36, 37, 0])))
    if rng.random() < 0.5:
        argv += ["--seed", str(rng.choice([0, 1, 7, -3, 2**40]))]
    if puzzle == "nurikabe" and rng.random() < 0.3:
        argv += ["--shape", rng.choice(["square", "holes", "torus", "hex", "star"])]
    if puzzle == "nurikabe" and rng.random() < 0.2:
        argv += ["--max-island", str(rng.choice([0, 1, 3, 6, 50]))]
    if puzzle == "nurikabe" and rng.random() < 0.3:
        argv.append("--answer")
    if puzzle == "koburin" and rng.random() < 0.3:
        argv += ["--to", rng.choice(["grid", "puzzlink", "svg"])]
    if puzzle == "koburin" and rng.random() < 0.2:
        argv += ["--solution", rng.choice(["k.sol", "k.txt"])]
    if rng.random() < 0.2:
        argv += ["-o", rng.choice(["k.txt", "g.txt"])]
    if rng.random() < 0.1:
        argv.append("--force")
    timeout = None
    if "--timeout" in _options_of(puzzle, "generate") and rng.random() < 0.7:
        timeout = round(rng.choice([0.05, 0.3, 1.0, 3.0, rng.uniform(0.05, 4.0)]), 3)
        argv += ["--timeout", str(timeout)]
    if "--memory" in _options_of(puzzle, "generate") and rng.random() < 0.1:
        argv += ["--memory", str(rng.choice([16, 60, 400]))]
    return argv, timeout


_HELP: dict[tuple[str, str], str] = {}


def _options_of(puzzle: str, command: str) -> str:
    """The help text of a command (which options it has on this version)."""
    key = (puzzle, command)
    if key not in _HELP:
        _HELP[key] = subprocess.run(
            [sys.executable, "-m", "smtpuzzles", puzzle, command, "--help"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "300"},
        ).stdout
    return _HELP[key]


#: What ``bench`` may be given as its row files, an earlier run to resume, or both.
_BENCH_FILES = ["rows.jsonl", "rows.csv", "in/p1.txt", "in", "resume.jsonl", "/dev/null"]

#: Contents of a ``--resume`` file: rows of an earlier run, broken rows, junk.
_RESUME_LINES = [
    '{"case": "p1.txt", "answer": 3, "status": "optimal", "wall_s": 0.1}',
    '{"case": "p1.txt", "wall_s": "fast", "answer": null}',
    '{"case": 3}',
    "[]",
    "{",
    "\x00\x01",
    "",
]


def bench_options(puzzle: str, rng: random.Random) -> tuple[list[str], str]:
    """``bench`` on the case's folder ``in`` (one or two puzzles), with random row files,
    and the text of ``resume.jsonl``."""
    argv = ["bench", puzzle, "in", "--timeout", str(rng.choice([0.1, 0.5, 1.0, 2.0]))]
    for option in ("--jsonl", "--csv", "--resume"):
        if rng.random() < 0.4:
            argv += [option, rng.choice(_BENCH_FILES)]
    if rng.random() < 0.5:
        argv.append("--json")
    if rng.random() < 0.2:
        argv += ["--jobs", str(rng.choice([1, 2, 0]))]
    if rng.random() < 0.1:
        argv += ["--memory", str(rng.choice([16, 100]))]
    if puzzle == "floodit" and rng.random() < 0.2:
        argv += ["--engine", rng.choice(["sat", "cadical"])]
    resume = "\n".join(rng.choice(_RESUME_LINES) for _ in range(rng.randint(0, 4)))
    return argv, resume


#: Values an API call's arguments are drawn from: right ones, and wrong types and ranges.
_API_VALUES: list[Any] = [
    0,
    1,
    2,
    3,
    5,
    12,
    -1,
    2.5,
    True,
    False,
    None,
    "x",
    "3",
    [1, 2],
    {},
    10**6,
    10**30,
    float("nan"),
]


def api_call(puzzle: str, rng: random.Random) -> dict[str, Any]:
    """A random call of the Python API on the case's puzzle (run by :data:`API_DRIVER`)."""
    function = rng.choice(["solve", "solve", "formula", "check", "load"])
    kwargs: dict[str, Any] = {}
    args: list[Any] = []
    if function == "solve":
        modes = ["solve", "min", "exact", "search", "opt"] if puzzle == "floodit" else ["solve"]
        args.append(rng.choice([*modes, "x"]))
        names = [
            "n",
            "lo",
            "hi",
            "count",
            "unique",
            "bound_nodes",
            "counting",
            "engine",
            "connectivity",
            "presolve",
        ]
        if args[0] == "exact":
            kwargs["n"] = rng.choice(_API_VALUES[:6])
        if args[0] == "search":
            kwargs["lo"], kwargs["hi"] = rng.choice(_API_VALUES[:4]), rng.choice(_API_VALUES[:7])
        for name in rng.sample(names, rng.randint(0, 2)):
            kwargs[name] = rng.choice(
                _API_VALUES + ["sat", "smt", "cadical", "lazy", "distance", "none", "full"]
            )
        kwargs["timeout"] = rng.choice([0.05, 0.3, 1.0, 2.0, "x", -1, None])
        if kwargs["timeout"] is None or rng.random() < 0.5 and kwargs["timeout"] == "x":
            kwargs["timeout"] = 2.0  # every call ends: a hang is a call past its limit
    elif function == "formula":
        if rng.random() < 0.6:
            kwargs["horizon"] = rng.choice(_API_VALUES)
        kwargs["timeout"] = rng.choice([0.05, 0.3, 1.0, 2.0, "x", -1, None])
        if kwargs["timeout"] is None or rng.random() < 0.5 and kwargs["timeout"] == "x":
            kwargs["timeout"] = 2.0  # every call ends: a hang is a call past its limit
        if rng.random() < 0.3:
            kwargs[rng.choice(["exact", "counting", "connectivity", "presolve", "colour"])] = (
                rng.choice(_API_VALUES + ["lazy", "none"])
            )
    elif function == "check":
        args.append(
            rng.choice(
                [
                    [0, 1, 2],
                    [],
                    "junk",
                    5,
                    None,
                    [1.5],
                    [True],
                    {"black": [[0, 0]], "loop": []},
                    {"black": "x"},
                    ["#.", ".#"],
                    [[1, 2], [3]],
                    ([0], [(0, 1)]),
                    [-1],
                    [10**9],
                ]
            )
        )
    else:
        kwargs["format"] = rng.choice(["auto", "grid", "x", 3])
        if rng.random() < 0.3:
            kwargs["index"] = rng.choice(_API_VALUES)
    return {"function": function, "args": args, "kwargs": kwargs, "puzzle": puzzle}


#: Runs one API call (JSON on its command line, the puzzle in ``in.txt``): prints one
#: JSON line, ``{"ok": ...}`` or ``{"input_error": ...}``; any other exception is a
#: traceback on stderr. An answer returned is checked by the independent checker.
API_DRIVER = """
import json, math, sys, time
import smtpuzzles
from smtpuzzles.errors import InputError
call = json.loads(sys.argv[1])
kwargs = {k: (math.nan if v == "nan" else v) for k, v in call["kwargs"].items()}
args = [tuple(a) if isinstance(a, list) and len(a) == 2 and call["function"] == "check"
        and call["puzzle"] == "koburin" and a and isinstance(a[0], list) else a
        for a in call["args"]]
began = time.monotonic()
try:
    if call["function"] == "load":
        smtpuzzles.load("in.txt", call["puzzle"], **kwargs)
        print(json.dumps({"ok": "loaded"}))
        sys.exit(0)
    puzzle = smtpuzzles.load("in.txt", call["puzzle"])
    out = getattr(smtpuzzles, call["function"])(puzzle, *args, **kwargs)
except InputError as exc:
    print(json.dumps({"input_error": str(exc)}))
    sys.exit(0)
except TimeoutError:  # formula's limit
    if call["function"] != "formula" or "timeout" not in kwargs:
        raise
    print(json.dumps({"ok": "formula", "stopped": "timeout",
                      "seconds": time.monotonic() - began}))
    sys.exit(0)
seconds = time.monotonic() - began
found = {"ok": call["function"], "seconds": seconds}
if call["function"] == "solve":
    found["status"] = str(out.status)
    found["stopped"] = out.stopped
    if out.answer is not None and str(out.status) in ("solved", "optimal"):
        found["problems"] = smtpuzzles.check(puzzle, out)
print(json.dumps(found))
"""


# -- one case -------------------------------------------------------------------------------


@dataclass
class Case:
    puzzle: str
    index: int
    argv: list[str]
    text: str
    timeout: float | None
    ctrl_c_at: float | None
    kind: str = "solve"  #: solve, generate, bench or api
    resume: str = ""  #: the text of ``resume.jsonl`` (bench)
    call: dict[str, Any] | None = None  #: the API call (api)
    truth: Truth = None  #: the puzzle as generated, when the text is not mutated


@dataclass
class Outcome:
    case: Case
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    killed: bool
    ctrl_c_to_end: float | None
    problems: list[str] = field(default_factory=list)
    cpu_s: float = 0.0  #: the processor time of the run and its children
    api_overshoot: float | None = None  #: an API solve's time past its timeout
    output_problems: list[str] = field(default_factory=list)  #: see output_problems
    warm: bool = False  #: forked from a warm parent (else a fresh process)
    oracle_checked: bool = False  #: its answer (or exit 1) was compared with brute force


#: Runs without ``--timeout`` are made only on puzzles of at most this many cells (else
#: they get a limit): a hang is a run past its limit, and a large or empty puzzle without
#: one may rightly take minutes (an empty 74x6 Koburin does).
NO_LIMIT_CELLS = 200

_URL_SIZE = re.compile(r"\?[^/]*/(?:[^/]*/)*?(\d+)/(\d+)")


_SEED004_SIZE = re.compile(r"\s*(\d+)\s*,\s*(\d+)\s")


def _cells(text: str) -> int:
    """About how many cells the input holds: a URL's width times height (whatever comes
    before its ``?``, as the command reads it), a seed004 line's rows times columns,
    else its characters (at least the cells in every other format)."""
    if looks_like_url(text):
        m = _URL_SIZE.search(text)
        return int(m[1]) * int(m[2]) if m and len(m[1]) + len(m[2]) < 12 else len(text)
    m = _SEED004_SIZE.match(text)  # "ROWS,COLS clue,row,col ...": the size in a few characters
    if m and len(m[1]) + len(m[2]) < 12:
        return max(int(m[1]) * int(m[2]), len(text))
    return len(text)


#: The share of cases that run each of the newer surfaces instead of solving.
SHARES = {"generate": 0.05, "bench": 0.02, "api": 0.07}


def make_case(puzzle: str, index: int, seed: int) -> Case:
    rng = random.Random(f"{seed}:{puzzle}:{index}")
    text, fmt_argv, truth = INPUTS[puzzle](rng)
    if rng.random() < 0.6:
        text, truth = mutate(text, rng), None
    pick = rng.random()
    for kind, share in SHARES.items():
        if pick < share:
            return _other_case(kind, puzzle, index, text, fmt_argv, rng)
        pick -= share
    argv, timeout = options(puzzle, rng)
    if timeout is None and (_cells(text) > NO_LIMIT_CELLS or "reference" in argv):
        timeout = 4.0  # a large puzzle, or the slow baseline, may take long without one
        argv += ["--timeout", "4"]
    ctrl_c = None
    if rng.random() < 0.1:  # soon, mostly: most runs take well under a second
        ctrl_c = round(rng.uniform(CTRL_C_FROM_S, rng.choice([0.3, 2.5])), 3)
    case = Case(puzzle, index, [puzzle, *argv, *fmt_argv], text, timeout, ctrl_c)
    case.truth = truth
    return case


def _other_case(
    kind: str, puzzle: str, index: int, text: str, fmt_argv: list[str], rng: random.Random
) -> Case:
    """A case of ``generate``, ``bench`` or the API (see :data:`SHARES`)."""
    if kind == "generate":
        argv, timeout = generate_options(puzzle, rng)
        return Case(puzzle, index, [puzzle, *argv], "", timeout, None, kind)
    if kind == "bench":
        argv, resume = bench_options(puzzle, rng)
        if _cells(text) > NO_LIMIT_CELLS:  # bench's --timeout is per puzzle; keep them small
            text, _, _ = INPUTS[puzzle](random.Random(rng.random()))
        return Case(puzzle, index, argv, text, None, None, kind, resume)
    return Case(puzzle, index, [], text, None, None, kind, call=api_call(puzzle, rng))


def _is_url(case: Case) -> bool:
    """Whether the case is given as a URL argument (a command line cannot hold a NUL: such
    a URL goes in a file)."""
    text = case.text
    return text.startswith("http") and "\n" not in text.strip() and "\x00" not in text


def run_case(case: Case, workdir: Path, pool: fuzz_warm.Pool | None, tag: str = "") -> Outcome:
    """Run one case in a folder of its own: forked from a warm parent of ``pool``, or
    (without one) as a fresh process; kill it when it hangs."""
    folder = workdir / f"{case.puzzle}-{case.index}{tag}"
    folder.mkdir()
    data = case.text.encode("utf-8", "surrogatepass")
    argv = list(case.argv)
    code: str | None = None  # the program of an API case
    limit = (case.timeout + HANG_AFTER_S) if case.timeout is not None else NO_LIMIT_S
    if case.kind == "solve":
        is_url = _is_url(case)
        if not is_url:
            (folder / "in.txt").write_bytes(data)
        argv.append(case.text.strip() if is_url else "in.txt")
    elif case.kind == "bench":
        (folder / "in").mkdir()
        (folder / "in" / "p1.txt").write_bytes(data)
        (folder / "resume.jsonl").write_text(case.resume)
        limit = 4 * NO_LIMIT_S
    elif case.kind == "api":
        (folder / "in.txt").write_bytes(data)
        code, argv = API_DRIVER, [json.dumps(case.call)]
    run = _run_fresh if pool is None else functools.partial(_run_warm, pool)
    outcome = run(case, argv, code, folder, limit)
    if case.kind == "solve":
        outcome.output_problems = output_problems(case, outcome.code, folder)
    shutil.rmtree(folder, ignore_errors=True)
    return outcome


def _run_warm(
    pool: fuzz_warm.Pool, case: Case, argv: list[str], code: str | None, folder: Path, limit: float
) -> Outcome:
    """The case forked from a warm parent (see ``fuzz_warm.py``)."""
    out, err = folder.with_suffix(".stdout"), folder.with_suffix(".stderr")
    request = {
        "argv": argv,
        "code": code,
        "args": argv,
        "cwd": str(folder),
        "stdout": str(out),
        "stderr": str(err),
        "ctrl_c_at": case.ctrl_c_at,
        "hard_s": limit,
    }
    answer = pool.run(request)
    texts = [path.read_bytes().decode("utf-8", "replace") for path in (out, err)]
    for path in (out, err):
        path.unlink()
    killed = answer["killed"]
    return Outcome(
        case,
        None if killed else answer["returncode"],
        *texts,
        answer["wall_s"],
        killed,
        answer["ctrl_c_to_end"],
        cpu_s=answer["cpu_s"],
        warm=True,
    )


def _run_fresh(
    case: Case, argv: list[str], code: str | None, folder: Path, limit: float
) -> Outcome:
    """The case as a fresh process: ``python -m smtpuzzles ARGV`` (or ``python -c``)."""
    program = ["-c", code] if code is not None else ["-m", "smtpuzzles"]
    command = [sys.executable, *program, *argv]
    began = time.monotonic()
    proc = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    sent: list[float] = []
    reaped = threading.Lock()  # held once the run is waited for: no signal after that
    if case.ctrl_c_at is not None:

        def interrupt() -> None:
            # Not proc.poll(): it would reap the run, whose rusage wait4 must read.
            with reaped:
                if proc.returncode is None:
                    sent.append(time.monotonic())
                    os.kill(proc.pid, signal.SIGINT)

        timer = threading.Timer(case.ctrl_c_at, interrupt)
        timer.start()
    texts: dict[str, bytes] = {}

    def pump(name: str, stream: Any) -> None:
        texts[name] = stream.read()

    pumps = [
        threading.Thread(target=pump, args=(name, stream))
        for name, stream in (("out", proc.stdout), ("err", proc.stderr))
    ]
    for t in pumps:
        t.start()
    killed = False
    while True:  # wait4, not communicate: the processor time the run had (its own and
        with reaped:  # its children's) is wanted
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() - began > limit:
                proc.kill()
                _, status, usage = os.wait4(proc.pid, 0)
                proc.returncode = os.waitstatus_to_exitcode(status)
                killed = True
                break
        time.sleep(0.005)
    ended = time.monotonic()
    for t in pumps:
        t.join()
    if case.ctrl_c_at is not None:
        timer.cancel()
    return Outcome(
        case,
        None if killed else proc.returncode,
        texts.get("out", b"").decode("utf-8", "replace"),
        texts.get("err", b"").decode("utf-8", "replace"),
        ended - began,
        killed,
        (ended - sent[0]) if sent else None,
        cpu_s=usage.ru_utime + usage.ru_stime,
    )


def output_problems(case: Case, code: int | None, folder: Path) -> list[str]:
    """What is wrong with the files ``--cnf`` and ``--smtlib`` left: a CNF whose clauses
    do not match its header, a script without its end, a file a refused run wrote."""
    found: list[str] = []
    cnf = folder / OUT_CNF
    scripts = sorted((folder / OUT_DIR).glob("*")) if (folder / OUT_DIR).is_dir() else []
    if code == 2 and (cnf.exists() or scripts):
        return ["a refused run (exit 2) wrote an output file"]
    if OUT_CNF in case.argv and cnf.is_file() and code == 0:
        lines = cnf.read_text(errors="replace").splitlines()
        header = [line for line in lines if line.startswith("p cnf")]
        body = [line for line in lines if line and not line.startswith(("c", "p"))]
        if len(header) != 1 or int(header[0].split()[3]) != len(body):
            found.append(f"--cnf: {len(header)} headers, {len(body)} clauses")
        elif any(not line.endswith(" 0") and line != "0" for line in body):
            found.append("--cnf: a clause without its closing 0")
    for path in scripts if code == 0 else []:
        text = path.read_text(errors="replace")
        if "(check-sat)" not in text:
            found.append(f"--smtlib: {path.name} has no (check-sat)")
    return found


# -- judging --------------------------------------------------------------------------------


def judge(o: Outcome) -> list[str]:
    """The kinds of failure one outcome shows (empty: all well)."""
    found: list[str] = []
    case = o.case
    if o.killed:
        return ["hangs"]
    if o.ctrl_c_to_end is not None and _before_first_statement(o.stderr):
        return ["ctrl_c_before_start"]
    if "Traceback (most recent call last)" in o.stderr:
        found.append("tracebacks")
    if case.kind == "api":
        return found + _judge_api(o)
    if o.output_problems:
        found.append("bad_outputs")
    if o.code not in EXIT_CODES:
        found.append("bad_exit")
    if o.code == 70:
        found.append("wrong_answers")
        o.problems.append("the checker refused an answer (exit 70)")
    if case.timeout is not None and o.seconds > case.timeout + allowed(o) and o.code != 2:
        found.append("timeout_overshoots")
    if o.ctrl_c_to_end is not None and o.ctrl_c_to_end > allowed(o):
        found.append("slow_ctrl_c")
    obj = None
    if "--json" in case.argv and o.code in (0, 1, 2, 3, 130) and case.kind != "generate":
        obj = _one_json_object(o.stdout)
        if obj is None or (o.code == 2 and obj.get("status") != "error"):
            found.append("bad_json")
        elif case.kind == "solve" and (broken := contract_problems(o.code, obj)):
            o.problems += broken
            found.append("bad_json")
    if case.kind == "bench":
        return found
    if case.truth is not None and case.kind == "solve" and "tracebacks" not in found:
        wrong = fuzz_oracle.problems(case.puzzle, case.truth, case.argv, o.code, obj)
        o.oracle_checked = wrong is not None
        if wrong:
            o.problems += wrong
            found.append("wrong_answers")
            return found
    if obj is not None and o.code in (0, 3, 130) and "--dry-run" not in case.argv:
        try:
            o.problems += check_answer(case, obj)
        except Exception as exc:  # an input the harness itself cannot read back
            o.problems.append(f"harness could not check: {type(exc).__name__}: {exc}")
            return found
        if o.problems:
            found.append("wrong_answers")
    return found


#: The keys every ``--json`` object of a run has (a ``--dry-run`` has its own shape).
CONTRACT_KEYS = frozenset(
    ("puzzle", "name", "mode", "status", "solution", "unique", "stopped", "elapsed_s")
)
#: What ``stopped`` says for each exit code.
STOPPED = {0: (None,), 1: (None,), 2: (None,), 3: ("timeout", "memory"), 130: ("interrupted",)}


def contract_problems(code: int, obj: dict[str, Any]) -> list[str]:
    """What the JSON object of a run lacks: the keys every object has, and a ``stopped``
    that agrees with the exit code."""
    if obj.get("status") == "dry-run":
        return []
    found = []
    if missing := sorted(CONTRACT_KEYS - obj.keys()):
        found.append(f"JSON without {', '.join(missing)}")
    if obj.get("stopped") not in STOPPED.get(code, ()):
        found.append(f"exit {code} with stopped {obj.get('stopped')!r}")
    return found


#: The most the allowance of :func:`allowed` stretches on a loaded machine.
STRETCH_CAP = 6.0


def stretch(o: Outcome) -> float:
    """How much longer than its processor time a run took on the clock (at least 1):
    above 1 when other processes had the processors, as on a shared machine."""
    return max(1.0, o.seconds / max(o.cpu_s, 1e-3))


def allowed(o: Outcome) -> float:
    """How long past its limit or Ctrl-C a run may end: :data:`PROMPT_S` on an idle
    machine, stretched as the run's clock time was against its processor time (at most
    :data:`STRETCH_CAP` times: a run that waits past its limit without working is not
    excused beyond that). Runs past :data:`PROMPT_S` itself are counted apart, as
    ``raw_overshoots``, whatever the load."""
    return PROMPT_S * min(stretch(o), STRETCH_CAP)


_FRAME = re.compile(r'^  File "([^"]*)", line', re.M)


def _before_first_statement(stderr: str) -> bool:
    """Whether a Ctrl-C's traceback has no frame in the package: Python was still
    starting (its ``site``, the imports of ``-m``), before the entry point's first
    statement takes Ctrl-C over (``docs/limits.md`` says so). Only a fresh process has
    that moment."""
    if not stderr.rstrip().endswith("KeyboardInterrupt"):
        return False
    package = str(ROOT / "smtpuzzles")
    return not any(f.startswith(package) for f in _FRAME.findall(stderr))


def _judge_api(o: Outcome) -> list[str]:
    """An API call returns or raises InputError (or formula TimeoutError at its limit:
    one JSON line from the driver); an answer it returns passes the checker."""
    found = [] if o.code == 0 else ["bad_exit"]
    obj = _one_json_object(o.stdout)
    if obj is None:
        return found if found else ["bad_json"]
    if obj.get("problems"):
        o.problems += obj["problems"]
        found.append("wrong_answers")
    if isinstance(obj.get("seconds"), float) and isinstance(o.case.call, dict):
        limit = o.case.call["kwargs"].get("timeout")
        if isinstance(limit, float) and limit > 0:
            o.api_overshoot = obj["seconds"] - limit
    return found


def _one_json_object(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if not text or "\n" in text:
        return None
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _input_text(case: Case) -> str:
    """The input as the command read it (BOM, line ends and size rules alike)."""
    return decode_text(case.text.encode("utf-8", "surrogatepass"), "<text>")


def _option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


def check_answer(case: Case, obj: dict[str, Any]) -> list[str]:
    """What is wrong with the answer in ``obj``, by the independent checkers."""
    status = obj.get("status")
    if status not in ("solved", "optimal"):
        return []
    source = "<text>"
    if case.puzzle == "floodit":
        fmt = _option(case.argv, "--format") or "auto"
        board = parse_board(_input_text(case), source, fmt)
        start = parse_start(_option(case.argv, "--start"), board)
        moves = obj.get("moves", obj.get("solution"))
        if not isinstance(moves, list):
            return [f"status {status} without moves"]
        if "reference" in case.argv:  # the baseline's answers may hold moves doing nothing
            try:
                floodit_check.replay_lenient(board.grid, moves, start)
            except Exception as exc:
                return [str(exc)]
            return []
        found = floodit_check.problems(board.grid, moves, start)
        if found or status != "optimal" or board.rows * board.cols > 64:
            return found
        best = optimum_by_search(cluster_graph(board.grid, start), limit_nodes=20_000)
        if best is not None and best != len(moves):
            return [f"called optimal with {len(moves)} moves; A* finds {best}"]
        return []
    url = _is_url(case)
    text, source, fmt = (
        (case.text.strip(), "<url>", "puzzlink") if url else (_input_text(case), source, "auto")
    )
    if case.puzzle == "nurikabe":
        p = nurikabe_formats.parse(text, source, fmt)
        black = _nurikabe_picture(p, obj.get("solution"))
        return nurikabe_check.problems(p.graph, p.clues, p.pools, black)
    p = koburin_formats.parse(text, source, fmt)
    answer = obj.get("solution") if isinstance(obj.get("solution"), dict) else obj
    black = {_cell(p, c) for c in answer.get("black", [])}
    loop = [_cell(p, c) for c in answer.get("loop", [])]
    links = [(loop[i], loop[(i + 1) % len(loop)]) for i in range(len(loop))] if loop else []
    return koburin_check.problems(p, black, links, loop)


def _nurikabe_picture(p: Any, shown: Any) -> list[bool]:
    if isinstance(shown, dict):
        return [shown.get(name) == "#" for name in p.graph.names]
    rows = [list(row) for row in shown]
    return [rows[r][c] == "#" for r, c in p.graph.coords]


def _cell(p: Any, cell: Any) -> int:
    if isinstance(cell, list):
        return p.graph.at(cell[0], cell[1])
    return p.graph.index[cell]


# -- the run --------------------------------------------------------------------------------


def startup_s(workdir: Path) -> float:
    """The median wall time of a trivial solve: Python's start, the imports and the exit,
    which every ``--timeout`` covers too (read the overshoots against it)."""
    board = workdir / "tiny.txt"
    board.write_text("01\n10\n")
    times = []
    for _ in range(5):
        began = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "smtpuzzles", "floodit", "min", str(board), "--json"],
            capture_output=True,
            cwd=workdir,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        times.append(time.monotonic() - began)
    return sorted(times)[2]


#: What must never happen, counted per puzzle.
KINDS = (
    "tracebacks",
    "hangs",
    "bad_json",
    "wrong_answers",
    "timeout_overshoots",
    "slow_ctrl_c",
    "bad_exit",
    "bad_outputs",
)


def _merged(out: Path, totals: dict[str, Any], examples: list[dict[str, Any]]) -> dict[str, Any]:
    """This run's puzzles over the results already in ``out`` (each puzzle keeps the
    record of the run that tested it)."""
    try:
        old = json.loads(out.read_text())
    except (OSError, ValueError):
        old = {}
    kept = {p: t for p, t in old.get("totals", {}).items() if p not in totals and "run" in t}
    old_examples = [e for e in old.get("examples", []) if e.get("puzzle") in kept]
    return {"totals": {**kept, **totals}, "examples": old_examples + examples}


def run_pair(
    case: Case, workdir: Path, warm: fuzz_warm.Pool | None, fresh_every: int
) -> tuple[Outcome, Outcome | None]:
    """The case forked from a warm parent and, one in ``fresh_every``, again as a fresh
    process (without warm parents: only as a fresh process)."""
    if warm is None:
        return run_case(case, workdir, None), None
    outcome = run_case(case, workdir, warm)
    sampled = fresh_every > 0 and case.index % fresh_every == 0
    return outcome, run_case(case, workdir, None, "-fresh") if sampled else None


def disagreement(warm: Outcome, fresh: Outcome) -> str | None:
    """How a case forked from a warm parent ended otherwise than as a fresh process, where
    both must end alike: neither stopped by a limit, a Ctrl-C or the harness, the same
    exit code, the same error line, the same status."""
    if warm.killed or fresh.killed or warm.case.ctrl_c_at is not None:
        return None
    if {warm.code, fresh.code} & {3, 130} or "--memory" in warm.case.argv:
        return None
    if warm.code != fresh.code:
        return f"exit {warm.code} forked, {fresh.code} fresh"
    if warm.code == 2 and _last_line(warm.stderr) != _last_line(fresh.stderr):
        return f"error {_last_line(warm.stderr)!r} forked, {_last_line(fresh.stderr)!r} fresh"
    a, b = _one_json_object(warm.stdout), _one_json_object(fresh.stdout)
    if a is not None and b is not None and a.get("status") != b.get("status"):
        return f"status {a.get('status')} forked, {b.get('status')} fresh"
    return None


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else ""


def _run_all(
    pool: ThreadPoolExecutor,
    jobs: int,
    cases: list[Case],
    workdir: Path,
    stop_at: float | None,
    warm: fuzz_warm.Pool | None,
    fresh_every: int,
) -> Iterator[tuple[Outcome, Outcome | None]]:
    """The outcomes of ``cases`` in order, a few running at once; none starts after
    ``stop_at`` (a ``time.monotonic()`` reading)."""
    waiting: deque[Future[tuple[Outcome, Outcome | None]]] = deque()
    ahead = 2 * jobs
    for case in cases:
        if stop_at is not None and time.monotonic() > stop_at:
            break
        waiting.append(pool.submit(run_pair, case, workdir, warm, fresh_every))
        if len(waiting) >= ahead:
            yield waiting.popleft().result()
    while waiting:
        yield waiting.popleft().result()


@dataclass
class Tally:
    """What the runs of one puzzle showed."""

    counts: Counter[str] = field(default_factory=Counter)
    options: Counter[str] = field(default_factory=Counter)
    overshoot_s: float = 0.0
    ctrl_c_s: float = 0.0
    api_s: float = 0.0

    def add(self, o: Outcome) -> list[str]:
        """Count one run; the kinds of failure it showed."""
        t = self.counts
        t["clock_ms"] += round(o.seconds * 1000)
        t["cpu_ms"] += round(o.cpu_s * 1000)
        if o.case.timeout is not None and o.code != 2:
            t["raw_overshoots"] += o.seconds > o.case.timeout + PROMPT_S and not o.killed
        if o.ctrl_c_to_end is not None:
            t["raw_slow_ctrl_c"] += o.ctrl_c_to_end > PROMPT_S
            t["ctrl_c_runs"] += 1
            self.ctrl_c_s = max(self.ctrl_c_s, o.ctrl_c_to_end)
        if o.case.timeout is not None:
            t["timeout_runs"] += 1
            if o.code != 2:
                self.overshoot_s = max(self.overshoot_s, o.seconds - o.case.timeout)
        failures = judge(o)  # sets an API call's time past its limit
        if o.api_overshoot is not None:
            t["api_timeout_runs"] += 1
            self.api_s = max(self.api_s, o.api_overshoot)
        if o.problems and "wrong_answers" not in failures:
            t["unchecked_answers"] += 1
            failures = [*failures, "unchecked_answers"]
        elif o.code in (0, 3) and "--json" in o.case.argv and not failures:
            t["checked_runs"] += 1
        t["oracle_runs"] += o.oracle_checked
        for kind in failures:
            t[kind] += kind != "unchecked_answers"
        return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per puzzle")
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--puzzles", default=",".join(PUZZLES))
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "fuzz.json")
    parser.add_argument(
        "--merge",
        action="store_true",
        help="keep the other puzzles' results already in --out (puzzles run at different times)",
    )
    parser.add_argument(
        "--stop-at",
        type=float,
        default=None,
        help="seconds after which no new case starts (the results then count the cases run)",
    )
    parser.add_argument(
        "--fresh-every",
        type=int,
        default=20,
        help="run every Nth case also as a fresh process, and compare (0: never)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="run every case as a fresh process only (no warm parents; about 0.2 s a case more)",
    )
    args = parser.parse_args(argv)
    stop_at = None if args.stop_at is None else time.monotonic() + args.stop_at
    # A harness started in the background of a script has Ctrl-C ignored, and its runs
    # would inherit that until their entry point takes the signal over: a Ctrl-C sent
    # in that window would be lost, as a user's is not.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    puzzles = [p for p in args.puzzles.split(",") if p]
    cases = [make_case(p, i, args.seed) for i in range(args.cases) for p in puzzles]
    tallies = {p: Tally() for p in puzzles}
    fresh = {p: Tally() for p in puzzles}
    examples: list[dict[str, Any]] = []
    kept: Counter[tuple[str, str]] = Counter()
    load = os.getloadavg()
    began = time.monotonic()
    warm = None if args.fresh else fuzz_warm.Pool()

    def keep(o: Outcome, kind: str, why: str | None = None) -> None:
        if kept[(o.case.puzzle, kind)] >= KEEP_EXAMPLES:
            return
        kept[(o.case.puzzle, kind)] += 1
        examples.append(
            {
                "kind": kind,
                "surface": o.case.kind,
                "run": "forked" if o.warm else "fresh",
                "puzzle": o.case.puzzle,
                "case": o.case.index,
                "argv": o.case.argv,
                "input": o.case.text[:2000],
                "exit": o.code,
                "seconds": round(o.seconds, 3),
                "ctrl_c_at": o.case.ctrl_c_at,
                "problems": ([why] if why else []) + (o.problems + o.output_problems)[:5],
                "call": o.case.call,
                "stdout": o.stdout[-1000:],
                "stderr": o.stderr[-2000:],
            }
        )

    try:
        with (
            tempfile.TemporaryDirectory(prefix="smtpuzzles-fuzz-") as tmp,
            ThreadPoolExecutor(args.jobs) as pool,
        ):
            startup = startup_s(Path(tmp))
            runs = _run_all(pool, args.jobs, cases, Path(tmp), stop_at, warm, args.fresh_every)
            for done, (o, again) in enumerate(runs, 1):
                t = tallies[o.case.puzzle]
                t.counts["cases"] += 1
                t.counts[f"exit_{o.code}"] += 1
                t.counts[f"kind_{o.case.kind}"] += 1
                for word in ("--print-asserts", "--print-dimacs", "--cnf", "--smtlib", "cadical"):
                    t.options[word.lstrip("-")] += word in o.case.argv
                for kind in t.add(o):
                    keep(o, kind)
                if again is not None:
                    f = fresh[o.case.puzzle]
                    f.counts["cases"] += 1
                    f.counts["forked_clock_ms"] += round(o.seconds * 1000)
                    f.counts["forked_cpu_ms"] += round(o.cpu_s * 1000)
                    for kind in f.add(again):
                        keep(again, kind)
                    if why := disagreement(o, again):
                        f.counts["disagreements"] += 1
                        keep(again, "disagreements", why)
                if done % 200 == 0:
                    clock = time.monotonic() - began
                    print(f"{done}/{len(cases)} cases, {clock:.0f} s", flush=True)
    finally:
        if warm is not None:
            warm.close()
    run = {
        **_harness.environment(),
        "jobs": args.jobs,
        "seed": args.seed,
        "cases_per_puzzle": min(tallies[p].counts["cases"] for p in puzzles),
        "cases_asked": args.cases,
        "forked": warm is not None,
        "fresh_every": 1 if warm is None else args.fresh_every,
        "stretch_cap": STRETCH_CAP,
        "wall_s": round(time.monotonic() - began, 1),
        "load_before": [round(x, 2) for x in load],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "prompt_s": PROMPT_S,
        "startup_s": round(startup, 3),
    }

    def summary(tally: Tally) -> dict[str, Any]:
        t = tally.counts
        return {
            **{k: t[k] for k in ("cases", *KINDS)},
            "timeout_runs": t["timeout_runs"],
            "raw_overshoots": t["raw_overshoots"],
            "raw_slow_ctrl_c": t["raw_slow_ctrl_c"],
            "max_overshoot_s": round(tally.overshoot_s, 3),
            "ctrl_c_runs": t["ctrl_c_runs"],
            "max_ctrl_c_to_end_s": round(tally.ctrl_c_s, 3),
            "checked_runs": t["checked_runs"],
            "oracle_runs": t["oracle_runs"],
            "unchecked_answers": t["unchecked_answers"],
            "ctrl_c_before_start": t["ctrl_c_before_start"],
            "api_timeout_runs": t["api_timeout_runs"],
            "api_max_overshoot_s": round(tally.api_s, 3),
            "clock_s": round(t["clock_ms"] / 1000, 1),
            "cpu_s": round(t["cpu_ms"] / 1000, 1),
        }

    totals_now = {}
    for p in puzzles:
        t = tallies[p].counts
        totals_now[p] = {
            **summary(tallies[p]),
            "exit_codes": {k[5:]: v for k, v in sorted(t.items()) if k.startswith("exit_")},
            "surfaces": {k[5:]: v for k, v in sorted(t.items()) if k.startswith("kind_")},
            "options": dict(sorted(tallies[p].options.items())),
            "fresh_sample": {
                **summary(fresh[p]),
                "disagreements": fresh[p].counts["disagreements"],
                "forked_clock_s": round(fresh[p].counts["forked_clock_ms"] / 1000, 1),
                "forked_cpu_s": round(fresh[p].counts["forked_cpu_ms"] / 1000, 1),
            },
            "run": run,
        }
        for kind in KINDS:  # a fault of the fresh sample is a fault of the puzzle
            totals_now[p][kind] += fresh[p].counts[kind]
        totals_now[p]["disagreements"] = fresh[p].counts["disagreements"]
    found = (
        _merged(args.out, totals_now, examples)
        if args.merge
        else {"totals": totals_now, "examples": examples}
    )
    report = {
        "benchmark": "fuzz",
        "command": " ".join(["benchmarks/fuzz.py", *sys.argv[1:]]),
        **run,  # the latest run; each puzzle's own is under its totals
        **found,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    bad = sum(report["totals"][p][k] for p in puzzles for k in (*KINDS, "disagreements"))
    for p in puzzles:
        line = ", ".join(
            f"{k} {report['totals'][p][k]}" for k in ("cases", *KINDS, "disagreements")
        )
        print(f"{p}: {line}")
    print(f"written {args.out}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
