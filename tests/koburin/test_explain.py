"""Explanations of Koburin: every step sound (its facts hold in the only solution, and its
premises force them), minimal (without any one premise a fact is open again) and the
path complete; the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracles.cli import cli
from oracles.easiest import assert_easiest

import smtpuzzles
from smtpuzzles.errors import InputError
from smtpuzzles.forced import HARD, Forcing, Step
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.koburin.explain import problem

INSTANCES = Path(__file__).resolve().parents[2] / "instances" / "koburin"
SMALL = "2____\n_____\n__1__\n_____\n1___0\n"


def assert_sound_and_minimal(puzzle, steps: list[Step]) -> None:
    """Each fact holds in the one solution (asked of the solver: the fact's negation with
    all the clues has no solution); the premises force it; no premise can be dropped.
    Asked of Z3's SMT solver on the formula as printed, not the CNF the steps were found
    on."""
    forcing = Forcing(problem(puzzle), Budget(), engine="smt", cuts=False)
    clues = list(forcing.problem.clues)
    for step in steps:
        for fact in step.facts:
            assert forcing.forced(fact, clues), step.text
            assert forcing.forced(fact, step.premises), step.text
            for dropped in step.premises:
                rest = [p for p in step.premises if p is not dropped]
                assert not forcing.forced(fact, rest), f"{step.text}: {dropped.words} not needed"
        assert forcing.forced_all(step.facts, step.premises, step.rules), step.text
        # a case split is a large reason or one not proven minimal, never a small one
        assert not step.case_split or step.size > HARD or step.unsure, step.text


def test_small_puzzle_is_explained_completely() -> None:
    p = smtpuzzles.load(SMALL, "koburin")
    found = smtpuzzles.explain(p)
    assert found.status == "complete"
    assert smtpuzzles.solve(p, unique=True).unique is True
    assert_sound_and_minimal(p.puzzle, found.steps)
    assert_easiest(problem(p.puzzle), found.steps)
    decided = [json.dumps(f.json, sort_keys=True) for s in found.steps for f in s.facts]
    assert len(decided) == len(set(decided))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gen_8x8_s1", "gen_8x8_s2", "gen_10x10_s1"])
def test_shipped_explanations_are_sound_minimal_complete(name: str) -> None:
    p = smtpuzzles.load(INSTANCES / f"{name}.txt", "koburin")
    found = smtpuzzles.explain(p)
    assert found.status == "complete"
    assert_sound_and_minimal(p.puzzle, found.steps)


def test_cli_hint_json_and_state() -> None:
    result = cli("koburin", "hint", "-", "--json", stdin=SMALL)
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["status"] in ("hint", "complete") and len(obj["steps"]) == 1
    # r0c1 is black in the answer; saying it is on the loop is wrong
    state = "2o___\n_____\n__1__\n_____\n1___0\n"
    found = smtpuzzles.explain(smtpuzzles.load(SMALL, "koburin"), state=state, limit=1)
    assert [s.wrong.json for s in found.wrong if s.wrong] == [{"cell": "r0c1", "value": "loop"}]


@pytest.mark.parametrize(
    "first, words",
    [
        ("2Z___", "column 2: unknown mark 'Z'"),
        ("Z____", "column 1: unknown mark 'Z'"),
        ("23___", "column 2: a number where the puzzle has no clue"),
    ],
)
def test_a_bad_mark_in_the_state_is_named_by_line_and_column(first: str, words: str) -> None:
    state = f"{first}\n_____\n__1__\n_____\n1___0\n"
    with pytest.raises(InputError, match=f"--state line 1, {words}"):
        smtpuzzles.explain(smtpuzzles.load(SMALL, "koburin"), state=state, limit=1)


def test_ctrl_c_prints_the_steps_so_far_and_exits_130() -> None:
    """Ctrl-C once the explanation is under way (a second of processor time into a
    puzzle that takes far longer): the steps so far, ``stopped``, exit 130."""
    import signal
    import subprocess
    import sys
    import time

    import psutil

    puzzle = Path(__file__).resolve().parents[2] / "instances/koburin/gen_20x20_s1.txt"
    command = [str(Path(sys.executable).parent / "smtpuzzles"), "koburin", "explain"]
    proc = subprocess.Popen(
        [*command, str(puzzle), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        watched = psutil.Process(proc.pid)
        while watched.cpu_times().user < 1.0 and proc.poll() is None:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:  # a failed or interrupted test leaves no explanation running on
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    obj = json.loads(out)
    assert obj["status"] == "stopped" and obj["stopped"] == "interrupted"


def test_grade_is_ten_times_the_mean_step_size_a_case_split_counting_large() -> None:
    from smtpuzzles.forced import grade

    found = smtpuzzles.explain(smtpuzzles.load(SMALL, "koburin"))
    sizes = [s.size for s in found.steps]
    assert found.grade == round(10 * sum(sizes) / len(sizes))
    split = Step(found.steps[0].facts, [], [], case_split=True)
    assert grade([split]) == 10 * (HARD + 1)
    assert grade([]) == 0


def _answers(puzzle, engine: str, cuts: bool) -> set:
    """Every answer of the explanation's formula (its rules and every number), each
    found by the engine and then forbidden, as the brute force states them."""
    from smtpuzzles.puzzles.koburin import Solution

    prob = problem(puzzle)
    forcing = Forcing(prob, Budget(), engine=engine, cuts=cuts)
    found = set()
    while (model := forcing.consistent(prob.clues)) is not None:
        facts = [prob.say(v, model[v]) for v, _ in prob.variables]
        black = frozenset(f.cells[0] for f in facts if len(f.cells) == 1 and f.value)
        links = frozenset(tuple(sorted(f.cells)) for f in facts if len(f.cells) == 2 and f.value)
        found.add(Solution(black, links))
        forcing.q.add([-forcing.lit(f) for f in facts])
    return found


def _graphs():
    from smtpuzzles.graph import rectangle, torus

    return [rectangle(3, 4), rectangle(4, 4), rectangle(2, 5), torus(3, 4), torus(4, 4)] * 3


@pytest.mark.parametrize("engine,cuts", [("smt", False), ("smt", True), ("cadical", True)])
def test_the_explanations_formula_has_the_puzzles_answers(engine: str, cuts: bool) -> None:
    """The loop's even crossings of row and column lines, and rule B stated by its cuts
    or by the solving formula's distances, leave exactly the answers of the brute force,
    on grids and tori where two loops, or one loop and a branch, would fit."""
    import random

    from oracles.koburin import brute_force, random_puzzle

    rng = random.Random(13)
    counts = []
    for graph in _graphs():
        puzzle = random_puzzle(rng, graph)
        expected = brute_force(puzzle)
        assert _answers(puzzle, engine, cuts) == expected
        counts.append(len(expected))
    assert max(counts) > 1 and 0 in counts


#: Models of the other rules asked for cuts, at most, on each small puzzle.
MODELS_A_PUZZLE = 40


def test_rule_b_cuts_hold_in_every_answer_and_cut_off_separate_loops() -> None:
    """Rule B's cuts, asked of models of the other rules (and the numbers): none for a
    model of one loop; for one of several loops, each cut is broken by the model and
    holds in every answer of the brute force with the numbers made ``?`` (every single
    loop the numbered cells leave: a cut follows from rule B alone). So are the cuts of
    any picture at all (links at black cells, cells without links)."""
    import random

    from oracles.koburin import brute_force, random_puzzle

    from smtpuzzles.puzzles.koburin import KoburinInstance
    from smtpuzzles.puzzles.koburin.rules import CONNECTED

    rng = random.Random(5)
    separate = 0
    for graph in _graphs():
        puzzle = random_puzzle(rng, graph)
        answers = brute_force(KoburinInstance(graph, dict.fromkeys(puzzle.clues)))
        prob = problem(puzzle)
        cuts = prob.cuts[CONNECTED]
        truths = [{v: _value(prob, v, answer) for v, _ in prob.variables} for answer in answers]
        for every_rule in (True, False):
            forcing = Forcing(prob, Budget(), engine="smt", cuts=False)
            others = [forcing.rule_lit[r] for r in forcing.all_rules if r != CONNECTED]
            assumed = [*others, *(forcing.lit(c) for c in prob.clues)] if every_rule else []
            for _ in range(MODELS_A_PUZZLE):
                if forcing._check(assumed, "model") != "sat":
                    break
                values = forcing._values()
                found = cuts(values)
                if every_rule:
                    assert bool(found) == (len(_pieces(prob, values)) > 1)
                separate += bool(found)
                for clause in found:
                    assert not any(values[v] == x for v, x in clause)
                    for truth in truths:
                        assert any(truth[v] == x for v, x in clause)
                forcing.q.add([-forcing.lit(prob.say(v, values[v])) for v, _ in prob.variables])
    assert separate > 5


def _pieces(prob, values: dict[str, bool]) -> list[frozenset[int]]:
    """The cells of each loop of a model, walked here (not with the package's walk)."""
    near: dict[int, set[int]] = {}
    for v, cells in prob.variables:
        if len(cells) == 2 and values[v]:
            a, b = cells
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    pieces, seen = [], set()
    for start in near:
        if start in seen:
            continue
        piece, todo = set(), [start]
        while todo:
            here = todo.pop()
            if here not in piece:
                piece.add(here)
                todo += near[here]
        seen |= piece
        pieces.append(frozenset(piece))
    return pieces


def _value(prob, var: str, answer) -> bool:
    cells = dict(prob.variables)[var]
    if len(cells) == 1:
        return cells[0] in answer.black
    return tuple(sorted(cells)) in answer.edges
