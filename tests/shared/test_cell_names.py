"""Any cell name an adjacency table allows gives the same answer.

Cell names reach SMT-LIB variable names (``black_<cell>``, ``loop_<a>_<b>``,
``island_<clue>_has_<cell>``), so names with brackets, bars, non-ASCII letters or
underscores must neither break the script nor make two variables one. Pasted in as
they are, Koburin's links a-b and c-d renamed ``q_r``-``s`` and ``q``-``r_s`` would both
be ``loop_q_r_s``; Nurikabe's "clue P's island has cell Q_has_R" would be the same
variable as "clue P_has_Q's island has cell R".
"""

from __future__ import annotations

import re
from pathlib import Path

import smtpuzzles
from smtpuzzles.puzzles.nurikabe.rules import encode

INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def renamed(text: str, names: dict[str, str]) -> str:
    """``text`` with every whole-word cell name replaced (comments dropped)."""
    body = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return re.sub(r"(?<!\S)\w+(?=[\s:]|$)", lambda m: names.get(m.group(), m.group()), body)


def test_koburin_awkward_names_give_the_same_answer() -> None:
    text = (INSTANCES / "koburin/prism.table").read_text()
    names = {"a": "q_r", "b": "s", "c": "q", "d": "r_s", "e": "p(1", "f": "x|y", "A": "é~"}
    plain = smtpuzzles.solve(smtpuzzles.load(text), unique=True)
    odd = smtpuzzles.solve(smtpuzzles.load(renamed(text, names)), unique=True)
    assert plain.status == odd.status == "solved"
    assert plain.unique is odd.unique is True
    back = {new: old for old, new in names.items()}
    mine, theirs = plain.to_json()["solution"], odd.to_json()["solution"]
    for key in ("black", "loop"):
        assert [back.get(n, n) for n in theirs[key]] == mine[key]


def test_nurikabe_awkward_names_give_the_same_answer() -> None:
    # the hex puzzle: on the torus the deductions leave no island a black cell to name
    text = (INSTANCES / "nurikabe/hex_05x06.txt").read_text()
    puzzle = smtpuzzles.load(text)
    plain = smtpuzzles.solve(puzzle, unique=True)
    assert plain.status == "solved" and plain.unique is True
    # Two island variables, one true and one false in the answer, whose names collide
    # when pasted in: clue k1 owns white cell i1; clue k2 might own black cell i2.
    enc = encode(puzzle.puzzle)
    names = puzzle.puzzle.graph.names
    white = {n for n, v in plain.to_json()["solution"].items() if v == "."}
    k1, i1 = next((k, i) for k, c in enc.island.items() for i in c if i != k and names[i] in white)
    k2, i2 = next(
        (k, i) for k, c in enc.island.items() for i in c if k != k1 and names[i] not in white
    )
    new = {names[k1]: "P", names[i1]: "Q_has_R", names[k2]: "P_has_Q", names[i2]: "R"}
    other = next(n for n in names if n not in new)
    new[other] = "(|é~"
    odd = smtpuzzles.solve(smtpuzzles.load(renamed(text, new)), unique=True)
    assert odd.status == "solved" and odd.unique is True
    back = {v: k for k, v in new.items()}
    assert {back.get(n, n): v for n, v in odd.to_json()["solution"].items()} == plain.to_json()[
        "solution"
    ]
