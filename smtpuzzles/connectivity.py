"""Connectivity by distance to a root, over any :class:`~smtpuzzles.graph.Graph`.

"The chosen cells form one connected region" is said in linear integer arithmetic:
every chosen cell gets an integer ``dist``; the root has ``dist = 0``; every other chosen
cell has a chosen predecessor whose ``dist`` is exactly one less. Following predecessors
strictly decreases ``dist``, so every chosen cell has a path to the root, which is what
connected means. ``step="less"`` asks only for a predecessor with a smaller ``dist``
(any strictly decreasing chain of non-negative integers ends, and only the root may end
it): the same sets are connected, with fewer constraints on the labels, which Z3's
arithmetic solver handles faster (difference constraints). With a root the model
chooses, the root is the chosen cell of least index (symmetry broken: one root per
region, not one per labelling).

Links are followed as written (``A: B`` lets the region grow from A to B), so one-way
links in an adjacency table mean "reachable from the root". Over a chosen set of edges
(the Koburin loop), predecessors must be joined by a chosen edge.

The same constraints come in two forms: :func:`connected` builds Z3 terms through the
Python API; :func:`connected_smtlib` writes them as SMT-LIB text (declarations and
assertions, the same names), which Z3 parses about ten times faster than the API builds
them, so a puzzle that writes its other rules as text can build its whole formula cheaply.

This module is the one place that knows how "connected" is said in integer arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import z3

from .graph import Graph
from .smtlib import and_, not_

Term = z3.BoolRef | bool


@dataclass
class Region:
    """The terms of one connected region: its constraints and its distance variables."""

    constraints: list[z3.BoolRef] = field(default_factory=list)
    dist: dict[int, z3.ArithRef] = field(default_factory=dict)
    root: dict[int, z3.BoolRef | bool] = field(default_factory=dict)


def _as_bool(value: Term) -> z3.BoolRef:
    return value if isinstance(value, z3.BoolRef) else z3.BoolVal(bool(value))


def connected(
    graph: Graph,
    member: Mapping[int, Term],
    name: str,
    root: int | None = None,
    max_dist: int | None = None,
    edges: Mapping[tuple[int, int], Term] | None = None,
    step: str = "exact",
) -> Region:
    """Constraints that make ``{i : member[i]}`` one connected region of ``graph``.

    ``member`` maps each candidate cell to a Boolean term (or a constant); cells absent
    from it are never members. ``root``: a cell known to be a member (given root, e.g. a
    Nurikabe clue); without it the model picks the member of least index, and the empty
    set is allowed. ``max_dist`` caps distances (an island of k cells has ``dist < k``).
    ``edges``: when given, a predecessor must be joined by a chosen edge; keys are
    ``(i, j)`` with ``i < j`` and the edge is used in both directions. ``step``:
    ``"exact"`` (a predecessor is one closer) or ``"less"`` (a predecessor is closer).
    """
    _check_step(step)
    region = Region()
    cells = sorted(member)
    if not cells:
        return region
    limit = len(cells) - 1 if max_dist is None else min(max_dist, len(cells) - 1)
    into = graph.into()
    for i in cells:
        v = z3.Int(f"{name}_dist_{graph.names[i]}")
        region.dist[i] = v
        region.constraints.append(z3.And(v >= 0, v <= limit))
    region.root, chain = _roots(cells, member, root, name)
    region.constraints.extend(chain)
    if root is not None:
        region.constraints.append(_as_bool(member[root]))
    for i in cells:
        here = _as_bool(member[i])
        is_root = _as_bool(region.root[i])
        v = region.dist[i]
        region.constraints.append(z3.Implies(is_root, v == 0))
        steps = []
        for j in into[i]:
            if j not in member:
                continue
            link: list[z3.BoolRef] = [_as_bool(member[j])]
            if edges is not None:
                key = (min(i, j), max(i, j))
                if key not in edges:
                    continue
                link.append(_as_bool(edges[key]))
            closer = region.dist[j] + 1 == v if step == "exact" else region.dist[j] < v
            steps.append(z3.And(*link, closer))
        non_root = z3.And(here, z3.Not(is_root))
        has_step = z3.Or(*steps) if steps else z3.BoolVal(False)
        region.constraints.append(z3.Implies(non_root, has_step))
    return region


STEPS = ("exact", "less")


def _check_step(step: str) -> None:
    if step not in STEPS:
        raise ValueError(f"unknown step {step!r}; expected one of {STEPS}")


def _roots(
    cells: Sequence[int], member: Mapping[int, Term], root: int | None, name: str
) -> tuple[dict[int, z3.BoolRef | bool], list[z3.BoolRef]]:
    """Root indicators: the given root, or the member of least index.

    The least member is found with a prefix chain ``none_before_k`` ("no member among
    the first k candidates"), linear in size instead of quadratic.
    """
    if root is not None:
        if root not in member:
            raise ValueError("the given root must be a candidate cell")
        return {i: i == root for i in cells}, []
    roots: dict[int, z3.BoolRef | bool] = {}
    chain: list[z3.BoolRef] = []
    none_before: z3.BoolRef = z3.BoolVal(True)
    for k, i in enumerate(cells):
        here = _as_bool(member[i])
        roots[i] = here if k == 0 else z3.And(here, none_before)
        if k + 1 < len(cells):
            nxt = z3.Bool(f"{name}_none_before_{k + 1}")
            chain.append(nxt == z3.And(none_before, z3.Not(here)) if k else nxt == z3.Not(here))
            none_before = nxt
    return roots, chain


@dataclass
class RegionText:
    """The SMT-LIB text of one connected region: declarations of its new variables
    (``declare-fun`` lines) and its constraints (terms, without ``assert``)."""

    declarations: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    dist: dict[int, str] = field(default_factory=dict)  #: each cell's distance variable


_SIMPLE = re.compile(r"[A-Za-z~!@$%^&*_+=<>.?/-][A-Za-z0-9~!@$%^&*_+=<>.?/-]*")


def symbol(name: str) -> str:
    """An SMT-LIB symbol for a name: as it is when simple, else quoted ``|name|``."""
    return name if _SIMPLE.fullmatch(name) else f"|{name}|"


def _text(value: str | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def connected_smtlib(
    graph: Graph,
    member: Mapping[int, str | bool],
    name: str,
    root: int | None = None,
    max_dist: int | None = None,
    edges: Mapping[tuple[int, int], str | bool] | None = None,
    step: str = "exact",
) -> RegionText:
    """The constraints of :func:`connected` as SMT-LIB text, variables named alike.

    ``member`` and ``edges`` map to SMT-LIB terms (``"black_r0c0"``, ``"(not x)"``) or
    constants; the caller declares the variables they mention.
    """
    _check_step(step)
    region = RegionText()
    cells = sorted(member)
    if not cells:
        return region
    if root is not None and root not in member:
        raise ValueError("the given root must be a candidate cell")
    limit = len(cells) - 1 if max_dist is None else min(max_dist, len(cells) - 1)
    into = graph.into()
    dist = {i: symbol(f"{name}_dist_{graph.names[i]}") for i in cells}
    region.dist = dist
    here = {i: _text(member[i]) for i in cells}
    region.declarations = [f"(declare-fun {dist[i]} () Int)" for i in cells]
    out = region.constraints
    out.extend(f"(and (>= {dist[i]} 0) (<= {dist[i]} {limit}))" for i in cells)
    is_root: dict[int, str] = {}
    if root is not None:
        is_root = {i: "true" if i == root else "false" for i in cells}
        out.append(here[root])
    else:  # the member of least index, through a prefix chain "no member before k"
        none_before = "true"
        for k, i in enumerate(cells):
            is_root[i] = here[i] if k == 0 else f"(and {here[i]} {none_before})"
            if k + 1 < len(cells):
                nxt = symbol(f"{name}_none_before_{k + 1}")
                region.declarations.append(f"(declare-fun {nxt} () Bool)")
                before = not_(here[i]) if k == 0 else f"(and {none_before} {not_(here[i])})"
                out.append(f"(= {nxt} {before})")
                none_before = nxt
    for i in cells:
        out.append(f"(=> {is_root[i]} (= {dist[i]} 0))")
        steps = []
        for j in into[i]:
            if j not in member:
                continue
            link = [here[j]]
            if edges is not None:
                key = (min(i, j), max(i, j))
                if key not in edges:
                    continue
                link.append(_text(edges[key]))
            closer = (
                f"(= (+ {dist[j]} 1) {dist[i]})" if step == "exact" else f"(< {dist[j]} {dist[i]})"
            )
            steps.append(and_([*link, closer]))
        has_step = (
            "false" if not steps else steps[0] if len(steps) == 1 else f"(or {' '.join(steps)})"
        )
        out.append(f"(=> (and {here[i]} {not_(is_root[i])}) {has_step})")
    return region
