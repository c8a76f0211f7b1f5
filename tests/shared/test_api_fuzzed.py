"""Fuzzing the Python API: every call with any argument values returns, or raises one
:class:`InputError` (never TypeError, ValueError, StopIteration or a run of minutes), and
an answer it returns passes the independent checker."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.fuzzing import api_values

from smtpuzzles import check, formula, load, solve
from smtpuzzles.errors import InputError

INST = Path(__file__).resolve().parents[2] / "instances"
PUZZLES = {
    "floodit": load(INST / "floodit" / "b04x04c3.txt"),
    "nurikabe": load(INST / "nurikabe" / "square_05x05.txt"),
    "koburin": load(INST / "koburin" / "gen_8x8_s1.txt"),
}

#: Hundreds of calls, some solving: part of the whole suite, not of the quick loop.
pytestmark = pytest.mark.slow

#: Longest a call may take: the refused ones take microseconds, the solving ones a
#: fraction of a second on these small puzzles, and none may build a formula for minutes.
CALL_S = 20.0

SOLVE_KEYS = [
    "n",
    "lo",
    "hi",
    "count",
    "unique",
    "bound_nodes",
    "counting",
    "engine",
    "connectivity",
    "presolve",
    "strategy",
    "timeout",
]


def answered_or_refused(call) -> object:
    began = time.monotonic()
    try:
        out = call()
    except InputError as exc:
        assert "\n" not in str(exc)
        return None
    finally:
        assert time.monotonic() - began < CALL_S
    return out


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(PUZZLES)),
    st.sampled_from(["solve", "min", "exact", "search", "opt", "x"]),
    st.dictionaries(st.sampled_from(SOLVE_KEYS), api_values(), max_size=3),
)
def test_solve_with_any_arguments(kind: str, mode: str, kwargs: dict) -> None:
    timeout = kwargs.get("timeout")
    if not (isinstance(timeout, float | int) and math.isfinite(timeout) and 0 < timeout <= 2):
        kwargs["timeout"] = 2.0  # every call ends
    result = answered_or_refused(lambda: solve(PUZZLES[kind], mode, **kwargs))
    if result is not None and result.answer is not None and result.status in ("solved", "optimal"):
        assert check(PUZZLES[kind], result) == []


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(PUZZLES)),
    st.dictionaries(
        st.sampled_from(["horizon", "exact", "counting", "connectivity", "presolve", "colour"]),
        api_values(),
        max_size=3,
    ),
)
def test_formula_with_any_arguments(kind: str, kwargs: dict) -> None:
    answered_or_refused(lambda: formula(PUZZLES[kind], **kwargs))


@settings(max_examples=500)
@given(st.sampled_from(sorted(PUZZLES)), api_values())
def test_check_with_any_answer(kind: str, answer: object) -> None:
    problems = answered_or_refused(lambda: check(PUZZLES[kind], answer))
    assert problems is None or isinstance(problems, list)
