"""Distance-to-root connectivity is satisfiable exactly for connected sets.

Every subset of cells (and, for the edge form, every subset of edges) of small graphs
is tried against a plain BFS; a single incremental solver answers each case under
assumptions, so the whole enumeration stays fast. Both forms are tried: the Z3 terms of
``connected`` and the SMT-LIB text of ``connected_smtlib``, parsed by Z3.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
import z3

from smtpuzzles.connectivity import connected, connected_smtlib, first_member
from smtpuzzles.graph import Graph, hex_grid, parse_adjacency, rectangle, torus


def bfs_connected(graph: Graph, members: set[int], root: int | None) -> bool:
    """Independent oracle: every member reachable from the root along links."""
    if not members:
        return True
    start = min(members) if root is None else root
    if start not in members:
        return False
    seen, queue = {start}, deque([start])
    while queue:
        i = queue.popleft()
        for j in graph.out[i]:
            if j in members and j not in seen:
                seen.add(j)
                queue.append(j)
    return seen == members


GRAPHS = {
    "square3x3": rectangle(3, 3),
    "square2x4": rectangle(2, 4),
    "torus3x3": torus(3, 3),
    "hex3x3": hex_grid(3, 3),
    "diagonal2x3": rectangle(2, 3, diagonal=True),
    "one-way": parse_adjacency("A: B\nB: C\nC: D\nD:\nE: A D\n"),
}


#: (form, step): the Z3 terms or the SMT-LIB text, each with both kinds of step.
FORMS = [("api", "exact"), ("smtlib", "exact"), ("api", "less"), ("smtlib", "less")]
#: The slow edge enumeration tries the text form of each step and the terms once.
EDGE_FORMS = [("api", "exact"), ("smtlib", "exact"), ("smtlib", "less")]


def region_constraints(
    form: tuple[str, str],
    graph: Graph,
    member: dict[int, z3.BoolRef],
    name: str,
    root: int | None = None,
    max_dist: int | None = None,
    edges: dict[tuple[int, int], z3.BoolRef] | None = None,
    low: dict[int, int] | None = None,
    known: set[int] | frozenset[int] = frozenset(),
) -> list[z3.BoolRef]:
    """The region's constraints from either form, as Z3 terms over ``member``/``edges``."""
    kind, step = form
    if kind == "api":
        return connected(
            graph, member, name, root, max_dist, edges=edges, step=step, low=low, known=known
        ).constraints
    names = {i: str(v) for i, v in member.items()}
    links = None if edges is None else {e: str(v) for e, v in edges.items()}
    region = connected_smtlib(
        graph, names, name, root, max_dist, edges=links, step=step, low=low, known=known
    )
    used = list(names.values()) + list((links or {}).values())
    text = "".join(f"(declare-fun {n} () Bool)\n" for n in used)
    text += "\n".join(region.declarations) + "\n"
    text += "".join(f"(assert {c})\n" for c in region.constraints)
    return list(z3.parse_smt2_string(text))


def solver_for(graph: Graph, root: int | None, form: tuple[str, str], low=None):
    member = {i: z3.Bool(f"in_{graph.names[i]}") for i in range(len(graph))}
    solver = z3.SolverFor("QF_FD")
    solver.add(region_constraints(form, graph, member, "s", root=root, low=low))
    return solver, member


@pytest.mark.parametrize("form", FORMS, ids="-".join)
@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_chosen_root_every_subset(name: str, form: tuple[str, str]) -> None:
    graph = GRAPHS[name]
    solver, member = solver_for(graph, None, form)
    for bits in itertools.product([False, True], repeat=len(graph)):
        chosen = {i for i, b in enumerate(bits) if b}
        lits = [member[i] if b else z3.Not(member[i]) for i, b in enumerate(bits)]
        expected = bfs_connected(graph, chosen, None)
        if graph.is_symmetric():
            # with two-way links, connected from the least member == connected at all
            assert expected == (len(graph.components(chosen)) <= 1)
        assert (solver.check(*lits) == z3.sat) == expected, (name, sorted(chosen))


def bfs_distances(graph: Graph, root: int) -> dict[int, int]:
    dist, queue = {root: 0}, deque([root])
    while queue:
        i = queue.popleft()
        for j in graph.out[i]:
            if j not in dist:
                dist[j] = dist[i] + 1
                queue.append(j)
    return dist


@pytest.mark.parametrize("proven", [False, True], ids=["plain", "low"])
@pytest.mark.parametrize("form", FORMS, ids="-".join)
@pytest.mark.parametrize("name", ["square3x3", "hex3x3", "one-way"])
def test_given_root_every_subset(name: str, form: tuple[str, str], proven: bool) -> None:
    """With and without least distances (the true ones from the root: sound bounds)."""
    graph = GRAPHS[name]
    root = len(graph) // 2
    low = bfs_distances(graph, root) if proven else None
    solver, member = solver_for(graph, root, form, low)
    for bits in itertools.product([False, True], repeat=len(graph)):
        chosen = {i for i, b in enumerate(bits) if b}
        lits = [member[i] if b else z3.Not(member[i]) for i, b in enumerate(bits)]
        expected = root in chosen and bfs_connected(graph, chosen, root)
        assert (solver.check(*lits) == z3.sat) == expected, (name, sorted(chosen))


@pytest.mark.parametrize("form", FORMS, ids="-".join)
def test_max_dist_limits_the_radius(form: tuple[str, str]) -> None:
    graph = rectangle(1, 5)
    member = {i: z3.Bool(f"in{i}") for i in range(5)}
    solver = z3.Solver()
    solver.add(region_constraints(form, graph, member, "s", root=0, max_dist=2))
    assert solver.check(member[2], z3.Not(member[3])) == z3.sat
    assert solver.check(member[3]) == z3.unsat


@pytest.mark.parametrize("form", EDGE_FORMS, ids="-".join)
@pytest.mark.parametrize("shape", [(2, 3), (3, 3)])
@pytest.mark.slow
def test_chosen_edges_every_subset(shape: tuple[int, int], form: tuple[str, str]) -> None:
    """Over chosen edges: the touched cells must be connected by chosen edges."""
    graph = rectangle(*shape)
    edges = graph.undirected_edges()
    member = {i: z3.Bool(f"in{i}") for i in range(len(graph))}
    chosen_edge = {e: z3.Bool(f"e{e[0]}_{e[1]}") for e in edges}
    solver = z3.SolverFor("QF_FD")
    solver.add(region_constraints(form, graph, member, "loop", edges=chosen_edge))
    for i in member:  # a cell is a member iff a chosen edge touches it
        solver.add(member[i] == z3.Or([chosen_edge[e] for e in edges if i in e]))
    for bits in itertools.product([False, True], repeat=len(edges)):
        picked = [e for e, b in zip(edges, bits) if b]
        touched = {i for e in picked for i in e}
        sub = Graph(
            names=graph.names,
            out=tuple(
                tuple(j for e in picked for j in e if i in e and j != i) for i in range(len(graph))
            ),
        )
        expected = bfs_connected(sub, touched, None)
        lits = [chosen_edge[e] if b else z3.Not(chosen_edge[e]) for e, b in zip(edges, bits)]
        assert (solver.check(*lits) == z3.sat) == expected, picked


LESS_FORMS = [("api", "less"), ("smtlib", "less")]


@pytest.mark.parametrize("form", LESS_FORMS, ids="-".join)
@pytest.mark.parametrize("name", ["square3x3", "hex3x3", "torus3x3", "one-way"])
@pytest.mark.slow
def test_known_members_every_subset(name: str, form: tuple[str, str]) -> None:
    """Known members joined to the root get constant distances: the sets allowed are
    still exactly the connected ones that hold the known members."""
    graph = GRAPHS[name]
    root = len(graph) // 2
    rng = random.Random(name)
    knowns = [set(rng.sample(range(len(graph)), k)) - {root} for k in (1, 2, 3, 4, 5)]
    knowns.append(set(range(len(graph))) - {root})
    for known in knowns:
        member = {i: z3.Bool(f"in_{graph.names[i]}") for i in range(len(graph))}
        solver = z3.SolverFor("QF_FD")
        solver.add(region_constraints(form, graph, member, "s", root=root, known=known))
        for bits in itertools.product([False, True], repeat=len(graph)):
            chosen = {i for i, b in enumerate(bits) if b}
            lits = [member[i] if b else z3.Not(member[i]) for i, b in enumerate(bits)]
            expected = root in chosen and known <= chosen and bfs_connected(graph, chosen, root)
            assert (solver.check(*lits) == z3.sat) == expected, (name, known, sorted(chosen))


def test_known_members_joined_to_the_root_need_no_variable() -> None:
    """On a path rooted at its end, known cells up to a gap are fixed, the rest are not."""
    graph = rectangle(1, 5)
    member = {i: f"in{i}" for i in range(5)}
    text = connected_smtlib(graph, member, "s", root=0, step="less", known={1, 2, 4})
    assert text.dist[1] == "1" and text.dist[2] == "2"
    assert text.dist[3] == "s_dist_r0c3" and text.dist[4] == "s_dist_r0c4"
    assert len(text.declarations) == 2
    with pytest.raises(ValueError):
        connected_smtlib(graph, member, "s", root=0, step="exact", known={1})
    with pytest.raises(ValueError):
        connected_smtlib(graph, member, "s", step="less", known={1})
    with pytest.raises(ValueError):
        connected_smtlib(graph, {0: "a", 1: "b"}, "s", root=0, step="less", known={2})


def test_both_forms_name_their_variables_alike() -> None:
    graph = parse_adjacency("A: B\nB: C\nC:\n")
    member = {i: z3.Bool(f"in_{graph.names[i]}") for i in range(len(graph))}
    api = connected(graph, member, "s")
    text = connected_smtlib(graph, {i: str(v) for i, v in member.items()}, "s")
    assert [str(v) for v in api.dist.values()] == list(text.dist.values())
    with pytest.raises(ValueError):
        connected_smtlib(graph, {0: "x"}, "s", step="more")


@pytest.mark.parametrize("form", FORMS, ids="-".join)
def test_least_distances_rule_cells_out(form: tuple[str, str]) -> None:
    """``low`` is a promise the caller makes: a cell proven farther than ``max_dist`` is
    never a member, and a proven least distance of 2 still lets a cell two steps away in."""
    graph = rectangle(1, 5)
    member = {i: z3.Bool(f"in{i}") for i in range(5)}
    solver = z3.Solver()
    low = {i: i for i in range(5)}
    solver.add(region_constraints(form, graph, member, "s", root=0, max_dist=3, low=low))
    assert solver.check(member[3]) == z3.sat
    assert solver.check(member[4]) == z3.unsat


def test_given_root_has_distance_zero_and_no_variable() -> None:
    graph = rectangle(1, 3)
    text = connected_smtlib(graph, {0: "a", 1: "b", 2: "c"}, "s", root=1, step="less")
    assert text.dist[1] == "0"
    assert not any("s_dist_r0c1 " in d for d in text.declarations)


def test_cell_names_are_escaped_in_variable_names() -> None:
    graph = parse_adjacency("a_b: c\nc: a_b\n")
    text = connected_smtlib(graph, {0: "x", 1: "y"}, "s")
    assert text.dist == {0: "s_dist_a~5f~b", 1: "s_dist_c"}


def test_first_member_is_the_root_exactly_once() -> None:
    """For every set of members among four cells (in a shuffled order), "is the root"
    holds of the first member in that order and of no other cell."""
    cells = [2, 0, 3, 1]
    member = {i: f"in{i}" for i in cells}
    first = first_member(cells, member, "s")
    text = "".join(f"(declare-fun in{i} () Bool)\n" for i in cells)
    text += "\n".join(first.declarations) + "\n"
    text += "".join(f"(assert {c})\n" for c in first.constraints)
    for i in cells:
        text += f"(declare-fun root{i} () Bool)\n(assert (= root{i} {first.root[i]}))\n"
    solver = z3.Solver()
    solver.add(z3.parse_smt2_string(text))
    for bits in itertools.product([False, True], repeat=4):
        chosen = [i for i, b in zip(cells, bits) if b]
        solver.push()
        solver.add([z3.Bool(f"in{i}") == b for i, b in zip(cells, bits)])
        assert solver.check() == z3.sat
        model = solver.model()
        roots = [i for i in cells if z3.is_true(model.eval(z3.Bool(f"root{i}")))]
        assert roots == chosen[:1], (chosen, roots)
        solver.pop()


def test_z3_terms_any_term_or_constant_as_a_member() -> None:
    """``connected`` stands each given term in for a placeholder of the text it parses:
    compound terms and Python constants keep their meaning."""
    graph = rectangle(1, 4)
    white = [z3.Bool(f"w{i}") for i in range(4)]
    member = {0: True, 1: z3.Not(white[1]), 2: z3.Not(white[2]), 3: z3.Not(white[3])}
    solver = z3.Solver()
    solver.add(connected(graph, member, "s", step="less").constraints)
    assert solver.check(white[1], z3.Not(white[2])) == z3.unsat  # 0 and 2 apart
    assert solver.check(z3.Not(white[1]), white[2], white[3]) == z3.sat
    assert not any("s_term_" in str(c) for c in solver.assertions())
