"""Koburin puzzles with known answers: a sample of the janko corpus (skipped when the
shared data is absent) and every puzzle shipped in ``instances/koburin``."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracles.corpora import corpus_file

from smtpuzzles.puzzles.koburin import solve
from smtpuzzles.puzzles.koburin.formats import parse, parse_solution_grid, solution_positions
from smtpuzzles.sources import read_source

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "koburin"
#: One of each size, and the slowest of the corpus for the distance encoding.
JANKO_SAMPLE = ["janko_0001_8x8", "janko_0011_10x10", "janko_0089_12x12", "janko_0129_12x12"]


@pytest.mark.parametrize("name", JANKO_SAMPLE)
@pytest.mark.parametrize("connectivity", ["lazy", "distance"])
@pytest.mark.slow
def test_janko_sample_matches_known_answer(data_dir: Path, name: str, connectivity: str) -> None:
    folder = data_dir / "koburin"
    corpus_file(folder / f"{name}.txt")
    puzzle = parse((folder / f"{name}.txt").read_text(), name)
    outcome = solve(puzzle, unique=True, connectivity=connectivity)
    assert outcome.status == "solved" and outcome.unique is True
    expected = parse_solution_grid((folder / f"{name}.sol").read_text())
    assert solution_positions(puzzle, outcome.solution) == expected


def _shipped() -> list[Path]:
    return sorted(p for p in INSTANCES.iterdir() if p.suffix in (".txt", ".table", ".url"))


def test_instances_are_shipped() -> None:
    names = [p.name for p in _shipped()]
    assert any(n.endswith(".table") for n in names)
    assert sum(1 for p in _shipped() if p.with_suffix(".sol").exists()) >= 5
    assert any(n.startswith("gen_30x30") for n in names)  # the large sizes


#: Each shipped puzzle is solved once, with the default strategy and ``unique=True``:
#: the 30x30 takes about a second, so the other strategy is tested on janko puzzles only.


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: p.name)
@pytest.mark.slow
def test_instance_has_its_answer(path: Path) -> None:
    text, name = read_source(str(path))
    puzzle = parse(text, name)
    outcome = solve(puzzle, unique=True)
    assert outcome.status == "solved" and outcome.unique is True
    sol = path.with_suffix(".sol")
    if sol.exists():
        assert solution_positions(puzzle, outcome.solution) == parse_solution_grid(sol.read_text())
    else:  # a table: the answer is written as "black: ..." and "loop: ..." lines
        answer = path.with_suffix(".answer").read_text().split("\n")
        names = puzzle.graph.names
        assert answer[0] == "black: " + " ".join(names[i] for i in sorted(outcome.solution.black))
        assert answer[1] == "loop: " + " ".join(names[i] for i in outcome.solution.loop())


def test_hand_rules_decide_only_the_known_answers_of_the_corpus(data_dir: Path) -> None:
    """The generator's uniqueness proof is the hand rules deciding everything: on every
    janko puzzle they decide (with probing), what they decide is the known answer, and
    they decide nearly all of the corpus."""
    from smtpuzzles.puzzles.koburin.deduce import BLACK, ON
    from smtpuzzles.puzzles.koburin.deduce import solve as deduce
    from smtpuzzles.puzzles.koburin.model import Solution

    folder = data_dir / "koburin"
    names = sorted(folder.glob("janko_*.txt"))
    if not names:
        corpus_file(folder / "janko_0001_8x8.txt")
    decided = 0
    for path in names:
        puzzle = parse(path.read_text(), path.stem)
        d = deduce(puzzle.graph, puzzle.clues)
        assert d is not None, f"{path.name}: the rules found a contradiction"
        if not d.decided():
            continue
        decided += 1
        found = Solution(
            frozenset(i for i, s in enumerate(d.cell) if s == BLACK),
            frozenset(e for k, e in enumerate(d.edges) if d.link[k] == ON),
        )
        expected = parse_solution_grid(path.with_suffix(".sol").read_text())
        assert solution_positions(puzzle, found) == expected, path.name
    assert decided >= 0.9 * len(names), (decided, len(names))
