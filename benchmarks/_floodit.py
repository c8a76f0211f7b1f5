"""Flood-It boards from the shared corpora, with their known optima, and a side-by-side
run of several option sets over them (the variants of one board run back to back, so
that they see the same load)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _harness

# Optima the color-flood-rs examples are known to have (their data README).
COLOR_FLOOD_RS = {"000": 4, "001": 5, "001b": 3, "002": 14, "003": 24, "003b": 37}


@dataclass
class Board:
    """A board to solve: a file, the options that pick it, a label and its optimum."""

    path: Path
    options: list[str]
    label: str
    known: int | None


def pc19(data: Path, first: int) -> list[Board]:
    """The first boards of the pc19 dataset."""
    folder = data / "terminal-flood"
    known = [
        len(line.strip())
        for line in (folder / "solutions_optimal_pc19.txt").read_text().splitlines()
        if line.strip()
    ]
    return [
        Board(
            folder / "dataset_pc19.txt",
            ["--format", "lines", "--index", str(i)],
            f"pc19 #{i}",
            known[i - 1],
        )
        for i in range(1, min(first, len(known)) + 1)
    ]


def problems99(data: Path, names: list[str]) -> list[Board]:
    """99problems boards by file name; the third line of each file is its optimum."""
    boards = []
    for name in names:
        path = data / "99problems" / name
        lines = path.read_text().splitlines()
        known = int(lines[2]) if len(lines) > 2 and lines[2].strip().isdigit() else None
        boards.append(Board(path, [], name, known))
    return boards


def color_flood_rs(data: Path, names: list[str]) -> list[Board]:
    """color-flood-rs example boards by name (without .txt)."""
    return [
        Board(data / "color-flood-rs" / f"{n}.txt", [], f"{n}.txt", COLOR_FLOOD_RS.get(n))
        for n in names
    ]


def compare(
    boards: list[Board], variants: dict[str, list[str]], mode: str, timeout: float, jobs: int
) -> list[_harness.Run]:
    """Solve every board with every variant's options; label runs and note the optimum."""
    tasks = [
        functools.partial(
            _harness.solve,
            board.path,
            ["floodit", mode, *board.options, *options],
            timeout,
            name,
        )
        for board in boards
        for name, options in variants.items()
    ]
    runs = _harness.run_all(tasks, jobs)
    labels = [board for board in boards for _ in variants]
    for run, board in zip(runs, labels):
        run.instance = board.label
        run.extra["known"] = board.known
        run.extra["length"] = (run.answer or {}).get("length")
    return runs


def settings(boards: list[Board], args: Any, variants: dict[str, list[str]]) -> dict[str, Any]:
    """The settings a side-by-side run records: its boards, limit, jobs and variants."""
    return {
        "boards": [b.label for b in boards],
        "timeout_s": args.timeout,
        "jobs": args.jobs,
        "variants": variants,
    }


def right(run: _harness.Run) -> bool:
    """An answer is wrong when its length differs from a known optimum it claims."""
    known, length = run.extra.get("known"), run.extra.get("length")
    status = (run.answer or {}).get("status")
    if known is None or length is None:
        return True
    return length == known if status == "optimal" else length >= known


def per_variant(runs: list[_harness.Run], variants: dict[str, Any]) -> dict[str, Any]:
    """A summary per variant, with the peak memory over its runs."""
    out = {}
    for name in variants:
        mine = [r for r in runs if r.variant == name]
        out[name] = _harness.summary(mine, right)
        out[name]["peak_mb"] = max((r.peak_mb for r in mine), default=None)
    return out
