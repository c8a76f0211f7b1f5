"""Fuzzing the shared parsers: every input is parsed or refused with an InputError."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracles.fuzzing import inputs

from smtpuzzles.errors import InputError
from smtpuzzles.formats.grid import format_clue_grid, parse_clue_grid
from smtpuzzles.formats.janko import parse_janko
from smtpuzzles.formats.puzzlink import decode_4cell, decode_number16, parse_url
from smtpuzzles.graph import parse_adjacency
from smtpuzzles.sources import decode_text

#: A thousand inputs a parser: part of the whole suite, not of the quick loop.
pytestmark = pytest.mark.slow


@st.composite
def clue_grids(draw: st.DrawFn) -> str:
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    clues = {
        (r, c): draw(st.one_of(st.integers(0, 30), st.just("?")))
        for r in range(rows)
        for c in range(cols)
        if draw(st.booleans())
    }
    return format_clue_grid(rows, cols, clues)


def adjacency_tables() -> st.SearchStrategy[str]:
    names = st.sampled_from(["A", "B", "C", "D", "E"])
    line = st.tuples(names, st.lists(names, max_size=4)).map(lambda t: f"{t[0]}: {' '.join(t[1])}")
    return st.lists(line, min_size=1, max_size=6).map("\n".join)


def urls() -> st.SearchStrategy[str]:
    body = st.text(alphabet="0123456789abcdefghijklmnopqrstuvwxyz.-+=%", max_size=30)
    return st.tuples(
        st.sampled_from(["nurikabe", "koburin"]), st.integers(0, 12), st.integers(0, 12), body
    ).map(lambda t: f"https://puzz.link/p?{t[0]}/{t[1]}/{t[2]}/{t[3]}")


def refused_or_parsed(parse, text: str) -> None:
    try:
        parse(text)
    except InputError as exc:
        assert "\n" not in str(exc)


@given(inputs(clue_grids()))
def test_clue_grid_parser(text: str) -> None:
    refused_or_parsed(lambda t: parse_clue_grid(t, "f", max_clue=4), text)


@given(inputs(clue_grids().map(lambda g: f"[begin]\nsize 3\n[problem]\n{g}[end]\n")))
def test_janko_parser(text: str) -> None:
    def parse(t: str) -> None:
        block = parse_janko(t, "f")
        line, body = block.sections["problem"]
        parse_clue_grid(body, "f", first_line=line)

    refused_or_parsed(parse, text)


@given(inputs(adjacency_tables()))
def test_adjacency_parser(text: str) -> None:
    refused_or_parsed(lambda t: parse_adjacency(t, "f"), text)


@given(inputs(urls()))
def test_url_parser(text: str) -> None:
    def parse(t: str) -> None:
        link = parse_url(t, "u")
        decode_number16(link.body, link.cols * link.rows, "u")
        decode_4cell(link.body, link.cols * link.rows, "u")

    refused_or_parsed(parse, text)


@given(st.binary(max_size=400))
def test_text_decoder(data: bytes) -> None:
    refused_or_parsed(lambda d: decode_text(d, "f"), data)
