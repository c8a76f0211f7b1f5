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
region, not one per labelling). A given root's distance is the constant 0, and a caller
that has proven least distances (a BFS through the cells that may be members) passes
them as lower bounds; a cell proven out of reach is simply not a member. Members the
caller knows, joined to a given root through known members, get constant distances.

Links are followed as written (``A: B`` lets the region grow from A to B), so one-way
links in an adjacency table mean "reachable from the root". Over a chosen set of edges
(the Koburin loop), predecessors must be joined by a chosen edge.

:func:`connected_smtlib` writes the constraints as SMT-LIB text (declarations and
assertions), which Z3 parses about ten times faster than its Python API builds them, so
a puzzle that writes its other rules as text can build its whole formula cheaply;
:func:`connected` gives the same constraints as Z3 terms, parsed from that text.

This module is the one place that knows how "connected" is said in integer arithmetic:
Nurikabe's islands and wall and Koburin's loop all come from here, and so does "the first
member is the root" (:func:`first_member`), which the explanations' Boolean forms of
connectivity share.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from . import z3lazy as z3
from .graph import Graph
from .smtlib import and_, escape, not_, or_

Term = z3.BoolRef | bool


@dataclass
class Region:
    """The terms of one connected region: its constraints and its distance variables."""

    constraints: list[z3.BoolRef] = field(default_factory=list)
    dist: dict[int, z3.ArithRef] = field(default_factory=dict)


def connected(
    graph: Graph,
    member: Mapping[int, Term],
    name: str,
    root: int | None = None,
    max_dist: int | None = None,
    *,
    edges: Mapping[tuple[int, int], Term] | None = None,
    step: str = "exact",
    low: Mapping[int, int] | None = None,
    known: Collection[int] = (),
) -> Region:
    """:func:`connected_smtlib`'s constraints as Z3 terms over ``member`` and ``edges``
    (Z3 terms or constants): its text parsed, so that the two forms cannot differ."""
    # each term the caller gave stands in the text as a Boolean placeholder, replaced after
    given = [*member.values(), *(edges or {}).values()]
    slots = [z3.Bool(f"{name}_term_{k}") for k in range(len(given))]
    text = iter(
        t if isinstance(t, bool) else str(slot) for t, slot in zip(given, slots, strict=True)
    )
    member_text = {i: next(text) for i in member}
    edge_text = None if edges is None else {e: next(text) for e in edges}
    region = connected_smtlib(
        graph, member_text, name, root, max_dist, edges=edge_text, step=step, low=low, known=known
    )
    script = [f"(declare-fun {s} () Bool)" for s in slots] + region.declarations
    script += [f"(assert {c})" for c in region.constraints]
    parsed = z3.parse_smt2_string("\n".join(script)) if region.constraints else []
    pairs = [(s, t) for s, t in zip(slots, given, strict=True) if not isinstance(t, bool)]
    return Region(
        [z3.substitute(c, *pairs) if pairs else c for c in parsed],
        {i: z3.IntVal(int(d)) if d.isdigit() else z3.Int(d) for i, d in region.dist.items()},
    )


@dataclass
class _Plan:
    """What the constraints say, worked out before they are written: the candidates,
    each one's distance range (``least[i]`` to ``limit``), the cells ``low`` rules out,
    and for each cell that needs one, its possible predecessors with the chosen edge to
    them (``preds``; absent for a neighbour of a given root under ``step="less"``: the
    root is always a member and nearer, so that step always holds), and the members
    whose distance is a constant (``fixed``, see :func:`_fixed`)."""

    cells: list[int]
    inside: list[int]  #: the cells that get a distance variable: not the root, not ruled out
    #: nor fixed
    limit: int
    least: dict[int, int]
    outside: set[int]
    preds: dict[int, list[tuple[int, list[Term | str]]]]
    fixed: dict[int, int] = field(default_factory=dict)
    known: list[int] = field(default_factory=list)  #: the members the caller knows


def _plan(
    graph: Graph,
    member: Mapping[int, object],
    root: int | None,
    max_dist: int | None,
    edges: Mapping[tuple[int, int], object] | None,
    step: str,
    *,
    low: Mapping[int, int] | None,
    known: Collection[int] = (),
) -> _Plan | None:
    cells = sorted(member)
    if not cells:
        return None
    if root is not None and root not in member:
        raise ValueError("the given root must be a candidate cell")
    limit = len(cells) - 1 if max_dist is None else min(max_dist, len(cells) - 1)
    first = 0 if root is None else 1
    least = {i: max(first, (low or {}).get(i, 0)) for i in cells if i != root}
    outside = {i for i, d in least.items() if d > limit}
    into = graph.into()
    preds: dict[int, list] = {}
    for i in cells:
        if i == root or i in outside:
            continue
        options = []
        for j in into[i]:
            if j not in member or j in outside:
                continue
            link: list = []
            if edges is not None:
                key = (min(i, j), max(i, j))
                if key not in edges:
                    continue
                link.append(edges[key])
            if j == root and step == "less" and not link:
                options = None
                break
            options.append((j, link))
        if options is not None:
            preds[i] = options
    fixed = _fixed(graph, member, root, step, known, least, limit=limit)
    inside = [i for i in cells if i != root and i not in outside and i not in fixed]
    return _Plan(cells, inside, limit, least, outside, preds, fixed, sorted(known))


def _fixed(
    graph: Graph,
    member: Mapping[int, object],
    root: int | None,
    step: str,
    known: Collection[int],
    least: Mapping[int, int],
    *,
    limit: int,
) -> dict[int, int]:
    """Constant distances for the known members joined to the root through known
    members: each one's distance from the root inside that part. Its cells need no
    variable and no constraint of their own (for Nurikabe's islands and wall this
    shortens the solver's time; docs/decisions.md).

    Sound, as they chain down to the root. Complete while the distance limit is at
    least the members' count less one (no ``max_dist``, or a count pinned to
    ``max_dist + 1`` as for a Nurikabe island): with ``step="less"`` every other member
    can take the part's largest distance plus its own distance from the part, which
    stays within that. A cell whose distance there falls outside the bounds it was
    given stays a variable."""
    if not known:
        return {}
    if root is None or step != "less":
        raise ValueError("known members need a given root and step='less'")
    part = set(known)
    if not part <= member.keys():
        raise ValueError("known members must be candidate cells")
    dist, queue = {root: 0}, deque([root])
    while queue:
        i = queue.popleft()
        for j in graph.out[i]:
            if j in part and j not in dist:
                dist[j] = dist[i] + 1
                queue.append(j)
    del dist[root]
    return {i: d for i, d in dist.items() if least[i] <= d <= limit}


STEPS = ("exact", "less")


def _check_step(step: str) -> None:
    if step not in STEPS:
        raise ValueError(f"unknown step {step!r}; expected one of {STEPS}")


@dataclass
class FirstMember:
    """ "The first member is the root" in SMT-LIB: each cell's term "it is the root", and
    the helper variables that term needs (their declarations and constraints)."""

    root: dict[int, str]
    declarations: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)


def first_member(cells: Sequence[int], member: Mapping[int, str], name: str) -> FirstMember:
    """The root is the first of ``cells`` (in their order) that is a member, so that a
    region has one root, not one per labelling. Said through a prefix chain
    ``<name>_none_before_<k>`` ("no member among the first k cells"): linear in size,
    where "no member before it" said of each cell would be quadratic."""
    first = FirstMember({})
    none_before = "true"
    for k, i in enumerate(cells):
        here = member[i]
        first.root[i] = here if k == 0 else f"(and {here} {none_before})"
        if k + 1 < len(cells):
            nxt = f"{name}_none_before_{k + 1}"
            first.declarations.append(f"(declare-fun {nxt} () Bool)")
            before = not_(here) if k == 0 else f"(and {none_before} {not_(here)})"
            first.constraints.append(f"(= {nxt} {before})")
            none_before = nxt
    return first


def _dist_name(graph: Graph, name: str, i: int) -> str:
    return f"{name}_dist_{escape(graph.names[i])}"


@dataclass
class RegionText:
    """The SMT-LIB text of one connected region: declarations of its new variables
    (``declare-fun`` lines) and its constraints (terms, without ``assert``)."""

    declarations: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    dist: dict[int, str] = field(default_factory=dict)  #: each cell's distance (a name, or 0)


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
    *,
    edges: Mapping[tuple[int, int], str | bool] | None = None,
    step: str = "exact",
    low: Mapping[int, int] | None = None,
    known: Collection[int] = (),
) -> RegionText:
    """Constraints that make ``{i : member[i]}`` one connected region of ``graph``, as
    SMT-LIB text.

    ``member`` maps each candidate cell to a Boolean term (or a constant); cells absent
    from it are never members. ``root``: a cell known to be a member (given root, e.g. a
    Nurikabe clue; its distance is the constant 0); without it the model picks the member
    of least index, and the empty set is allowed. ``max_dist`` caps distances (an island
    of k cells has ``dist < k``). ``edges``: when given, a predecessor must be joined by a
    chosen edge; keys are ``(i, j)`` with ``i < j`` and the edge is used in both
    directions. ``step``: ``"exact"`` (a predecessor is one closer) or ``"less"`` (a
    predecessor is closer). ``low``: least distances the caller has proven (a cell's
    distance from the root through the cells that may be members); a cell whose least
    distance is beyond ``max_dist`` is never a member. ``known``: cells that are members
    (with a given root and ``step="less"`` only); those joined to the root through
    known cells get constant distances (:func:`_fixed`).

    ``member`` and ``edges`` map to SMT-LIB terms (``"black_r0c0"``, ``"(not x)"``) or
    constants; the caller declares the variables they mention. ``name`` must be a plain
    SMT-LIB symbol; cell names are escaped (:func:`~smtpuzzles.smtlib.escape`).
    """
    _check_step(step)
    region = RegionText()
    plan = _plan(graph, member, root, max_dist, edges, step, low=low, known=known)
    if plan is None:
        return region
    here = {i: _text(member[i]) for i in plan.cells}
    dist = region.dist
    if root is not None:
        dist[root] = "0"
    for i, d in plan.fixed.items():
        dist[i] = str(d)
    for i in plan.inside:
        dist[i] = _dist_name(graph, name, i)
    region.declarations = [f"(declare-fun {dist[i]} () Int)" for i in plan.inside]
    out = region.constraints
    out.extend(not_(here[i]) for i in sorted(plan.outside))
    out.extend(f"(<= {plan.least[i]} {dist[i]} {plan.limit})" for i in plan.inside)
    is_root: dict[int, str] = {}
    if root is not None:
        out.append(here[root])
        out.extend(here[i] for i in plan.known)
    else:
        first = first_member(plan.cells, here, name)
        is_root = first.root
        region.declarations += first.declarations
        out += first.constraints
    for i in plan.inside:
        d = dist[i]
        if root is None:
            out.append(f"(=> {is_root[i]} (= {d} 0))")
        if i not in plan.preds:
            continue
        steps = []
        for j, link in plan.preds[i]:
            closer = f"(= (+ {dist[j]} 1) {d})" if step == "exact" else f"(< {dist[j]} {d})"
            steps.append(and_([here[j], *map(_text, link), closer]))
        guard = here[i] if root is not None else f"(and {here[i]} {not_(is_root[i])})"
        out.append(f"(=> {guard} {or_(steps)})")
    return region
