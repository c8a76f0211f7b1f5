"""The "easiest first" promise of an explanation, asked of a fresh solver: the
package's forcing questions without the engine's bounds (not an independent oracle:
it checks the order of the steps, not their soundness)."""

from __future__ import annotations

from smtpuzzles.forced import Forcing, Problem, Step
from smtpuzzles.limits import Budget


def assert_easiest(problem: Problem, steps: list[Step]) -> None:
    """No step has a premise while an open fact follows from the rules alone, nor two or
    more while an open fact follows from one known premise."""
    forcing = Forcing(problem, Budget())
    known = list(forcing.problem.clues)
    open_ = {f.var: f for s in steps for f in s.facts}
    for step in steps:
        if step.size >= 1:
            assert forcing.backbone([], list(open_.values())) == [], step.text
        if step.size >= 2:
            for p in known:
                assert forcing.backbone([p], list(open_.values())) == [], (step.text, p.words)
        for fact in step.facts:
            del open_[fact.var]
            known.append(fact)
