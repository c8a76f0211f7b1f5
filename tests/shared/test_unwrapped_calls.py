"""The shortcuts that make the engine's CNF and answers cheaper give what the plain way
gives: the C functions read without Z3's wrappers answer as the wrappers do, and a
CaDiCaL model read by index gives every literal the value the solver chose, a literal
made after the answer false."""

from __future__ import annotations

import z3

from smtpuzzles.dimacs import _apps, _raw
from smtpuzzles.engines.questions import CadicalQuestions
from smtpuzzles.limits import Budget


def test_raw_functions_answer_as_the_wrappers() -> None:
    x, y = z3.Ints("x y")
    goal = z3.Goal()
    goal.add(z3.And(x + 2 * y <= 7, z3.Or(x >= 1, y == 3)))
    ref = goal.ctx.ref()
    seen = list(_apps(goal))
    assert seen, "the walk sees the formula's applications"
    for ast, kind in seen:
        assert kind == z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, ast))
        assert _raw(z3.Z3_get_ast_id)(ref, ast) == z3.Z3_get_ast_id(ref, ast)
        assert _raw(z3.Z3_get_app_num_args)(ref, ast) == z3.Z3_get_app_num_args(ref, ast)
    # the names of the constants, found by the walk, are the formula's variables
    names = {
        z3.Z3_get_symbol_string(ref, z3.Z3_get_decl_name(ref, z3.Z3_get_app_decl(ref, ast)))
        for ast, kind in seen
        if kind == z3.Z3_OP_UNINTERPRETED
    }
    assert names == {"x", "y"}


def test_a_model_read_by_index_matches_the_solver() -> None:
    text = "\n".join(
        [
            "(declare-fun a () Bool)",
            "(declare-fun b () Bool)",
            "(declare-fun c () Bool)",
            "(assert (or a b))",
            "(assert (=> a c))",
            "(assert (not c))",
        ]
    )
    q = CadicalQuestions(text, ["a", "b", "c"], Budget())
    a, b, c = q.lit("a"), q.lit("b"), q.lit("c")
    # c is false, so a is, so b is true: the formula's one model
    assert q.check([], Budget(), 0, None, "") == "sat"
    assert q.values([a, b, c, -a, -b, -c]) == [False, True, False, True, False, True]
    later = q.fresh()
    assert q.values([later, -later]) == [False, True]
