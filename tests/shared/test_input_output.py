"""Reading input (normalised text, one-line refusals of binary, huge or missing input and
of non-ASCII digits) and writing output atomically, never over an input."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from smtpuzzles.errors import InputError
from smtpuzzles.output import _umask, refuse_bad_outputs, write_output
from smtpuzzles.sources import MAX_INPUT_BYTES, decode_text, read_source


def test_text_is_normalised(tmp_path: Path) -> None:
    f = tmp_path / "b.txt"
    f.write_bytes(b"\xef\xbb\xbf01\r\n10\r\n\r\n")
    text, name = read_source(str(f))
    assert text == "01\n10\n\n" and name == str(f)


@pytest.mark.parametrize(
    ("data", "words", "line", "col"),
    [
        (b"01\n1\x002", "binary", None, None),
        (b"01\n1\xff2", "not UTF-8", 2, 2),
        (b"01\n1\x072", "control character", 2, 2),
    ],
)
def test_binary_input_is_refused(data: bytes, words: str, line, col) -> None:
    with pytest.raises(InputError) as info:
        decode_text(data, "x")
    assert words in str(info.value)
    assert (info.value.line, info.value.column) == (line, col)


def test_missing_directory_and_huge_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_source(str(tmp_path / "nope"))
    with pytest.raises(InputError, match="directory"):
        read_source(str(tmp_path))
    big = tmp_path / "big"
    big.write_bytes(b"0" * (MAX_INPUT_BYTES + 1))
    began = time.monotonic()
    with pytest.raises(InputError, match="too large"):
        read_source(str(big))
    assert time.monotonic() - began < 5


def test_outputs_never_overwrite_an_input(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text("puzzle")
    with pytest.raises(InputError, match="input"):
        refuse_bad_outputs([source], [str(source)], force=True)
    assert source.read_text() == "puzzle"
    target = tmp_path / "out.txt"
    refuse_bad_outputs([target], [str(source)], force=False)
    write_output(target, "answer")
    assert target.read_text() == "answer"
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.txt", "out.txt"]
    with pytest.raises(InputError):
        write_output(tmp_path / "missing" / "x.txt", "a")


@pytest.mark.parametrize(
    "argv",
    [
        ["floodit", "min", "-", "--format", "mnk"],
        ["nurikabe", "solve", "-", "--format", "seed004"],
        ["koburin", "solve", "-", "--format", "grid"],
    ],
)
def test_unicode_digits_are_no_numbers(argv: list[str]) -> None:
    """'²' and '٣' pass str.isdigit(); int() then fails or reads them: refuse in one line."""
    from typer.testing import CliRunner

    from smtpuzzles.cli import app

    for text in ("²", "٣ ٣ ٣\n", "3,3 ٣,0,0\n", "²_\n__\n"):
        result = CliRunner().invoke(app, argv, input=text)
        assert result.exit_code == 2, (argv, text, result.output)
        assert "Traceback" not in result.output
