"""Shared exchange formats: clue grids, janko blocks, puzz.link encodings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smtpuzzles.errors import InputError
from smtpuzzles.formats.grid import UNKNOWN, format_clue_grid, parse_clue_grid
from smtpuzzles.formats.janko import looks_like_janko, parse_janko, problem_grid
from smtpuzzles.formats.puzzlink import (
    decode_4cell,
    decode_number16,
    encode_4cell,
    encode_number16,
    format_url,
    parse_url,
)


def test_char_grid_of_the_koburin_seed() -> None:
    g = parse_clue_grid("2____\n_____\n__1__\n_____\n1___0\n")
    assert (g.rows, g.cols) == (5, 5)
    assert g.clues == {(0, 0): 2, (2, 2): 1, (4, 0): 1, (4, 4): 0}


def test_token_grid_with_header_and_big_clues() -> None:
    g = parse_clue_grid("2 3\n- 12 ?\n. _ 3\n")
    assert (g.rows, g.cols) == (2, 3)
    assert g.clues == {(0, 1): 12, (0, 2): UNKNOWN, (1, 2): 3}
    assert parse_clue_grid(format_clue_grid(2, 3, g.clues)).clues == g.clues


def test_single_column_with_header_reads_tokens() -> None:
    g = parse_clue_grid("3 1\n12\n-\n3\n")
    assert g.clues == {(0, 0): 12, (2, 0): 3}


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("2 2\n- 1\n- - -\n", 3, 5, "has 3 cells"),
        ("- x\n- -\n", 1, 3, "unexpected 'x'"),
        ("3 2\n- 1\n- -\n", None, None, "header says 3 rows"),
        ("\n\n", None, None, "empty"),
        ("- 1\n\n- -\n", 2, 1, "blank line"),
        ("- 7\n- -\n", 1, 3, "out of range"),
    ],
)
def test_grid_errors_are_located(text, line, col, words) -> None:
    with pytest.raises(InputError) as info:
        parse_clue_grid(text, "p.txt", max_clue=4)
    assert (info.value.line, info.value.column) == (line, col)
    assert words in str(info.value)


def test_janko_block_sections_keep_line_numbers() -> None:
    text = (
        "[begin]\nauthor Someone\nsize 3\n[problem]\n- 1 -\n- - -\n2 - -\n"
        "[solution]\nx - x\n[end]\n"
    )
    assert looks_like_janko(text)
    block = parse_janko(text, "j.txt")
    assert block.header["size"] == "3"
    line, body = block.sections["problem"]
    assert line == 5
    g = parse_clue_grid(body, "j.txt", first_line=line)
    assert g.clues == {(0, 1): 1, (2, 0): 2}
    with pytest.raises(InputError) as info:
        parse_clue_grid("- 1 -\n- q -\n", "j.txt", first_line=line)
    assert info.value.line == 6


def test_janko_without_problem_is_an_error() -> None:
    with pytest.raises(InputError):
        parse_janko("[begin]\nsize 3\n[end]\n")


def test_pzprjs_own_vectors() -> None:
    nuri = parse_url("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g")
    values = decode_number16(nuri.body, nuri.cols * nuri.rows)
    assert {i: v for i, v in enumerate(values) if v is not None} == {1: 5, 7: 2, 17: 1, 23: 3}
    kob = parse_url("https://puzz.link/p?koburin/5/5/clcbg.n")
    values4 = decode_4cell(kob.body, 25)
    assert {i: v for i, v in enumerate(values4) if v is not None} == {0: 2, 9: 2, 12: 1, 16: "?"}
    assert encode_4cell(values4) == "clcbg.n"


def test_url_flags_and_errors() -> None:
    u = parse_url("http://pzv.jp/p.html?koburin/m/3/2/g")
    assert (u.kind, u.flags, u.cols, u.rows) == ("koburin", "m", 3, 2)
    assert format_url("koburin", 3, 2, "g", "m") == "https://puzz.link/p?koburin/m/3/2/g"
    for bad in ("https://puzz.link/p?nurikabe/5", "no url", "https://puzz.link/p?x/a/b/c"):
        with pytest.raises(InputError):
            parse_url(bad)
    with pytest.raises(InputError):
        parse_url("https://puzz.link/p?nurikabe/2/2/g", kind="koburin")
    with pytest.raises(InputError):
        decode_number16("-z", 4)


cells16 = st.lists(
    st.one_of(st.none(), st.just(UNKNOWN), st.integers(0, 12287)), min_size=1, max_size=60
)
cells4 = st.lists(
    st.one_of(st.none(), st.just(UNKNOWN), st.integers(0, 4)), min_size=1, max_size=60
)


@settings(max_examples=300, deadline=None)
@given(cells16)
def test_number16_round_trip(values) -> None:
    assert decode_number16(encode_number16(values), len(values)) == values


@settings(max_examples=300, deadline=None)
@given(cells4)
def test_4cell_round_trip(values) -> None:
    assert decode_4cell(encode_4cell(values), len(values)) == values


def test_janko_problem_rows_are_never_mistaken_for_a_header() -> None:
    plain = problem_grid("[begin]\n[problem]\n1 2\n- -\n[end]\n")
    assert (plain.rows, plain.cols, plain.clues) == (2, 2, {(0, 0): 1, (0, 1): 2})
    headed = problem_grid("[begin]\nrows 1\ncols 2\n[problem]\n1 2\n- 3\n[end]\n")
    assert (headed.rows, headed.cols, headed.clues) == (1, 2, {(0, 1): 3})
    with pytest.raises(InputError, match="declares 3x3"):
        problem_grid("[begin]\nsize 3\n[problem]\n- -\n- -\n[end]\n", "j.txt")
