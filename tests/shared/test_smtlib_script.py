"""SMT-LIB scripts from Z3 terms: standard logic, comments, ``ite`` counts, sizes."""

from __future__ import annotations

import z3

from smtpuzzles.smtlib import formula_size, smtlib_script


def test_smtlib_script_is_standard_and_complete() -> None:
    x = z3.Int("colour_t0")
    b = [z3.Bool(f"flooded_c{i}_t1") for i in range(3)]
    script = smtlib_script([x >= 0, z3.Sum([z3.If(v, 1, 0) for v in b]) <= 1], comments=["hi"])
    lines = script.splitlines()
    assert lines[0] == "; hi"
    assert "(set-logic QF_LIA)" in lines
    assert lines[-1] == "(check-sat)"
    assert "(ite flooded_c0_t1 1 0)" in script
    assert formula_size([x >= 0, z3.Or(b)]) == {"assertions": 2, "bool_vars": 3, "int_vars": 1}
