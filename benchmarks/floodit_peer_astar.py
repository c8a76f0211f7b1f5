"""Flood-It `min` beside ColorFill's optimal A* (Java, Puchert's heuristic) on the same
first pc19 boards, in one run: lengths against the known optima, and times.

ColorFill is not shipped: pass a checkout of its source (the ColorFill repository by
smack42) with --colorfill; it is compiled with javac into a temporary folder. smtpuzzles
runs each board as its own process; ColorFill solves the boards in one JVM, as its own
`-benchmark` mode does, and reports each board's milliseconds.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import _floodit
import _harness

LINE = re.compile(r"^(\d+)\s+(\d+)_+(\d+)\s+milliSeconds=(\d+)")


def build(source: Path, into: Path) -> None:
    """Compile ColorFill's sources (and the jars its UI needs) into `into`."""
    jars = os.pathsep.join(str(p) for p in sorted((source / "lib").glob("*.jar")))
    files = [str(p) for p in sorted((source / "src").rglob("*.java"))]
    subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-cp", jars, "-d", str(into), *files],
        check=True,
        capture_output=True,
    )


def run_colorfill(classes: Path, boards: list[str], folder: Path) -> dict[str, object]:
    """Solve the boards in one JVM; per-board lengths and milliseconds, and the process."""
    dataset = folder / "boards.txt"
    dataset.write_text("".join(b + "\n" for b in boards))
    command = ["java", "-Xmx2g", "-cp", str(classes), "colorfill.ui.Starter", "-benchmark"]
    command += [str(dataset), "AStarPuchertStrategy"]
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    rows = [
        {"board": int(m[1]), "length": int(m[3]), "ms": int(m[4])}
        for m in map(LINE.match, text.splitlines())
        if m
    ]
    return {
        "exit": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "boards": rows,
    }


def main() -> None:
    parser = _harness.common_arguments(__doc__, "floodit")
    parser.add_argument("--colorfill", type=Path, required=True, help="ColorFill checkout")
    parser.add_argument("--first", type=int, default=100, help="first pc19 boards")
    args = parser.parse_args()
    boards = _floodit.pc19(args.data, args.first)
    lines = (args.data / "terminal-flood" / "dataset_pc19.txt").read_text().splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        classes = Path(tmp) / "classes"
        build(args.colorfill, classes)
        peer = run_colorfill(classes, [lines[i] for i in range(len(boards))], Path(tmp))
    runs = _floodit.compare(boards, {"smtpuzzles": []}, "min", args.timeout, args.jobs)
    peer_rows = peer["boards"]
    assert isinstance(peer_rows, list)
    known = [b.known for b in boards]
    ms = [r["ms"] for r in peer_rows]
    _harness.write(
        "floodit_peer_astar",
        args.out,
        {
            "settings": {"boards": len(boards), "timeout_s": args.timeout, "jobs": args.jobs},
            "summary": _floodit.per_variant(runs, {"smtpuzzles": []})["smtpuzzles"],
            "colorfill": {
                "solved": len(peer_rows),
                "right": sum(r["length"] == k for r, k in zip(peer_rows, known)),
                "median_ms": statistics.median(ms) if ms else None,
                "max_ms": max(ms, default=None),
                "jvm": {k: v for k, v in peer.items() if k != "boards"},
                "rows": peer_rows,
            },
            "rows": [run.row() for run in runs],
        },
    )


if __name__ == "__main__":
    main()
