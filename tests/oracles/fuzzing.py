"""Hypothesis strategies shared by the fuzz tests: valid texts, mutations of them,
and raw bytes. Every parser must turn each of them into a puzzle or an InputError.

The number of examples comes from the hypothesis profile: ``ci`` (default, bounded and
derandomized so the suite stays fast and repeatable) or ``long`` (by hand:
``pytest --hypothesis-profile=long``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# ``ci`` is derandomized: every run tries the same inputs, so a green suite stays green
# on a fresh machine; the ``long`` profile (random, 20x more) is where new inputs are found.
settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "long", max_examples=20000, deadline=None, suppress_health_check=list(HealthCheck)
)
# ``--hypothesis-profile=long`` is applied before this module is imported (the profiles
# are registered early by conftest.py): keep it, and default to ``ci`` otherwise.
if settings.get_current_profile_name() == "default":
    settings.load_profile("ci")


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A valid text with a few random edits: deletions, insertions, swaps, truncation."""
    text = draw(base)
    chars = list(text)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "duplicate"]))
        pos = draw(st.integers(0, max(0, len(chars) - 1)))
        if op == "delete" and chars:
            del chars[pos]
        elif op == "insert":
            chars.insert(pos, draw(st.characters(codec="utf-8")))
        elif op == "replace" and chars:
            chars[pos] = draw(st.sampled_from(list("0123456789az?-._ \n\t:#[]xX/%+=")))
        elif op == "truncate":
            chars = chars[:pos]
        elif op == "duplicate" and chars:
            chars[pos:pos] = chars[pos : pos + draw(st.integers(1, 12))]
    return "".join(chars)


def raw_text() -> st.SearchStrategy[str]:
    """Arbitrary bytes decoded leniently, as a user's wrong file would be."""
    return st.binary(max_size=300).map(lambda b: b.decode("utf-8", "replace"))


def inputs(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """The mix every parser is fuzzed with."""
    return st.one_of(valid, mutated(valid), raw_text(), st.text(max_size=200))


def api_values() -> st.SearchStrategy[object]:
    """Values a caller may pass for any argument of the Python API: right ones, and the
    wrong types and ranges the command line refuses (floats, strings, bools, huge and
    negative numbers, lists)."""
    return st.one_of(
        st.integers(-3, 12),
        st.sampled_from([10**6, 10**30, 2**63]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
        st.text(max_size=6),
        st.lists(st.integers(-2, 5), max_size=4),
        st.dictionaries(st.sampled_from(["black", "loop", "r0c0"]), st.just("#"), max_size=2),
    )
