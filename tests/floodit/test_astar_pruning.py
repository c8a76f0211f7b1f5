"""The A* skips moves that only put two moves in a worse order. The reason that stays
exact although a flooded set can be reached along several paths (each leaving other
moves worth playing) is an argument, so it is held to brute force from every start
cell, under cut-offs, and on the hand-made cases where a move is or is not dropped."""

from __future__ import annotations

import random

from oracles.floodit import is_flooded, optimum_by_bfs, random_grid, replay

from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.presolve import (
    _bits,
    _flood,
    _worth_playing_after,
    shortest_by_search,
)


def test_it_finds_the_brute_force_optimum_from_every_start() -> None:
    """From a random start cell, with cut-offs: the solution is a shortest one, a bound
    from a search cut short never passes the optimum, and the optimum as ceiling is
    proven (nothing shorter was lost to a skipped move)."""
    rng = random.Random(31)
    for _ in range(150):
        grid = random_grid(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(2, 6))
        start = (rng.randrange(len(grid)), rng.randrange(len(grid[0])))
        g = cluster_graph(grid, start)
        optimum = optimum_by_bfs(grid, start)
        found = shortest_by_search(g, compiled=False)
        assert found.moves is not None and len(found.moves) == optimum, (grid, start)
        assert is_flooded(replay(grid, found.moves, start)[0])
        for limit in range(6):
            assert shortest_by_search(g, limit_nodes=limit, compiled=False).proven <= optimum
            kept = shortest_by_search(g, limit_states=limit + 1, compiled=False)
            assert kept.proven <= optimum and (kept.moves is None or len(kept.moves) == optimum)
        at_ceiling = shortest_by_search(g, ceiling=optimum, compiled=False)
        assert (at_ceiling.moves, at_ceiling.proven) == (None, optimum), (grid, start)
        weighted = shortest_by_search(g, ceiling=optimum, weight=(2, 1), compiled=False)
        assert (weighted.moves, weighted.proven) == (None, optimum), (grid, start)
        weighted = shortest_by_search(g, ceiling=optimum + 3, weight=(2, 1), compiled=False)
        assert weighted.moves is not None and optimum <= len(weighted.moves) < optimum + 3
        assert weighted.proven <= optimum
        assert is_flooded(replay(grid, weighted.moves, start)[0])


def worth_after(grid: list[list[int]], start: tuple[int, int], colour: int) -> set[int]:
    """Colours worth playing after the first move, ``colour``, from ``start``."""
    g = cluster_graph(grid, start)
    bits = _bits(g)
    flooded = 1 << g.start
    border = bits.border(flooded)
    colours = sorted({v for row in grid for v in row})
    i = colours.index(colour)
    after, after_border = _flood(bits, flooded, border, bits.of_colour[i])
    kept = _worth_playing_after(bits, flooded, border, i, after, after_border)
    return {colours[d] for d in range(len(colours)) if kept >> d & 1}


def test_a_move_the_last_move_brought_to_the_border_is_kept() -> None:
    """Colour 2 touches the flood only through the 1 just taken: it stays."""
    assert 2 in worth_after([[0, 1, 2]], (0, 0), 1)


def test_of_two_orders_that_flood_the_same_the_lower_colour_first_is_kept() -> None:
    """1 and 2 each take one cluster beside the start, and 1 then 2 floods what 2 then
    1 floods: only the order with the lower colour first is kept."""
    grid = [[1, 0, 2]]
    assert 2 in worth_after(grid, (0, 1), 1)
    assert 1 not in worth_after(grid, (0, 1), 2)


def test_of_two_orders_that_flood_the_same_the_one_ahead_after_one_move_is_kept() -> None:
    """2 takes two clusters beside the start and 1 takes one: 2 first is ahead after
    one move, so 2 then 1 is kept although 1 is the lower colour."""
    grid = [[2, 0, 1], [3, 0, 3], [2, 0, 3]]
    assert 2 not in worth_after(grid, (0, 1), 1)
    assert 1 in worth_after(grid, (0, 1), 2)


def test_a_move_that_would_flood_more_if_played_first_is_dropped() -> None:
    """After 1, the 2 on the border was there before; played first, 2 would let the 1
    that follows also take the 1 behind it. So 2 after 1 is dropped, whatever the
    colour order, and 1 after 2 (which takes both 1s) is kept."""
    grid = [[1, 0, 2, 1]]
    assert 2 not in worth_after(grid, (0, 1), 1)
    assert 1 in worth_after(grid, (0, 1), 2)


def test_more_than_64_colours_keep_their_masks_apart() -> None:
    """Colour masks of two words (one per 64 colours): a row of distinct colours needs
    one move per cluster, in order."""
    g = cluster_graph([list(range(70))])
    assert shortest_by_search(g, compiled=False).moves == list(range(1, 70))


def test_a_board_where_the_skips_and_playing_completed_colours_at_once_disagree() -> None:
    """Together with playing a colour at once when the border holds all of it, the skips
    lost every solution on this board (the queue ran empty); alone they find the 4."""
    grid = [[1, 2], [0, 1], [2, 3]]
    found = shortest_by_search(cluster_graph(grid), compiled=False)
    assert found.moves is not None and len(found.moves) == optimum_by_bfs(grid) == 4
