"""The engines that answer an explanation's questions: CaDiCaL on the bit-blasted CNF
answers every question as Z3's SMT solver does on the formula as printed (forced or
not, and its cores force the fact there too); an integer whose range another rule
group speaks of keeps its range under its group's guard, and then Z3 answers; the path
found with either engine is sound and complete."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import smtpuzzles
from smtpuzzles.forced import Forcing, Problem, _ranges_apart
from smtpuzzles.limits import Budget
from smtpuzzles.puzzles.koburin import explain as koburin_explain
from smtpuzzles.puzzles.koburin.formats import parse as parse_koburin
from smtpuzzles.puzzles.nurikabe import explain as nurikabe_explain
from smtpuzzles.puzzles.nurikabe.formats import parse as parse_nurikabe
from smtpuzzles.smtlib import Block

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def _problem(kind: str, name: str) -> Problem:
    path = INSTANCES / kind / f"{name}.txt"
    if kind == "nurikabe":
        return nurikabe_explain.problem(parse_nurikabe(path.read_text(), str(path)))
    return koburin_explain.problem(parse_koburin(path.read_text(), str(path)))


@pytest.mark.parametrize(
    "kind,name",
    [("nurikabe", n) for n in ("square_07x07", "hex_05x06")]
    + [("koburin", n) for n in ("gen_8x8_s1", "gen_8x8_s2")],
)
def test_cadical_answers_as_z3_does(kind: str, name: str) -> None:
    """Random premise sets (clues and facts of the solution), each fact asked of both
    engines without a bound: the same answer, and CaDiCaL's core forces the fact under
    Z3 with the rules of its core."""
    prob = _problem(kind, name)
    sat = Forcing(prob, Budget(), engine="cadical")
    smt = Forcing(prob, Budget(), engine="smt", cuts=False)
    assert sat.q.engine == "cadical" and smt.q.engine == "smt"
    model = smt.consistent(prob.clues)
    assert model is not None
    facts = [prob.say(v, model[v]) for v, _ in prob.variables]
    rng = random.Random(7)
    asked = forced = 0
    for _ in range(40):
        premises = rng.sample(prob.clues, rng.randint(0, len(prob.clues) // 2))
        premises += rng.sample(facts, rng.randint(0, 3))
        for fact in rng.sample(facts, min(4, len(facts))):
            answer = sat.decide(fact, premises, 0)
            assert answer == smt.forced(fact, premises), (fact.words, premises)
            asked += 1
            if answer:
                forced += 1
                core = sat.core(fact, premises, 0)
                assert core is not None and smt.forced(fact, core)
    assert 0 < forced < asked, (forced, asked)


def test_a_range_another_group_names_stays_under_its_guard() -> None:
    """A range is lifted out of its group only for an integer no other group and no clue
    names; otherwise it stays a rule, the integer has no range of its own, and Z3's SMT
    solver answers (the CNF needs every integer bounded)."""
    decls = ["(declare-fun a () Bool)"]
    own = Block("own", asserts=["(<= 0 x 3)", "(=> a (= x 2))"])
    own.declarations = ["(declare-fun x () Int)", "(declare-fun y () Int)"]
    own.asserts.append("(<= 0 y 3)")
    other = Block("other", asserts=["(=> a (>= y 1))"])
    prob = Problem(decls, [own, other], [], [("a", (0,))], [[]], lambda v, b: None)  # type: ignore[arg-type,return-value]
    (bounds, rest), _ = _ranges_apart(prob)
    assert bounds == ["(<= 0 x 3)"] and "(<= 0 y 3)" in rest
    assert Forcing(prob, Budget()).q.engine == "smt"
    other.asserts = ["(=> a (>= x 1))"]
    assert Forcing(prob, Budget()).q.engine == "smt"
    other.asserts = ["a"]
    assert Forcing(prob, Budget()).q.engine == "cadical"


def test_either_engine_explains_a_shipped_puzzle_completely() -> None:
    path = INSTANCES / "nurikabe" / "square_05x05.txt"
    puzzle = parse_nurikabe(path.read_text(), str(path))
    decided = {}
    for engine in ("smt", "cadical"):
        steps, status, _, _ = smtpuzzles.forced.explain(
            nurikabe_explain.problem(puzzle), engine=engine
        )
        assert status == "complete"
        decided[engine] = {f.var: f.value for s in steps for f in s.facts}
    assert decided["smt"] == decided["cadical"]


def test_the_last_resort_gets_a_reason_where_a_bounded_core_stays_undecided() -> None:
    """``minimal(..., keep_undecided=True)`` (the last resort's) always gives a reason
    that forces the fact, also where the question for its first core stays undecided
    within the bound (CaDiCaL's conflicts prove less than Z3's): the core is then asked
    without a bound."""
    prob = _problem("koburin", "gen_8x8_s1")
    smt = Forcing(prob, Budget(), engine="smt", cuts=False)
    model = smt.consistent(prob.clues)
    assert model is not None
    facts = [prob.say(v, model[v]) for v, _ in prob.variables]
    undecided = 0
    for fact in facts[:24]:
        sat = Forcing(prob, Budget(), engine="cadical")
        if sat.core(fact, prob.clues, 1) is not None:
            continue
        undecided += 1
        reason = sat.minimal(fact, prob.clues, 1, keep_undecided=True)
        assert reason is not None and smt.forced(fact, reason), fact.words
    assert undecided


@pytest.mark.parametrize("kind,name", [("nurikabe", "square_07x07"), ("koburin", "gen_8x8_s1")])
def test_the_puzzles_own_solver_gives_the_backbone_the_engine_finds(kind: str, name: str) -> None:
    """One solution found by the puzzle's own solver stands for the engine's first model
    and backbone (which can take far longer): its facts are exactly the backbone the
    engine works out under all the clues."""
    prob = _problem(kind, name)
    assert prob.solutions is not None
    answer = prob.solutions(Budget())
    assert answer is not None and answer[1]
    found = answer[0]
    assert len(found) == 1
    forcing = Forcing(prob, Budget())
    model = forcing.consistent(prob.clues)
    assert model is not None
    valued = [prob.say(v, model[v]) for v, _ in prob.variables]
    backbone = {f.key for f in forcing.backbone(prob.clues, valued)}
    assert backbone == {prob.say(v, found[0][v]).key for v, _ in prob.variables}


@pytest.mark.parametrize("kind,name", [("nurikabe", "square_07x07"), ("koburin", "gen_8x8_s1")])
def test_the_independent_checker_passes_the_solution_and_no_other_picture(
    kind: str, name: str
) -> None:
    """The check a complete explanation's facts are put to: the solution's values pass,
    and each value flipped (not the only solution, so not a solution) breaks a rule."""
    prob = _problem(kind, name)
    assert prob.check is not None and prob.solutions is not None
    answer = prob.solutions(Budget())
    assert answer is not None and len(answer[0]) == 1 and answer[1]
    values = dict(answer[0][0])
    assert prob.check(values) == []
    for var, _ in prob.variables:
        assert prob.check({**values, var: not values[var]}), var


def test_a_complete_explanation_whose_facts_break_a_rule_is_an_internal_error() -> None:
    """Facts the engine decided are not trusted: when the checker finds a broken rule in
    the solution they make, the explanation fails as a wrong answer would."""
    import dataclasses

    from smtpuzzles.errors import CheckFailure
    from smtpuzzles.forced import explain

    prob = _problem("nurikabe", "square_07x07")
    seen: list[dict[str, bool]] = []

    def broken(values):  # type: ignore[no-untyped-def]
        seen.append(dict(values))
        return ["a rule the checker found broken"]

    with pytest.raises(CheckFailure, match="a rule the checker found broken"):
        explain(dataclasses.replace(prob, check=broken), Budget())
    assert len(seen) == 1 and set(seen[0]) == {v for v, _ in prob.variables}
    steps, status, _, _ = explain(prob, Budget())
    assert status == "complete" and steps


def test_two_solutions_or_none_leave_the_backbone_to_the_engine(tmp_path: Path) -> None:
    """Two solutions: only the cell they share is decided (stuck); none: no solution."""
    two, none = tmp_path / "two.txt", tmp_path / "none.txt"
    two.write_text("2 2\n2 -\n- -\n")
    none.write_text("2 2\n3 -\n- 1\n")
    shared = smtpuzzles.explain(smtpuzzles.load(two, puzzle="nurikabe"))
    assert shared.status == "stuck"
    assert [f.json for s in shared.steps for f in s.facts] == [{"cell": "r1c1", "value": "black"}]
    assert smtpuzzles.explain(smtpuzzles.load(none, puzzle="nurikabe")).status == "no solution"


@pytest.mark.parametrize("why", ["interrupted", "memory"])
@pytest.mark.parametrize("kind,name", [("nurikabe", "square_07x07"), ("koburin", "gen_8x8_s1")])
def test_a_stop_the_puzzles_solver_took_stops_the_explanation(
    kind: str, name: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C (or limit) that lands while the puzzle's own solver looks for the
    solutions ends that search with what it found; the explanation stops with it
    instead of going on as if the solver had answered (once it went on to the end
    and exited 0 after a Ctrl-C)."""
    from smtpuzzles.outcome import Outcome
    from smtpuzzles.puzzles.koburin import explain as koburin_module
    from smtpuzzles.puzzles.nurikabe import explain as nurikabe_module

    module = nurikabe_module if kind == "nurikabe" else koburin_module
    stopped = Outcome(stopped=why)
    answer = (stopped, None) if kind == "nurikabe" else stopped
    monkeypatch.setattr(module, "solve", lambda *a, **k: answer)
    found = smtpuzzles.explain(INSTANCES / kind / f"{name}.txt")
    assert found.status == "stopped" and found.stopped_by == why and not found.steps


@pytest.mark.parametrize("kind,name", [("nurikabe", "square_07x07"), ("koburin", "gen_8x8_s1")])
def test_a_solution_not_proven_unique_in_time_is_explained_all_the_same(
    kind: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the puzzle's own solver finds the solution but runs out of its share of the
    time proving it unique, the explanation starts from that solution: its steps prove
    every fact (the same steps as from a proven one), and the run's own time is not
    taken for that share's end."""
    from smtpuzzles.puzzles.koburin import explain as koburin_module
    from smtpuzzles.puzzles.nurikabe import explain as nurikabe_module

    module = nurikabe_module if kind == "nurikabe" else koburin_module
    proven = smtpuzzles.explain(INSTANCES / kind / f"{name}.txt")
    real = module.solve

    def unproven(*args, **kwargs):  # type: ignore[no-untyped-def]
        answer = real(*args, **kwargs)
        outcome = answer[0] if kind == "nurikabe" else answer
        outcome.unique, outcome.stopped = None, "timeout"
        return answer

    monkeypatch.setattr(module, "solve", unproven)
    found = smtpuzzles.explain(INSTANCES / kind / f"{name}.txt")
    assert found.status == "complete" == proven.status
    assert [s.to_json()["facts"] for s in found.steps] == [
        s.to_json()["facts"] for s in proven.steps
    ]


def test_a_second_solution_the_solver_did_not_reach_leaves_the_explanation_stuck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two solutions, the solver stopped after the first: the facts the second breaks
    are dropped when no step can be found for them (never a step that claims them)."""
    from smtpuzzles.puzzles.nurikabe import explain as nurikabe_module

    two = tmp_path / "two.txt"
    two.write_text("2 2\n2 -\n- -\n")
    real = nurikabe_module.solve

    def first_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        outcome, search = real(*args, **kwargs)
        outcome.solutions, outcome.unique, outcome.stopped = outcome.solutions[:1], None, "timeout"
        return outcome, search

    monkeypatch.setattr(nurikabe_module, "solve", first_only)
    shared = smtpuzzles.explain(smtpuzzles.load(two, puzzle="nurikabe"))
    assert shared.status == "stuck"
    assert [f.json for s in shared.steps for f in s.facts] == [{"cell": "r1c1", "value": "black"}]


def test_a_large_reason_waits_until_the_windows_are_asked() -> None:
    """While the windows are searched, ``_take(NEAR)`` leaves a reason of more premises
    than that in the pool untried (neither minimised nor stuck); over the whole grid
    it is minimised, and the step's premises force its facts."""
    prob = _problem("nurikabe", "square_07x07")
    path = smtpuzzles.forced._Path(Forcing(prob, Budget()))
    fact = next(f for f in path.targets if path.f.core(f, prob.clues) is not None)
    path.pool[fact.var] = list(prob.clues)
    assert path._take(len(prob.clues) - 1) is None
    assert fact.var not in path.minimised and fact.var not in path.stuck
    step = path._take()
    assert step is not None and fact in step.facts and step.size < len(prob.clues)
    smt = Forcing(prob, Budget(), engine="smt", cuts=False)
    assert all(smt.forced(f, step.premises) for f in step.facts)


def test_the_far_phase_stops_after_its_share_of_undecided_conflicts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reasons that fail to be minimised are tried only until the questions they left
    undecided took ``spend`` conflicts: the rest wait for a later step (and the last
    resort answers this one)."""
    prob = _problem("nurikabe", "square_07x07")
    path = smtpuzzles.forced._Path(Forcing(prob, Budget()))
    for fact in path.targets[:5]:
        path.pool[fact.var] = list(prob.clues)

    def fails(fact: object, premises: object, *args: object, **kw: object) -> None:
        path.f.spent += 4000

    monkeypatch.setattr(path.f, "minimal", fails)
    assert path._take(spend=10_000) is None
    assert len(path.stuck) == 3
    monkeypatch.setattr(path.f, "minimal", lambda *a, **k: None)
    assert path._take(spend=10_000) is None and len(path.stuck) == 5


def test_a_model_near_the_solution_shows_a_premise_is_needed() -> None:
    """A last resort's question whether a premise can go first looks for a model with
    the solution kept away from the fact and the dropped premise: a model found keeps
    the rest of the premises and breaks the fact (so the premise is needed, as Z3's SMT
    solver confirms on the formula as printed)."""
    from smtpuzzles.engines.stats import Stats
    from smtpuzzles.forced import _holds

    prob = _problem("nurikabe", "square_07x07")
    steps = smtpuzzles.explain(INSTANCES / "nurikabe" / "square_07x07.txt").steps
    stats = Stats()
    sat = Forcing(prob, Budget(), stats)
    smt = Forcing(prob, Budget(), engine="smt", cuts=False)
    path = smtpuzzles.forced._Path(sat)
    found = 0
    for step in (s for s in steps if s.size >= 2):
        fact = step.facts[0]
        for dropped in step.premises:
            rest = [p for p in step.premises if p is not dropped]
            if sat._nearby(fact, rest, dropped, path.targets):
                found += 1
                assert not smt.forced(fact, rest), (fact.words, dropped.words)
                assert any(
                    m[fact.var] != fact.value and all(_holds(m, p) for p in rest)
                    for m in sat.models
                )
    assert found
    assert any(p["label"] == "nearby" and p["answer"] == "sat" for p in stats.probes)
