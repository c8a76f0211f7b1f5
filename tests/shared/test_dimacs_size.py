"""The CNF grows with the formula, not with the square of its counts."""

from __future__ import annotations

from pathlib import Path

from oracles.cli import INSTANCES, cli


def _clauses(*argv: str) -> int:
    run = cli(*argv)
    header = [line for line in run.stdout.splitlines() if line.startswith("p cnf ")]
    assert len(header) == 1, run.stdout[-500:]
    return int(header[0].split()[3])


def test_a_long_count_costs_clauses_linear_in_its_terms(tmp_path: Path) -> None:
    # One Nurikabe clue on a strip: the "islands counted" equation sums every cell,
    # link and 2x2 block. A flat sum bit-blasted by Z3 costs clauses quadratic in its
    # terms (445,565 clauses for 6x8, 389 MB of CNF for 20x8); split into partial sums
    # it stays near linear: eight times the cells cost well under sixteen times the
    # clauses (the distances grow a bit or two wider; quadratic would be 64 times).
    sizes = {}
    for rows in (6, 48):
        puzzle = tmp_path / f"strip{rows}.txt"
        puzzle.write_text(f"{rows},8 1,0,0\n{rows},8 1,0,0\n?")
        sizes[rows] = _clauses(
            "nurikabe", "solve", str(puzzle), "--connectivity", "distance", "--print-dimacs", "-q"
        )
    assert sizes[6] < 20_000, sizes
    assert sizes[48] < 16 * sizes[6], sizes


def test_square_10x10_without_presolving_makes_a_small_cnf() -> None:
    square = INSTANCES / "nurikabe" / "square_10x10.txt"
    made = _clauses("nurikabe", "solve", str(square), "--presolve", "none", "--print-dimacs", "-q")
    assert made < 100_000, made
