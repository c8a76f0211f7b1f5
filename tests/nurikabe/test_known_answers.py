"""Known answers: the shipped instances, a sample of small janko puzzles, the seed004 set.

The janko and seed-004 puzzles are read from the reference corpora (the ``data_dir``
fixture, skipped when absent); the whole corpus runs in ``smtpuzzles bench nurikabe``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracles.corpora import corpus_file

from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.nurikabe import solve
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.formats import read_solution as expected_rows
from smtpuzzles.puzzles.nurikabe.pictures import json_solution, text_picture

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
SHIPPED = sorted(INSTANCES.glob("*.txt"))

# Regression cases that are quick (0029, clues of 36 and 37, only since the white
# regions are counted); the slow ones (the 20x36 set, 31x45, 40x57) run in
# ``smtpuzzles bench nurikabe``.
JANKO_SAMPLE = [
    "janko_0001_10x10",
    "janko_0029_10x10",
    "janko_0121_7x7",
    "janko_0573_10x10",
    "janko_0903_10x10",
]


def load(path: Path):
    return parse(path.read_text(), str(path))


def test_every_shape_is_shipped() -> None:
    names = {p.stem.split("_")[0] for p in SHIPPED}
    assert {"square", "holes", "torus", "hex", "table"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
@pytest.mark.parametrize("strategy", ["distance", "lazy"])
def test_shipped_instances_have_their_unique_answer(path: Path, strategy: str) -> None:
    puzzle = load(path)
    outcome, _ = solve(puzzle, strategy, unique=True)
    assert outcome.unique is True
    assert text_picture(puzzle, outcome.solutions[0]) == path.with_suffix(".sol").read_text()


def _small_janko(data: Path) -> list[Path]:
    folder = data / "nurikabe"
    small = sorted(folder.glob("janko_*_[3-6]x[3-6].txt"))
    return small + [folder / f"{name}.txt" for name in JANKO_SAMPLE]


@pytest.mark.slow
def test_janko_sample_matches_the_known_solutions(data_dir: Path) -> None:
    paths = [corpus_file(p) for p in _small_janko(data_dir)]
    assert len(paths) > len(JANKO_SAMPLE)
    for path in paths:
        puzzle = load(path)
        outcome, _ = solve(puzzle, budget=Budget(60.0))  # a regression fails, not hangs
        assert outcome.status == "solved", path.name
        assert json_solution(puzzle, outcome.solutions[0]) == expected_rows(path), path.name


def test_janko_sample_lazy(data_dir: Path) -> None:
    for name in ("janko_0001_10x10", "janko_0121_7x7"):
        path = data_dir / "nurikabe" / f"{name}.txt"
        puzzle = load(path)
        outcome, _ = solve(puzzle, "lazy")
        assert json_solution(puzzle, outcome.solutions[0]) == expected_rows(path), name


def test_seed004_puzzles_are_solved(data_dir: Path) -> None:
    paths = sorted((data_dir / "nurikabe").glob("seed004_*.txt"))
    assert len(paths) == 8
    for path in paths:
        outcome, _ = solve(load(path))  # every picture passes the checker on the way out
        assert outcome.status == "solved", path.name
