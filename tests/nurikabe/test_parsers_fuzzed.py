"""Fuzzing the Nurikabe parsers (grid, janko, puzz.link, seed-004 line, adjacency table
with clues): every input is a well-formed puzzle or one InputError line; the command line
turns bad input into exit 2 and one stderr line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.cli import assert_bad_input, cli, parsed_or_refused
from oracles.fuzzing import inputs

from smtpuzzles.formats.grid import format_clue_grid
from smtpuzzles.formats.puzzlink import encode_number16, format_url
from smtpuzzles.formats.seed004 import format_seed004
from smtpuzzles.graph import rectangle
from smtpuzzles.puzzles.nurikabe.formats import format_table, parse
from smtpuzzles.puzzles.nurikabe.model import NurikabeInstance

#: A thousand inputs a parser: part of the whole suite, not of the quick loop.
pytestmark = pytest.mark.slow

Clues = dict[tuple[int, int], int | str]


@st.composite
def clue_layouts(draw: st.DrawFn, unknown: bool = True) -> tuple[int, int, Clues]:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    size = st.integers(1, 40) | st.just("?") if unknown else st.integers(1, 40)
    clues = {
        (r, c): draw(size) for r in range(rows) for c in range(cols) if draw(st.integers(0, 3)) == 0
    }
    return rows, cols, clues


def grid_text(layout: tuple[int, int, Clues]) -> str:
    return format_clue_grid(*layout)


def janko_text(layout: tuple[int, int, Clues]) -> str:
    rows, cols, clues = layout
    body = format_clue_grid(rows, cols, clues)
    return f"[begin]\nrows {rows}\ncols {cols}\n[problem]\n{body}[solution]\n-\n[end]\n"


def url_text(layout: tuple[int, int, Clues]) -> str:
    rows, cols, clues = layout
    values = [clues.get((r, c)) for r in range(rows) for c in range(cols)]
    return format_url("nurikabe", cols, rows, encode_number16(values))


def seed004_text(layout: tuple[int, int, Clues]) -> str:
    rows, cols, clues = layout
    return format_seed004(rows, cols, {k: v for k, v in clues.items() if isinstance(v, int)})


def table_text(layout: tuple[int, int, Clues]) -> str:
    rows, cols, clues = layout
    graph = rectangle(rows, cols)
    by_cell = {graph.at(r, c): (None if v == "?" else v) for (r, c), v in clues.items()}
    return format_table(NurikabeInstance(graph, by_cell, tuple(graph.squares())))


FORMAT_TEXTS = {
    "grid": clue_layouts().map(grid_text),
    "janko": clue_layouts().map(janko_text),
    "puzzlink": clue_layouts().map(url_text),
    "seed004": clue_layouts(unknown=False).map(seed004_text),
    "table": clue_layouts().map(table_text),
}


def well_formed(p: NurikabeInstance) -> None:
    """What every parsed puzzle promises the encoder."""
    n = len(p.graph)
    assert n >= 1
    assert all(0 <= i < n for i in p.clues)
    assert all(size is None or size >= 1 for size in p.clues.values())
    assert all(0 <= j < n for targets in p.graph.out for j in targets)
    assert all(0 <= i < n for pool in p.pools for i in pool)


def _fuzz(fmt: str, text: str, index: int = 1) -> None:
    puzzle = parsed_or_refused(lambda t: parse(t, "f", fmt, index), text)
    if puzzle is not None:
        well_formed(puzzle)


@given(inputs(FORMAT_TEXTS["grid"]), st.sampled_from(["grid", "auto"]))
def test_grid_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text)


@given(inputs(FORMAT_TEXTS["janko"]), st.sampled_from(["janko", "auto"]))
def test_janko_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text)


@given(inputs(FORMAT_TEXTS["puzzlink"]), st.sampled_from(["puzzlink", "auto"]))
def test_puzzlink_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text)


@given(inputs(FORMAT_TEXTS["seed004"]), st.sampled_from(["seed004", "auto"]), st.integers(1, 3))
def test_seed004_parser(text: str, fmt: str, index: int) -> None:
    _fuzz(fmt, text, index)


@given(inputs(FORMAT_TEXTS["table"]), st.sampled_from(["table", "auto"]))
def test_table_parser(text: str, fmt: str) -> None:
    _fuzz(fmt, text)


@settings(max_examples=100)
@given(clue_layouts())
def test_valid_texts_read_back_exactly(layout: tuple[int, int, Clues]) -> None:
    rows, cols, clues = layout
    wanted = {(r, c): (None if v == "?" else v) for (r, c), v in clues.items()}
    for fmt, make in (("grid", grid_text), ("janko", janko_text), ("puzzlink", url_text)):
        p = parse(make(layout), "f", fmt)
        assert {p.graph.coords[i]: v for i, v in p.clues.items()} == wanted, fmt
    p = parse(table_text(layout), "f", "table")
    assert sorted(p.clues.values(), key=str) == sorted(wanted.values(), key=str)


@settings(max_examples=100)
@given(inputs(st.sampled_from(list(FORMAT_TEXTS.values())).flatmap(lambda s: s)))
def test_command_line_refuses_bad_puzzles_in_one_line(text: str) -> None:
    """Through the real command (in-process): a puzzle is read or refused with exit 2; one
    the command accepts comes out as a URL with the clues the parser reads from the text."""
    result = cli("nurikabe", "solve", "-", "--to", "puzzlink", stdin=text)
    if result.exit_code != 0:
        assert_bad_input(result)
        return
    read, written = parse(text, "<stdin>"), parse(result.stdout.strip(), "<url>", "puzzlink")
    assert dict(written.clues) == dict(read.clues)
