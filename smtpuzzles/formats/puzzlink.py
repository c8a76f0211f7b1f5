"""puzz.link URLs (the pzprjs encoding): ``https://puzz.link/p?TYPE/[FLAGS/]COLS/ROWS/BODY``.

The cell encodings are re-implemented from pzprjs's documented behaviour:

* ``decodeNumber16``: ``0``-``f`` a clue, ``-xx`` two hex digits, ``+xxx`` three,
  ``=xxx`` 4096 more, ``%xxx`` 8192 more, ``.`` an unknown clue, ``g``-``z`` skip
  1 to 20 empty cells.
* ``decode4Cell``: clues 0..4; ``0``-``4`` a clue, ``5``-``9`` a clue then one empty
  cell, ``a``-``e`` a clue then two empty cells, ``.`` unknown, ``g``-``z`` skip.

Cell values are ``None`` (empty), an ``int`` clue, or :data:`UNKNOWN`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import InputError
from .grid import UNKNOWN, Clue

Cell = Clue | None

_DIGITS = re.compile(r"[0-9]{1,6}")


@dataclass
class PuzzLink:
    """A split URL: puzzle type, flags (``""`` if none), size and the encoded body."""

    kind: str
    flags: str
    cols: int
    rows: int
    body: str


def looks_like_url(text: str) -> bool:
    stripped = text.strip()
    return bool(re.match(r"(https?://)?\S+\?\w+/", stripped)) and "\n" not in stripped


def parse_url(text: str, source: str = "<url>", kind: str | None = None) -> PuzzLink:
    """Split a puzz.link-style URL; ``kind`` checks the puzzle type."""
    url = text.strip()
    if "?" not in url:
        raise InputError("not a puzz.link URL (no '?')", source)
    query = url.split("?", 1)[1].split("#", 1)[0]
    parts = query.split("/")
    if len(parts) < 3:
        raise InputError("URL too short: expected TYPE/COLS/ROWS/BODY", source)
    found = parts[0].lower()
    if kind is not None and found != kind:
        raise InputError(f"URL is for {found!r}, not {kind!r}", source)
    flags = ""
    rest = parts[1:]
    if rest and not _DIGITS.fullmatch(rest[0]):
        flags, rest = rest[0], rest[1:]
    if len(rest) < 2 or not _DIGITS.fullmatch(rest[0]) or not _DIGITS.fullmatch(rest[1]):
        raise InputError("URL needs the grid size as COLS/ROWS", source)
    cols, rows = int(rest[0]), int(rest[1])
    if not (1 <= cols <= 500 and 1 <= rows <= 500):
        raise InputError(f"grid size {cols}x{rows} is out of range 1..500", source)
    body = "/".join(rest[2:])
    return PuzzLink(found, flags, cols, rows, body)


def format_url(kind: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    middle = f"{flags}/" if flags else ""
    return f"https://puzz.link/p?{kind}/{middle}{cols}/{rows}/{body}"


def _skip(ch: str) -> int | None:
    """Empty cells skipped by a ``g``-``z`` character (1 to 20), else None."""
    return ord(ch) - ord("g") + 1 if "g" <= ch <= "z" else None


def decode_number16(body: str, cells: int, source: str = "<url>") -> list[Cell]:
    """pzprjs decodeNumber16: one clue of any size per cell, runs of empties."""
    values: list[Cell] = [None] * cells
    c = i = 0
    widths = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}
    while i < len(body) and c < cells:
        ch = body[i]
        if ch in "0123456789abcdef":
            values[c] = int(ch, 16)
        elif ch in widths:
            width, offset = widths[ch]
            digits = body[i + 1 : i + 1 + width]
            if len(digits) != width or not re.fullmatch(r"[0-9a-f]+", digits):
                raise InputError(f"bad number after {ch!r} in the URL body", source, None, i + 1)
            values[c] = int(digits, 16) + offset
            i += width
        elif ch == ".":
            values[c] = UNKNOWN
        elif (n := _skip(ch)) is not None:
            c += n - 1
        else:
            raise InputError(f"unexpected {ch!r} in the URL body", source, None, i + 1)
        c += 1
        i += 1
    return values


def _with_skips(pieces: Iterable[str | None]) -> str:
    """Join encoded cells, writing each run of empty cells (``None``) as g..z (1 to 20)."""
    out: list[str] = []
    count = 0
    for piece in pieces:
        if piece is None:
            count += 1
            if count == 20:
                out.append("z")
                count = 0
            continue
        if count:
            out.append(chr(ord("f") + count))
            count = 0
        out.append(piece)
    if count:
        out.append(chr(ord("f") + count))
    return "".join(out)


def _number16(value: Cell) -> str | None:
    if value is None:
        return None
    if value == UNKNOWN:
        return "."
    n = int(value)
    for limit, prefix, offset, width in _NUMBER16_WIDTHS:
        if n < limit:
            return prefix + format(n - offset, f"0{width}x")
    raise ValueError(f"clue {n} is too large for a puzz.link URL")


#: (exclusive limit, prefix, offset, hex digits) of decodeNumber16's number forms.
_NUMBER16_WIDTHS = (
    (16, "", 0, 1),
    (256, "-", 0, 2),
    (4096, "+", 0, 3),
    (8192, "=", 4096, 3),
    (12288, "%", 8192, 3),
)


def encode_number16(values: Sequence[Cell]) -> str:
    """Inverse of :func:`decode_number16`."""
    return _with_skips(_number16(v) for v in values)


def decode_4cell(body: str, cells: int, source: str = "<url>") -> list[Cell]:
    """pzprjs decode4Cell: clues 0..4 with up to two following empties folded in."""
    values: list[Cell] = [None] * cells
    c = i = 0
    while i < len(body) and c < cells:
        ch = body[i]
        if ch in "01234":
            values[c] = int(ch)
        elif ch in "56789":
            values[c] = int(ch) - 5
            c += 1
        elif ch in "abcde":
            values[c] = int(ch, 16) - 10
            c += 2
        elif ch == ".":
            values[c] = UNKNOWN
        elif (n := _skip(ch)) is not None:
            c += n - 1
        else:
            raise InputError(f"unexpected {ch!r} in the URL body", source, None, i + 1)
        c += 1
        i += 1
    return values


def encode_4cell(values: Sequence[Cell]) -> str:
    """Inverse of :func:`decode_4cell` (clues must be 0..4 or UNKNOWN)."""
    return _with_skips(_4cell_pieces(values))


def _4cell_pieces(values: Sequence[Cell]) -> Iterator[str | None]:
    """One piece per cell or per clue with the one or two empties folded into it."""
    c, n = 0, len(values)
    while c < n:
        v = values[c]
        if v is None or v == UNKNOWN:
            yield None if v is None else "."
            c += 1
            continue
        q = int(v)
        if not 0 <= q <= 4:
            raise ValueError(f"clue {q} does not fit the 4-cell encoding (0..4)")
        if c + 1 < n and values[c + 1] is not None:
            folded = 0
        elif c + 2 < n and values[c + 2] is not None:
            folded = 1
        else:
            folded = 2  # as pzprjs: two, even past the last cell
        yield format(5 * folded + q, "x")
        c += folded + 1
