"""puzz.link URLs (the pzprjs encoding): ``https://puzz.link/p?TYPE/[FLAGS/]COLS/ROWS/BODY``.

The cell encodings are re-implemented from pzprjs's documented behaviour:

* ``decodeNumber16``: ``0``-``f`` a clue, ``-xx`` two hex digits, ``+xxx`` three,
  ``=xxx`` 4096 more, ``%xxx`` 8192 more, ``.`` an unknown clue, ``g``-``z`` skip
  1 to 20 empty cells.
* ``decode4Cell``: clues 0..4; ``0``-``4`` a clue, ``5``-``9`` a clue then one empty
  cell, ``a``-``e`` a clue then two empty cells, ``.`` unknown, ``g``-``z`` skip.

Cell values are ``None`` (empty), an ``int`` clue, or :data:`UNKNOWN`.

Read strictly, as pzprjs writes them: the size is ``COLS/ROWS`` in plain decimal (no
sign, no leading zero) within :data:`MAX_SIDE` and the cell limit, flags only where the
puzzle type has them, and nothing after the last cell. Errors inside a URL name the
URL's character (1-based), not a line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..errors import InputError
from ..sources import MAX_CELLS
from .grid import UNKNOWN, Clue

Cell = Clue | None

#: The longest side pzprjs's editors make, and the longest this reader takes.
MAX_SIDE = 500

#: The flags pzprjs writes before the size, per puzzle type (``""``: none). Koburin's
#: ``m`` counts eight neighbours.
FLAGS = {"nurikabe": ("",), "koburin": ("", "m")}

_SIZE = re.compile(r"[1-9][0-9]*")


@dataclass
class PuzzLink:
    """A split URL: puzzle type, flags (``""`` if none), size and the encoded body;
    ``at`` is where the body starts in the URL (0-based), for error positions."""

    kind: str
    flags: str
    cols: int
    rows: int
    body: str
    at: int = 0


def url_error(message: str, source: str, at: int) -> InputError:
    """An error at the URL's character ``at`` (0-based in, 1-based in the message)."""
    return InputError(f"{message} (URL character {at + 1})", source)


def looks_like_url(text: str) -> bool:
    stripped = text.strip()
    return bool(re.match(r"(https?://)?\S+\?\w+/", stripped)) and "\n" not in stripped


def parse_url(text: str, source: str = "<url>", kind: str | None = None) -> PuzzLink:
    """Split a puzz.link-style URL; ``kind`` checks the puzzle type (and its flags)."""
    url = text.strip()
    lead = len(text) - len(text.lstrip())  # positions count in the text as given
    for i, ch in enumerate(url):
        if not "!" <= ch <= "~":
            raise url_error(
                f"a URL holds printable ASCII only, not U+{ord(ch):04X}", source, lead + i
            )
    if "?" not in url:
        raise InputError("not a puzz.link URL (no '?')", source)
    start = url.index("?") + 1
    query = url[start:].split("#", 1)[0]
    parts = query.split("/")
    if len(parts) < 3:
        raise InputError("URL too short: expected TYPE/COLS/ROWS/BODY", source)
    offsets = []
    at = lead + start
    for part in parts:
        offsets.append(at)
        at += len(part) + 1
    found = parts[0].lower()
    if kind is not None and found != kind:
        raise url_error(f"URL is for {found[:20]!r}, not {kind!r}", source, offsets[0])
    known = FLAGS.get(found, ("",))
    flags = ""
    first = 1
    if parts[1] and not parts[1][0].isdigit():
        flags, first = parts[1], 2
        if flags not in known:
            shown = ", ".join(repr(f) for f in known if f) or "none"
            raise url_error(
                f"unknown {found} URL flag {flags[:20]!r} (known: {shown})", source, offsets[1]
            )
    rest = parts[first:]
    if len(rest) < 2:
        raise url_error("URL needs the grid size as COLS/ROWS", source, at - 1)
    size = []
    for k in range(2):
        token = rest[k]
        where = offsets[first + k]
        if not (token.isascii() and _SIZE.fullmatch(token)):
            raise url_error(
                f"the grid size needs whole numbers from 1, not {token[:20]!r}", source, where
            )
        if len(token) > 3 or int(token) > MAX_SIDE:
            raise url_error(
                f"a side of {token[:20]} cells is out of range 1..{MAX_SIDE}", source, where
            )
        size.append(int(token))
    cols, rows = size
    if cols * rows > MAX_CELLS:
        raise url_error(
            f"a {cols}x{rows} grid has {cols * rows} cells; the limit is {MAX_CELLS}",
            source,
            offsets[first],
        )
    body_parts = rest[2:]
    if len(body_parts) > 1:
        raise url_error("unexpected '/' after the body", source, offsets[first + 3] - 1)
    body = body_parts[0] if body_parts else ""
    body_at = offsets[first + 2] if body_parts else at - 1
    return PuzzLink(found, flags, cols, rows, body, body_at)


def format_url(kind: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    middle = f"{flags}/" if flags else ""
    return f"https://puzz.link/p?{kind}/{middle}{cols}/{rows}/{body}"


def _skip(ch: str) -> int | None:
    """Empty cells skipped by a ``g``-``z`` character (1 to 20), else None."""
    return ord(ch) - ord("g") + 1 if "g" <= ch <= "z" else None


#: What one cell's characters in a URL body say: the clue, how many cells they cover
#: (the clue's and the empty ones folded in after it), how many characters they take.
Piece = tuple[Cell, int, int]


def _decode(
    body: str, cells: int, read: Callable[[int], Piece | None], source: str, at: int
) -> tuple[list[Cell], int, int]:
    """The cells of a URL body whose clues ``read`` (given where a clue starts) knows
    how to read; ``.`` is an unknown clue and ``g``-``z`` a run of empties in every
    encoding. Returns the cells and how far body and grid were read."""
    values: list[Cell] = [None] * cells
    c = i = 0
    while i < len(body) and c < cells:
        ch = body[i]
        if ch == ".":
            values[c], covered, used = UNKNOWN, 1, 1
        elif (n := _skip(ch)) is not None:
            covered, used = n, 1
        elif (piece := read(i)) is not None:
            values[c], covered, used = piece
        else:
            raise url_error(f"unexpected {ch!r} in the URL body", source, at + i)
        c += covered
        i += used
    return values, i, c


def decode_number16(body: str, cells: int, source: str = "<url>", at: int = 0) -> list[Cell]:
    """pzprjs decodeNumber16: one clue of any size per cell, runs of empties. ``at``: where
    ``body`` starts in the URL, for error positions; text after the last cell is an
    error."""
    widths = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192)}

    def read(i: int) -> Piece | None:
        ch = body[i]
        if ch in "0123456789abcdef":
            return int(ch, 16), 1, 1
        if ch not in widths:
            return None
        width, offset = widths[ch]
        digits = body[i + 1 : i + 1 + width]
        if len(digits) != width or not re.fullmatch(r"[0-9a-f]+", digits):
            raise url_error(f"bad number after {ch!r} in the URL body", source, at + i)
        return int(digits, 16) + offset, 1, 1 + width

    values, i, c = _decode(body, cells, read, source, at)
    _check_end(body, i, c, cells, source, at)
    return values


def _check_end(body: str, i: int, c: int, cells: int, source: str, at: int) -> None:
    """Refuse a body that runs past the grid: text left after the last cell, or a run
    of empty cells longer than what is left."""
    if i < len(body):
        raise url_error(f"unexpected {body[i : i + 10]!r} after the last cell", source, at + i)
    if c > cells:
        raise url_error(f"the body describes {c} cells; the grid has {cells}", source, at + i - 1)


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


def decode_4cell(body: str, cells: int, source: str = "<url>", at: int = 0) -> list[Cell]:
    """pzprjs decode4Cell: clues 0..4 with up to two following empties folded in (as
    pzprjs writes it, the folded empties of the last clue may run past the grid)."""

    def read(i: int) -> Piece | None:
        for digits, folded in (("01234", 0), ("56789", 1), ("abcde", 2)):
            if body[i] in digits:
                return digits.index(body[i]), 1 + folded, 1
        return None

    values, i, c = _decode(body, cells, read, source, at)
    folded = body[-1:] in tuple("56789abcde")
    _check_end(body, i, min(c, cells) if folded else c, cells, source, at)
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
