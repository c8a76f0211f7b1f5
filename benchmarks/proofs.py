"""Certificates of "no": for the unsat question below the optimum of pc19 and 99problems
Flood-It boards, and for `--unique` on janko Nurikabe and Koburin puzzles, the proofs
`--proof DIR` writes are checked by drat-trim (built from its public source, outside the
project) and by `smtpuzzles verify`; the CPU time to solve with and without proofs and
to check them, side by side in one run."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import _harness

#: 99problems boards, one of each size from 12x12 to 20x20.
PROBLEMS99 = ["12_12_06_001", "14_14_08_001", "16_16_08_001", "18_18_06_001", "20_20_06_001"]


#: The groups of cases, in the order they run.
GROUPS = ("floodit", "koburin", "nurikabe")


def cases(
    data: Path,
    groups: list[str],
    pc19: int,
    janko: int,
    max_cells: int | None = None,
    skip: tuple[str, ...] = (),
) -> list[tuple[str, Path, list[str]]]:
    """(label, puzzle file, command words) of every case of ``groups``."""
    found: list[tuple[str, Path, list[str]]] = []
    if "floodit" in groups:
        pc19_file = data / "floodit" / "terminal-flood" / "dataset_pc19.txt"
        for i in range(1, pc19 + 1):
            words = ["floodit", "min", "--format", "lines", "--index", str(i)]
            found.append((f"pc19#{i}", pc19_file, words))
        for name in PROBLEMS99:
            found.append((name, data / "floodit" / "99problems" / name, ["floodit", "min"]))
    for kind in ("koburin", "nurikabe"):
        if kind in groups:
            paths = sorted((data / kind).glob("janko_*.txt"))
            if max_cells is not None:
                paths = [p for p in paths if _cells(p) <= max_cells]
            paths = [p for p in paths if p.stem not in skip]
            for path in paths[:janko]:
                found.append((f"{kind}/{path.stem}", path, [kind, "solve", "--unique"]))
    return found


def _cells(path: Path) -> int:
    """The cells of a janko puzzle, from its name (``janko_0011_10x18``)."""
    rows, cols = path.stem.rsplit("_", 1)[1].split("x")
    return int(rows) * int(cols)


def check(checker: list[str], cnf: Path, drat: Path, limit_s: float) -> dict[str, Any]:
    """One checker's verdict on one proof, and its CPU time."""
    command = [*checker, str(cnf), str(drat)]
    code, text, wall, usage = _harness.measured(command, limit_s, stderr=subprocess.STDOUT)
    cpu = usage.ru_utime + usage.ru_stime
    verified = "s VERIFIED" in text or text.startswith("verified:")
    rejected = "s NOT VERIFIED" in text or text.startswith("rejected:")
    verdict = "verified" if verified else "rejected" if rejected else f"exit {code}"
    return {"verdict": verdict, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=_harness.DEFAULT_DATA)
    parser.add_argument("--drat-trim", type=Path, default=Path("/work/peers/drat-trim/drat-trim"))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per solve")
    parser.add_argument("--check-timeout", type=float, default=300.0)
    parser.add_argument("--pc19", type=int, default=20)
    parser.add_argument("--janko", type=int, default=10)
    parser.add_argument(
        "--max-cells", type=int, default=None, help="only janko puzzles of at most this many cells"
    )
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--groups", nargs="*", choices=GROUPS, default=list(GROUPS))
    parser.add_argument(
        "--skip", nargs="*", default=[], help="janko puzzles to leave out (file stems)"
    )
    parser.add_argument(
        "--verify-max-mb",
        type=float,
        default=5.0,
        help="largest CNF given to smtpuzzles verify (a Python checker) as well",
    )
    args = parser.parse_args()
    if not (args.data / "floodit").is_dir():
        parser.error(f"no corpus at {args.data}: give --data")
    smtpuzzles = [sys.executable, "-m", "smtpuzzles"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        todo = cases(
            args.data, args.groups, args.pc19, args.janko, args.max_cells, tuple(args.skip)
        )
        for n, (label, path, words) in enumerate(todo):
            plain = _harness.solve(path, words, args.timeout, "plain")
            folder = Path(tmp) / f"case{n}"
            proved = _harness.solve(path, [*words, "--proof", str(folder)], args.timeout, "proof")
            row: dict[str, Any] = {
                "case": label,
                "status": (proved.answer or {}).get("status"),
                "same_answer": (plain.answer or {}).get("solution")
                == (proved.answer or {}).get("solution"),
                "plain_cpu_s": round(plain.cpu_s, 3),
                "proof_cpu_s": round(proved.cpu_s, 3),
                "proof_exit": proved.exit_code,
                "questions": [],
            }
            for cnf in sorted(folder.glob("*.cnf")) if folder.exists() else []:
                drat = cnf.with_suffix(".drat")
                header = cnf.read_text().splitlines()[:3]
                expected = next((h for h in header if "expected answer" in h), "")
                clauses = re.search(r"^p cnf (\d+) (\d+)", cnf.read_text(), re.M)
                row["questions"].append(
                    {
                        "question": cnf.name.split(".", 1)[1].rsplit(".", 1)[0],
                        "expected": expected.rsplit(" ", 1)[-1],
                        "variables": int(clauses.group(1)) if clauses else None,
                        "clauses": int(clauses.group(2)) if clauses else None,
                        "cnf_bytes": cnf.stat().st_size,
                        "drat_bytes": drat.stat().st_size,
                        "drat_trim": check([str(args.drat_trim)], cnf, drat, args.check_timeout),
                        "verify": check([*smtpuzzles, "verify"], cnf, drat, args.check_timeout)
                        if cnf.stat().st_size <= args.verify_max_mb * 1e6
                        else {"verdict": "not run (CNF above --verify-max-mb)", "cpu_s": 0.0},
                    }
                )
            rows.append(row)
            record(args, rows, len(todo))
            shown = [q["drat_trim"]["verdict"] for q in row["questions"]]
            print(
                f"[{n + 1}] {label} {row['status']} plain {row['plain_cpu_s']}s "
                f"proof {row['proof_cpu_s']}s {shown}",
                file=sys.stderr,
                flush=True,
            )


def record(args: argparse.Namespace, rows: list[dict[str, Any]], planned: int) -> None:
    """Write the results file with the rows so far (after every case: a long run
    stopped early keeps what it measured)."""
    questions = [q for r in rows for q in r["questions"]]
    summary = {
        "cases": len(rows),
        "planned": planned,
        "unsat_questions": len(questions),
        "drat_trim_verified": sum(q["drat_trim"]["verdict"] == "verified" for q in questions),
        "verify_verified": sum(q["verify"]["verdict"] == "verified" for q in questions),
        "cases_without_proof": [r["case"] for r in rows if not r["questions"]],
        "answers_differ": [r["case"] for r in rows if not r["same_answer"]],
        "plain_cpu_s": round(sum(r["plain_cpu_s"] for r in rows), 2),
        "proof_cpu_s": round(sum(r["proof_cpu_s"] for r in rows), 2),
        "drat_trim_cpu_s": round(sum(q["drat_trim"]["cpu_s"] for q in questions), 2),
        "verify_cpu_s": round(sum(q["verify"]["cpu_s"] for q in questions), 2),
    }
    for group in ("pc19", "99", "nurikabe", "koburin"):
        mine = [
            r
            for r in rows
            if r["case"].startswith(group) or (group == "99" and r["case"][:2].isdigit())
        ]
        if mine:
            plain = sum(r["plain_cpu_s"] for r in mine)
            proof = sum(r["proof_cpu_s"] for r in mine)
            summary[f"{group}_proof_over_plain"] = round(proof / plain, 2) if plain else None
    _harness.write(
        "proofs" + ("" if args.groups == list(GROUPS) else "_" + "_".join(args.groups)),
        args.out,
        {
            "settings": {
                "timeout_s": args.timeout,
                "check_timeout_s": args.check_timeout,
                "drat_trim": "github:marijnheule/drat-trim, gcc -O2",
            },
            "summary": summary,
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
