"""Fuzzing the Koburin parsers (one-character grid, ``ROWS COLS`` header grid, janko,
puzz.link with the ``m`` flag and ``?`` clues, adjacency table with ``A = 2`` numbers):
every input is a well-formed puzzle or one InputError line; the command line turns bad
input into exit 2 and one stderr line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.cli import assert_bad_input, cli, parsed_or_refused
from oracles.fuzzing import inputs

from smtpuzzles.graph import rectangle
from smtpuzzles.puzzles.koburin.formats import parse, to_grid_text, to_puzzlink
from smtpuzzles.puzzles.koburin.model import KoburinInstance

#: A thousand inputs a parser: part of the whole suite, not of the quick loop.
pytestmark = pytest.mark.slow


@st.composite
def puzzles(
    draw: st.DrawFn,
    unknown: bool = True,
    variants: tuple[str, ...] = ("four", "eight"),
    top: int = 8,
) -> KoburinInstance:
    """Puzzles on a rectangle (URLs hold numbers 0..4 only: pzprjs's 4-cell code)."""
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    variant = draw(st.sampled_from(variants))
    top = min(top, 4 if variant == "four" else 8)
    number = st.integers(0, top) | st.none() if unknown else st.integers(0, top)
    graph = rectangle(rows, cols)
    clues = {i: draw(number) for i in range(len(graph)) if draw(st.integers(0, 3)) == 0}
    return KoburinInstance(graph, clues, variant)


def seeds_text(p: KoburinInstance) -> str:
    """One character a cell, ``_`` empty (numbers only, no ``?``)."""
    g = p.graph
    return "".join(
        "".join(
            "_" if p.clues.get(g.at(r, c), "_") is None else str(p.clues.get(g.at(r, c), "_"))
            for c in range(g.cols)
        )
        + "\n"
        for r in range(g.rows)
    )


def janko_text(p: KoburinInstance) -> str:
    return f"[begin]\n[problem]\n{to_grid_text(p).split(chr(10), 1)[1]}[end]\n"


def table_text(p: KoburinInstance) -> str:
    g = p.graph
    lines = [f"{g.names[i]}: {' '.join(g.names[j] for j in g.out[i])}" for i in range(len(g))]
    lines += [f"{g.names[i]} = {'?' if v is None else v}" for i, v in sorted(p.clues.items())]
    return "\n".join(lines) + "\n"


FORMAT_TEXTS = {
    "seeds": puzzles(unknown=False, variants=("four",)).map(seeds_text),
    "header": puzzles().map(to_grid_text),
    "janko": puzzles().map(janko_text),
    "puzzlink": puzzles(top=4).map(to_puzzlink),
    "table": puzzles(variants=("four",)).map(table_text),
}


def well_formed(p: KoburinInstance) -> None:
    """What every parsed puzzle promises the encoder."""
    n = len(p.graph)
    assert n >= 1
    assert all(0 <= i < n for i in p.clues)
    assert all(v is None or v >= 0 for v in p.clues.values())
    assert all(0 <= j < n for targets in p.graph.out for j in targets)


def _fuzz(fmt: str, text: str, variant: str | None = None) -> None:
    puzzle = parsed_or_refused(lambda t: parse(t, "f", fmt, variant), text)
    if puzzle is not None:
        well_formed(puzzle)


VARIANT = st.sampled_from([None, "four", "eight"])


@given(inputs(FORMAT_TEXTS["seeds"]), st.sampled_from(["grid", "auto"]), VARIANT)
def test_seeds_grid_parser(text: str, fmt: str, variant: str | None) -> None:
    _fuzz(fmt, text, variant)


@given(inputs(FORMAT_TEXTS["header"]), st.sampled_from(["grid", "auto"]), VARIANT)
def test_header_grid_parser(text: str, fmt: str, variant: str | None) -> None:
    _fuzz(fmt, text, variant)


@given(inputs(FORMAT_TEXTS["janko"]), st.sampled_from(["janko", "auto"]), VARIANT)
def test_janko_parser(text: str, fmt: str, variant: str | None) -> None:
    _fuzz(fmt, text, variant)


@given(inputs(FORMAT_TEXTS["puzzlink"]), st.sampled_from(["puzzlink", "auto"]), VARIANT)
def test_puzzlink_parser(text: str, fmt: str, variant: str | None) -> None:
    _fuzz(fmt, text, variant)


@given(inputs(FORMAT_TEXTS["table"]), st.sampled_from(["table", "auto"]), VARIANT)
def test_table_parser(text: str, fmt: str, variant: str | None) -> None:
    _fuzz(fmt, text, variant)


@settings(max_examples=100)
@given(puzzles())
def test_valid_texts_read_back_exactly(p: KoburinInstance) -> None:
    cases = [("grid", to_grid_text(p), p.variant), ("janko", janko_text(p), p.variant)]
    if all(v is None or v <= 4 for v in p.clues.values()):
        cases.append(("puzzlink", to_puzzlink(p), None))
    if p.variant == "four":
        cases.append(("table", table_text(p), p.variant))
    for fmt, text, variant in cases:
        q = parse(text, "f", fmt, variant)
        assert dict(q.clues) == dict(p.clues) and q.variant == p.variant, fmt
    if None not in p.clues.values() and p.variant == "four":
        assert dict(parse(seeds_text(p), "f", "grid").clues) == dict(p.clues)


@settings(max_examples=100)
@given(inputs(st.sampled_from(list(FORMAT_TEXTS.values())).flatmap(lambda s: s)))
def test_command_line_refuses_bad_puzzles_in_one_line(text: str) -> None:
    """Through the real command (in-process): a puzzle is read or refused with exit 2; one
    the command accepts comes out as a grid with the clues the parser reads from the text."""
    result = cli("koburin", "solve", "-", "--to", "grid", stdin=text)
    if result.exit_code != 0:
        assert_bad_input(result)
        return
    read = parse(text, "<stdin>")  # a grid does not say its variant: read it back as such
    written = parse(result.stdout, "<grid>", "grid", read.variant)
    assert dict(written.clues) == dict(read.clues)
