"""janko.at puzzle blocks: ``[begin]``, ``key value`` header lines, ``[problem]``,
``[solution]`` (and other sections such as ``[moves]``), ``[end]``.

The grid sections are returned as text with the line number they start on, so the clue
grid parser can report errors at their true place in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import InputError
from ..sources import MAX_DIGITS
from .grid import ClueGrid, parse_clue_grid

_SECTION = re.compile(r"\s*\[(\w+)\]\s*")


@dataclass
class JankoBlock:
    """The header fields and the sections of one block."""

    header: dict[str, str] = field(default_factory=dict)
    sections: dict[str, tuple[int, str]] = field(default_factory=dict)  #: name -> (line, text)


def looks_like_janko(text: str) -> bool:
    """True when the first non-blank line is ``[begin]`` or a ``[problem]`` section exists."""
    for line in text.split("\n"):
        if line.strip():
            return line.strip().lower() == "[begin]" or "[problem]" in text.lower()
    return False


def parse_janko(text: str, source: str = "<text>") -> JankoBlock:
    """Split a janko block into header and sections; ``[problem]`` is required."""
    block = JankoBlock()
    current: str | None = "header"
    start = 1
    body: list[str] = []
    ended = False

    def close() -> None:
        if current and current != "header":
            block.sections[current] = (start, "\n".join(body))

    for lineno, line in enumerate(text.split("\n"), 1):
        m = _SECTION.fullmatch(line)
        if m:
            name = m.group(1).lower()
            close()
            body = []
            if name == "begin":
                current = "header"
            elif name == "end":
                current = None
                ended = True
            else:
                if name in block.sections:
                    raise InputError(f"section [{name}] appears twice", source, lineno, 1)
                current, start = name, lineno + 1
            continue
        if current == "header":
            if line.strip():
                key, _, value = line.strip().partition(" ")
                key = key.rstrip("=").strip().lower()
                block.header[key] = value.strip().lstrip("=").strip()
        elif current is not None:
            body.append(line)
        elif line.strip() and ended:
            raise InputError("text after [end]", source, lineno, 1)
    close()
    if "problem" not in block.sections:
        raise InputError("janko block without a [problem] section", source)
    return block


def declared_size(block: JankoBlock) -> tuple[int, int] | None:
    """``(rows, cols)`` from the header's ``rows``/``cols`` or ``size`` fields, if given."""
    fields = block.header
    if "rows" in fields and "cols" in fields:
        rows, cols = _small(fields["rows"]), _small(fields["cols"])
    elif "size" in fields:
        rows = cols = _small(fields["size"])
    else:
        return None
    return None if rows is None or cols is None else (rows, cols)


def _small(text: str) -> int | None:
    """A header number of at most :data:`MAX_DIGITS` digits, else ``None`` (the grid's
    own size is then what counts)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > MAX_DIGITS:
        return None
    return int(digits)


def problem_grid(text: str, source: str = "<text>", max_clue: int | None = None) -> ClueGrid:
    """The clue grid of a block's ``[problem]`` section, errors at their lines in the file.

    A ``ROWS COLS`` line heading the section is skipped only when it repeats the size the
    block declares; otherwise every line is a row (a first row "1 2" is not a header).
    """
    block = parse_janko(text, source)
    first, body = block.sections["problem"]
    size = declared_size(block)
    rows = [line.strip() for line in body.split("\n") if line.strip()]
    headed = (
        size is not None
        and len(rows) == size[0] + 1
        and rows[0].split()
        == [
            str(size[0]),
            str(size[1]),
        ]
    )
    grid = parse_clue_grid(body, source, first_line=first, max_clue=max_clue, header=headed)
    if size is not None and (grid.rows, grid.cols) != size:
        raise InputError(
            f"[problem] is {grid.rows}x{grid.cols} but the block declares {size[0]}x{size[1]}",
            source,
            first,
        )
    return grid
