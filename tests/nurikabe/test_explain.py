"""Explanations of Nurikabe: every step sound (its facts hold in the only solution, and
its premises force them), minimal (without any one premise a fact is open again) and the
path complete; hints, wrong entries of a state, grades and the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from oracles.cli import cli
from oracles.easiest import assert_easiest

import smtpuzzles
from smtpuzzles.forced import HARD, Forcing, Step
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.nurikabe.explain import problem
from smtpuzzles.puzzles.nurikabe.formats import parse
from smtpuzzles.puzzles.nurikabe.generate import generate, shape_graph
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "nurikabe"
SHIPPED = sorted(INSTANCES.glob("*.txt"))
QUICK = ["square_05x05", "square_06x06_thin", "square_07x07", "hex_05x06", "table_ring"]


def _solution(path: Path) -> dict[str, bool]:
    """Cell name -> black in the one solution, asked of the solver (which proves it unique
    and has its answer checked by the independent checker)."""
    result = smtpuzzles.solve(path, unique=True)
    assert result.unique is True
    puzzle = parse(path.read_text(), str(path))
    return {puzzle.cell(i): bool(black) for i, black in enumerate(result.answer)}


def assert_sound_and_minimal(
    puzzle: NurikabeInstance, steps: list[Step], answer: dict[str, bool]
) -> None:
    """Each fact holds in the answer; the premises force it, and no smaller subset does
    (each premise dropped in turn leaves it open), asked of a fresh solver: Z3's SMT
    solver on the formula as printed, not the CNF the steps were found on."""
    forcing = Forcing(problem(puzzle), Budget(), engine="smt", cuts=False)
    for step in steps:
        for fact in step.facts:
            assert answer[fact.json["cell"]] == (fact.json["value"] == "black"), step.text
            assert forcing.forced(fact, step.premises), step.text
            for dropped in step.premises:
                rest = [p for p in step.premises if p is not dropped]
                assert not forcing.forced(fact, rest), f"{step.text}: {dropped.words} not needed"
        assert forcing.forced_all(step.facts, step.premises, step.rules), step.text
        # a case split is a large reason or one not proven minimal, never a small one
        assert not step.case_split or step.size > HARD or step.unsure, step.text


@pytest.mark.parametrize("name", ["square_06x06_thin", "hex_05x06"])
def test_no_smaller_reason_of_none_or_one_premise(name: str) -> None:
    path = INSTANCES / f"{name}.txt"
    puzzle = parse(path.read_text(), str(path))
    assert_easiest(problem(puzzle), smtpuzzles.explain(path).steps)


@pytest.mark.parametrize("name", QUICK)
def test_shipped_explanations_are_sound_minimal_complete(name: str) -> None:
    path = INSTANCES / f"{name}.txt"
    puzzle = parse(path.read_text(), str(path))
    found = smtpuzzles.explain(path)
    assert found.status == "complete"
    answer = _solution(path)
    decided = [f.json["cell"] for s in found.steps for f in s.facts]
    assert sorted(decided) == sorted(
        n for n in answer if n not in {puzzle.cell(k) for k in puzzle.clues}
    )
    assert len(set(decided)) == len(decided)
    assert_sound_and_minimal(puzzle, found.steps, answer)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for p in SHIPPED if p.stem not in QUICK], ids=lambda p: p.stem)
def test_larger_shipped_explanations(path: Path) -> None:
    puzzle = parse(path.read_text(), str(path))
    found = smtpuzzles.explain(path)
    assert found.status == "complete"
    assert_sound_and_minimal(puzzle, found.steps, _solution(path))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_puzzles(seed: int) -> None:
    graph, pools = shape_graph("square", 5, 5, seed)
    made = generate(graph, pools, seed, 4)
    assert made is not None
    puzzle, picture = made
    found = smtpuzzles.explain(smtpuzzles.Nurikabe(puzzle))
    assert found.status == "complete"
    answer = {puzzle.cell(i): picture[i] for i in range(len(puzzle))}
    assert_sound_and_minimal(puzzle, found.steps, answer)
    assert_easiest(problem(puzzle), found.steps)


def test_a_step_needs_no_premise_between_two_clues() -> None:
    # r0c1 lies between two clues: black by the rules alone
    found = smtpuzzles.explain(smtpuzzles.load("1 3\n1 - 1\n", "nurikabe"), limit=1)
    assert found.steps[0].size == 0
    assert [f.json for f in found.steps[0].facts] == [{"cell": "r0c1", "value": "black"}]


def test_hint_reports_a_wrong_entry_with_its_reason() -> None:
    path = INSTANCES / "square_05x05.txt"
    state = "####1\n#1#1.\n-----\n-1-1-\n----1\n"  # r1c4 is black in the answer
    found = smtpuzzles.explain(path, state=state, limit=1)
    assert [s.wrong.json for s in found.wrong if s.wrong] == [{"cell": "r1c4", "value": "white"}]
    assert found.wrong[0].facts[0].json == {"cell": "r1c4", "value": "black"}
    assert found.wrong[0].rules
    assert len(found.steps) == 1
    # the right entries are known: the hint decides none of them again
    assert all(f.json["cell"] not in ("r0c0", "r1c0") for f in found.steps[0].facts)


def test_grade_orders_the_shipped_puzzles() -> None:
    easy = smtpuzzles.rate(INSTANCES / "square_05x05.txt").grade
    harder = smtpuzzles.rate(INSTANCES / "square_07x07.txt").grade
    assert easy < harder


def test_cli_explain_json() -> None:
    result = cli("nurikabe", "explain", str(INSTANCES / "square_05x05.txt"), "--json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert set(obj) >= {"puzzle", "name", "status", "grade", "steps", "elapsed_s"}
    assert obj["status"] == "complete"
    step = obj["steps"][0]
    assert set(step) >= {"facts", "premises", "rules", "size", "text", "case_split"}


def test_cli_hint_and_rate() -> None:
    result = cli("nurikabe", "hint", str(INSTANCES / "square_07x07.txt"))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("nurikabe square_07x07.txt: 1 steps")
    result = cli("nurikabe", "rate", str(INSTANCES / "square_07x07.txt"), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["grade"] >= 1


@pytest.mark.parametrize("command", ["explain", "hint", "rate"])
def test_cli_no_solution_exits_1_and_gives_no_grade(command: str, tmp_path: Path) -> None:
    """Clues with no solution: exit 1, said in the status, and no grade in the text (a
    puzzle with no solution is not easy); JSON keeps its shape, with grade 0."""
    none = tmp_path / "none.txt"
    none.write_text("2 2\n3 -\n- 1\n")
    result = cli("nurikabe", command, str(none))
    assert result.exit_code == 1, result.stderr
    assert "status: no solution" in result.stdout and "grade" not in result.stdout
    as_json = cli("nurikabe", command, str(none), "--json")
    assert as_json.exit_code == 1
    found = json.loads(as_json.stdout)
    assert found["status"] == "no solution" and found["grade"] == 0


def test_cli_timeout_stops_with_the_steps_so_far() -> None:
    result = cli(
        "nurikabe", "explain", str(INSTANCES / "square_10x10.txt"), "--timeout", "0.5", "--json"
    )
    assert result.exit_code == 3, result.output
    obj = json.loads(result.stdout)
    assert obj["status"] == "stopped" and obj["stopped"] == "timeout"


def test_cli_bad_state_is_one_line() -> None:
    result = cli("nurikabe", "hint", str(INSTANCES / "square_05x05.txt"), "--state", "/nonexistent")
    assert result.exit_code == 2


@pytest.mark.parametrize(
    "row, words",
    [
        ("--.2-Z-", "line 2, column 6: unknown mark 'Z'"),  # on a clue's cell too
        ("--.2-1Q", "line 2, column 7: unknown mark 'Q'"),
        ("--.2-13", "line 2, column 7: a number where the puzzle has no clue"),
    ],
)
def test_a_bad_mark_in_the_state_is_named_by_line_and_column(
    row: str, words: str, tmp_path: Path
) -> None:
    state = tmp_path / "state.txt"
    state.write_text(f"-1-----\n{row}\n-1-----\n-------\n--2----\n1------\n---2-1-\n")
    result = cli("nurikabe", "hint", str(INSTANCES / "square_07x07.txt"), "--state", str(state))
    assert result.exit_code == 2 and words in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _presolve_level(puzzle: NurikabeInstance) -> int:
    """A human-solving proxy: 0 when the package's rules of thumb (presolve.deduce)
    decide every cell, 1 when one level of hypotheses (presolve.probe) is needed too,
    2 when cells stay open after both."""
    from smtpuzzles.puzzles.nurikabe.presolve.deduce import deduce
    from smtpuzzles.puzzles.nurikabe.presolve.probe import probe

    known = deduce(puzzle)
    if len(known.black) + len(known.owner) >= len(puzzle):
        return 0
    known = probe(puzzle, known)
    return 1 if len(known.black) + len(known.owner) >= len(puzzle) else 2


@pytest.mark.slow
def test_grade_rises_with_the_human_proxy_on_the_shipped_puzzles() -> None:
    grades: dict[int, list[int]] = {}
    for path in SHIPPED:
        puzzle = parse(path.read_text(), str(path))
        grades.setdefault(_presolve_level(puzzle), []).append(smtpuzzles.rate(path).grade)
    means = [sum(g) / len(g) for _, g in sorted(grades.items())]
    assert len(means) >= 2
    assert means == sorted(means) and len(set(means)) == len(means), grades


@pytest.mark.parametrize("kind", ["nurikabe", "koburin"])
def test_explain_results_name_no_folder_of_the_machine(kind: str) -> None:
    """The results of the janko benchmark say how they were made in words a reader can
    run from the project: no absolute path in a command or an output file."""
    results = INSTANCES.parents[1] / "benchmarks" / "results" / f"explain_janko_{kind}.json"
    found = json.loads(results.read_text())
    words = found["command"].split()
    for part in found["settings"]:
        words += [str(part["command"]), str(part["out"])]
    assert words and not [w for w in words if w.startswith("/")], words


def test_a_kept_core_answers_later_questions_without_the_solver() -> None:
    """A core once found forces its fact whatever else is known: a question whose
    premises hold it, and a minimal reason asked again, need no check of the solver;
    premises that do not hold it are still asked."""
    from smtpuzzles.engines.stats import Stats

    graph, pools = shape_graph("square", 5, 5, 1)
    made = generate(graph, pools, 1, 4)
    assert made is not None
    puzzle = made[0]
    step = next(s for s in smtpuzzles.explain(smtpuzzles.Nurikabe(puzzle)).steps if s.size >= 2)
    fact = step.facts[0]
    stats = Stats()
    forcing = Forcing(problem(puzzle), Budget(), stats)
    reason = forcing.minimal(fact, step.premises)
    assert reason is not None and {p.key for p in reason} == {p.key for p in step.premises}
    checks = stats.checks
    assert forcing.decide(fact, [*reason, *forcing.problem.clues], 300) is True
    assert forcing.minimal(fact, reason) == reason
    assert stats.checks == checks
    # without one of its premises the kept core does not answer
    assert forcing.known_core(fact, reason[1:]) is None


@pytest.mark.parametrize(
    "text",
    [
        "3 4\n2 - - -\n- - - -\n- 4 - -\n",  # the wall rooted at a cell no island reaches
        "3 4\n4 - - -\n- - - -\n- - - 3\n",  # every cell reached: rooted at the least black
        "3 4\n- - - -\n- 6 - -\n- - - -\n",
        "3 4\n- - - -\n- 3 - -\n- - - 1\n",
        "4 3\n2 - -\n- - -\n- - -\n- - 3\n",  # two islands that may take many shapes
        "3 4\n5 - - -\n- - - -\n- - - -\n",  # one island, a wall of seven cells that winds
    ],
)
def test_the_rules_with_every_clue_admit_exactly_the_checkers_pictures(text: str) -> None:
    """The explained formula states connectivity in steps, not as the solving formula's
    distances (and roots the wall at a cell no island reaches, where there is one): with
    every clue, a picture satisfies its rules exactly when the independent checker
    accepts it, for every black-and-white picture of a small grid."""
    from smtpuzzles.puzzles.nurikabe.check import problems

    puzzle = parse(text)
    prob = problem(puzzle)
    forcing = Forcing(prob, Budget(), engine="smt", cuts=False)
    accepted = 0
    for black, facts in _every_picture(puzzle, prob):
        valid = not problems(puzzle.graph, puzzle.clues, puzzle.pools, black)
        assert (forcing.consistent([*prob.clues, *facts]) is not None) == valid, black
        accepted += valid
    assert accepted >= 1


@pytest.mark.parametrize(
    "text",
    [
        "3 4\n2 - - -\n- - - -\n- 4 - -\n",
        "3 4\n4 - - -\n- - - -\n- - - 3\n",
        "3 4\n- - - -\n- 6 - -\n- - - -\n",
        "3 4\n- - - -\n- 3 - -\n- - - 1\n",
        "4 3\n2 - -\n- - -\n- - -\n- - 3\n",
        "3 4\n5 - - -\n- - - -\n- - - -\n",
        "3 3\n8 - -\n- - -\n- - -\n",  # an island around the wall: a hole
        "3 4\n- - - -\n- - - -\n- 9 - -\n",  # a hole or none
        "3 4\n1 - - -\n- - - -\n- - - ?\n",  # a '?': Euler's count only
    ],
)
def test_the_counts_admit_exactly_the_checkers_pictures(text: str) -> None:
    """The counts the whole-grid question adds (Euler's formula for the white cells,
    the wall's size and the rim edges at black cells when every clue holds) rule out no
    solution: with every clue, a picture satisfies the rules and the counts exactly when
    the independent checker accepts it; with one clue's number dropped, every picture
    the rules admit the counts admit too (Euler's count needs no number)."""
    from smtpuzzles.puzzles.nurikabe.check import problems

    puzzle = parse(text)
    prob = problem(puzzle)
    assert prob.counts is not None
    forcing = Forcing(prob, Budget())
    assert forcing.counted() is not None
    accepted = 0
    for black, facts in _every_picture(puzzle, prob):
        valid = not problems(puzzle.graph, puzzle.clues, puzzle.pools, black)
        assert (forcing.consistent([*prob.clues, *facts], counted=True) is not None) == valid
        accepted += valid
        rest = prob.clues[1:]
        ruled = forcing.consistent([*rest, *facts]) is not None
        assert ruled == (forcing.consistent([*rest, *facts], counted=True) is not None), black
    assert accepted >= 1


def test_a_step_over_the_whole_grid_is_sound_and_minimal() -> None:
    """The whole-grid question (every open fact at once, under the rules and their
    counts) gives a step whose facts hold in the only solution, whose premises force
    them in the formula as printed (without the counts), and none of whose premises can
    go; the facts that fewer premises force wait in the pool."""
    from smtpuzzles.forced import _Path

    graph, pools = shape_graph("square", 5, 5, 3)
    made = generate(graph, pools, 3, 4)
    assert made is not None
    puzzle, picture = made
    answer = {puzzle.cell(i): picture[i] for i in range(len(puzzle))}
    path = _Path(Forcing(problem(puzzle), Budget()))
    step = path._whole(0)
    assert step is not None and step.facts and step.unsure == 0
    assert_sound_and_minimal(puzzle, [step], answer)
    assert not {f.var for f in step.facts} & set(path.pool)
    assert path.pool


def _every_picture(puzzle: Any, prob: Any) -> Iterator[tuple[list[bool], list[Any]]]:
    """Every black-and-white picture of ``puzzle``'s cells: black per cell, and the same
    as the explained problem's facts."""
    import itertools

    cell_of = {v: cells[0] for v, cells in prob.variables}
    for values in itertools.product((False, True), repeat=len(prob.variables)):
        black = [False] * len(puzzle)
        facts = []
        for (var, _), value in zip(prob.variables, values):
            black[cell_of[var]] = value
            facts.append(prob.say(var, value))
        yield black, facts


def test_a_step_is_drawn_when_its_picture_is_first_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """JSON has no pictures, so an explanation draws none until one is asked for; then
    each step is drawn once, with the facts decided before it."""
    from smtpuzzles.puzzles.nurikabe import explain as module

    drawn: list[Step] = []
    draw = module.draw

    def counted(puzzle: Any, known: Any, step: Step) -> tuple[str, str]:
        drawn.append(step)
        return draw(puzzle, known, step)

    monkeypatch.setattr(module, "draw", counted)
    found = smtpuzzles.explain(INSTANCES / "square_07x07.txt")
    assert len(found.steps) > 2 and not drawn
    last = found.steps[-1]
    assert last.picture and "<svg" in last.svg and last.picture == last.picture
    assert drawn == [last]
    first = found.steps[0]
    assert first.picture.count("#") < last.picture.count("#")
    assert drawn == [last, first]
