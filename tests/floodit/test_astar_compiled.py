"""The compiled A* against the Python one it copies: the same answers, bounds and
states expanded on random boards, with and without node limits and ceilings; and it
stops for a time limit like the Python code around it."""

from __future__ import annotations

import os
import random
import threading
import time

import pytest
from oracles.floodit import is_flooded, optimum_by_bfs, random_grid, replay

from smtpuzzles.limits import Budget, TimeUp, deadline
from smtpuzzles.puzzles.floodit import presolve
from smtpuzzles.puzzles.floodit.generate import random_board
from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.presolve import shortest_by_search

if presolve.COMPILED is None:
    if os.environ.get("CI"):  # CI has a compiler: a missing module is a broken build
        pytest.fail("the compiled A* was not built", pytrace=False)
    pytest.skip("the compiled A* was not built here", allow_module_level=True)


def both(g, **limits):  # type: ignore[no-untyped-def]
    compiled = shortest_by_search(g, compiled=True, **limits)
    python = shortest_by_search(g, compiled=False, **limits)
    return compiled, python


@pytest.mark.parametrize("seed", range(3))
def test_it_expands_the_same_states_as_the_python_search(seed: int) -> None:
    """Boards from 1x1 to 7x7 (up to 8 colours, so sets of one or two words): the same
    solution, bound and count of expanded states, unlimited, cut short (in states
    expanded or kept), capped and weighted."""
    rng = random.Random(seed)
    for _ in range(60):
        grid = random_grid(rng, rng.randint(1, 7), rng.randint(1, 7), rng.randint(2, 8))
        g = cluster_graph(grid)
        compiled, python = both(g)
        assert compiled == python, grid
        assert compiled.moves is not None and is_flooded(replay(grid, compiled.moves)[0])
        optimum = len(compiled.moves)
        for limits in (
            {"limit_nodes": rng.randint(0, 5)},
            {"ceiling": optimum},
            {"ceiling": optimum + 1},
            {"ceiling": max(0, optimum - 1), "limit_nodes": 3},
            {"limit_states": rng.randint(1, 30)},
            {"weight": (3, 2), "ceiling": optimum + 2},
            {"weight": (5, 1), "limit_nodes": rng.randint(0, 20)},
        ):
            compiled, python = both(g, **limits)
            assert compiled == python, (grid, limits)


def test_it_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(80):
        grid = random_grid(rng, rng.randint(1, 5), rng.randint(1, 5), rng.randint(2, 5))
        found = shortest_by_search(cluster_graph(grid), compiled=True)
        assert found.moves is not None and len(found.moves) == optimum_by_bfs(grid), grid


@pytest.mark.parametrize(("size", "colours", "seed"), [(10, 15, 1001), (12, 6, 3), (19, 4, 9)])
def test_it_matches_python_on_boards_of_several_words(size: int, colours: int, seed: int) -> None:
    """Boards of 80 to 200 clusters: sets of two to four words, where a carry between
    words or the order of two sets read as numbers would show."""
    g = cluster_graph(random_board(size, size, colours, seed).grid)
    assert len(g) > 64
    compiled, python = both(g, limit_nodes=400)
    assert compiled == python


def test_it_matches_python_with_more_than_64_colours() -> None:
    """70 colours: the masks of colours worth playing take two words."""
    grid = random_grid(random.Random(4), 12, 12, 80)
    g = cluster_graph(grid)
    assert len(set(g.colours)) > 64
    compiled, python = both(g, limit_nodes=300)
    assert compiled == python
    found = shortest_by_search(g, ceiling=len(g), compiled=True)
    assert found.moves is not None and is_flooded(replay(grid, found.moves)[0])


def test_a_time_limit_stops_it_between_states() -> None:
    """A search of millions of states, under a 0.3 s limit: the alarm's TimeUp comes out
    of the compiled loop (it polls for signals), not after the search."""
    g = cluster_graph(random_board(18, 18, 10, seed=5).grid)
    began = time.monotonic()
    with pytest.raises(TimeUp), deadline(Budget(0.3)):
        shortest_by_search(g, limit_nodes=10**8, compiled=True)
    assert time.monotonic() - began < 1.5


def test_its_own_budget_ends_it_with_an_admissible_bound() -> None:
    g = cluster_graph(random_board(18, 18, 10, seed=5).grid)
    found = shortest_by_search(g, budget_s=0.05, compiled=True)
    assert found.moves is None and 0 < found.expanded
    assert presolve.lower_bound(g) <= found.proven


def test_a_disconnected_graph_is_refused() -> None:
    from smtpuzzles.puzzles.floodit.model import ClusterGraph

    apart = ClusterGraph(
        colours=[0, 1], cells=[[(0, 0)], [(0, 2)]], neighbours=[[], []], start=0, n_colours=2
    )
    with pytest.raises(ValueError, match="cannot reach"):
        shortest_by_search(apart, compiled=True)


def test_other_threads_run_while_it_searches() -> None:
    """The search lets go of the interpreter's lock now and then, so a thread such as
    the watchdog that reports a run past its limit is not held up for its seconds."""
    g = cluster_graph(random_board(14, 14, 8, 1048).grid)
    ticks: list[float] = []
    done = threading.Event()

    def tick() -> None:
        while not done.wait(0.005):
            ticks.append(time.monotonic())

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        began = time.monotonic()
        shortest_by_search(g, 300_000, compiled=True)  # well over half a second
        ended = time.monotonic()
    finally:
        done.set()
        ticker.join()
    quarter = (ended - began) / 4
    assert any(began + quarter < t < ended - quarter for t in ticks)
