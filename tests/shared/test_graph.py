"""Graph builders and the adjacency-table parser."""

from __future__ import annotations

import pytest

from smtpuzzles.errors import InputError
from smtpuzzles.graph import (
    format_adjacency,
    hex_grid,
    parse_adjacency,
    rectangle,
    rectangle_with_holes,
    torus,
)

TIC_TAC_TOE = """\
A: B D
B: A C E
C: B F
D: A E G
E: B D F H
F: C E I
G: D H
H: E G I
I: F H
"""


def degrees(g) -> list[int]:
    return [len(t) for t in g.out]


def test_rectangle_matches_the_tic_tac_toe_table() -> None:
    grid = rectangle(3, 3)
    table = parse_adjacency(TIC_TAC_TOE)
    assert grid.undirected_edges() == table.undirected_edges()
    assert degrees(grid) == [2, 3, 2, 3, 4, 3, 2, 3, 2]
    assert grid.is_symmetric() and table.is_symmetric()


def test_eight_neighbours_and_squares() -> None:
    g = rectangle(3, 4, diagonal=True)
    assert max(degrees(g)) == 8 and min(degrees(g)) == 3
    assert len(rectangle(3, 4).squares()) == 6


def test_holes_remove_cells_and_links() -> None:
    g = rectangle_with_holes(3, 3, [(1, 1)])
    assert len(g) == 8 and g.at(1, 1) is None
    assert all(len(t) == 2 for t in g.out)
    assert g.squares() == []


def test_torus_wraps() -> None:
    g = torus(3, 4)
    assert set(degrees(g)) == {4}
    assert g.at(0, 0) in g.out[g.at(2, 0)] and g.at(0, 0) in g.out[g.at(0, 3)]
    assert len(g.squares()) == 12


def test_hex_degrees_and_symmetry() -> None:
    g = hex_grid(4, 4)
    assert g.is_symmetric()
    assert max(degrees(g)) == 6
    inner = g.at(1, 1)
    assert sorted(g.names[j] for j in g.out[inner]) == sorted(
        ["r0c1", "r0c2", "r1c0", "r1c2", "r2c1", "r2c2"]
    )
    assert g.squares() == []


def test_one_way_links_and_round_trip() -> None:
    g = parse_adjacency("A: B\nB:\n# comment\nC: A  # tail comment\n")
    assert g.out == ((1,), (), (0,))
    assert not g.is_symmetric()
    assert g.reachable([2]) == {0, 1, 2}
    assert g.reachable([1]) == {1}
    assert parse_adjacency(format_adjacency(g)).out == g.out


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("A: B\nB A\n", 2, 1, "expected"),
        ("A: B\nB: Z\n", 2, 4, "unknown neighbour"),
        ("A: B\nB: A\nA: B\n", 3, 1, "twice"),
        ("A: A\n", 1, 4, "itself"),
        ("\n# nothing\n", None, None, "no cells"),
    ],
)
def test_parse_errors_name_line_and_column(text, line, column, words) -> None:
    with pytest.raises(InputError) as info:
        parse_adjacency(text, "t.adj")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert words in err.message and str(err).startswith("t.adj")
