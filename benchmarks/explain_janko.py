"""Explanations over the odd-numbered half of the janko corpora (Nurikabe and Koburin):
per puzzle its status, grade, step count, largest step and CPU seconds, from
``smtpuzzles KIND rate FILE --json --timeout T`` run as a process of its own.

Usage: python benchmarks/explain_janko.py [--kind nurikabe] [--max-side 15]
[--every 1] [--timeout 60] [--out benchmarks/results/explain_janko.json]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ``shared/data`` beside the checkout (the first parent folder that has it)
DATA = next(
    (p / "shared" / "data" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
    ROOT.parent / "shared" / "data",
)


def odd_half(kind: str, max_side: int) -> list[Path]:
    """The odd-numbered janko puzzles of ``kind`` with both sides at most ``max_side``,
    smallest first."""
    found = []
    for path in (DATA / kind).glob("janko_*.txt"):
        m = re.match(r"janko_(\d+)_(\d+)x(\d+)", path.stem)
        if m and int(m[1]) % 2 == 1 and max(int(m[2]), int(m[3])) <= max_side:
            found.append((int(m[2]) * int(m[3]), path.name, path))
    return [p for _, _, p in sorted(found)]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command: str, kind: str, path: Path, timeout: float) -> dict:
    before, began = children_cpu(), time.monotonic()
    done = subprocess.run(
        [command, kind, "rate", str(path), "--json", "--timeout", str(timeout)],
        capture_output=True,
        text=True,
        cwd="/",
    )
    row = {"name": path.name, "exit": done.returncode}
    try:
        row.update(json.loads(done.stdout))
    except json.JSONDecodeError:
        row["status"] = "error"
        row["error"] = done.stderr.strip()[-200:]
    row["cpu_s"] = round(children_cpu() - before, 3)
    row["wall_s"] = round(time.monotonic() - began, 3)
    return row


def summary(rows: list[dict]) -> dict:
    def dist(values: list[float]) -> dict:
        if not values:
            return {}
        values = sorted(values)
        return {
            "min": values[0],
            "median": statistics.median(values),
            "p90": values[int(0.9 * (len(values) - 1))],
            "max": values[-1],
        }

    statuses: dict[str, int] = {}
    for r in rows:
        statuses[r.get("status", "error")] = statuses.get(r.get("status", "error"), 0) + 1
    return {
        "puzzles": len(rows),
        "status": statuses,
        "cpu_s": dist([r["cpu_s"] for r in rows]),
        "grade": dist([r["grade"] for r in rows if "grade" in r]),
        "steps": dist([r["steps"] for r in rows if "steps" in r]),
        "largest_step": dist([r["largest_step"] for r in rows if "largest_step" in r]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="nurikabe", choices=("nurikabe", "koburin"))
    parser.add_argument("--max-side", type=int, default=15)
    parser.add_argument("--every", type=int, default=1, help="take every k-th puzzle")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    command = shutil.which("smtpuzzles") or str(Path(sys.executable).parent / "smtpuzzles")
    out = args.out or ROOT / "benchmarks" / "results" / f"explain_janko_{args.kind}.json"
    rows: list[dict] = []
    for path in odd_half(args.kind, args.max_side)[:: args.every]:
        rows.append(run(command, args.kind, path, args.timeout))
        r = rows[-1]
        print(r["name"], r.get("status"), r.get("grade"), r["cpu_s"], flush=True)
        result = {
            "settings": vars(args) | {"out": str(out)},
            "summary": summary(rows),
            "rows": rows,
        }
        out.write_text(json.dumps(result, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
