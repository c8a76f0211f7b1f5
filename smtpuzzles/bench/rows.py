"""The one row of a bench, whatever the puzzle, and where rows go.

A row is a flat JSON object with the keys of :data:`ROW_KEYS`, in that order, always all
of them. It is written to the JSON Lines file (``--jsonl``) and the CSV file (``--csv``)
the moment its case finishes, each line flushed, so a run that is killed keeps every
finished row; ``--resume`` reads such a file back and skips the cases it holds.
"""

from __future__ import annotations

import csv
import json
import os
import stat
import statistics
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import InputError
from .cases import ANSWERED, Case, bench_of
from .run import Done, Lost

#: The keys of every row. ``case`` is what ``--resume`` knows a case by; ``answer`` and
#: ``known`` are short texts of the answer found and the one known (Flood-It: the
#: length, or the proven range; Nurikabe: the number of walls; Koburin: the number of
#: black cells); ``verdict`` compares the two in full; ``solution`` is the solver's own.
ROW_KEYS = (
    "puzzle",
    "case",
    "name",
    "size",
    "cells",
    "mode",
    "options",
    "timeout_s",
    "status",
    "stopped",
    "answer",
    "known",
    "verdict",
    "unique",
    "exit",
    "wall_s",
    "inner_s",
    "peak_mb",
    "worker",
    "error",
    "solution",
)

#: The statuses a solver reports; a row's status is one of these or ``error``.
STATUSES = ("optimal", "solved", "unsat", "unknown")


@dataclass(frozen=True)
class Settings:
    """What every row of one run shares: the puzzle, the mode, the solver's options as
    passed through, and the time limit per case."""

    puzzle: str
    mode: str
    options: tuple[str, ...]
    timeout_s: float

    @property
    def options_text(self) -> str:
        return " ".join(self.options)


def read_result(stdout: str) -> dict[str, Any] | None:
    """The solver's ``--json`` object, or ``None`` when it printed none."""
    try:
        found = json.loads(stdout) if stdout.strip() else None
    except json.JSONDecodeError:
        return None
    if not isinstance(found, dict) or found.get("status") not in STATUSES:
        return None
    return found


def make_row(case: Case, settings: Settings, done: Done | Lost | None) -> dict[str, Any]:
    """The row of a finished case (``done``), or the error row of one that could not run
    (``None``: its file could not be read; :class:`Lost`: its worker was lost)."""
    row: dict[str, Any] = dict.fromkeys(ROW_KEYS)
    row.update(
        puzzle=case.puzzle,
        case=case.key,
        name=case.name,
        size=case.size,
        cells=case.cells,
        mode=settings.mode,
        options=settings.options_text,
        timeout_s=settings.timeout_s,
        known=known_text(case.puzzle, case.known),
        answer="",
        error="",
    )
    if not isinstance(done, Done):
        row.update(status="error", error=done.error if done else case.error or "not run")
        return row
    row.update(
        exit=done.returncode,
        wall_s=round(done.wall_s, 3),
        peak_mb=round(done.peak_mb, 1),
        worker=done.worker,
    )
    result = read_result(done.stdout)
    if result is None:
        if done.killed:
            row.update(status="unknown", stopped="timeout", error="killed at the hard limit")
        else:
            row.update(status="error", error=done.error or f"exit {done.returncode}, no answer")
        return row
    solution = result.get("solution")
    row.update(
        status=result["status"],
        stopped=result.get("stopped"),
        unique=result.get("unique"),
        inner_s=result.get("elapsed_s"),
        solution=solution,
        answer=answer_text(case.puzzle, result),
        verdict=verdict(case.puzzle, case.known, result),
    )
    return row


# -- answers and verdicts ---------------------------------------------------------------


def answer_text(puzzle: str, result: dict[str, Any]) -> str:
    """A short text of the answer, for the table and the ``answer`` key."""
    if result.get("status") == "unsat":
        return "none"
    return bench_of(puzzle).answer_text(result)


def known_text(puzzle: str, known: Any) -> str:
    """A short text of a known answer, in the terms of :func:`answer_text`."""
    return "" if known is None else bench_of(puzzle).known_text(known)


def verdict(puzzle: str, known: Any, result: dict[str, Any]) -> str | None:
    """``ok`` when the answer agrees with the known one, ``WRONG`` when it contradicts
    it, ``None`` when there is nothing to compare (no known answer, or no answer)."""
    if known is None:
        return None
    status = result.get("status")
    if status == "unsat":  # every known answer is a solution
        return "WRONG"
    module = bench_of(puzzle)
    if hasattr(module, "verdict"):  # a known optimum: bounds prove something too
        return module.verdict(known, result)
    solution = result.get("solution")
    if solution is None or status not in ANSWERED:  # a picture cut short proves nothing
        return None
    return "ok" if module.same(known, solution) else "WRONG"


# -- the text table and the summary -----------------------------------------------------


def table_header() -> str:
    return (
        f"{'name':<32} {'size':>10} {'status':<8} {'answer':>10} {'known':>10} "
        f"{'verdict':<7} {'wall s':>8} {'inner s':>8} {'MB':>6}  note"
    )


def table_line(row: dict[str, Any]) -> str:
    """One row of the table; the note says why a case stopped or failed."""
    note = row["error"] or (f"stopped: {row['stopped']}" if row["stopped"] else "")
    return (
        f"{row['name'][-32:]:<32} {row['size']:>10} {row['status']:<8} {row['answer']:>10} "
        f"{row['known']:>10} {row['verdict'] or '-':<7} {_num(row['wall_s'], 8, 2)} "
        f"{_num(row['inner_s'], 8, 2)} {_num(row['peak_mb'], 6, 0)}  {note}"
    ).rstrip()


def _num(value: Any, width: int, digits: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{value:>{width}.{digits}f}"


#: Upper bounds of the size classes of the summary, in cells.
SIZE_CLASSES = ((100, "<=100"), (225, "<=225"), (400, "<=400"))


def size_class(cells: int | None) -> str:
    if cells is None:
        return "?"
    for limit, name in SIZE_CLASSES:
        if cells <= limit:
            return name
    return ">400"


def summary(rows: Sequence[dict[str, Any]], wall_s: float | None = None) -> dict[str, Any]:
    """Counts and time figures over ``rows``, overall and by size class (cells)."""
    walls = [r["wall_s"] for r in rows if r["wall_s"] is not None]
    inner = [r["inner_s"] for r in rows if r["inner_s"] is not None]
    overhead = [  # the solver's clock starts at the fork, to the 10 ms of Linux's tick
        max(0.0, r["wall_s"] - r["inner_s"])
        for r in rows
        if r["wall_s"] is not None and r["inner_s"] is not None
    ]
    count = {s: sum(1 for r in rows if r["status"] == s) for s in (*STATUSES, "error")}
    classes: dict[str, list[float]] = {}
    for r in rows:
        if r["wall_s"] is not None:
            classes.setdefault(size_class(r["cells"]), []).append(r["wall_s"])
    return {
        "instances": len(rows),
        "answered": count["optimal"] + count["solved"],
        "optimal": count["optimal"],
        "unsat": count["unsat"],
        "unknown": count["unknown"],
        "errors": count["error"],
        "checked": sum(1 for r in rows if r["verdict"] == "ok"),
        "wrong": sum(1 for r in rows if r["verdict"] == "WRONG"),
        "median_s": round(statistics.median(walls), 3) if walls else None,
        "max_s": round(max(walls), 3) if walls else None,
        "total_s": round(sum(walls), 3),
        "median_inner_s": round(statistics.median(inner), 3) if inner else None,
        "median_overhead_s": round(statistics.median(overhead), 3) if overhead else None,
        "max_peak_mb": round(max((r["peak_mb"] or 0.0 for r in rows), default=0.0), 1),
        "wall_s": None if wall_s is None else round(wall_s, 2),
        "by_size": {
            name: {
                "instances": len(ts),
                "median_s": round(statistics.median(ts), 3),
                "max_s": round(max(ts), 3),
            }
            for name, ts in sorted(classes.items())
        },
    }


def summary_lines(total: dict[str, Any]) -> list[str]:
    t = {k: "-" if v is None else v for k, v in total.items()}
    lines = [
        f"solved {t['answered']}/{t['instances']} ({t['optimal']} optimal), "
        f"unsat {t['unsat']}, unknown {t['unknown']}, errors {t['errors']}; "
        f"against known answers: {t['checked']} agree, {t['wrong']} wrong, "
        f"{total['instances'] - total['checked'] - total['wrong']} without a verdict",
        f"per case: median {t['median_s']} s, max {t['max_s']} s, total {t['total_s']} s, "
        f"solver's own median {t['median_inner_s']} s, start-up and exit median "
        f"{t['median_overhead_s']} s; peak memory {t['max_peak_mb']} MB; "
        f"wall time {t['wall_s']} s",
    ]
    for name, figures in total["by_size"].items():
        lines.append(
            f"cells {name}: {figures['instances']} cases, median {figures['median_s']} s, "
            f"max {figures['max_s']} s"
        )
    return lines


# -- JSON Lines, CSV, resume ------------------------------------------------------------


class RowSink:
    """A file rows go to as they finish: JSON Lines or CSV, flushed after every row."""

    def __init__(self, stream: IO[str], kind: str, owned: bool) -> None:
        self.stream, self.kind, self.owned = stream, kind, owned
        self.name = getattr(stream, "name", "-") if owned else "-"
        self.writer: Any = None
        if kind == "csv":
            self.writer = csv.DictWriter(stream, fieldnames=ROW_KEYS, lineterminator="\n")
            self._written(self.writer.writeheader)

    @classmethod
    def open(cls, path: str, kind: str, keep_bytes: int | None = None) -> RowSink:
        """Open ``path`` (``-``: standard output) afresh, or with ``keep_bytes``, keep
        that much of it (the complete lines a resumed file holds) and append."""
        if path == "-":
            return cls(sys.stdout, kind, owned=False)
        try:
            if keep_bytes is not None and Path(path).exists():
                with open(path, "r+b") as cut:
                    cut.truncate(keep_bytes)
            mode = "w" if keep_bytes is None else "a"
            stream = open(path, mode, encoding="utf-8", newline="")
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", path) from None
        return cls(stream, kind, owned=True)

    def write(self, row: dict[str, Any]) -> None:
        if self.kind == "csv":
            self._written(lambda: self.writer.writerow({k: _csv_value(row[k]) for k in ROW_KEYS}))
        else:
            line = json.dumps(row, separators=(", ", ": ")) + "\n"
            self._written(lambda: self.stream.write(line))

    def _written(self, write: Callable[[], object]) -> None:
        """``write()`` and flush; a file that takes no more (a full disk, a device or a
        file of ``/proc``) is one line of error, not a traceback."""
        try:
            write()
            self.stream.flush()
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", str(self.name)) from None

    def close(self) -> None:
        if self.owned:
            try:
                self.stream.close()
            except OSError:  # what could not be written was reported when it was not
                pass


def _csv_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, (list, dict, bool)):
        return json.dumps(value, separators=(",", ":"))
    return value


_TEXT = (str,)
_NUMBER = (int, float, type(None))
#: What each key of a row read back may hold (``solution`` is the solver's own).
_ROW_TYPES: dict[str, tuple[type, ...]] = {
    "puzzle": _TEXT,
    "name": _TEXT,
    "size": _TEXT,
    "cells": (int, type(None)),
    "mode": _TEXT,
    "options": _TEXT,
    "timeout_s": (int, float),
    "status": _TEXT,
    "stopped": (str, type(None)),
    "answer": _TEXT,
    "known": _TEXT,
    "verdict": (str, type(None)),
    "unique": (bool, type(None)),
    "exit": (int, type(None)),
    "wall_s": _NUMBER,
    "inner_s": _NUMBER,
    "peak_mb": _NUMBER,
    "worker": (str, type(None)),
    "error": _TEXT,
}


def _fits(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:  # to Python, True is an int
        return False
    return isinstance(value, types)


@dataclass
class Previous:
    """The rows a JSON Lines file holds, and how many of its bytes are whole lines (a
    run killed mid-write may leave a last line cut short)."""

    rows: list[dict[str, Any]]
    whole_bytes: int


def load_rows(path: str) -> Previous:
    """Read a bench's JSON Lines file back; a missing file holds no rows. Only a regular
    file is read (a device could be read forever, a FIFO block the run)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError("--resume: not a regular file", path)
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return Previous([], 0)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    whole = data.rfind(b"\n") + 1
    rows = []
    for lineno, line in enumerate(data[:whole].split(b"\n")[:-1], 1):
        try:
            row = json.loads(line.decode("utf-8")) if line.strip() else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise InputError("not a bench row (JSON Lines expected)", path, lineno) from None
        if row is None:
            continue
        if not isinstance(row, dict) or not isinstance(row.get("case"), str):
            raise InputError("not a bench row (no 'case')", path, lineno)
        row = {**dict.fromkeys(ROW_KEYS), **row}
        for key, types in _ROW_TYPES.items():
            if not _fits(row[key], types):
                raise InputError(f"not a bench row ({key!r}: {row[key]!r})", path, lineno)
        rows.append({**row, "_line": lineno})
    return Previous(rows, whole)


def finished(previous: Iterable[dict[str, Any]], settings: Settings, path: str) -> dict:
    """The rows of cases a resumed run skips, by case key: the last row of each case,
    unless it is an error row (those cases run again). Rows of another run's settings
    are refused: their figures would not be comparable."""
    done: dict[str, dict[str, Any]] = {}
    for row in previous:
        theirs = (row["puzzle"], row["mode"], row["options"], row["timeout_s"])
        ours = (settings.puzzle, settings.mode, settings.options_text, settings.timeout_s)
        if theirs != ours:
            raise InputError(
                f"a row of another run ({_describe(*theirs)}; this run: {_describe(*ours)}); "
                "resume with the same options, or write to another file",
                path,
                row["_line"],
            )
        key = row["case"]
        if row["status"] == "error":
            done.pop(key, None)
        else:
            done[key] = {k: row[k] for k in ROW_KEYS}
    return done


def _describe(puzzle: Any, mode: Any, options: Any, timeout: Any) -> str:
    return " ".join(str(p) for p in (puzzle, mode, options, f"--timeout {timeout}") if p)
