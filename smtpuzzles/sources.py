"""Reading puzzle text from a path or standard input, refusing what is not text."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from .errors import InputError

#: Inputs larger than this are refused before they are parsed (puzzle files are small;
#: the largest corpus file, 1000 boards of 18x18, is about 330 kB).
MAX_INPUT_BYTES = 8 * 1024 * 1024

#: The most cells a board or grid may have, in every puzzle, format and ``generate``:
#: checked against the size a file or command states before anything of that size is
#: allocated. Within it, reading, preparing and every limit (``--timeout``,
#: ``--memory``, Ctrl-C) hold; a 500x500 grid is the largest puzz.link and janko sizes.
MAX_CELLS = 250_000

#: The most digits a number in a puzzle file may have. Python refuses to read numbers
#: of 4,301 digits and more; no count in a puzzle needs more than a few.
MAX_DIGITS = 9


def check_size(
    rows: int,
    cols: int,
    source: str | None = None,
    line: int | None = None,
    column: int | None = None,
) -> None:
    """Refuse a ``rows`` x ``cols`` board or grid above :data:`MAX_CELLS` (or empty)
    with one located line, before it is allocated."""
    if rows < 1 or cols < 1:
        raise InputError(
            f"a {rows}x{cols} grid needs at least one row and column", source, line, column
        )
    if rows * cols > MAX_CELLS:
        raise InputError(
            f"a {rows}x{cols} grid has {rows * cols} cells; the limit is {MAX_CELLS}",
            source,
            line,
            column,
        )


def parse_count(
    token: str,
    what: str,
    source: str | None = None,
    line: int | None = None,
    column: int | None = None,
    maximum: int | None = None,
) -> int:
    """A non-negative whole number in ASCII digits, at most :data:`MAX_DIGITS` long and
    at most ``maximum``; anything else is one located :class:`InputError` (never Python's
    error on numbers of thousands of digits)."""
    if not (token.isascii() and token.isdigit()):
        raise InputError(f"{what}: {token[:20]!r} is not a number", source, line, column)
    digits = token.lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        shown = f"{digits[:6]}... ({len(digits)} digits)" if len(digits) > 12 else digits
        limit = f"at most {maximum}" if maximum is not None else f"at most {MAX_DIGITS} digits"
        raise InputError(f"{what}: {shown} is too large ({limit})", source, line, column)
    value = int(digits)
    if maximum is not None and value > maximum:
        raise InputError(f"{what}: {value} is too large (at most {maximum})", source, line, column)
    return value


def whole_number(value: object, what: str, least: int = 0, most: int | None = None) -> int:
    """``value`` as a count of at least ``least`` (and at most ``most``), as the command
    line's whole-number arguments and options are checked; a float, a string, a bool or
    a number out of range is one :class:`InputError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what}={value!r:.40}: expected a whole number")
    if value < least or (most is not None and value > most):
        upper = f" and at most {most}" if most is not None else ""
        raise InputError(f"{what}={value}: expected at least {least}{upper}")
    return value


def decode_text(data: bytes, source: str) -> str:
    """Bytes to text: UTF-8 (BOM allowed), no NUL or control bytes, newlines normalised."""
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"input is too large ({len(data)} bytes, limit {MAX_INPUT_BYTES})", source)
    if b"\x00" in data:
        raise InputError("binary input (contains NUL bytes); expected puzzle text", source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError("not UTF-8 text (binary file?)", source, line, col) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = _CONTROL.search(text)
    if bad:
        start = bad.start()
        line = text.count("\n", 0, start) + 1
        col = start - (text.rfind("\n", 0, start) + 1) + 1
        raise InputError(f"control character {bad.group()!r} in text", source, line, col)
    return text


#: Control characters other than tab and newline, found by one regular-expression scan:
#: a Python loop per character is slow on large datasets, in every process that reads
#: one board of them.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def read_source(path: str) -> tuple[str, str]:
    """Return ``(text, name)`` for a path, or for standard input when ``path`` is ``-``."""
    if path == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        return decode_text(data, "<stdin>"), "<stdin>"
    if not path:  # Path("") is the current folder
        raise InputError("an empty name names no puzzle file", "''")
    p = Path(path)
    try:
        p.stat()
    except FileNotFoundError:
        raise InputError("no such file", _shown(path)) from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise InputError(f"cannot read: {reason}", _shown(path)) from None
    if p.is_dir():
        raise InputError("is a directory, not a puzzle file", path)
    try:
        size = os.path.getsize(p)
        if size > MAX_INPUT_BYTES:
            raise InputError(f"input is too large ({size} bytes, limit {MAX_INPUT_BYTES})", path)
        with open(p, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path) from None
    return decode_text(data, path), path


def path_exists(path: str) -> bool:
    """Does ``path`` name something on disk? ``False`` (never an exception) for names the
    system refuses, such as a long URL or text with a NUL byte: a front end asks this
    to tell a URL or a puzzle from a file name."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def _shown(path: str) -> str:
    """A path as an error names it: long ones (a URL taken for a file) cut short."""
    return path if len(path) <= 80 else path[:77] + "..."
