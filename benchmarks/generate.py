"""Generation at size: each ``generate`` run as its own process, ten seeds per size in
one run, with its wall time, processor time and peak memory (os.wait4); every puzzle
made is then proven unique by ``solve --unique`` and its answer checked by ``bench``
(which reads the folder back), and its clue statistics are set beside the janko
corpus's, measured from the same files in the same run.

    python benchmarks/generate.py [--seeds 10] [--timeout 60] [--sizes nurikabe:15,...]
        [--data ../shared/data] [--out benchmarks/results/generate.json]

A size is ``kind:side`` or ``kind:side:rot180`` (Nurikabe's ``--symmetry``). Writes
benchmarks/results/generate.json (or --out): the sizes measured replace the same sizes
of the file, the others are kept, each with the date, commit and load it was measured
at (``--sizes ""``: the corpus figures only).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
RESULTS = ROOT / "benchmarks" / "results" / "generate.json"
SMTPUZZLES = shutil.which("smtpuzzles") or str(Path(sys.executable).with_name("smtpuzzles"))


def measured(argv: list[str], cwd: Path) -> dict[str, Any]:
    """One process: its exit code, wall and processor seconds, peak resident MB
    (os.wait4)."""
    began = time.monotonic()
    proc = subprocess.Popen(
        [SMTPUZZLES, *argv], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - began
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    return {
        "exit": os.waitstatus_to_exitcode(status),
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
        "stderr": err.strip()[-200:],
    }


def corpus(kind: str, data: Path) -> dict[str, float]:
    """Median clue statistics of the janko puzzles of ``kind``."""
    from smtpuzzles.puzzles.koburin.formats import parse as parse_koburin
    from smtpuzzles.puzzles.koburin.generate import clue_statistics as koburin_stats
    from smtpuzzles.puzzles.nurikabe.formats import parse as parse_nurikabe
    from smtpuzzles.puzzles.nurikabe.generate import clue_statistics as nurikabe_stats

    rows = []
    for path in sorted((data / kind).glob("janko_*.txt")):
        text = path.read_text()
        if kind == "nurikabe":
            rows.append(nurikabe_stats(parse_nurikabe(text, str(path), "auto", 1)))
        else:
            rows.append(koburin_stats(parse_koburin(text)))
    return {"puzzles": len(rows), **_medians(rows)}


def _medians(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = [k for k in rows[0] if isinstance(rows[0][k], (int, float))] if rows else []
    out: dict[str, float] = {}
    for k in keys:
        values = [r[k] for r in rows]
        out[f"{k}_median"] = round(statistics.median(values), 4)
        out[f"{k}_max"] = round(max(values), 4)
    return out


def one_size(
    kind: str, size: int, seeds: int, timeout: float, work: Path, symmetry: str = "none"
) -> dict[str, Any]:
    from _harness import environment

    measured_at = {k: v for k, v in environment().items() if k in ("date", "commit", "machine")}
    runs = []
    stats = []
    unique = checked = 0
    for seed in range(1, seeds + 1):
        folder = work / f"{kind}_{size}_{symmetry}_{seed}"
        argv = [kind, "generate", str(size), str(size), "--seed", str(seed)]
        argv += ["--count", "1", "-o", str(folder), "--timeout", str(timeout)]
        argv += ["--symmetry", symmetry] if symmetry != "none" else []
        r = measured(argv, work)
        r["seed"] = seed
        runs.append(r)
        print(kind, size, seed, r, flush=True)
        if r["exit"] != 0:
            continue
        entry = json.loads((folder / "manifest.json").read_text())["puzzles"][0]
        stats.append({k: v for k, v in entry.items() if k not in ("file", "seed", "grade")})
        puzzle = next(p for p in folder.iterdir() if p.suffix in (".txt", ".url"))
        solved = measured([kind, "solve", str(puzzle), "--unique", "-q", "--timeout", "300"], work)
        unique += solved["exit"] == 0
        rows = folder / "rows.jsonl"
        measured(["bench", kind, str(folder), "--jsonl", str(rows), "--timeout", "120"], work)
        verdicts = [json.loads(line)["verdict"] for line in rows.read_text().splitlines()]
        checked += verdicts == ["ok"]
    made = [r for r in runs if r["exit"] == 0]
    walls = [r["wall_s"] for r in runs]
    return {
        "puzzle": kind,
        "size": f"{size}x{size}",
        "symmetry": symmetry,
        **measured_at,
        "timeout_s": timeout,
        "seeds": seeds,
        "made": len(made),
        "proven_unique": unique,
        "answer_checked": checked,
        "wall_s_median": statistics.median(walls),
        "wall_s_max": max(walls),
        "cpu_s_median": statistics.median(r["cpu_s"] for r in runs),
        "cpu_s_max": max(r["cpu_s"] for r in runs),
        "peak_mb_median": statistics.median(r["peak_mb"] for r in runs),
        "peak_mb_max": max(r["peak_mb"] for r in runs),
        "clues": _medians(stats),
        "runs": runs,
    }


def _key(row: dict[str, Any]) -> tuple[str, str]:
    return row["puzzle"], row["size"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument(
        "--sizes", default="nurikabe:15,nurikabe:30,koburin:30,koburin:50", help="kind:size,..."
    )
    parser.add_argument("--data", type=Path, default=DATA, help="the corpus folder")
    parser.add_argument("--out", type=Path, default=RESULTS, help="the results file")
    args = parser.parse_args()
    found = {kind: corpus(kind, args.data) for kind in ("nurikabe", "koburin")}
    if not all(c["puzzles"] for c in found.values()):
        raise SystemExit(f"no janko puzzles under {args.data}; give --data")
    report: dict[str, Any] = {"command": " ".join(sys.argv), "corpus": found, "sizes": []}
    if args.out.is_file():
        report["sizes"] = json.loads(args.out.read_text())["sizes"]
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in filter(None, args.sizes.split(",")):
            kind, size, *rest = spec.split(":")
            symmetry = rest[0] if rest else "none"
            row = one_size(kind, int(size), args.seeds, args.timeout, Path(tmp), symmetry)
            key = (row["puzzle"], row["size"], symmetry)
            sizes = report["sizes"]
            at = [i for i, r in enumerate(sizes) if (*_key(r), r.get("symmetry", "none")) == key]
            if at:
                sizes[at[0]] = row
            else:
                sizes.append(row)
            args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "sizes"}, indent=1))


if __name__ == "__main__":
    main()
