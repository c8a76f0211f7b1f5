"""How precisely ``--timeout``, ``--memory`` and Ctrl-C hold on the largest inputs: the
boards and grids that once ran far past their limits, each run alone (one process at a
time) as a user would run it, wall time and peak memory from ``wait4``.

Usage: ``python benchmarks/limits.py [--repeat 3]``; writes
``benchmarks/results/limits.json``. The promise checked: every run ends within
``PROMPT_S`` of its ``--timeout`` (start-up included) and, with ``--memory MB``, peaks
within MB of a trivial run's memory plus the allocator's slack; a Ctrl-C sent at
``CTRL_C_AT`` of the way to the limit ends the run within ``PROMPT_S`` with exit 130 and
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import _harness  # noqa: E402

PROMPT_S = 0.5
CTRL_C_AT = (0.1, 0.4, 0.8)  #: when the Ctrl-C runs get theirs, as parts of the time limit


def _flood(path: Path, rows: int, cols: int, k: int, seed: int) -> str:
    rng = random.Random(seed)
    cells = [[rng.randrange(k) for _ in range(cols)] for _ in range(rows)]
    for c in range(k):
        cells[c // cols][c % cols] = c
    path.write_text("".join("".join(str(c) for c in row) + "\n" for row in cells))
    return str(path)


def _koburin(path: Path, side: int, seed: int) -> str:
    rng = random.Random(seed)
    rows = [
        " ".join(str(rng.randrange(3)) if rng.random() < 0.05 else "-" for _ in range(side))
        for _ in range(side)
    ]
    path.write_text(f"{side} {side}\n" + "\n".join(rows) + "\n")
    return str(path)


def _seed004(path: Path, side: int, clues: int, seed: int) -> str:
    rng = random.Random(seed)
    placed = {(rng.randrange(side), rng.randrange(side)) for _ in range(clues)}
    parts = [f"{side},{side}"] + [f"{rng.randint(1, 9)},{x},{y}" for x, y in sorted(placed)]
    path.write_text(" ".join(parts) + "\n")
    return str(path)


def cases(tmp: Path) -> list[tuple[str, list[str], float | None, int | None]]:
    """(label, argv, timeout, memory MB) of every measured run."""
    row = _flood(tmp / "row.txt", 1, 100_000, 4, 1)
    b300 = _flood(tmp / "b300.txt", 300, 300, 6, 2)
    b200 = _flood(tmp / "b200.txt", 200, 200, 4, 3)
    b100 = _flood(tmp / "b100.txt", 100, 100, 4, 4)
    hard = str(ROOT / "instances" / "floodit" / "b20x20c6.txt")
    kob = _koburin(tmp / "k300.txt", 300, 5)
    nuri = _seed004(tmp / "n500.txt", 500, 3000, 6)
    out: list[tuple[str, list[str], float | None, int | None]] = []
    for mode in ("min", "solve", "opt"):
        out.append((f"floodit {mode} 1x100000 c4", ["floodit", mode, row], 5.0, None))
    out.append(("floodit min --dry-run 1x100000", ["floodit", "min", row, "--dry-run"], 5.0, None))
    out.append(("floodit min 300x300 c6", ["floodit", "min", b300], 5.0, None))
    out.append(("floodit min 200x200 c4", ["floodit", "min", b200], 2.0, None))
    out.append(("floodit min 100x100 c4", ["floodit", "min", b100], 20.0, None))
    out.append(("floodit min 100x100 c4 --memory 100", ["floodit", "min", b100], 20.0, 100))
    out.append(("floodit opt 20x20 c6", ["floodit", "opt", hard], 2.0, None))
    ref = ["floodit", "min", hard, "--encoding", "reference"]
    out.append(("floodit min 20x20 c6 reference", ref, 1.0, None))
    out.append(("koburin solve 300x300", ["koburin", "solve", kob], 4.0, None))
    out.append(("nurikabe solve 500x500 seed004", ["nurikabe", "solve", nuri], 5.0, None))
    out.append(("nurikabe solve 500x500 --memory 100", ["nurikabe", "solve", nuri], 30.0, 100))
    return out


def measure(
    argv: list[str], timeout: float | None, memory: int | None, ctrl_c_at: float | None = None
) -> dict[str, Any]:
    """One run; with ``ctrl_c_at``, a Ctrl-C (SIGINT) that many seconds after the start."""
    full = [sys.executable, "-m", "smtpuzzles", *argv, "--json"]
    if timeout is not None:
        full += ["--timeout", str(timeout)]
    if memory is not None:
        full += ["--memory", str(memory)]
    began = time.monotonic()
    proc = subprocess.Popen(
        full,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    sent: list[float] = []
    if ctrl_c_at is not None:

        def interrupt() -> None:
            if proc.returncode is None:  # (set below once the run is reaped)
                sent.append(time.monotonic())
                proc.send_signal(signal.SIGINT)

        timer = threading.Timer(ctrl_c_at, interrupt)
        timer.start()
    assert proc.stdout is not None and proc.stderr is not None
    said: list[bytes] = []
    reader = threading.Thread(target=lambda: said.append(proc.stdout.read()))  # type: ignore[union-attr]
    reader.start()
    err = proc.stderr.read()
    reader.join()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - began
    if ctrl_c_at is not None:
        timer.cancel()
    run: dict[str, Any] = {
        "exit": proc.returncode,
        "seconds": round(seconds, 3),
        "over_s": None if timeout is None else round(seconds - timeout, 3),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "traceback": b"Traceback" in err,
        "one_json": _one_json(said[0]),
    }
    if ctrl_c_at is not None:
        run["ctrl_c_at_s"] = ctrl_c_at
        run["ctrl_c_to_end_s"] = round(time.monotonic() - sent[0], 3) if sent else None
    return run


def _one_json(out: bytes) -> bool:
    """Is ``out`` exactly one JSON object (what every ``--json`` run prints)?"""
    lines = out.strip().splitlines()
    try:
        return len(lines) == 1 and isinstance(json.loads(lines[0]), dict)
    except ValueError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "limits.json")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="smtpuzzles-limits-") as tmp:
        base = measure(["floodit", "min", str(ROOT / "instances" / "floodit" / "b05x05c4.txt")],
                       None, None)  # fmt: skip
        for label, command, timeout, memory in cases(Path(tmp)):
            runs = [measure(command, timeout, memory) for _ in range(args.repeat)]
            stops = [
                measure(command, timeout, memory, round(part * timeout, 3))
                for part in (CTRL_C_AT if timeout is not None else ())
            ]
            worst = max(runs, key=lambda r: r["seconds"])
            answered = [r["ctrl_c_to_end_s"] for r in stops if r["ctrl_c_to_end_s"] is not None]
            row = {
                "case": label,
                "timeout_s": timeout,
                "memory_mb": memory,
                "runs": runs,
                "ctrl_c_runs": stops,
                "max_over_s": worst["over_s"],
                "max_ctrl_c_s": max(answered) if answered else None,
                "max_peak_mb": max(r["peak_mb"] for r in runs),
                "held": all(
                    not r["traceback"]
                    and r["one_json"]
                    and r["exit"] in (0, 1, 3, 130)
                    and (timeout is None or r["over_s"] <= PROMPT_S)
                    and (memory is None or r["peak_mb"] <= base["peak_mb"] + memory + 32)
                    and (r.get("ctrl_c_to_end_s") or 0.0) <= PROMPT_S
                    for r in runs + stops
                ),
            }
            rows.append(row)
            print(f"{label}: over {row['max_over_s']} s, Ctrl-C {row['max_ctrl_c_s']} s, "
                  f"peak {row['max_peak_mb']} MB, {'held' if row['held'] else 'NOT HELD'}",
                  flush=True)  # fmt: skip
    report = {
        "benchmark": "limits",
        "command": " ".join(["benchmarks/limits.py", *sys.argv[1:]]),
        **_harness.environment(),
        "prompt_s": PROMPT_S,
        "ctrl_c_at": CTRL_C_AT,
        "baseline_peak_mb": base["peak_mb"],
        "cases": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(f"written {args.out}")
    return 0 if all(r["held"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
