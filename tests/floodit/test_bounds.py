"""Bounds on Flood-It optima against brute force and the known optima of the corpora."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from oracles.floodit import (
    flood_region,
    is_flooded,
    optimum_by_bfs,
    random_grid,
    replay,
)

from smtpuzzles.puzzles.floodit.model import cluster_graph
from smtpuzzles.puzzles.floodit.presolve import (
    greedy_moves,
    lower_bound,
    lower_bound_by_search,
    optimum_by_search,
    shortest_by_search,
    upper_bound,
)


def small_boards(count: int, seed: int) -> list[list[list[int]]]:
    """Random boards up to 6x6 with 2 to 6 colours, one-row and one-column ones too."""
    rng = random.Random(seed)
    return [
        random_grid(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(2, 6))
        for _ in range(count)
    ]


def assert_solves(grid: list[list[int]], moves: list[int]) -> None:
    final, _ = replay(grid, moves)  # also rejects no-op moves
    assert is_flooded(final), f"{moves} leaves the board unflooded"


@pytest.mark.parametrize("seed", range(4))
def test_bounds_bracket_the_brute_force_optimum(seed: int) -> None:
    raised = 0
    for grid in small_boards(80, seed):
        g = cluster_graph(grid)
        optimum = optimum_by_bfs(grid)
        beam = upper_bound(g, width=3)
        greedy = greedy_moves(g)
        assert lower_bound(g) <= optimum <= len(beam) <= len(greedy), grid
        assert optimum_by_search(g) == optimum, grid
        searched = lower_bound_by_search(g, limit_nodes=4)
        assert lower_bound(g) <= searched <= optimum, grid
        raised += searched > lower_bound(g)
        assert_solves(grid, beam)
        assert_solves(grid, greedy)
    assert raised > 0, "a bounded search should sometimes beat the plain bound"


def test_lower_bound_is_admissible_from_positions_reached_by_play() -> None:
    rng = random.Random(99)
    for grid in small_boards(120, seed=7):
        g = cluster_graph(grid)
        board = [row[:] for row in grid]
        for _ in range(rng.randint(1, 4)):
            region = flood_region(board)
            if len(region) == len(grid) * len(grid[0]):
                break
            current = board[0][0]
            move = rng.choice([c for c in range(g.n_colours) if c != current])
            for r, c in region:
                board[r][c] = move
        region = flood_region(board)
        flooded = frozenset(i for i, cells in enumerate(g.cells) if set(cells) <= region)
        assert lower_bound(g, flooded) <= optimum_by_bfs(grid, flooded_cells=region), grid


def test_lower_bound_counts_each_colour_left_and_each_layer() -> None:
    ring = [[0, 1, 2], [3, 0, 0]]  # start's neighbours 1 and 3, then 2 and the other 0
    g = cluster_graph(ring)
    assert lower_bound(g) == optimum_by_bfs(ring) == 4
    stripes = [[0, 1, 0, 1, 0, 1, 0]]  # only colour-blind steps: one per cluster
    assert lower_bound(cluster_graph(stripes)) == 6 == optimum_by_bfs(stripes)
    assert lower_bound(cluster_graph([[5]])) == 0
    assert upper_bound(cluster_graph([[5]])) == []
    assert greedy_moves(cluster_graph([[2, 2], [2, 2]])) == []


def test_lower_bound_from_the_whole_board_is_zero() -> None:
    g = cluster_graph([[0, 1], [2, 3]])
    assert lower_bound(g, frozenset(range(len(g)))) == 0
    assert lower_bound(g, frozenset({g.start})) == lower_bound(g) == 3
    with pytest.raises(ValueError, match="no cluster 4"):
        lower_bound(g, frozenset({0, 4}))


def test_search_gives_up_past_its_node_limit() -> None:
    grid = random_grid(random.Random(5), 6, 6, 6)
    g = cluster_graph(grid)
    assert optimum_by_search(g, limit_nodes=1) is None
    assert lower_bound(g) <= lower_bound_by_search(g, limit_nodes=1) <= optimum_by_bfs(grid)
    assert lower_bound_by_search(g, limit_nodes=10**6) == optimum_by_bfs(grid)
    assert optimum_by_search(g, limit_nodes=10**6) == optimum_by_bfs(grid)


def test_an_exhausted_budget_still_returns_a_valid_answer() -> None:
    grid = random_grid(random.Random(6), 12, 12, 6)
    g = cluster_graph(grid)
    moves = upper_bound(g, width=20, budget_s=0.0)
    assert moves == greedy_moves(g)
    assert_solves(grid, moves)


def read_99problems(path: Path) -> tuple[list[list[int]], int]:
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    rows, cols, _ = map(int, lines[0].split())
    values = [int(v) - 1 for v in lines[1].split()]
    grid = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    return grid, int(lines[2])


@pytest.mark.slow
def test_bounds_bracket_the_known_optima_of_99problems(data_dir: Path) -> None:
    boards = sorted((data_dir / "floodit" / "99problems").glob("*_*_*_*"))
    assert boards, "no 99problems boards found"
    hits = 0
    for path in boards[::4]:  # every fourth board: all sizes and colour counts, modest time
        grid, optimum = read_99problems(path)
        g = cluster_graph(grid)
        moves = upper_bound(g, width=5)
        assert lower_bound(g) <= optimum <= len(moves), path.name
        assert_solves(grid, moves)
        hits += len(moves) == optimum
    print(f"\nbeam width 5 hits the optimum on {hits} of {len(boards[::4])} 99problems boards")


@pytest.mark.slow
def test_bounds_bracket_the_known_optima_of_pc19(data_dir: Path) -> None:
    folder = data_dir / "floodit" / "terminal-flood"
    boards = (folder / "dataset_pc19.txt").read_text().split()[:40]
    solutions = (folder / "solutions_optimal_pc19.txt").read_text().split()[:40]
    hits = 0
    for line, solution in zip(boards, solutions, strict=True):
        side = int(len(line) ** 0.5)
        values = [int(ch, 36) - 1 for ch in line]
        grid = [values[r * side : (r + 1) * side] for r in range(side)]
        optimal = [int(ch, 36) - 1 for ch in solution]
        assert_solves(grid, optimal)  # the corpus and our simulator agree
        g = cluster_graph(grid)
        moves = upper_bound(g, width=10)
        assert lower_bound(g) <= len(optimal) <= len(moves), line
        assert_solves(grid, moves)
        hits += len(moves) == len(optimal)
    print(f"\nbeam width 10 hits the optimum on {hits} of {len(boards)} pc19 boards")


def test_search_bound_stops_at_the_ceiling_and_never_passes_the_optimum() -> None:
    rng = random.Random(11)
    for _ in range(30):
        grid = random_grid(rng, rng.randint(2, 5), rng.randint(2, 5), rng.randint(2, 4))
        g = cluster_graph(grid)
        optimum = optimum_by_bfs(grid)
        for ceiling in range(optimum - 1, optimum + 2):
            bound = lower_bound_by_search(g, limit_nodes=10**6, ceiling=ceiling)
            assert bound <= optimum, grid
            assert bound >= min(ceiling, optimum), grid


def test_a_star_returns_a_shortest_solution_or_proves_the_ceiling() -> None:
    """Its moves flood the board in the brute-force optimum (so playing a colour that
    the border completes first loses nothing); with the optimum as ceiling it finds
    nothing shorter and proves the ceiling; cut short, its bound stays admissible."""
    rng = random.Random(23)
    for _ in range(60):
        grid = random_grid(rng, rng.randint(1, 6), rng.randint(1, 6), rng.randint(2, 7))
        g = cluster_graph(grid)
        optimum = optimum_by_bfs(grid)
        found = shortest_by_search(g)
        assert found.moves is not None and len(found.moves) == found.proven == optimum, grid
        assert_solves(grid, found.moves)
        at_ceiling = shortest_by_search(g, ceiling=optimum)
        assert (at_ceiling.moves, at_ceiling.proven) == (None, optimum), grid
        cut = shortest_by_search(g, limit_nodes=2)
        assert cut.proven <= optimum, grid


def test_min_is_proven_by_a_star_on_boards_of_few_clusters_per_colour() -> None:
    """10x10 with 15 colours: the default A* finishes and proves the optimum without a
    probe; with ``bound_nodes=0`` Z3 proves the same length."""
    from smtpuzzles.puzzles.floodit.generate import random_board
    from smtpuzzles.puzzles.floodit.search import run_mode

    board = random_board(10, 10, 15, seed=1002)
    by_a_star = run_mode(board, "min")
    assert (by_a_star.status, by_a_star.proven_by, by_a_star.stats.checks) == ("optimal", "A*", 0)
    by_z3 = run_mode(board, "min", bound_nodes=0)
    assert (by_z3.status, by_z3.proven_by) == ("optimal", "z3")
    assert by_a_star.moves is not None and by_z3.moves is not None
    assert len(by_a_star.moves) == len(by_z3.moves)
    assert is_flooded(replay(board.grid, by_a_star.moves)[0])


@pytest.mark.slow
def test_min_widens_the_beam_when_it_ends_far_above_the_lower_bound() -> None:
    """An 11x11 board with 10 colours: the default beam ends 6 above Puchert's bound, the
    wide one a move shorter; ``min`` without its A* starts from the shorter and still
    proves the optimum that A* (no Z3) finds."""
    from smtpuzzles.puzzles.floodit.generate import random_board
    from smtpuzzles.puzzles.floodit.search import WIDE_GAP, run_mode

    board = random_board(11, 11, 10, seed=70)
    g = cluster_graph(board.grid)
    narrow = len(upper_bound(g))
    assert narrow - lower_bound(g) >= WIDE_GAP  # the board takes the wide path
    outcome = run_mode(board, "min", bound_nodes=0)
    assert outcome.derived is not None and outcome.derived[1] < narrow
    assert outcome.status == "optimal" and outcome.moves is not None
    assert len(outcome.moves) == optimum_by_search(g) == 24
    assert is_flooded(replay(board.grid, outcome.moves)[0])


@pytest.mark.parametrize(
    ("seed", "optimum", "shorter_nodes", "deep"), [(20, 17, 300_000, False), (48, 18, 50, True)]
)
def test_min_shortens_the_beam_by_weighted_a_star_then_proves_by_a_deep_one(
    seed: int, optimum: int, shorter_nodes: int, deep: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the first A* cut to 100 states, ``min`` on a 12x12 board goes on as on a
    large one: weighted A* searches find a solution shorter than the beam's, and a
    weighted search that empties its queue, or the deep A* below the shorter length,
    proves it optimal without Z3."""
    from smtpuzzles.puzzles.floodit import presolve, search
    from smtpuzzles.puzzles.floodit.generate import random_board

    if presolve.COMPILED is None:
        pytest.skip("the second A* and the weighted ones run with the compiled search only")
    monkeypatch.setattr(search, "COMPILED_NODES", 100)
    monkeypatch.setattr(search, "COMPILED_NODES_FEW", 100)
    monkeypatch.setattr(search, "SHORTER_NODES", shorter_nodes)
    board = random_board(12, 12, 6, seed)
    g = cluster_graph(board.grid)
    outcome = search.run_mode(board, "min")
    assert (outcome.status, outcome.proven_by) == ("optimal", "A*")
    assert outcome.moves is not None and len(outcome.moves) == optimum_by_search(g) == optimum
    assert len(upper_bound(g)) > optimum  # the beam alone was not optimal
    assert any("weighted" in note and "found" in note for note in outcome.notes)
    assert outcome.notes[-1].startswith("A*:") == deep
    assert outcome.stats.checks == 0
    assert is_flooded(replay(board.grid, outcome.moves)[0])


@pytest.mark.parametrize("compiled", [False, True])
def test_an_a_star_counts_its_layers_and_predicts_a_deeper_one_from_them(compiled: bool) -> None:
    """The states an A* expands below a ceiling are those of its layers below it, so a
    search that stopped early predicts exactly what a deeper one expands in the layers
    it completed, and the later layers within a factor of three on these boards."""
    from smtpuzzles.puzzles.floodit import presolve
    from smtpuzzles.puzzles.floodit.generate import random_board
    from smtpuzzles.puzzles.floodit.presolve import shortest_by_search

    if compiled and presolve.COMPILED is None:
        pytest.skip("the compiled A* was not built")
    for seed in (3, 7, 11, 48):
        g = cluster_graph(random_board(12, 12, 6, seed).grid)
        first = shortest_by_search(g, 150, compiled=compiled)
        assert first.moves is None and sum(first.layers) == first.expanded
        optimum = optimum_by_search(g)
        for ceiling in range(lower_bound(g), optimum + 1):
            deep = shortest_by_search(g, ceiling=ceiling, compiled=compiled)
            assert deep.moves is None and deep.proven == ceiling
            assert sum(deep.layers) == deep.expanded
            predicted = first.predicted_below(ceiling)
            assert predicted is not None
            if ceiling <= first.proven:
                assert predicted == deep.expanded
            else:
                assert deep.expanded / 3 <= predicted <= 3 * deep.expanded
        weighted = shortest_by_search(g, 150, weight=(3, 2), compiled=compiled)
        assert weighted.layers == ()


def test_an_a_star_keeps_fewer_states_when_memory_is_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under ``--memory`` an A* keeps states in three quarters of the room left, not in
    the fixed share it takes without a cap."""
    from smtpuzzles.puzzles.floodit import search
    from smtpuzzles.puzzles.floodit.generate import random_board

    g = cluster_graph(random_board(20, 20, 8, 1).grid)
    monkeypatch.setattr(search, "room_left", lambda: None)
    unlimited = search.kept_states(g)
    monkeypatch.setattr(search, "room_left", lambda: 80 * 2**20)
    assert search.kept_states(g) == pytest.approx(unlimited * 60 / search.A_STAR_MB, abs=1)
